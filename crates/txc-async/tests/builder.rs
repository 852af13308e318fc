//! Builder validation: every bad setting is an `InvalidConfig` from `build()`, before any I/O.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::Duration;

use txc_async::{
    Client, CollateralMarketOrder, Credentials, Delivery, Error, RetryPolicy, Side,
    TransportErrorKind,
};

fn credentials() -> Credentials {
    Credentials::new("key", "top-secret-value").unwrap()
}

fn invalid_config(result: Result<Client, Error>) -> &'static str {
    match result {
        Err(Error::InvalidConfig { what, .. }) => what,
        other => panic!("expected InvalidConfig, got {other:?}"),
    }
}

#[test]
fn defaults_build_without_io() {
    let client = Client::builder(credentials()).build().unwrap();
    assert_eq!(client.base_url(), "https://whitebit.com");
}

#[test]
fn bad_base_urls_are_invalid_config() {
    for url in [
        "",
        "whitebit.com",
        "ftp://whitebit.com",
        "https://whitebit.com/api?x=1",
        "https://",
        "http://exa mple.com",
    ] {
        let what = invalid_config(Client::builder(credentials()).base_url(url).build());
        assert!(!what.is_empty(), "{url}");
    }
}

#[test]
fn zero_limits_and_bad_user_agent_are_invalid_config() {
    assert_eq!(
        invalid_config(
            Client::builder(credentials())
                .timeout(Duration::ZERO)
                .build()
        ),
        "timeout"
    );
    assert_eq!(
        invalid_config(
            Client::builder(credentials())
                .connect_timeout(Duration::ZERO)
                .build()
        ),
        "connect_timeout"
    );
    assert_eq!(
        invalid_config(Client::builder(credentials()).max_response_bytes(0).build()),
        "max_response_bytes"
    );
    assert_eq!(
        invalid_config(
            Client::builder(credentials())
                .user_agent("bad\nagent")
                .build()
        ),
        "user_agent"
    );
}

#[test]
fn own_http_client_cannot_be_combined_with_builder_settings() {
    for builder in [
        Client::builder(credentials()).timeout(Duration::from_secs(1)),
        Client::builder(credentials()).connect_timeout(Duration::from_secs(1)),
        Client::builder(credentials()).user_agent("mine"),
    ] {
        let result = builder.http(reqwest::Client::new()).build();
        assert_eq!(invalid_config(result), "http");
    }
    let client = Client::builder(credentials())
        .http(reqwest::Client::new())
        .build()
        .unwrap();
    assert_eq!(client.base_url(), "https://whitebit.com");
}

#[tokio::test]
async fn a_refused_connection_is_not_sent() {
    // A port nobody listens on: bind, read the port, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let client = Client::builder(credentials())
        .base_url(format!("http://127.0.0.1:{port}"))
        .retry_policy(RetryPolicy::disabled())
        .build()
        .unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();
    let error = client.collateral_market_order(&order).await.unwrap_err();
    let Error::Transport(transport) = &error else {
        panic!("expected a transport error, got {error:?}");
    };
    assert_eq!(transport.kind, TransportErrorKind::Connect);
    assert_eq!(transport.delivery, Delivery::NotSent);
    assert!(!error.outcome_unknown());
    assert!(error.is_retryable());
}

//! The clients themselves, one table run over both transports: building (every bad setting is
//! refused before any I/O), dry runs (signed, redacted, nonces shared), error statuses
//! reaching the decoder with the default and with an own HTTP client, the size cap, and a
//! refused connection.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::time::Duration;

use common::*;
use txc_core::Error;
use txc_core::decode::{ApiErrorClass, Delivery, TransportErrorKind};
use txc_core::pacing::RetryPolicy;
use txc_sandbox::{Sandbox, demo};
use txc_sign::nonce::NonceSequence;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, Side};

const SECRET: &str = "clients-test-secret-0123456789";

fn setup() -> ClientConfig {
    config::key("clients-key", SECRET)
}

fn invalid_config(result: Result<Box<dyn Api>, Error>) -> &'static str {
    match result {
        Err(Error::InvalidConfig { what, .. }) => what,
        Err(other) => panic!("expected InvalidConfig, got {other:?}"),
        Ok(client) => panic!("expected InvalidConfig, built {}", client.debug()),
    }
}

fn defaults_build_without_io(driver: &dyn Driver) {
    let client = driver.build("https://whitebit.com", setup()).unwrap();
    assert_eq!(client.base_url(), "https://whitebit.com");
}

fn bad_settings_are_invalid_config(driver: &dyn Driver) {
    for url in [
        "",
        "whitebit.com",
        "ftp://whitebit.com",
        "https://whitebit.com/api?x=1",
        "https://",
        "http://exa mple.com",
    ] {
        let what = invalid_config(driver.build(url, setup()));
        assert!(!what.is_empty(), "{url}");
    }
    let url = "http://127.0.0.1:9";
    for (bad, http, what) in [
        (setup().timeout(Duration::ZERO), Http::Made, "timeout"),
        (
            setup().connect_timeout(Duration::ZERO),
            Http::Made,
            "connect_timeout",
        ),
        (
            setup().max_response_bytes(0),
            Http::Made,
            "max_response_bytes",
        ),
        (setup().user_agent("bad\nagent"), Http::Made, "user_agent"),
        // An own HTTP client keeps its own timeouts and User-Agent.
        (setup().timeout(Duration::from_secs(1)), Http::Own, "http"),
        (
            setup().connect_timeout(Duration::from_secs(1)),
            Http::Own,
            "http",
        ),
        (setup().user_agent("mine"), Http::Own, "http"),
    ] {
        assert_eq!(invalid_config(driver.build_with(url, bad, http)), what);
    }
    assert!(driver.build_with(url, setup(), Http::Own).is_ok());
}

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Sell, "0.5")
        .client_order_id("dry-run-1")
        .build()
        .unwrap()
}

fn a_dry_run_is_signed_and_redacted(driver: &dyn Driver) {
    let signed = driver
        .client("http://127.0.0.1:9", setup())
        .prepare(&order())
        .unwrap();
    assert_eq!(
        signed.uri().to_string(),
        "http://127.0.0.1:9/api/v4/order/collateral/market"
    );
    let body = String::from_utf8(signed.body().to_vec()).unwrap();
    assert!(body.contains(r#""nonceWindow":true"#), "{body}");
    assert!(body.contains(r#""clientOrderId":"dry-run-1""#), "{body}");
    assert_eq!(signed.signature().len(), 128);
    let debug = format!("{signed:?}");
    assert!(debug.contains("<redacted>"), "{debug}");
    assert!(!debug.contains(signed.payload()), "{debug}");
    assert!(!debug.contains(signed.signature()), "{debug}");
    assert!(!debug.contains(SECRET), "{debug}");
    // Without the nonce window the body says so.
    let strict = driver.client("http://127.0.0.1:9", setup().nonce_window(false));
    let body = String::from_utf8(strict.prepare(&order()).unwrap().body().to_vec()).unwrap();
    assert!(body.contains(r#""nonceWindow":false"#), "{body}");
}

fn clients_of_one_key_share_its_nonces(driver: &dyn Driver) {
    // Two clients built separately for the same key, and a clone: one sequence.
    let key = format!("clients-shared-{}", driver.name());
    let key: &'static str = Box::leak(key.into_boxed_str());
    let one = driver.client("http://127.0.0.1:9", config::key(key, SECRET));
    let two = driver.client("http://127.0.0.1:9", config::key(key, SECRET));
    let a = one.prepare(&order()).unwrap().nonce();
    let b = two.prepare(&order()).unwrap().nonce();
    let c = one.prepare(&order()).unwrap().nonce();
    assert!(a < b && b < c, "{a} {b} {c}");
    assert_eq!(NonceSequence::for_key(key).last(), c.get());
    // An explicit sequence replaces the key's.
    let own = NonceSequence::new();
    let three = driver.client(
        "http://127.0.0.1:9",
        config::key(key, SECRET).nonce_sequence(own.clone()),
    );
    let d = three.prepare(&order()).unwrap().nonce();
    assert_eq!(own.last(), d.get());
    assert_eq!(NonceSequence::for_key(key).last(), c.get());
}

fn debug_hides_the_secret(driver: &dyn Driver) {
    let builder_debug = driver.builder_debug("http://127.0.0.1:9", setup());
    let client_debug = driver.client("http://127.0.0.1:9", setup()).debug();
    for debug in [builder_debug, client_debug] {
        assert!(!debug.contains(SECRET), "{debug}");
        assert!(debug.contains("clients-key"), "{debug}");
    }
}

fn error_statuses_reach_the_decoder(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    // The default HTTP client: a 403 with the exchange's body.
    let regular = driver.client(
        sandbox.base_url(),
        config::key(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET),
    );
    let (_, api) = api_error(regular.plans(&SmartPlansQuery::new()));
    assert_eq!((api.status, api.class), (403, ApiErrorClass::Permission));
    // An own HTTP client: a 422 with field errors.
    let partner = driver
        .build_with(sandbox.base_url(), config::partner(), Http::Own)
        .unwrap();
    let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001")
        .build()
        .unwrap();
    let (_, api) = api_error(partner.market(&too_small));
    assert_eq!(
        (api.status, api.code, api.class),
        (422, Some(32), ApiErrorClass::Amount)
    );
    assert!(!api.field_errors("amount").is_empty());
    assert!(sandbox.orders().is_empty());
}

fn an_announced_length_over_the_cap_is_refused(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner().max_response_bytes(16));
    let (error, kind, delivery) = transport(client.market(&market("0.001")));
    assert_eq!(
        (kind, delivery),
        (TransportErrorKind::ResponseTooLarge, Delivery::MaybeSent)
    );
    assert!(error.outcome_unknown());
    assert_eq!(sandbox.orders().len(), 1, "placed once, not resent");
}

fn a_refused_connection_is_not_sent(driver: &dyn Driver) {
    // A port nobody listens on: bind, read the port, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let client = driver.client(
        &format!("http://127.0.0.1:{port}"),
        setup().retry_policy(RetryPolicy::disabled()),
    );
    let (error, kind, delivery) = transport(client.market(&order()));
    assert_eq!(
        (kind, delivery),
        (TransportErrorKind::Connect, Delivery::NotSent)
    );
    assert!(!error.outcome_unknown());
    assert!(error.is_retryable());
}

scenarios![
    defaults_build_without_io,
    bad_settings_are_invalid_config,
    a_dry_run_is_signed_and_redacted,
    clients_of_one_key_share_its_nonces,
    debug_hides_the_secret,
    error_statuses_reach_the_decoder,
    an_announced_length_over_the_cap_is_refused,
    a_refused_connection_is_not_sent,
];

/// A blocking and an async client built separately for one key share the key's sequence.
#[test]
fn a_blocking_and_an_async_client_of_one_key_share_its_nonces() {
    let (key, url) = ("clients-blocking-and-async", "http://127.0.0.1:9");
    let blocking = Blocking.client(url, config::key(key, SECRET));
    let asynchronous = Async::new().client(url, config::key(key, SECRET));
    let mut nonces = Vec::new();
    for _ in 0..3 {
        nonces.push(blocking.prepare(&order()).unwrap().nonce());
        nonces.push(asynchronous.prepare(&order()).unwrap().nonce());
    }
    assert!(nonces.windows(2).all(|w| w[0] < w[1]), "{nonces:?}");
}

//! Snapshots of the signed request of each operation, with a fixed key, secret and nonce.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::fmt::Write as _;

use txc_sign::nonce::Nonce;
use txc_sign::nonce::NonceMode;
use txc_sign::{Credentials, SignedRequest, Signer};
use txc_types::endpoint::Endpoint;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, PositionSide, Side, Stp,
};

fn signer() -> Signer {
    Signer::new(
        Credentials::new("demo-key", "test-secret").unwrap(),
        "https://whitebit.com/",
    )
    .unwrap()
}

/// `endpoint` signed by [`signer`] with `nonce` in `mode`.
fn sign<E: Endpoint>(endpoint: &E, nonce: u64, mode: NonceMode) -> SignedRequest {
    signer().sign(endpoint, Nonce(nonce), mode).unwrap()
}

fn render(signed: &SignedRequest) -> String {
    let http = signed.clone().into_http();
    assert_eq!(http.body(), signed.body());
    let mut out = format!("{} {}\n", http.method(), http.uri());
    for (name, value) in http.headers() {
        let sensitive = if value.is_sensitive() {
            " (sensitive)"
        } else {
            ""
        };
        writeln!(out, "{name}: {}{sensitive}", value.to_str().unwrap()).unwrap();
    }
    out.push('\n');
    out.push_str(std::str::from_utf8(signed.body()).unwrap());
    out
}

#[test]
fn collateral_market_order() {
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("qs-1")
        .stop_loss("50000")
        .take_profit("80000")
        .stp(Stp::CancelOld)
        .build()
        .unwrap();
    let signed = sign(&order, 1_700_000_000_000, NonceMode::Window);
    insta::assert_snapshot!(render(&signed));
}

#[test]
fn collateral_trigger_market_order() {
    let order = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "40000")
        .client_order_id("order-7")
        .position_side(PositionSide::Short)
        .reduce_only(true)
        .build()
        .unwrap();
    let signed = sign(&order, 1_700_000_000_001, NonceMode::Window);
    insta::assert_snapshot!(render(&signed));
}

#[test]
fn smart_plans_with_and_without_ticker() {
    let all = sign(&SmartPlansQuery::new(), 42, NonceMode::Strict);
    let usdt = SmartPlansQuery::builder().ticker("USDT").build().unwrap();
    let one = sign(&usdt, 43, NonceMode::Strict);
    insta::assert_snapshot!(format!("{}\n\n---\n\n{}", render(&all), render(&one)));
}

#[test]
fn debug_redacts_payload_and_signature() {
    let signed = sign(&SmartPlansQuery::new(), 7, NonceMode::Window);
    let debug = format!("{signed:?}");
    assert!(!debug.contains(signed.signature()));
    assert!(!debug.contains(signed.payload()));
    assert!(!debug.contains("test-secret"));
    insta::assert_snapshot!(debug);
}

#[test]
fn bad_base_urls_are_configuration_errors() {
    let creds = Credentials::new("k", "s").unwrap();
    for bad in [
        "",
        "whitebit.com",
        "ftp://whitebit.com",
        "https://whitebit.com/api",
        "https://whitebit.com?x=1",
        "http://",
    ] {
        let err = Signer::new(creds.clone(), bad).unwrap_err();
        assert_eq!(err.what, "base_url", "{bad:?}: {err}");
    }
    assert_eq!(
        Signer::new(creds, "http://127.0.0.1:8080/")
            .unwrap()
            .base_url(),
        "http://127.0.0.1:8080"
    );
}

#[test]
fn empty_credentials_are_rejected() {
    assert!(Credentials::new("", "s").is_err());
    assert!(Credentials::new("k", "").is_err());
    assert!(Credentials::new("k y", "s").is_err());
}

#[test]
fn nonces_are_written_exactly() {
    for n in [0u64, 7, 10, 1_700_000_000_000, u64::MAX] {
        let body =
            txc_sign::stages::body_bytes(&SmartPlansQuery::new(), Nonce(n), NonceMode::Strict);
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["nonce"].as_u64(), Some(n));
    }
}

#[test]
fn every_endpoint_gets_its_own_uri_known_or_not() {
    use txc_types::endpoint::{Endpoint, EndpointKind, WireValue};
    use txc_types::orders::Order;

    /// An endpoint txc-types does not define: its URI is built per request.
    #[derive(serde::Serialize)]
    struct Other;
    impl Endpoint for Other {
        const PATH: &'static str = "/api/v4/other";
        const OPERATION: &'static str = "other";
        const KIND: EndpointKind = EndpointKind::Read;
        type Response = Order;
        fn try_for_each_field<E>(
            &self,
            mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
        ) -> Result<(), E> {
            visit("flag", WireValue::Bool(true))
        }
    }

    let signer = Signer::new(
        Credentials::new("k", "s").unwrap(),
        "http://127.0.0.1:8080/",
    )
    .unwrap();
    let other = signer.sign(&Other, Nonce(1), NonceMode::Strict).unwrap();
    assert_eq!(other.uri(), "http://127.0.0.1:8080/api/v4/other");
    assert_eq!(
        other.body(),
        br#"{"request":"/api/v4/other","nonce":1,"nonceWindow":false,"flag":true}"#
    );
    let plans = signer
        .sign(&SmartPlansQuery::new(), Nonce(2), NonceMode::Strict)
        .unwrap();
    assert_eq!(
        plans.uri(),
        "http://127.0.0.1:8080/api/v4/main-account/smart/plans"
    );
    let trigger = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "1", "2")
        .build()
        .unwrap();
    let trigger = signer.sign(&trigger, Nonce(3), NonceMode::Strict).unwrap();
    assert_eq!(
        trigger.uri(),
        "http://127.0.0.1:8080/api/v4/order/collateral/trigger-market"
    );
}

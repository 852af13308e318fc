//! Known-answer vectors, stage by stage: body bytes → payload → signature, then the whole
//! signer. The fixture is a byte-for-byte copy of the project's shared signing vectors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde::Deserialize;
use txc_sign::nonce::Nonce;
use txc_sign::nonce::NonceMode;
use txc_sign::stages::{body_bytes, payload, signature};
use txc_sign::{Credentials, Signer};
use txc_types::endpoint::Endpoint;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder, PositionSide, Side};

#[derive(Deserialize)]
struct Vectors {
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
struct Vector {
    name: String,
    api_secret: String,
    body: String,
    x_txc_payload: String,
    x_txc_signature: String,
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("fixtures/signing-vectors.json");
    serde_json::from_str::<Vectors>(text).unwrap().vectors
}

fn vector(name: &str) -> Vector {
    vectors().into_iter().find(|v| v.name == name).unwrap()
}

#[test]
fn every_vector_payload_and_signature_stage() {
    let all = vectors();
    assert_eq!(all.len(), 4);
    for v in all {
        let creds = Credentials::new("any-key", v.api_secret.as_bytes()).unwrap();
        let p = payload(v.body.as_bytes());
        assert_eq!(p, v.x_txc_payload, "payload of {}", v.name);
        assert_eq!(
            signature(&creds, &p),
            v.x_txc_signature,
            "signature of {}",
            v.name
        );
    }
}

fn check_signed<E: Endpoint>(name: &str, endpoint: &E, nonce: u64, window: bool) {
    let v = vector(name);
    let mode = if window {
        NonceMode::Window
    } else {
        NonceMode::Strict
    };
    let body = body_bytes(endpoint, Nonce(nonce), mode);
    assert_eq!(String::from_utf8(body).unwrap(), v.body, "body of {name}");
    let creds = Credentials::new("any-key", v.api_secret.as_bytes()).unwrap();
    let signed = Signer::new(creds, "https://whitebit.com")
        .unwrap()
        .sign(endpoint, Nonce(nonce), mode)
        .unwrap();
    assert_eq!(signed.body(), v.body.as_bytes());
    assert_eq!(signed.payload(), v.x_txc_payload);
    assert_eq!(signed.signature(), v.x_txc_signature);
    assert_eq!(signed.uri().path(), E::PATH);
}

/// The vector's order has no `clientOrderId`; a built order always has one (generated when
/// none is given), so the body is the vector's with the id last, signed by the same chain.
#[test]
fn collateral_market_vector_end_to_end() {
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("order-1")
        .build()
        .unwrap();
    let v = vector("collateral-market");
    let expected = format!(
        "{},\"clientOrderId\":\"order-1\"}}",
        v.body.strip_suffix('}').unwrap()
    );
    let nonce = Nonce(1_700_000_000_000);
    let body = body_bytes(&order, nonce, NonceMode::Window);
    assert_eq!(String::from_utf8(body).unwrap(), expected);
    let creds = Credentials::new("any-key", v.api_secret.as_bytes()).unwrap();
    let signed = Signer::new(creds.clone(), "https://whitebit.com")
        .unwrap()
        .sign(&order, nonce, NonceMode::Window)
        .unwrap();
    assert_eq!(signed.body(), expected.as_bytes());
    assert_eq!(signed.payload(), payload(expected.as_bytes()));
    assert_eq!(
        signed.signature(),
        signature(&creds, &payload(expected.as_bytes()))
    );
}

#[test]
fn collateral_trigger_market_vector_end_to_end() {
    let order = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "40000")
        .client_order_id("order-42")
        .stop_loss("50000")
        .take_profit("30000")
        .position_side(PositionSide::Long)
        .build()
        .unwrap();
    check_signed("collateral-trigger-market", &order, 1_700_000_000_001, true);
}

#[test]
fn smart_plans_vector_end_to_end() {
    let query = SmartPlansQuery::builder().ticker("USDT").build().unwrap();
    check_signed("smart-plans", &query, 1_700_000_000_002, false);
}

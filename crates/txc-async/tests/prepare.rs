//! `prepare`: a signed request that is not sent, whose `Debug` hides the payload and signature;
//! clones share one nonce sequence; nothing prints the secret.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_async::{Client, CollateralMarketOrder, Credentials, NonceSequence, Side};

const SECRET: &str = "prepare-test-secret-0123456789";

fn client() -> Client {
    Client::builder(Credentials::new("prepare-key", SECRET).unwrap())
        .base_url("http://127.0.0.1:9")
        .build()
        .unwrap()
}

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Sell, "0.5")
        .client_order_id("dry-run-1")
        .build()
        .unwrap()
}

#[test]
fn dry_run_is_signed_and_redacted() {
    let signed = client().prepare(&order()).unwrap();
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
}

#[test]
fn clones_share_one_nonce_sequence() {
    let client = client();
    let clone = client.clone();
    let a = client.prepare(&order()).unwrap().nonce();
    let b = clone.prepare(&order()).unwrap().nonce();
    let c = client.prepare(&order()).unwrap().nonce();
    assert!(a < b && b < c, "{a} {b} {c}");
}

#[test]
fn a_shared_sequence_spans_clients() {
    let nonces = NonceSequence::new();
    let make = || {
        Client::builder(Credentials::new("prepare-key", SECRET).unwrap())
            .nonce_sequence(nonces.clone())
            .build()
            .unwrap()
    };
    let (one, two) = (make(), make());
    let a = one.prepare(&order()).unwrap().nonce();
    let b = two.prepare(&order()).unwrap().nonce();
    assert!(b > a);
    assert_eq!(nonces.last(), b.get());
}

#[test]
fn nonce_window_off_is_in_the_body() {
    let client = Client::builder(Credentials::new("prepare-key", SECRET).unwrap())
        .nonce_window(false)
        .build()
        .unwrap();
    let signed = client.prepare(&order()).unwrap();
    let body = String::from_utf8(signed.body().to_vec()).unwrap();
    assert!(body.contains(r#""nonceWindow":false"#), "{body}");
}

#[test]
fn client_and_builder_debug_hide_the_secret() {
    let builder = Client::builder(Credentials::new("prepare-key", SECRET).unwrap());
    let builder_debug = format!("{builder:?}");
    let client_debug = format!("{:?}", builder.build().unwrap());
    for debug in [builder_debug, client_debug] {
        assert!(!debug.contains(SECRET), "{debug}");
        assert!(debug.contains("prepare-key"), "{debug}");
    }
}

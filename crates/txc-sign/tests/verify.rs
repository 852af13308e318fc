//! The verifier answers each bad request with the exchange's own rejection.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use base64::Engine as _;
use http::{HeaderMap, HeaderValue};
use txc_sign::nonce::Nonce;
use txc_sign::nonce::NonceMode;
use txc_sign::server::{AuthRejection, KeyStatus, NonceGuard, verify};
use txc_sign::{Credentials, Signer};
use txc_types::endpoint::Endpoint;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, Side};

const PATH: &str = CollateralMarketOrder::PATH;

fn creds() -> Credentials {
    Credentials::new("key", "secret").unwrap()
}

fn lookup(key: &str) -> Option<KeyStatus> {
    match key {
        "key" => Some(KeyStatus::Enabled(creds())),
        "off" => Some(KeyStatus::Disabled),
        _ => None,
    }
}

/// Signs an arbitrary body by hand, as a non-txc client would.
fn hand_signed(key: &str, body: &str) -> HeaderMap {
    let payload = txc_sign::stages::payload(body.as_bytes());
    let signature = txc_sign::stages::signature(&creds(), &payload);
    let mut h = HeaderMap::new();
    h.insert("x-txc-apikey", HeaderValue::from_str(key).unwrap());
    h.insert("x-txc-payload", HeaderValue::from_str(&payload).unwrap());
    h.insert(
        "x-txc-signature",
        HeaderValue::from_str(&signature).unwrap(),
    );
    h
}

fn check(body: &str) -> Result<txc_sign::server::VerifiedRequest, AuthRejection> {
    verify(PATH, &hand_signed("key", body), body.as_bytes(), lookup)
}

#[test]
fn accepts_txc_signed_requests() {
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .build()
        .unwrap();
    let signed = Signer::new(creds(), "http://x")
        .unwrap()
        .sign(&order, Nonce(5), NonceMode::Window)
        .unwrap();
    let v = verify(PATH, &signed.headers(), signed.body(), lookup).unwrap();
    assert_eq!(
        (v.api_key.as_str(), v.nonce, v.nonce_window),
        ("key", 5, true)
    );
}

#[test]
fn accepts_string_nonces_reordered_keys_and_missing_window() {
    let v = check(r#"{"market":"BTC_USDT","nonce":"1700000000000","request":"/api/v4/order/collateral/market"}"#).unwrap();
    assert_eq!((v.nonce, v.nonce_window), (1_700_000_000_000, false));
}

#[test]
fn rejections_use_the_exchange_messages() {
    let good = r#"{"request":"/api/v4/order/collateral/market","nonce":1}"#;
    let mut cases: Vec<(&str, Result<_, AuthRejection>)> = vec![
        ("no request", check(r#"{"nonce":1}"#)),
        (
            "wrong request",
            check(r#"{"request":"/api/v4/other","nonce":1}"#),
        ),
        (
            "no nonce",
            check(r#"{"request":"/api/v4/order/collateral/market"}"#),
        ),
        (
            "float nonce",
            check(r#"{"request":"/api/v4/order/collateral/market","nonce":1.5}"#),
        ),
        (
            "negative nonce",
            check(r#"{"request":"/api/v4/order/collateral/market","nonce":-1}"#),
        ),
        (
            "letters nonce",
            check(r#"{"request":"/api/v4/order/collateral/market","nonce":"12a"}"#),
        ),
        (
            "string window",
            check(
                r#"{"request":"/api/v4/order/collateral/market","nonce":1,"nonceWindow":"true"}"#,
            ),
        ),
        ("not json", check("not json")),
        ("json array", check("[1]")),
    ];
    let mut headers = hand_signed("key", good);
    headers.remove("x-txc-payload");
    cases.push((
        "no payload",
        verify(PATH, &headers, good.as_bytes(), lookup),
    ));
    let mut headers = hand_signed("key", good);
    headers.remove("x-txc-apikey");
    cases.push(("no key", verify(PATH, &headers, good.as_bytes(), lookup)));
    cases.push((
        "unknown key",
        verify(PATH, &hand_signed("nobody", good), good.as_bytes(), lookup),
    ));
    cases.push((
        "disabled key",
        verify(PATH, &hand_signed("off", good), good.as_bytes(), lookup),
    ));
    let mut headers = hand_signed("key", good);
    headers.insert("x-txc-signature", HeaderValue::from_static("00"));
    cases.push((
        "bad signature",
        verify(PATH, &headers, good.as_bytes(), lookup),
    ));
    let other = r#"{"request":"/api/v4/order/collateral/market","nonce":2}"#;
    cases.push((
        "payload is not the body",
        verify(PATH, &hand_signed("key", good), other.as_bytes(), lookup),
    ));
    let mut headers = hand_signed("key", good);
    let bad_b64 = txc_sign::stages::signature(&creds(), "%%%");
    headers.insert("x-txc-payload", HeaderValue::from_static("%%%"));
    headers.insert("x-txc-signature", HeaderValue::from_str(&bad_b64).unwrap());
    cases.push((
        "payload not base64",
        verify(PATH, &headers, good.as_bytes(), lookup),
    ));

    let rendered: Vec<String> = cases
        .into_iter()
        .map(|(name, r)| {
            let rejection = r.expect_err(name);
            format!("{name}: {rejection} {}", rejection.body())
        })
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
}

#[test]
fn too_many_requests_body_is_byte_exact() {
    assert_eq!(
        AuthRejection::TOO_MANY_REQUESTS.body(),
        r#"{"code":0,"errors":{},"message":"Too many requests."}"#
    );
    let permission: serde_json::Value =
        serde_json::from_str(&AuthRejection::PERMISSION_DENIED.body()).unwrap();
    assert_eq!(permission["code"], 0);
    assert_eq!(AuthRejection::PERMISSION_DENIED.status, 403);
}

#[test]
fn nonce_guard_rules() {
    let mut g = NonceGuard::default();
    // Strict mode: strictly greater than the last, per key.
    assert!(g.check("a", 5, false, 0).is_ok());
    assert_eq!(
        g.check("a", 5, false, 0),
        Err(AuthRejection::TOO_MANY_REQUESTS)
    );
    assert_eq!(
        g.check("a", 4, false, 0),
        Err(AuthRejection::TOO_MANY_REQUESTS)
    );
    assert!(g.check("b", 1, false, 0).is_ok(), "keys are independent");
    // Window mode: within ±5 s and unique.
    let now = 1_700_000_000_000;
    assert!(g.check("a", now - 4_999, true, now).is_ok());
    assert!(g.check("a", now + 5_000, true, now).is_ok());
    assert_eq!(
        g.check("a", now - 5_001, true, now),
        Err(AuthRejection::NONCE_OUTSIDE_WINDOW)
    );
    assert_eq!(
        g.check("a", now + 5_001, true, now),
        Err(AuthRejection::NONCE_OUTSIDE_WINDOW)
    );
    assert_eq!(
        g.check("a", now + 5_000, true, now),
        Err(AuthRejection::TOO_MANY_REQUESTS)
    );
    // Window nonces raise the strict floor too.
    assert_eq!(
        g.check("a", now, false, now),
        Err(AuthRejection::TOO_MANY_REQUESTS)
    );
    assert!(g.check("a", now + 5_001, false, now).is_ok());
}

#[test]
fn plans_path_must_match() {
    let body = r#"{"request":"/api/v4/main-account/smart/plans","nonce":1}"#;
    assert!(
        verify(
            SmartPlansQuery::PATH,
            &hand_signed("key", body),
            body.as_bytes(),
            lookup
        )
        .is_ok()
    );
    assert_eq!(
        verify(PATH, &hand_signed("key", body), body.as_bytes(), lookup),
        Err(AuthRejection::UNAUTHORIZED)
    );
    let _ = base64::engine::general_purpose::STANDARD.encode(body);
}

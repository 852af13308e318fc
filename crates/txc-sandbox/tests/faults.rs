//! Fault injection over real HTTP: each kind, whether the request was processed, counting
//! down, route precedence and clearing. No timing assertions.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::*;
use txc_sandbox::{Fault, Route, Sandbox};
use txc_sign::{DecodeErrorKind, Error, decode};
use txc_types::{CollateralMarketOrder, Side, SmartPlansQuery};

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap()
}

fn signed_request(sandbox: &Sandbox) -> http::Request<Vec<u8>> {
    let signer = txc_sign::Signer::new(
        txc_sign::Credentials::new(PARTNER.0, PARTNER.1).unwrap(),
        sandbox.base_url(),
    )
    .unwrap();
    signer
        .sign(&order(), txc_sign::Nonce(next_nonce()), true)
        .unwrap()
        .into_http()
        .unwrap()
}

#[test]
fn delay_processes_then_answers() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(
        Route::CollateralMarket,
        Fault::Delay(Duration::from_millis(50)),
        Some(1),
    );
    let reply = send(&sandbox, PARTNER, &order(), true);
    assert_eq!(reply.status, 200);
    assert!(decode::<CollateralMarketOrder>(reply.status, &reply.body).is_ok());
    assert_eq!(sandbox.orders().len(), 1);
    assert_eq!(sandbox.stats().faults_injected, 1);
    // Used up.
    assert_eq!(send(&sandbox, PARTNER, &order(), true).status, 200);
    assert_eq!(sandbox.stats().faults_injected, 1);
}

#[test]
fn unavailable_is_an_empty_503_and_not_processed() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, None);
    for _ in 0..2 {
        let reply = send(&sandbox, PARTNER, &order(), true);
        assert_eq!(reply.status, 503);
        assert!(reply.body.is_empty());
        let error = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap_err();
        assert!(error.outcome_unknown());
        assert!(matches!(&error, Error::Decode(d) if d.kind == DecodeErrorKind::Empty));
    }
    assert!(sandbox.orders().is_empty());
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));
    sandbox.clear_faults();
    assert_eq!(send(&sandbox, PARTNER, &order(), true).status, 200);
    let stats = sandbox.stats();
    assert_eq!(
        (stats.requests, stats.faults_injected, stats.accepted_orders),
        (3, 2, 1)
    );
}

#[test]
fn html_bad_gateway_is_not_processed() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::HtmlBadGateway, Some(1));
    let reply = send(&sandbox, PARTNER, &order(), true);
    assert_eq!(reply.status, 502);
    assert_eq!(reply.content_type.as_deref(), Some("text/html"));
    assert!(reply.text().contains("502 Bad Gateway"));
    let error = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap_err();
    assert!(matches!(&error, Error::Decode(d) if d.kind == DecodeErrorKind::Html));
    assert!(sandbox.orders().is_empty());
}

#[test]
fn truncated_body_is_processed() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::TruncatedBody, Some(1));
    let reply = send(&sandbox, PARTNER, &order(), true);
    assert_eq!(reply.status, 200);
    assert!(serde_json::from_slice::<serde_json::Value>(&reply.body).is_err());
    assert!(reply.body.starts_with(b"{\"orderId\":"));
    let error = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap_err();
    assert!(
        error.outcome_unknown(),
        "the order may have been placed: it was"
    );
    assert_eq!(sandbox.orders().len(), 1);
}

#[test]
fn close_mid_response_is_processed() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::CloseMidResponse, Some(1));
    let mut response = agent().run(signed_request(&sandbox)).unwrap();
    assert_eq!(response.status(), 200);
    let announced: usize = response.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(announced > 100);
    assert!(
        response.body_mut().read_to_vec().is_err(),
        "the body breaks off"
    );
    assert_eq!(sandbox.orders().len(), 1);
    // The server is fine afterwards.
    assert_eq!(send(&sandbox, PARTNER, &order(), true).status, 200);
}

#[test]
fn oversized_body_is_processed() {
    let sandbox = Sandbox::start().unwrap();
    let size = 2 << 20;
    sandbox.inject_fault(Route::CollateralMarket, Fault::OversizedBody(size), Some(2));
    let reply = send(&sandbox, PARTNER, &order(), true);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body.len(), size);
    // A client with a 1 MiB cap stops reading.
    let mut response = agent().run(signed_request(&sandbox)).unwrap();
    assert!(
        response
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .read_to_vec()
            .is_err()
    );
    assert_eq!(sandbox.orders().len(), 2);
}

#[test]
fn routes_and_precedence() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::All, Fault::Unavailable, None);
    sandbox.inject_fault(Route::SmartPlans, Fault::HtmlBadGateway, Some(1));
    assert_eq!(
        send(&sandbox, PARTNER, &SmartPlansQuery::new(), true).status,
        502
    );
    assert_eq!(
        send(&sandbox, PARTNER, &SmartPlansQuery::new(), true).status,
        503
    );
    let trigger =
        txc_types::CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.001", "70000")
            .build()
            .unwrap();
    assert_eq!(send(&sandbox, PARTNER, &trigger, true).status, 503);
    // Faults concern the exchange routes only.
    assert_eq!(get(&sandbox, "/sandbox/v1/orders").status, 200);
    assert_eq!(get(&sandbox, "/api/v4/unknown").status, 404);
    // Replacing a route's fault, and removing it with times = 0.
    sandbox.inject_fault(Route::All, Fault::TruncatedBody, None);
    assert_eq!(
        send(&sandbox, PARTNER, &SmartPlansQuery::new(), true).status,
        200
    );
    sandbox.inject_fault(Route::All, Fault::Unavailable, Some(0));
    let reply = send(&sandbox, PARTNER, &SmartPlansQuery::new(), true);
    assert!(decode::<SmartPlansQuery>(reply.status, &reply.body).is_ok());
    // Rejections are faulted too: the answer is changed, whatever it is.
    sandbox.inject_fault(Route::SmartPlans, Fault::TruncatedBody, Some(1));
    let reply = send(&sandbox, REGULAR, &SmartPlansQuery::new(), true);
    assert_eq!(reply.status, 200);
    assert!(reply.text().starts_with("{\"code\":0,"));
    assert_eq!(sandbox.stats().rejections_by_code[&0], 1);
}

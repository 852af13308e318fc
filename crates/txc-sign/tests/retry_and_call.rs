//! Retry decisions and the transport-independent call loop.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::Duration;

use txc_sign::{
    ClientCore, Credentials, Delivery, Error, Retry, RetryPolicy, Signer, Step, TransportError,
    TransportErrorKind, decode,
};
use txc_types::{CollateralMarketOrder, EndpointKind, Side, SmartPlansQuery};

fn transport(kind: TransportErrorKind, delivery: Delivery) -> Error {
    Error::Transport(TransportError::new(kind, delivery, None))
}

fn api(status: u16, body: &str) -> Error {
    decode::<SmartPlansQuery>(status, body.as_bytes()).unwrap_err()
}

fn too_many() -> Error {
    api(
        429,
        r#"{"code":0,"errors":{},"message":"Too many requests."}"#,
    )
}

#[test]
fn decision_table() {
    let p = RetryPolicy::default();
    let cases: Vec<(&str, Error, bool, bool)> = vec![
        // (name, error, order retried?, read retried?)
        ("429", too_many(), true, true),
        (
            "connect refused",
            transport(TransportErrorKind::Connect, Delivery::NotSent),
            true,
            true,
        ),
        (
            "timeout after send",
            transport(TransportErrorKind::Timeout, Delivery::MaybeSent),
            false,
            true,
        ),
        (
            "reset mid-body",
            transport(TransportErrorKind::Io, Delivery::MaybeSent),
            false,
            true,
        ),
        ("empty 503", api(503, ""), false, true),
        ("html 502", api(502, "<html></html>"), false, true),
        (
            "503 envelope",
            api(503, r#"{"status":503,"errors":{"message":[""]}}"#),
            false,
            true,
        ),
        (
            "validation",
            api(
                422,
                r#"{"code":32,"message":"Validation failed","errors":{}}"#,
            ),
            false,
            false,
        ),
        (
            "permission",
            api(403, r#"{"code":0,"message":"You don't have permission"}"#),
            false,
            false,
        ),
        (
            "unauthorized",
            api(401, r#"{"code":10,"message":"Unauthorized request."}"#),
            false,
            false,
        ),
        ("truncated 200", api(200, r#"{"orderId":1"#), false, false),
    ];
    for (name, err, order, read) in cases {
        let o = p.decide(EndpointKind::Order, 1, &err, 0.5);
        let r = p.decide(EndpointKind::Read, 1, &err, 0.5);
        assert_eq!(matches!(o, Retry::After(_)), order, "order after {name}");
        assert_eq!(matches!(r, Retry::After(_)), read, "read after {name}");
    }
}

#[test]
fn backoff_grows_is_capped_and_jittered() {
    let p = RetryPolicy::new(10, Duration::from_millis(100), Duration::from_millis(1_000));
    let e = too_many();
    let delay = |attempt, jitter| match p.decide(EndpointKind::Read, attempt, &e, jitter) {
        Retry::After(d) => d,
        Retry::Stop => panic!("stopped"),
        _ => unreachable!(),
    };
    assert_eq!(delay(1, 0.0), Duration::from_millis(50));
    assert_eq!(delay(1, 1.0), Duration::from_millis(100));
    assert_eq!(delay(2, 1.0), Duration::from_millis(200));
    assert_eq!(delay(9, 1.0), Duration::from_millis(1_000));
    assert_eq!(delay(3, f64::NAN), Duration::from_millis(200));
    assert_eq!(p.decide(EndpointKind::Read, 10, &e, 0.5), Retry::Stop);
    assert_eq!(
        RetryPolicy::disabled().decide(EndpointKind::Read, 1, &e, 0.5),
        Retry::Stop
    );
}

fn core() -> ClientCore {
    ClientCore::new(Signer::new(Credentials::new("k", "s").unwrap(), "http://127.0.0.1:1").unwrap())
}

#[test]
fn every_attempt_is_signed_afresh() {
    let core = core();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .build()
        .unwrap();
    let mut call = core.call(&order);
    let first = call.sign(1_000).unwrap();
    let step = call.handle(
        Ok((
            429,
            br#"{"code":0,"errors":{},"message":"Too many requests."}"#,
        )),
        Duration::ZERO,
    );
    assert!(matches!(step, Step::RetryAfter(_)));
    let second = call.sign(1_000).unwrap();
    assert!(second.nonce() > first.nonce());
    assert_ne!(first.signature(), second.signature());
    assert_eq!(call.attempt(), 2);
    let step = call.handle(Ok((200, br#"{"orderId":1}"#)), Duration::ZERO);
    assert!(matches!(step, Step::Done(Ok(o)) if o.order_id == Some(1)));
}

#[test]
fn an_order_with_unknown_outcome_is_returned_not_resent() {
    let core = core();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .build()
        .unwrap();
    let mut call = core.call(&order);
    call.sign(1).unwrap();
    let step = call.handle(
        Err(transport(TransportErrorKind::Timeout, Delivery::MaybeSent)),
        Duration::ZERO,
    );
    let Step::Done(Err(e)) = step else {
        panic!("resent: {step:?}")
    };
    assert!(e.outcome_unknown());
}

#[test]
fn reads_give_up_after_max_attempts() {
    let core = core().with_retry(RetryPolicy::new(2, Duration::ZERO, Duration::ZERO));
    let q = SmartPlansQuery::new();
    let mut call = core.call(&q);
    call.sign(1).unwrap();
    assert!(matches!(
        call.handle(Ok((503, b"")), Duration::ZERO),
        Step::RetryAfter(_)
    ));
    call.sign(1).unwrap();
    assert!(matches!(
        call.handle(Ok((503, b"")), Duration::ZERO),
        Step::Done(Err(_))
    ));
}

#[test]
fn clones_share_the_nonce_sequence() {
    let a = core();
    let b = a.clone();
    let q = SmartPlansQuery::new();
    let n1 = a.prepare(&q, 10).unwrap().nonce();
    let n2 = b.prepare(&q, 10).unwrap().nonce();
    assert!(n2 > n1);
    assert!(a.nonce_window());
    assert!(!a.clone().with_nonce_window(false).nonce_window());
}

#[test]
fn window_mode_paces_when_nonces_run_ahead_of_the_clock() {
    let core = core();
    let q = SmartPlansQuery::new();
    let now = 1_700_000_000_000;
    let call = core.call(&q);
    assert_eq!(call.pace(now), None);
    // A burst: 3 001 nonces in the same millisecond puts the next one 3 001 ms ahead.
    for _ in 0..=txc_sign::MAX_NONCE_LEAD_MS {
        core.prepare(&q, now).unwrap();
    }
    assert_eq!(call.pace(now), Some(Duration::from_millis(1)));
    assert_eq!(call.pace(now + 1), None, "the clock caught up");
    // Strict mode only needs increasing nonces: never a wait.
    let strict = core.clone().with_nonce_window(false);
    assert_eq!(strict.call(&q).pace(now), None);
}

//! Retry decisions, the status-first rules for orders, and the transport-independent
//! [`Call`] machine.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::HeaderMap;
use proptest::prelude::*;
use txc_core::decode::{Response, RetryAfter, TransportError, TransportErrorKind, decode};
use txc_core::pacing::{Retry, RetryPolicy};
use txc_core::{ClientConfig, ClientCore, Error, Machine, Step};
use txc_sign::Credentials;
use txc_sign::nonce::{NonceMode, NonceSequence};
use txc_types::endpoint::EndpointKind;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, Side};
use txc_types::positions::PositionHistoryQuery;

const ORDER: &str = r#"{"orderId":4180284841,"clientOrderId":"","market":"BTC_USDT","side":"buy","type":"market","timestamp":1595792396.165973,"dealMoney":"650","dealStock":"0.01","amount":"0.01","left":"0","dealFee":"0.65","status":"FILLED"}"#;
const TOO_MANY: &str = r#"{"code":0,"errors":{},"message":"Too many requests."}"#;

fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_700_000_000)
}

fn api(status: u16, body: &str) -> Error {
    decode::<CollateralMarketOrder>(&Response::new(status, body.as_bytes())).unwrap_err()
}

fn not_sent() -> Error {
    TransportError::not_sent(TransportErrorKind::Connect, "refused").into()
}

fn maybe_sent(kind: TransportErrorKind) -> Error {
    TransportError::maybe_sent(kind, "lost").into()
}

#[test]
fn decision_table() {
    let p = RetryPolicy::default();
    let cdn_429 = "<html><body>Rate limited by the CDN</body></html>";
    let cases: Vec<(&str, Error, bool, bool)> = vec![
        // (name, error, order retried?, read retried?)
        ("429", api(429, TOO_MANY), true, true),
        ("429 from a CDN, not JSON", api(429, cdn_429), true, true),
        ("429 with an empty body", api(429, ""), true, true),
        ("connect refused", not_sent(), true, true),
        (
            "timeout after send",
            maybe_sent(TransportErrorKind::Timeout),
            false,
            true,
        ),
        (
            "reset mid-body",
            maybe_sent(TransportErrorKind::Io),
            false,
            true,
        ),
        ("empty 503", api(503, ""), false, true),
        (
            "503 saying Too many requests.",
            api(503, TOO_MANY),
            false,
            true,
        ),
        (
            "gateway 503 saying Too many requests.",
            api(
                503,
                r#"{"status":503,"errors":{"message":["Too many requests."]}}"#,
            ),
            false,
            true,
        ),
        ("html 502", api(502, "<html></html>"), false, true),
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
            "400 saying Too many requests.",
            api(400, TOO_MANY),
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
        (
            "200 saying Too many requests.",
            api(200, TOO_MANY),
            false,
            false,
        ),
        (
            "200 without an order id",
            api(200, &ORDER.replace("\"orderId\":4180284841,", "")),
            false,
            false,
        ),
    ];
    for (name, err, order, read) in cases {
        let o = p.decide(EndpointKind::Order, 1, &err, 0.5, now());
        let r = p.decide(EndpointKind::Read, 1, &err, 0.5, now());
        assert_eq!(matches!(o, Retry::After(_)), order, "order after {name}");
        assert_eq!(matches!(r, Retry::After(_)), read, "read after {name}");
        assert!(
            !(err.outcome_unknown() && err.is_retryable()),
            "{name}: both unknown and retryable"
        );
        assert_eq!(order, err.is_retryable(), "{name}");
    }
}

#[test]
fn default_backoff_is_the_exchanges_one_second_doubling_to_thirty() {
    let p = RetryPolicy::new(20, Duration::from_secs(1), Duration::from_secs(30));
    let delay = |attempt, error: &Error, jitter| match p.decide(
        EndpointKind::Read,
        attempt,
        error,
        jitter,
        now(),
    ) {
        Retry::After(d) => d,
        other => panic!("{other:?}"),
    };
    let unavailable = api(503, "");
    assert_eq!(delay(1, &unavailable, 0.0), Duration::from_secs(1));
    assert_eq!(delay(2, &unavailable, 0.0), Duration::from_secs(2));
    assert_eq!(delay(5, &unavailable, 0.0), Duration::from_secs(16));
    assert_eq!(delay(6, &unavailable, 0.0), Duration::from_secs(30));
    assert_eq!(delay(19, &unavailable, 0.0), Duration::from_secs(30));
    // Jitter lengthens by up to a quarter; a NaN jitter is none.
    assert_eq!(delay(1, &unavailable, 1.0), Duration::from_millis(1_250));
    assert_eq!(delay(2, &unavailable, f64::NAN), Duration::from_secs(2));
    // A 429 is retried quickly once (a nonce race), then backs off from 1 s.
    let limited = api(429, TOO_MANY);
    assert_eq!(delay(1, &limited, 0.0), Duration::from_millis(100));
    assert_eq!(delay(2, &limited, 0.0), Duration::from_secs(1));
    assert_eq!(delay(3, &limited, 0.0), Duration::from_secs(2));
    let patient = p.with_quick_retry(Duration::from_secs(1));
    assert_eq!(
        patient.decide(EndpointKind::Order, 1, &limited, 0.0, now()),
        Retry::After(Duration::from_secs(1))
    );
    // Attempts run out.
    assert_eq!(
        p.decide(EndpointKind::Read, 20, &unavailable, 0.5, now()),
        Retry::Stop
    );
    assert_eq!(
        RetryPolicy::disabled().decide(EndpointKind::Read, 1, &limited, 0.5, now()),
        Retry::Stop
    );
    assert_eq!(RetryPolicy::default().max_attempts(), 4);
}

fn with_retry_after(status: u16, body: &str, value: &str) -> Error {
    let mut headers = HeaderMap::new();
    headers.insert(http::header::RETRY_AFTER, value.parse().unwrap());
    decode::<CollateralMarketOrder>(&Response::new(status, body.as_bytes()).with_headers(&headers))
        .unwrap_err()
}

#[test]
fn retry_after_is_honoured_in_seconds_and_as_a_date() {
    let p = RetryPolicy::default();
    let seconds = with_retry_after(429, TOO_MANY, "7");
    assert_eq!(
        seconds.retry_after(),
        Some(RetryAfter::Delay(Duration::from_secs(7)))
    );
    assert_eq!(
        p.decide(EndpointKind::Order, 1, &seconds, 0.0, now()),
        Retry::After(Duration::from_secs(7))
    );
    let date = httpdate::fmt_http_date(now() + Duration::from_secs(20));
    let dated = with_retry_after(429, "<html>slow down</html>", &date);
    assert_eq!(
        p.decide(EndpointKind::Order, 1, &dated, 0.0, now()),
        Retry::After(Duration::from_secs(20))
    );
    // Past the longest wait honoured, the call ends; the error says when to come back.
    let long = with_retry_after(503, "", "3600");
    assert_eq!(
        p.decide(EndpointKind::Read, 1, &long, 0.0, now()),
        Retry::Stop
    );
    assert_eq!(
        long.retry_after(),
        Some(RetryAfter::Delay(Duration::from_secs(3600)))
    );
    // Retry-After never makes an order whose outcome is unknown resendable.
    assert_eq!(
        p.decide(EndpointKind::Order, 1, &long, 0.0, now()),
        Retry::Stop
    );
    assert_eq!(with_retry_after(429, TOO_MANY, "soon").retry_after(), None);
}

fn config() -> ClientConfig {
    ClientConfig::new(Credentials::new("k", "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .nonce_sequence(NonceSequence::new())
        // These tests are about answers, at one fixed time: no client-side rate limit.
        .no_rate_limit()
}

fn core() -> ClientCore {
    config().build().unwrap()
}

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .build()
        .unwrap()
}

/// Takes the request a step must be.
fn sent<T: std::fmt::Debug>(step: Step<T>) -> txc_sign::SignedRequest {
    match step {
        Step::Send(request) => request,
        other => panic!("expected a request, got {other:?}"),
    }
}

#[test]
fn every_attempt_is_signed_afresh_after_the_wait() {
    let core = core();
    let order = order();
    let mut call = core.call(&order);
    let first = sent(call.next(now()));
    call.receive(Ok(Response::new(429, TOO_MANY.as_bytes())));
    let Step::Wait(delay) = call.next(now()) else {
        panic!("no wait")
    };
    // Asked again before the wait is over: still waiting, for what is left.
    let Step::Wait(left) = call.next(now() + delay / 2) else {
        panic!("no wait")
    };
    assert_eq!(left, delay - delay / 2);
    let second = sent(call.next(now() + delay));
    assert!(second.nonce() > first.nonce());
    assert_ne!(first.signature(), second.signature());
    assert_eq!(call.attempts().len(), 2);
    assert_eq!(call.attempts()[1].signed_at, now() + delay);
    call.receive(Ok(Response::new(200, ORDER.as_bytes())));
    let Step::Done(Ok(placed)) = call.next(now() + delay) else {
        panic!("not done")
    };
    assert_eq!(placed.order_id, 4_180_284_841);
}

#[test]
fn an_order_with_unknown_outcome_is_returned_not_resent() {
    let core = core();
    let order = order();
    for response in [
        Err(TransportError::maybe_sent(TransportErrorKind::Timeout, "t")),
        Ok(Response::new(503, TOO_MANY.as_bytes())),
        Ok(Response::new(200, TOO_MANY.as_bytes())),
        Ok(Response::new(502, b"<html>")),
    ] {
        let mut call = core.call(&order);
        let _ = sent(call.next(now()));
        call.receive(response);
        let Step::Done(Err(e)) = call.next(now()) else {
            panic!("resent")
        };
        assert!(e.outcome_unknown(), "{e}");
    }
}

#[test]
fn a_request_without_a_response_is_an_unknown_outcome() {
    let core = core();
    let order = order();
    let mut call = core.call(&order);
    let _ = sent(call.next(now()));
    // The embedder forgot `receive`: the request may have been written.
    let Step::Done(Err(e)) = call.next(now()) else {
        panic!("resent")
    };
    assert!(e.outcome_unknown(), "{e}");
    // A finished call stays finished.
    assert!(matches!(call.next(now()), Step::Done(Err(_))));
}

#[test]
fn a_call_that_cannot_be_signed_ends_and_stays_ended() {
    // An end date a minute past the exchange's time breaks a rule checked when signing.
    let now_s = now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let query = PositionHistoryQuery::builder()
        .end_date(now_s + 60)
        .build()
        .unwrap();
    let core = core();
    let mut call = core.call(&query);
    let Step::Done(Err(Error::InvalidRequest(refused))) = call.next(now()) else {
        panic!("signed")
    };
    assert_eq!(refused.field(), "endDate");
    assert!(call.attempts().is_empty());
    // Asked again, even once the date is no longer ahead: finished, nothing signed.
    let later = now() + Duration::from_secs(120);
    let Step::Done(Err(Error::InvalidConfig { reason, .. })) = call.next(later) else {
        panic!("signed after the end")
    };
    assert!(reason.contains("already finished"), "{reason}");
    assert!(call.attempts().is_empty());
}

#[test]
fn reads_give_up_after_max_attempts() {
    let core = config()
        .retry_policy(RetryPolicy::new(2, Duration::ZERO, Duration::ZERO))
        .build()
        .unwrap();
    let q = SmartPlansQuery::new();
    let mut call = core.call(&q);
    let _ = sent(call.next(now()));
    call.receive(Ok(Response::new(503, b"")));
    let _ = sent(call.next(now()));
    call.receive(Ok(Response::new(503, b"")));
    let Step::Done(Err(e)) = call.next(now()) else {
        panic!("not done")
    };
    assert_eq!(e.status(), Some(503));
}

#[test]
fn clones_share_the_nonce_sequence_and_so_do_separate_cores_of_one_key() {
    let a = core();
    let b = a.clone();
    let q = SmartPlansQuery::new();
    let n1 = a.prepare(&q, now()).unwrap().nonce();
    let n2 = b.prepare(&q, now()).unwrap().nonce();
    assert!(n2 > n1);
    assert_eq!(a.nonce_mode(), NonceMode::Window);
    let strict = config().nonce_window(false).build().unwrap();
    assert_eq!(strict.nonce_mode(), NonceMode::Strict);
    // Two cores built separately for one key share the key's process-wide sequence.
    let shared = || {
        ClientConfig::new(Credentials::new("shared-key", "s").unwrap())
            .base_url("http://x")
            .build()
            .unwrap()
    };
    let (c, d) = (shared(), shared());
    assert!(c.nonces().same_as(d.nonces()));
    let n3 = c.prepare(&q, now()).unwrap().nonce();
    let n4 = d.prepare(&q, now()).unwrap().nonce();
    assert!(n4 > n3);
}

#[test]
fn window_mode_paces_when_nonces_run_ahead_of_the_clock() {
    let core = core();
    let q = SmartPlansQuery::new();
    assert_eq!(core.pace(now()), None);
    // A burst: 3 001 nonces in the same millisecond puts the next one 3 001 ms ahead.
    for _ in 0..=txc_core::machine::MAX_NONCE_LEAD_MS {
        core.prepare(&q, now()).unwrap();
    }
    assert_eq!(core.pace(now()), Some(Duration::from_millis(1)));
    let mut call = core.call(&q);
    assert!(matches!(call.next(now()), Step::Wait(d) if d == Duration::from_millis(1)));
    assert_eq!(
        core.pace(now() + Duration::from_millis(1)),
        None,
        "the clock caught up"
    );
    let _ = sent(call.next(now() + Duration::from_millis(1)));
    // Strict mode only needs increasing nonces: never a wait.
    let strict = config()
        .nonce_sequence(core.nonces().clone())
        .nonce_window(false)
        .build()
        .unwrap();
    assert_eq!(strict.pace(now()), None);
}

// ---------------------------------------------------------------------------------------------
// The status-first invariants, over every status and the body shapes servers send.

fn body_shape() -> impl Strategy<Value = String> {
    let message = prop_oneof![
        Just("Too many requests.".to_owned()),
        Just("Validation failed".to_owned()),
        Just("Inner validation failed".to_owned()),
        Just("Unauthorized request.".to_owned()),
        Just(String::new()),
        "[ -~]{0,20}",
    ];
    prop_oneof![
        Just(String::new()),
        Just("<html><body>502 Bad Gateway</body></html>".to_owned()),
        Just("not json at all".to_owned()),
        Just(ORDER.to_owned()),
        Just(ORDER[..40].to_owned()),
        Just(ORDER.replace("\"orderId\":4180284841,", "")),
        (message.clone(), any::<i16>())
            .prop_map(|(m, code)| format!(r#"{{"code":{code},"message":"{m}","errors":{{}}}}"#)),
        (message.clone(), any::<i16>()).prop_map(|(m, code)| format!(
            r#"{{"code":"{code}","message":"{m}","errors":{{"amount":["{m}"]}}}}"#
        )),
        message
            .clone()
            .prop_map(|m| format!(r#"{{"success":false,"message":[["{m}"]],"result":[]}}"#)),
        (message, 100..600u16).prop_map(|(m, s)| format!(
            r#"{{"response":null,"status":{s},"errors":{{"message":["{m}"]}},"notification":null}}"#
        )),
        Just("[]".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever the status and body: never both "outcome unknown" and "retryable"; 5xx is
    /// never "not executed"; only 429 (and 4xx in general) is "not executed"; an order is
    /// never sent again after a response that leaves its outcome unknown.
    #[test]
    fn status_decides_first(status in 100..600u16, body in body_shape()) {
        let result = decode::<CollateralMarketOrder>(&Response::new(status, body.as_bytes()));
        match &result {
            Ok(_) => prop_assert!((200..300).contains(&status)),
            Err(e) => {
                prop_assert!(!(e.outcome_unknown() && e.is_retryable()), "{}", e);
                prop_assert_eq!(e.is_retryable(), status == 429, "{}", e);
                prop_assert_eq!(e.outcome_unknown(), !(400..500).contains(&status), "{}", e);
            }
        }
        let core = core();
        let order = order();
        let mut call = core.call(&order);
        let _ = sent(call.next(now()));
        call.receive(Ok(Response::new(status, body.as_bytes())));
        let mut at = now();
        loop {
            match call.next(at) {
                Step::Wait(d) => at += d,
                Step::Send(_) => {
                    prop_assert!(result.as_ref().is_err_and(Error::is_retryable), "resent after {status}");
                    break;
                }
                Step::Done(done) => {
                    prop_assert_eq!(done.is_ok(), result.is_ok());
                    break;
                }
            }
        }
    }

    /// A 2xx response that carries an order is a placed order, whatever else it carries.
    #[test]
    fn a_2xx_carrying_an_order_is_placed(
        status in 200..300u16,
        extra in proptest::collection::btree_map(
            prop_oneof![Just("message".to_owned()), Just("code".to_owned()), Just("errors".to_owned()), Just("success".to_owned()), "[a-z]{1,8}"],
            prop_oneof![Just(serde_json::json!("Too many requests.")), Just(serde_json::json!({"amount": ["Not enough balance."]})), Just(serde_json::json!(10)), Just(serde_json::json!(false))],
            0..4,
        ),
    ) {
        let mut v: serde_json::Value = serde_json::from_str(ORDER).unwrap();
        for (k, x) in extra {
            v[k] = x;
        }
        let placed = decode::<CollateralMarketOrder>(&Response::new(status, v.to_string().as_bytes()));
        prop_assert_eq!(placed.map(|o| o.order_id).ok(), Some(4_180_284_841));
    }
}

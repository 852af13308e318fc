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
use serde_json::Value;
use txc_sandbox::{Fault, Route, Sandbox};

/// Injects `fault` for the next market order, then sends one ([`small_market_order`]).
fn market_order_with(sandbox: &Sandbox, fault: Fault) -> Reply {
    sandbox.inject_fault(Route::CollateralMarket, fault, Some(1));
    small_market_order(sandbox)
}

fn is_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<Value>(bytes).is_ok()
}

#[test]
fn delay_processes_then_answers() {
    let sandbox = faulty(
        Route::CollateralMarket,
        Fault::Delay(Duration::from_millis(50)),
        Some(1),
    );
    let reply = small_market_order(&sandbox);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["status"], "FILLED");
    assert_eq!(sandbox.order_records(), vec![reply.json()]);
    assert_eq!(sandbox.stats().faults_injected, 1);
    // Used up.
    assert_eq!(small_market_order(&sandbox).status, 200);
    assert_eq!(sandbox.stats().faults_injected, 1);
}

#[test]
fn unavailable_is_an_empty_503_and_not_processed() {
    let sandbox = faulty(Route::CollateralMarket, Fault::Unavailable, None);
    for _ in 0..2 {
        let reply = small_market_order(&sandbox);
        assert_eq!(reply.status, 503);
        assert!(reply.body.is_empty());
    }
    assert!(sandbox.order_records().is_empty());
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));
    sandbox.clear_faults();
    assert_eq!(small_market_order(&sandbox).status, 200);
    let stats = sandbox.stats();
    assert_eq!(
        (stats.requests, stats.faults_injected, stats.accepted_orders),
        (3, 2, 1)
    );
}

#[test]
fn html_bad_gateway_is_not_processed() {
    let sandbox = faulty(Route::CollateralMarket, Fault::HtmlBadGateway, Some(1));
    let reply = small_market_order(&sandbox);
    assert_eq!(reply.status, 502);
    assert_eq!(reply.content_type.as_deref(), Some("text/html"));
    assert!(reply.text().contains("502 Bad Gateway"));
    assert!(!is_json(&reply.body));
    assert!(sandbox.order_records().is_empty());
}

#[test]
fn truncated_body_is_processed() {
    let sandbox = faulty(Route::CollateralMarket, Fault::TruncatedBody, Some(1));
    let reply = small_market_order(&sandbox);
    assert_eq!(reply.status, 200);
    assert!(serde_json::from_slice::<serde_json::Value>(&reply.body).is_err());
    assert!(reply.body.starts_with(b"{\"orderId\":"));
    assert_eq!(sandbox.order_records().len(), 1);
}

#[test]
fn close_mid_response_is_processed() {
    let sandbox = faulty(Route::CollateralMarket, Fault::CloseMidResponse, Some(1));
    let mut response = agent().run(small_order(&sandbox)).unwrap();
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
    assert_eq!(sandbox.order_records().len(), 1);
    // The server is fine afterwards.
    assert_eq!(small_market_order(&sandbox).status, 200);
}

#[test]
fn oversized_body_is_processed() {
    let sandbox = Sandbox::start().unwrap();
    let size = 2 << 20;
    sandbox.inject_fault(Route::CollateralMarket, Fault::OversizedBody(size), Some(2));
    let reply = small_market_order(&sandbox);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body.len(), size);
    // A client with a 1 MiB cap stops reading.
    let mut response = agent().run(small_order(&sandbox)).unwrap();
    assert!(
        response
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .read_to_vec()
            .is_err()
    );
    assert_eq!(sandbox.order_records().len(), 2);
}

#[test]
fn routes_and_precedence() {
    let sandbox = faulty(Route::All, Fault::Unavailable, None);
    sandbox.inject_fault(Route::SmartPlans, Fault::HtmlBadGateway, Some(1));
    assert_eq!(PLANS.send(&sandbox, PARTNER, "").status, 502);
    assert_eq!(PLANS.send(&sandbox, PARTNER, "").status, 503);
    let trigger = trigger_fields("BTC_USDT", "buy", "0.001", "70000");
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &trigger).status, 503);
    // Faults concern the exchange routes only.
    assert_eq!(get(&sandbox, "/sandbox/v1/orders").status, 200);
    assert_eq!(get(&sandbox, "/api/v4/unknown").status, 404);
    // Replacing a route's fault, and removing it with times = 0.
    sandbox.inject_fault(Route::All, Fault::TruncatedBody, None);
    assert_eq!(PLANS.send(&sandbox, PARTNER, "").status, 200);
    sandbox.inject_fault(Route::All, Fault::Unavailable, Some(0));
    let reply = PLANS.send(&sandbox, PARTNER, "");
    assert_eq!(reply.json().as_array().map(Vec::len), Some(6));
    // Rejections are faulted too: the answer is changed, whatever it is.
    sandbox.inject_fault(Route::SmartPlans, Fault::TruncatedBody, Some(1));
    let reply = PLANS.send(&sandbox, REGULAR, "");
    assert_eq!(reply.status, 200);
    assert!(reply.text().starts_with("{\"code\":0,"));
    assert_eq!(sandbox.stats().rejections_by_code[&0], 1);
}

#[test]
fn answer_is_sent_verbatim_and_not_processed() {
    let sandbox = Sandbox::start().unwrap();
    let body =
        br#"{"code":0,"message":"This order type is not available in your region.","errors":{}}"#;
    let reply = market_order_with(
        &sandbox,
        Fault::Answer {
            status: 453,
            content_type: "application/json; charset=utf-8".to_owned(),
            body: body.to_vec(),
        },
    );
    assert_eq!(reply.status, 453);
    assert_eq!(
        reply.content_type.as_deref(),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(reply.body, body);

    // No content type at all, and a status outside HTTP's range.
    sandbox.inject_fault(
        Route::SmartPlans,
        Fault::Answer {
            status: 42,
            content_type: String::new(),
            body: b"nope".to_vec(),
        },
        Some(1),
    );
    let reply = PLANS.send(&sandbox, PARTNER, "");
    assert_eq!(reply.status, 500);
    assert_eq!(reply.content_type, None);
    assert_eq!(reply.text(), "nope");

    assert!(sandbox.order_records().is_empty());
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));
    let stats = sandbox.stats();
    assert_eq!((stats.requests, stats.faults_injected), (2, 2));
    assert_eq!((stats.accepted_orders, stats.plans_served), (0, 0));
}

#[test]
fn retry_after_is_a_429_with_the_header_and_not_processed() {
    let sandbox = faulty(
        Route::CollateralMarket,
        Fault::RetryAfter("7".to_owned()),
        Some(1),
    );
    let reply = small_market_order(&sandbox);
    assert_eq!(reply.status, 429);
    assert_eq!(reply.retry_after.as_deref(), Some("7"));
    assert_eq!(
        reply.text(),
        r#"{"code":0,"errors":{},"message":"Too many requests."}"#
    );
    assert!(sandbox.order_records().is_empty());
    // The fault is used up: the next order is placed.
    assert_eq!(small_market_order(&sandbox).status, 200);
}

#[test]
fn chunked_is_processed_and_has_no_content_length() {
    let sandbox = Sandbox::start().unwrap();
    // Size 0: the real answer, chunked.
    sandbox.inject_fault(Route::CollateralMarket, Fault::Chunked(0), Some(1));
    let response = agent().run(small_order(&sandbox)).unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("content-length").is_none());
    assert_eq!(response.headers()["transfer-encoding"], "chunked");
    let reply = Reply::from_response(response);
    assert_eq!(sandbox.order_records(), vec![reply.json()]);

    // Padded with spaces to 200 KiB: still the same JSON.
    let size = 200 * 1024;
    let reply = market_order_with(&sandbox, Fault::Chunked(size));
    assert_eq!(reply.body.len(), size);
    assert!(reply.body.ends_with(b"   "));
    assert_eq!(sandbox.order_records().last(), Some(&reply.json()));

    // A rejection keeps its status.
    sandbox.inject_fault(Route::SmartPlans, Fault::Chunked(10_000), Some(1));
    let reply = PLANS.send(&sandbox, REGULAR, "");
    assert_eq!((reply.status, reply.body.len()), (403, 10_000));

    let stats = sandbox.stats();
    assert_eq!(stats.faults_injected, 3);
    assert!(stats.fault_body_bytes >= u64::try_from(size + 10_000).unwrap());
}

#[test]
fn a_capped_client_stops_a_huge_body_early() {
    let sandbox = Sandbox::start().unwrap();
    let size = 64 << 20;
    let cap = 1 << 20;

    // Announced: refused from the Content-Length, without reading the body.
    sandbox.inject_fault(Route::CollateralMarket, Fault::OversizedBody(size), Some(1));
    let response = agent().run(small_order(&sandbox)).unwrap();
    let announced: usize = response.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(announced, size);
    drop(response);
    let written = sandbox.settled_stats().fault_body_bytes;
    assert!(
        written < (size / 2) as u64,
        "{written} of {size} bytes written"
    );

    // Chunked: read up to the cap, then dropped.
    sandbox.inject_fault(Route::CollateralMarket, Fault::Chunked(size), Some(1));
    let mut response = agent().run(small_order(&sandbox)).unwrap();
    assert!(
        response
            .body_mut()
            .with_config()
            .limit(cap)
            .read_to_vec()
            .is_err()
    );
    drop(response);
    let chunked = sandbox.settled_stats().fault_body_bytes - written;
    assert!(chunked >= cap, "the client read past its cap: {chunked}");
    assert!(
        chunked < (size / 2) as u64,
        "{chunked} of {size} bytes written"
    );

    // Both requests were processed; the server is fine afterwards.
    assert_eq!(sandbox.order_records().len(), 2);
    assert_eq!(small_market_order(&sandbox).status, 200);
}

#[test]
fn stall_never_answers_and_is_not_processed() {
    let sandbox = faulty(Route::CollateralMarket, Fault::Stall, Some(1));
    let impatient: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_millis(300)))
        .build()
        .into();
    let error = impatient.run(small_order(&sandbox)).unwrap_err();
    assert!(matches!(error, ureq::Error::Timeout(_)), "{error:?}");
    assert!(sandbox.order_records().is_empty());
    assert_eq!(sandbox.stats().requests, 1);
    // Used up: the next request is answered.
    assert_eq!(small_market_order(&sandbox).status, 200);
}

#[test]
fn a_stalled_request_does_not_hold_up_shutdown() {
    let sandbox = faulty(Route::All, Fault::Stall, None);
    let request = small_order(&sandbox);
    // A client that waits for ever, still connected when the sandbox stops.
    let client = std::thread::spawn(move || agent().run(request).map(|_| ()));
    while sandbox.stats().requests == 0 {
        std::thread::sleep(Duration::from_millis(5));
    }
    sandbox.stop_listener();
    assert!(client.join().unwrap().is_err(), "the stall ends unanswered");
    sandbox.restart_listener().unwrap();
    let request = small_order(&sandbox);
    let client = std::thread::spawn(move || agent().run(request).map(|_| ()));
    while sandbox.stats().requests == 1 {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(sandbox); // graceful: returns after the grace period
    assert!(client.join().unwrap().is_err());
}

/// Sends `request` over a plain socket and reads until the end or an error: what arrived,
/// and how the read ended (ureq reports a reset as an early end, so it cannot tell them apart).
fn raw_exchange(
    sandbox: &Sandbox,
    request: http::Request<Vec<u8>>,
) -> (Vec<u8>, std::io::Result<()>) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(sandbox.addr()).unwrap();
    let mut head = format!(
        "POST {} HTTP/1.1\r\nhost: {}\r\n",
        request.uri().path(),
        sandbox.addr()
    );
    for (name, value) in request.headers() {
        head.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap()));
    }
    head.push_str(&format!("content-length: {}\r\n\r\n", request.body().len()));
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(request.body()).unwrap();
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (received, Ok(())),
            Ok(n) => received.extend_from_slice(&buf[..n]),
            Err(e) => return (received, Err(e)),
        }
    }
}

#[test]
fn reset_mid_body_is_a_connection_reset() {
    let sandbox = faulty(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let (received, end) = raw_exchange(&sandbox, small_order(&sandbox));
    let text = String::from_utf8_lossy(&received);
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    assert_eq!(end.unwrap_err().kind(), std::io::ErrorKind::ConnectionReset);
    assert_eq!(sandbox.order_records().len(), 1);
    // HTTP clients see a broken body.
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let mut response = agent().run(small_order(&sandbox)).unwrap();
    assert!(response.body_mut().read_to_vec().is_err());
    assert_eq!(sandbox.order_records().len(), 2);

    // A clean close is no reset: the stream just ends early.
    sandbox.inject_fault(Route::CollateralMarket, Fault::CloseMidResponse, Some(1));
    let (received, end) = raw_exchange(&sandbox, small_order(&sandbox));
    assert!(end.is_ok(), "{end:?}");
    let text = String::from_utf8_lossy(&received);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let announced: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(body.len() < announced);

    // The server is fine afterwards.
    assert_eq!(small_market_order(&sandbox).status, 200);
    assert_eq!(sandbox.order_records().len(), 4);
}

#[test]
fn drop_after_processing_executes_and_never_answers() {
    let sandbox = faulty(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    let (received, end) = raw_exchange(&sandbox, small_order(&sandbox));
    assert!(
        received.is_empty(),
        "{}",
        String::from_utf8_lossy(&received)
    );
    assert!(end.is_ok(), "a clean close: {end:?}");
    assert_eq!(sandbox.order_records().len(), 1, "executed");
    assert_eq!(sandbox.order_records()[0]["status"], "FILLED");
    // An HTTP client sees the connection end before the answer.
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    assert!(agent().run(small_order(&sandbox)).is_err());
    assert_eq!(sandbox.order_records().len(), 2);
    // Used up; the server is fine.
    assert_eq!(small_market_order(&sandbox).status, 200);

    // On cancel: the order is canceled, the answer lost.
    let trigger = format!(
        r#"{},"clientOrderId":"d-1""#,
        trigger_fields("BTC_USDT", "buy", "0.001", "90000")
    );
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &trigger).status, 200);
    sandbox.inject_fault(Route::CancelOrder, Fault::DropAfterProcessing, Some(1));
    let request = signed_request(
        &sandbox,
        PARTNER,
        CANCEL_PATH,
        r#""market":"BTC_USDT","clientOrderId":"d-1""#,
    );
    assert!(agent().run(request).is_err());
    assert_eq!(sandbox.order_records()[3]["status"], "CANCELED");
    assert_eq!(sandbox.stats().faults_injected, 3);
}

#[test]
fn answer_after_processing_executes_then_answers_verbatim() {
    let sandbox = Sandbox::start().unwrap();
    let gateway = br#"{"response":null,"status":503,"errors":{"message":[""]},"notification":null,"warning":null,"_token":null}"#;
    let reply = market_order_with(
        &sandbox,
        Fault::AnswerAfterProcessing {
            status: 503,
            content_type: "application/json".to_owned(),
            body: gateway.to_vec(),
        },
    );
    assert_eq!(reply.status, 503);
    assert_eq!(reply.body, gateway);
    assert_eq!(sandbox.order_records().len(), 1, "executed all the same");
    assert_eq!(sandbox.stats().accepted_orders, 1);

    // The same answer without executing: `Fault::Answer`.
    let reply = market_order_with(
        &sandbox,
        Fault::Answer {
            status: 500,
            content_type: "application/json".to_owned(),
            body: br#"{"error":["Internal server error."]}"#.to_vec(),
        },
    );
    assert_eq!(reply.status, 500);
    assert_eq!(sandbox.order_records().len(), 1, "not executed");

    // A look-up's answer can be replaced too: the read happened, its answer is lost.
    sandbox.inject_fault(
        Route::OrderHistory,
        Fault::AnswerAfterProcessing {
            status: 502,
            content_type: "text/html".to_owned(),
            body: b"<html>bad gateway</html>".to_vec(),
        },
        Some(1),
    );
    let reply = HISTORY.send(&sandbox, PARTNER, "");
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (502, "<html>bad gateway</html>")
    );
    assert_eq!(sandbox.stats().lookups_served, 1);
}

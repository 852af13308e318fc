//! `GET /api/v4/public/time` and the sandbox's clock offset, over real HTTP with hand-written
//! requests: the time in whole Unix seconds, the `Date` header from the same clock, the nonce
//! window judged by it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::*;
use txc_sandbox::Sandbox;

fn get(sandbox: &Sandbox, path: &str) -> (Reply, Option<SystemTime>) {
    let request = http::Request::get(format!("{}{path}", sandbox.base_url()))
        .body(Vec::new())
        .unwrap();
    let response = agent().run(request).unwrap();
    let date = response
        .headers()
        .get("date")
        .map(|v| httpdate::parse_http_date(v.to_str().unwrap()).unwrap());
    (Reply::from_response(response), date)
}

fn unix_secs(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64
}

#[test]
fn time_is_whole_unix_seconds_of_the_sandbox_clock() {
    for offset_ms in [0i64, 60_000, -60_000] {
        let sandbox = Sandbox::builder()
            .clock_offset_ms(offset_ms)
            .start()
            .unwrap();
        let (reply, date) = get(&sandbox, "/api/v4/public/time");
        assert_eq!(reply.status, 200);
        let body = reply.json();
        let time = body["time"].as_i64().expect("an integer");
        assert_eq!(body.as_object().unwrap().len(), 1);
        let host = unix_secs(SystemTime::now());
        let expected = host + offset_ms / 1_000;
        assert!((time - expected).abs() <= 1, "{time} vs {expected}");
        // The Date header follows the same clock.
        let date = unix_secs(date.expect("a Date header"));
        assert!((date - expected).abs() <= 1, "Date {date} vs {expected}");
    }
}

#[test]
fn time_takes_no_post_and_needs_no_key() {
    let sandbox = Sandbox::start().unwrap();
    let reply = send_raw(&sandbox, "/api/v4/public/time", &[], b"{}");
    assert_eq!(reply.status, 405);
    let (reply, _) = get(&sandbox, "/api/v4/public/time");
    assert_eq!(reply.status, 200);
}

#[test]
fn the_nonce_window_follows_the_offset_clock() {
    let sandbox = Sandbox::builder().clock_offset_ms(-8_000).start().unwrap();
    // A nonce of the host's time is 8 s ahead of the sandbox's clock: out of the window.
    let reply = MARKET.send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"));
    assert_eq!(reply.status, 401, "{}", reply.text());
    assert!(
        reply.text().contains("more than 5 seconds"),
        "{}",
        reply.text()
    );
    assert_eq!(sandbox.stats().nonce_rejections, 1);
    // The sandbox's own time is accepted.
    let nonce = now_ms() - 8_000;
    let body = format!(
        r#"{{"request":"{MARKET_PATH}","nonce":{nonce},"nonceWindow":true,{}}}"#,
        fields("BTC_USDT", "buy", "0.01")
    );
    let reply = send_hand_signed(&sandbox, PARTNER, MARKET_PATH, &body);
    assert_eq!(reply.status, 200, "{}", reply.text());
}

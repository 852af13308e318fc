//! The sandbox's own authentication over real HTTP, signed here by the docs' recipe with the
//! primitives (base64 of the body; lowercase hex of HMAC-SHA512 over that text): the
//! known-answer vectors are accepted, an upper-case signature is refused, and every rejection
//! answers the status, code and message the docs give.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::recipe::{self, sign, signature};
use common::*;
use txc_sandbox::{AccountConfig, Sandbox};

/// The headers of `body` signed by `(key, secret)` with the recipe.
fn headers(account: (&str, &str), body: &[u8]) -> Vec<(&'static str, String)> {
    let (payload, signature) = sign(account.1, body);
    vec![
        ("content-type", "application/json".to_owned()),
        ("x-txc-apikey", account.0.to_owned()),
        ("x-txc-payload", payload),
        ("x-txc-signature", signature),
    ]
}

/// The vectors' nonces are Unix milliseconds of November 2023: a sandbox whose clock runs
/// there accepts them in the nonce window, and a one-way partner account with the vectors'
/// secret accepts every order and plans request they sign.
#[test]
fn the_known_answer_vectors_are_accepted() {
    let vectors = recipe::vectors();
    let secret = &vectors[0].api_secret;
    let sandbox = Sandbox::builder()
        .account(
            AccountConfig::new("vector-key", secret.as_str())
                .partner(true)
                .balance("USDT", "100000"),
        )
        .clock_offset_ms(1_700_000_000_000 - i64::try_from(now_ms()).unwrap())
        .start()
        .unwrap();
    let mut served = 0;
    for v in &vectors {
        assert_eq!(&v.api_secret, secret);
        assert_eq!(
            sign(&v.api_secret, v.body.as_bytes()),
            (v.x_txc_payload.clone(), v.x_txc_signature.clone()),
            "{}",
            v.name
        );
        let path = v.path();
        let headers = [
            ("content-type", "application/json".to_owned()),
            ("x-txc-apikey", "vector-key".to_owned()),
            ("x-txc-payload", v.x_txc_payload.clone()),
            ("x-txc-signature", v.x_txc_signature.clone()),
        ];
        let reply = send_raw(&sandbox, &path, &headers, v.body.as_bytes());
        if path == "/api/v4/trade-balance" {
            // The CLI's vector signs an endpoint the sandbox does not serve.
            assert_eq!(reply.status, 404, "{}", v.name);
            continue;
        }
        assert_eq!(reply.status, 200, "{}: {}", v.name, reply.text());
        served += 1;
    }
    assert_eq!(served, 3);
    assert_eq!(sandbox.stats().rejections, 0);
    assert_eq!(sandbox.order_records().len(), 2);
}

#[test]
fn signatures_in_upper_or_mixed_case_are_refused() {
    let sandbox = Sandbox::start().unwrap();
    let body = body(MARKET_PATH, &fields("BTC_USDT", "buy", "0.001"));
    let good = headers(PARTNER, body.as_bytes());
    let with_signature = |signature: String| {
        let mut headers = good.clone();
        headers[3].1 = signature;
        headers
    };
    let signature = good[3].1.clone();
    let mixed: String = signature
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i % 2 == 0 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect();
    assert_ne!(mixed, signature);
    for (case, sent) in [("upper", signature.to_uppercase()), ("mixed", mixed)] {
        let reply = send_raw(
            &sandbox,
            MARKET_PATH,
            &with_signature(sent),
            body.as_bytes(),
        );
        assert_eq!(reply.status, 401, "{case}");
        assert_eq!(
            reply.json(),
            serde_json::json!({"code": 10, "message": "Unauthorized request."}),
            "{case}"
        );
    }
    // Refused before the nonce: the same request in lower case still goes through.
    let reply = send_raw(&sandbox, MARKET_PATH, &good, body.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(sandbox.stats().nonce_rejections, 0);
}

/// How a case's request is sent.
enum Send {
    /// This body with its recipe headers, then the headers changed by `edit`.
    Body(String, fn(&mut Vec<(&'static str, String)>)),
    /// This body signed by this account.
    As((&'static str, &'static str), String),
    /// This body signed, to this path.
    To(&'static str, String),
}

#[test]
fn every_rejection_answers_as_the_docs_give_it() {
    let sandbox = Sandbox::builder().rate_limits(10_000, 2).start().unwrap();
    let order = || body(MARKET_PATH, &fields("BTC_USDT", "buy", "0.001"));
    let with = |fields: &str| format!(r#"{{"request":"{MARKET_PATH}",{fields}}}"#);
    let strict = |nonce: u64| {
        format!(
            r#"{{"request":"{MARKET_PATH}","nonce":{nonce},"market":"BTC_USDT","side":"buy","amount":"0.001"}}"#
        )
    };
    let windowed = |nonce: u64| {
        format!(
            r#"{{"request":"{MARKET_PATH}","nonce":{nonce},"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":"0.001"}}"#
        )
    };
    // Used before the table: a strict nonce and a window nonce the table sends again.
    let used_strict = next_nonce();
    let used_window = next_nonce();
    for body in [strict(used_strict), windowed(used_window)] {
        let reply = send_raw(
            &sandbox,
            MARKET_PATH,
            &headers(PARTNER, body.as_bytes()),
            body.as_bytes(),
        );
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
    let plans = || body(PLANS_PATH, "");
    let cases: Vec<(&str, Send, u16, i64, &str)> = vec![
        (
            "X-TXC-APIKEY missing",
            Send::Body(order(), |h| h.retain(|(n, _)| *n != "x-txc-apikey")),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "X-TXC-PAYLOAD missing",
            Send::Body(order(), |h| h.retain(|(n, _)| *n != "x-txc-payload")),
            400,
            9,
            "Payload not provided.",
        ),
        (
            "X-TXC-PAYLOAD empty",
            Send::Body(order(), |h| h[2].1 = String::new()),
            400,
            9,
            "Payload not provided.",
        ),
        (
            "X-TXC-SIGNATURE missing",
            Send::Body(order(), |h| h.retain(|(n, _)| *n != "x-txc-signature")),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "X-TXC-SIGNATURE sent twice",
            Send::Body(order(), |h| h.push(("x-txc-signature", h[3].1.clone()))),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "unknown key",
            Send::As(("no-such-key", "whatever"), order()),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "disabled key",
            Send::As(DISABLED, order()),
            403,
            2,
            "This action is unauthorized. Enable your key in API settings",
        ),
        (
            "another secret",
            Send::As((PARTNER.0, "not-the-secret"), order()),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "payload of another body",
            Send::Body(order(), |h| h[2].1 = STANDARD.encode(b"{}")),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "payload not the body's base64, signed so",
            Send::Body(order(), |h| {
                h[2].1.push('=');
                h[3].1 = signature(PARTNER.1, &h[2].1);
            }),
            400,
            9,
            "Invalid payload.",
        ),
        (
            "body not JSON",
            Send::As(PARTNER, "market=BTC_USDT".to_owned()),
            400,
            9,
            "Invalid payload.",
        ),
        (
            "body spaced",
            Send::As(PARTNER, order().replace(',', ", ")),
            400,
            9,
            "Invalid payload.",
        ),
        (
            "request missing",
            Send::As(PARTNER, format!(r#"{{"nonce":{}}}"#, next_nonce())),
            400,
            0,
            "Request not provided.",
        ),
        (
            "request another path",
            Send::To(MARKET_PATH, body(TRIGGER_PATH, "")),
            401,
            10,
            "Unauthorized request.",
        ),
        (
            "nonce missing",
            Send::As(PARTNER, with(r#""market":"BTC_USDT""#)),
            400,
            0,
            "Nonce not provided.",
        ),
        (
            "nonceWindow a string",
            Send::As(
                PARTNER,
                with(&format!(r#""nonce":{},"nonceWindow":"true""#, next_nonce())),
            ),
            400,
            0,
            "Invalid nonceWindow.",
        ),
        (
            "window nonce 6 s late",
            Send::As(PARTNER, windowed(now_ms() - 6_000)),
            401,
            0,
            "Your nonce is more than 5 seconds lesser than the current nonce",
        ),
        (
            "window nonce 6 s early",
            Send::As(PARTNER, windowed(now_ms() + 6_000)),
            401,
            0,
            "Your nonce is more than 5 seconds lesser than the current nonce",
        ),
        (
            "window nonce used",
            Send::As(PARTNER, windowed(used_window)),
            429,
            0,
            "Too many requests.",
        ),
        (
            "strict nonce not greater",
            Send::As(PARTNER, strict(used_strict)),
            429,
            0,
            "Too many requests.",
        ),
        (
            "plans without partnership",
            Send::To(PLANS_PATH, plans()),
            403,
            0,
            "You don't have permission to use this endpoint. Please contact support for more details",
        ),
        ("plans once", Send::As(PARTNER, plans()), 200, 0, ""),
        ("plans twice", Send::As(PARTNER, plans()), 200, 0, ""),
        (
            "plans beyond the rate limit",
            Send::As(PARTNER, plans()),
            429,
            0,
            "Too many requests.",
        ),
    ];
    for (case, send, status, code, message) in cases {
        let reply = match send {
            Send::Body(body, edit) => {
                let mut sent = headers(PARTNER, body.as_bytes());
                edit(&mut sent);
                send_raw(&sandbox, MARKET_PATH, &sent, body.as_bytes())
            }
            Send::As(account, body) => {
                let path = serde_json::from_str::<serde_json::Value>(&body)
                    .ok()
                    .and_then(|b| b["request"].as_str().map(str::to_owned))
                    .unwrap_or_else(|| MARKET_PATH.to_owned());
                send_raw(
                    &sandbox,
                    &path,
                    &headers(account, body.as_bytes()),
                    body.as_bytes(),
                )
            }
            Send::To(path, body) => {
                let account = if path == PLANS_PATH { REGULAR } else { PARTNER };
                send_raw(
                    &sandbox,
                    path,
                    &headers(account, body.as_bytes()),
                    body.as_bytes(),
                )
            }
        };
        assert_eq!(reply.status, status, "{case}: {}", reply.text());
        if status == 200 {
            continue;
        }
        let json = reply.json();
        assert_eq!(json["code"], code, "{case}");
        assert_eq!(json["message"], message, "{case}");
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let expected: &[&str] = if status == 429 {
            &["code", "errors", "message"]
        } else {
            &["code", "message"]
        };
        assert_eq!(keys, expected, "{case}");
    }
}

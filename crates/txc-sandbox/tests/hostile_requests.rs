//! Hostile requests over real HTTP: tampered payloads and signatures, replays, oversized,
//! malformed and ambiguous bodies, wrong methods and paths, broken connections. Each is
//! answered with the exchange's rejection and changes nothing — orders, balances, positions —
//! and the sandbox keeps serving. (The answers' exact bodies are snapshotted in `auth.rs`;
//! this file checks that the state is untouched.)

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::*;
use serde_json::Value;
use txc_sandbox::{Position, Sandbox, demo};

/// Everything a request could change.
#[derive(Debug, PartialEq)]
struct Observable {
    orders: Vec<Value>,
    balances: Vec<Option<String>>,
    positions: Vec<Vec<Position>>,
    accepted: u64,
}

fn observe(sandbox: &Sandbox) -> Observable {
    let keys = [
        demo::PARTNER_API_KEY,
        demo::REGULAR_API_KEY,
        demo::DISABLED_API_KEY,
    ];
    Observable {
        orders: sandbox.order_records(),
        balances: keys
            .iter()
            .flat_map(|k| ["USDT", "BTC"].map(|t| sandbox.balance(k, t)))
            .collect(),
        positions: keys.iter().map(|k| sandbox.positions(k)).collect(),
        accepted: sandbox.stats().accepted_orders,
    }
}

/// A sandbox where the partner already has an order and a position, so that "unchanged"
/// means more than "empty".
fn sandbox_with_history() -> Sandbox {
    let sandbox = Sandbox::start().unwrap();
    assert_eq!(order(&sandbox).status, 200);
    sandbox
}

fn order(sandbox: &Sandbox) -> Reply {
    MARKET.send(sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"))
}

/// A signed order of 0.01 BTC_USDT, with or without the nonce window.
fn signed(sandbox: &Sandbox, window: bool) -> http::Request<Vec<u8>> {
    let fields = fields("BTC_USDT", "buy", "0.01");
    let body = if window {
        body(MARKET_PATH, &fields)
    } else {
        format!(
            r#"{{"request":"{MARKET_PATH}","nonce":{},{fields}}}"#,
            next_nonce()
        )
    };
    request_for(sandbox, PARTNER, MARKET_PATH, body)
}

fn header(request: &http::Request<Vec<u8>>, name: &str) -> String {
    request.headers()[name].to_str().unwrap().to_owned()
}

/// The headers of `request` with `name` replaced by `value`.
fn headers_with(
    request: &http::Request<Vec<u8>>,
    name: &'static str,
    value: String,
) -> Vec<(&'static str, String)> {
    [
        "content-type",
        "x-txc-apikey",
        "x-txc-payload",
        "x-txc-signature",
    ]
    .into_iter()
    .map(|n| {
        if n == name {
            (n, value.clone())
        } else {
            (n, header(request, n))
        }
    })
    .collect()
}

fn b64(bytes: &[u8]) -> String {
    txc_sign::stages::payload(bytes)
}

/// Sends like [`send_raw`], with room for a payload header of a few hundred KiB.
fn send_large(sandbox: &Sandbox, path: &str, headers: &[(&str, String)], body: &[u8]) -> Reply {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .output_buffer_size(1 << 20)
        .build()
        .into();
    let mut builder = http::Request::post(format!("{}{path}", sandbox.base_url()));
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    Reply::from_response(agent.run(builder.body(body.to_vec()).unwrap()).unwrap())
}

/// Asserts the answer is the exchange's rejection `(status, message)`.
fn assert_rejected(reply: &Reply, status: u16, message: &str, case: &str) {
    assert_eq!(reply.status, status, "{case}: {}", reply.text());
    assert_eq!(reply.json()["message"], message, "{case}");
}

#[test]
fn tampered_requests_change_nothing() {
    let sandbox = sandbox_with_history();
    let before = observe(&sandbox);
    // A freshly signed market order sent with its header `name` set to `value`.
    let altered = |name, value| {
        let request = signed(&sandbox, true);
        let headers = headers_with(&request, name, value);
        send_raw(&sandbox, MARKET_PATH, &headers, request.body())
    };

    // The body changed in flight; payload and signature kept.
    let request = signed(&sandbox, true);
    let tampered = String::from_utf8(request.body().clone())
        .unwrap()
        .replace("0.01", "5");
    let headers = headers_with(&request, "content-type", "application/json".to_owned());
    let reply = send_raw(&sandbox, MARKET_PATH, &headers, tampered.as_bytes());
    assert_rejected(&reply, 400, "Invalid payload.", "body tampered");

    // Body and payload changed consistently; the signature cannot follow.
    let request = signed(&sandbox, true);
    let headers = headers_with(&request, "x-txc-payload", b64(tampered.as_bytes()));
    let reply = send_raw(&sandbox, MARKET_PATH, &headers, tampered.as_bytes());
    assert_rejected(&reply, 401, "Unauthorized request.", "payload re-encoded");

    // Only the payload changed.
    let request = signed(&sandbox, true);
    let headers = headers_with(&request, "x-txc-payload", b64(tampered.as_bytes()));
    let reply = send_raw(&sandbox, MARKET_PATH, &headers, request.body());
    assert_rejected(&reply, 401, "Unauthorized request.", "payload tampered");

    // The payload is not base64 at all, or base64 without its padding.
    for (case, payload) in [
        ("payload not base64", "%%%not-base64%%%".to_owned()),
        (
            "payload unpadded",
            b64(request.body()).trim_end_matches('=').to_owned(),
        ),
    ] {
        let reply = altered("x-txc-payload", payload);
        assert!(
            [400, 401].contains(&reply.status),
            "{case}: {}",
            reply.text()
        );
    }

    // Signatures: truncated, one digit flipped, upper case, not hex, empty, another key's.
    let request = signed(&sandbox, true);
    let signature = header(&request, "x-txc-signature");
    let flipped = {
        let mut s = signature.clone().into_bytes();
        s[0] = if s[0] == b'0' { b'1' } else { b'0' };
        String::from_utf8(s).unwrap()
    };
    let other_key = sign_headers(REGULAR, request.body())
        .into_iter()
        .find(|(n, _)| *n == "x-txc-signature")
        .unwrap()
        .1;
    for (case, value) in [
        ("signature truncated", signature[..64].to_owned()),
        ("signature flipped", flipped),
        ("signature not hex", "z".repeat(128)),
        ("signature of another secret", other_key),
    ] {
        let reply = altered("x-txc-signature", value);
        assert_rejected(&reply, 401, "Unauthorized request.", case);
    }

    // Signed by the partner, presented as the regular key.
    let reply = altered("x-txc-apikey", REGULAR.0.to_owned());
    assert_rejected(&reply, 401, "Unauthorized request.", "key swapped");

    // Signed for the market route, sent to the trigger route.
    let request = signed(&sandbox, true);
    let headers = headers_with(&request, "content-type", "application/json".to_owned());
    let reply = send_raw(&sandbox, TRIGGER_PATH, &headers, request.body());
    assert_rejected(&reply, 401, "Unauthorized request.", "other route");

    assert_eq!(observe(&sandbox), before);
    assert_eq!(order(&sandbox).status, 200);
}

#[test]
fn replayed_requests_are_rejected_and_change_nothing() {
    let sandbox = Sandbox::start().unwrap();
    for window in [true, false] {
        let request = signed(&sandbox, window);
        let replay = request.clone();
        assert_eq!(run(request).status, 200, "window {window}");
        let after_first = observe(&sandbox);
        for _ in 0..3 {
            let reply = run(replay.clone());
            assert_rejected(&reply, 429, "Too many requests.", "replay");
        }
        assert_eq!(observe(&sandbox), after_first, "window {window}");
    }
    let stats = sandbox.stats();
    assert_eq!((stats.accepted_orders, stats.nonce_rejections), (2, 6));
}

#[test]
fn malformed_bodies_change_nothing() {
    let sandbox = sandbox_with_history();
    let before = observe(&sandbox);
    let nonce = || next_nonce();
    let path = MARKET_PATH;
    let fields = r#""market":"BTC_USDT","side":"buy","amount":"0.01""#;
    // As deep as fits the 64 KiB body limit: far beyond serde_json's recursion limit (128).
    let deep = format!(
        r#"{{"request":"{path}","nonce":{},"x":{}{}}}"#,
        nonce(),
        "[".repeat(30_000),
        "]".repeat(30_000)
    );
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("empty", Vec::new(), 400, "Payload not provided."),
        (
            "form",
            b"market=BTC_USDT&side=buy&amount=0.01".to_vec(),
            400,
            "Invalid payload.",
        ),
        (
            "array",
            format!(r#"["{path}",{}]"#, nonce()).into_bytes(),
            400,
            "Invalid payload.",
        ),
        ("string", br#""hello""#.to_vec(), 400, "Invalid payload."),
        ("null", b"null".to_vec(), 400, "Invalid payload."),
        (
            "truncated",
            format!(r#"{{"request":"{path}","nonce":{},{fields}"#, nonce()).into_bytes(),
            400,
            "Invalid payload.",
        ),
        (
            "invalid utf-8",
            [
                format!(r#"{{"request":"{path}","nonce":{},"x":""#, nonce()).as_bytes(),
                b"\xff\xfe",
                format!(r#"",{fields}}}"#).as_bytes(),
            ]
            .concat(),
            400,
            "Invalid payload.",
        ),
        (
            "nul bytes",
            format!("{{\"request\":\"{path}\",\"nonce\":{},\0{fields}}}", nonce()).into_bytes(),
            400,
            "Invalid payload.",
        ),
        (
            "nested 30 000 deep",
            deep.into_bytes(),
            400,
            "Invalid payload.",
        ),
        (
            "duplicate nonce",
            format!(
                r#"{{"request":"{path}","nonce":{},"nonce":{},{fields}}}"#,
                nonce(),
                nonce()
            )
            .into_bytes(),
            400,
            "Invalid payload.",
        ),
        (
            "duplicate request",
            format!(
                r#"{{"request":"{PLANS_PATH}","request":"{path}","nonce":{},{fields}}}"#,
                nonce()
            )
            .into_bytes(),
            400,
            "Invalid payload.",
        ),
        (
            "nonce beyond u64",
            format!(r#"{{"request":"{path}","nonce":99999999999999999999999,{fields}}}"#)
                .into_bytes(),
            400,
            "Nonce not provided.",
        ),
        (
            "nonce as an object",
            format!(r#"{{"request":"{path}","nonce":{{"n":1}},{fields}}}"#).into_bytes(),
            400,
            "Nonce not provided.",
        ),
        (
            "amount in exponent form beyond any decimal",
            format!(
                r#"{{"request":"{path}","nonce":{},"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":"1e400"}}"#,
                nonce()
            )
            .into_bytes(),
            422,
            "Inner validation failed",
        ),
        (
            "amount with 1000 digits",
            format!(
                r#"{{"request":"{path}","nonce":{},"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":"{}"}}"#,
                nonce(),
                "9".repeat(1000)
            )
            .into_bytes(),
            422,
            "Inner validation failed",
        ),
        (
            "amount a JSON number beyond a double",
            format!(
                r#"{{"request":"{path}","nonce":{},"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":1e400}}"#,
                nonce()
            )
            .into_bytes(),
            400,
            "Invalid payload.",
        ),
    ];
    for (case, body, status, message) in &cases {
        // Correctly signed (except the empty body, which has no payload): only the body is
        // hostile.
        let reply = send_large(&sandbox, path, &sign_headers(PARTNER, body), body);
        assert_rejected(&reply, *status, message, case);
        assert_eq!(observe(&sandbox), before, "{case}");
    }

    // Two `amount`s: the last one counts (a JSON object's usual reading), here one the balance
    // cannot cover. The body is signed, so only the key's holder can send such a thing.
    let ambiguous = format!(
        r#"{{"request":"{path}","nonce":{},"nonceWindow":true,{fields},"amount":"1000"}}"#,
        nonce()
    );
    let reply = send_hand_signed(&sandbox, PARTNER, path, &ambiguous);
    assert_rejected(&reply, 422, "Inner validation failed", "duplicate amount");
    assert_eq!(observe(&sandbox), before);

    // The sandbox keeps serving.
    assert_eq!(order(&sandbox).status, 200);
}

#[test]
fn oversized_bodies_are_413_and_change_nothing() {
    let sandbox = sandbox_with_history();
    let before = observe(&sandbox);
    // A correctly signed 100 KiB order (over the 64 KiB limit).
    let big = body(
        MARKET_PATH,
        &format!(
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","pad":"{}""#,
            "x".repeat(100 * 1024)
        ),
    );
    let reply = send_large(
        &sandbox,
        MARKET_PATH,
        &sign_headers(PARTNER, big.as_bytes()),
        big.as_bytes(),
    );
    assert_eq!(reply.status, 413);
    assert_eq!(reply.json()["message"], "Request body is too large.");
    // 20 MiB, beyond what the sandbox drains: refused, the connection cut.
    let huge = vec![b' '; 20 << 20];
    let headers = [("x-txc-apikey", PARTNER.0.to_owned())];
    match agent()
        .post(format!("{}{MARKET_PATH}", sandbox.base_url()))
        .header(headers[0].0, headers[0].1.as_str())
        .send(&huge[..])
    {
        Ok(response) => assert_eq!(response.status(), 413),
        Err(error) => assert!(matches!(error, ureq::Error::Io(_)), "{error:?}"),
    }
    assert_eq!(observe(&sandbox), before);
    assert_eq!(sandbox.stats().protocol_errors, 2);
    assert_eq!(order(&sandbox).status, 200);
}

#[test]
fn wrong_methods_and_paths_change_nothing() {
    let sandbox = sandbox_with_history();
    let before = observe(&sandbox);
    let request = signed(&sandbox, true);
    for method in ["GET", "PUT", "DELETE", "PATCH"] {
        let mut copy = http::Request::builder()
            .method(method)
            .uri(request.uri())
            .body(request.body().clone())
            .unwrap();
        *copy.headers_mut() = request.headers().clone();
        let reply = run(copy);
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.json()["message"], "Method not allowed.");
    }
    for path in [
        "/api/v4/order/collateral/market/",
        "/api/v4/order/collateral/MARKET",
        "/api/v4/order/new",
        "/api/v4/order/collateral/market%00",
        "/",
    ] {
        let mut copy = request.clone();
        *copy.uri_mut() = format!("{}{path}", sandbox.base_url()).parse().unwrap();
        let reply = run(copy);
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.json()["message"], "Not found.");
    }
    assert_eq!(observe(&sandbox), before);
    // The original request was never used: it still goes through.
    assert_eq!(run(request).status, 200);
}

/// Raw bytes on a socket: what HTTP clients never send.
fn raw(sandbox: &Sandbox, bytes: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(sandbox.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(bytes).unwrap();
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer
}

#[test]
fn broken_connections_change_nothing() {
    let sandbox = sandbox_with_history();
    let before = observe(&sandbox);
    let request = signed(&sandbox, true);
    let head = |length: usize| {
        let mut head = format!("POST {MARKET_PATH} HTTP/1.1\r\nhost: sandbox\r\n");
        for (name, value) in request.headers() {
            head.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap()));
        }
        head.push_str(&format!("content-length: {length}\r\n\r\n"));
        head.into_bytes()
    };
    let body = request.body();

    // The body announced but cut short, then the connection half-closed.
    let answer = raw(&sandbox, &[head(body.len()), body[..10].to_vec()].concat());
    let text = String::from_utf8_lossy(&answer);
    assert!(
        text.is_empty() || text.starts_with("HTTP/1.1 400"),
        "{text}"
    );
    // Headers only, never finished.
    let answer = raw(&sandbox, &head(body.len())[..40]);
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));
    // Garbage instead of HTTP.
    let answer = raw(
        &sandbox,
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n",
    );
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));
    // 300 headers.
    let mut many = head(body.len());
    many.truncate(many.len() - 2);
    for i in 0..300 {
        many.extend_from_slice(format!("x-extra-{i}: {i}\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    many.extend_from_slice(body);
    let answer = raw(&sandbox, &many);
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 431"));
    // A 1 MiB header value.
    let mut long = head(body.len());
    long.truncate(long.len() - 2);
    long.extend_from_slice(format!("x-long: {}\r\n\r\n", "a".repeat(1 << 20)).as_bytes());
    long.extend_from_slice(body);
    let answer = raw(&sandbox, &long);
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));

    assert_eq!(observe(&sandbox), before);
    // The request itself was never accepted, so it still goes through, in full.
    let answer = raw(&sandbox, &[head(body.len()), body.clone()].concat());
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200 OK"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    assert_eq!(sandbox.order_records().len(), 2);
}

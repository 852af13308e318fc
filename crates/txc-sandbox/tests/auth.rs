//! Authentication over real HTTP with hand-written, hand-signed requests: every rejection the
//! exchange documents, with its status, code and message, and the leniency it has (string
//! nonce).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use txc_sandbox::Sandbox;

fn order_fields() -> &'static str {
    r#""market":"BTC_USDT","side":"buy","amount":"0.01""#
}

/// Each case: name, and how to send it; every answer is snapshotted.
#[test]
fn rejections_are_the_exchanges() {
    let sandbox = Sandbox::start().unwrap();
    let path = MARKET_PATH;
    let good = || body(path, order_fields());

    let mut cases: Vec<(&str, Reply)> = Vec::new();

    for (name, header) in [
        ("missing_api_key", "x-txc-apikey"),
        ("missing_payload", "x-txc-payload"),
        ("missing_signature", "x-txc-signature"),
    ] {
        let b = good();
        let mut headers = sign_headers(PARTNER, b.as_bytes());
        headers.retain(|(n, _)| *n != header);
        cases.push((name, send_raw(&sandbox, path, &headers, b.as_bytes())));
    }

    cases.push((
        "unknown_key",
        send_hand_signed(&sandbox, ("no-such-key", "whatever"), path, &good()),
    ));
    cases.push((
        "disabled_key",
        send_hand_signed(&sandbox, DISABLED, path, &good()),
    ));
    cases.push((
        "bad_signature",
        send_hand_signed(&sandbox, (PARTNER.0, "wrong-secret"), path, &good()),
    ));

    // Signed for one body, another sent.
    let signed = good();
    let sent = signed.replace("0.01", "0.02");
    let headers = sign_headers(PARTNER, signed.as_bytes());
    cases.push((
        "payload_body_mismatch",
        send_raw(&sandbox, path, &headers, sent.as_bytes()),
    ));

    cases.push((
        "request_not_the_path",
        send_hand_signed(&sandbox, PARTNER, path, &body(TRIGGER_PATH, order_fields())),
    ));
    cases.push((
        "request_missing",
        send_hand_signed(
            &sandbox,
            PARTNER,
            path,
            &format!(r#"{{"nonce":{},{}}}"#, next_nonce(), order_fields()),
        ),
    ));
    cases.push((
        "nonce_missing",
        send_hand_signed(
            &sandbox,
            PARTNER,
            path,
            &format!(r#"{{"request":"{path}",{}}}"#, order_fields()),
        ),
    ));
    for (name, nonce) in [
        ("nonce_not_digits", r#""12a""#),
        ("nonce_float", "1.5"),
        ("nonce_negative", "-5"),
    ] {
        cases.push((
            name,
            send_hand_signed(
                &sandbox,
                PARTNER,
                path,
                &format!(
                    r#"{{"request":"{path}","nonce":{nonce},{}}}"#,
                    order_fields()
                ),
            ),
        ));
    }
    cases.push((
        "nonce_window_not_boolean",
        send_hand_signed(
            &sandbox,
            PARTNER,
            path,
            &format!(
                r#"{{"request":"{path}","nonce":{},"nonceWindow":"true",{}}}"#,
                next_nonce(),
                order_fields()
            ),
        ),
    ));
    cases.push((
        "nonce_window_outside_5s",
        send_hand_signed(
            &sandbox,
            PARTNER,
            path,
            &format!(
                r#"{{"request":"{path}","nonce":{},"nonceWindow":true,{}}}"#,
                now_ms() - 10_000,
                order_fields()
            ),
        ),
    ));

    // `body` sent twice by `account`: the first answer has status `first`; the second answer.
    let again = |account, body: &str, first: u16| {
        assert_eq!(
            send_hand_signed(&sandbox, account, path, body).status,
            first
        );
        send_hand_signed(&sandbox, account, path, body)
    };

    // Without the window, a nonce must exceed the key's previous one. (The regular key is in
    // hedge mode, so its order is rejected with 114 — after authentication used the nonce.)
    let n = next_nonce();
    let fixed = format!(r#"{{"request":"{path}","nonce":{n},{}}}"#, order_fields());
    cases.push(("nonce_repeated", again(REGULAR, &fixed, 422)));
    let lower = format!(
        r#"{{"request":"{path}","nonce":{},{}}}"#,
        n - 1,
        order_fields()
    );
    cases.push((
        "nonce_lower",
        send_hand_signed(&sandbox, REGULAR, path, &lower),
    ));

    // With the window, a nonce may be lower but not reused.
    let windowed = body(path, order_fields());
    cases.push(("nonce_window_reused", again(PARTNER, &windowed, 200)));

    let not_json = b"market=BTC_USDT&side=buy";
    let headers = sign_headers(PARTNER, not_json);
    cases.push((
        "body_not_json",
        send_raw(&sandbox, path, &headers, not_json),
    ));
    let array = format!(r#"["{path}",{}]"#, next_nonce());
    cases.push((
        "body_not_an_object",
        send_hand_signed(&sandbox, PARTNER, path, &array),
    ));

    // Spaced JSON, signed as sent: the docs say the server wants the compact form.
    let spaced = format!(
        r#"{{"request": "{path}", "nonce": {}, "nonceWindow": true, {}}}"#,
        next_nonce(),
        order_fields()
    );
    cases.push((
        "body_spaced_json",
        send_hand_signed(&sandbox, PARTNER, path, &spaced),
    ));
    let trailing_newline = format!("{}\n", body(path, order_fields()));
    cases.push((
        "body_trailing_newline",
        send_hand_signed(&sandbox, PARTNER, path, &trailing_newline),
    ));

    for (name, reply) in &cases {
        insta::assert_json_snapshot!(*name, reply.snapshot());
    }

    // Rejections change nothing: only the one accepted order exists.
    assert_eq!(sandbox.order_records().len(), 1);
    let stats = sandbox.stats();
    assert_eq!(stats.accepted_orders, 1);
    assert_eq!(stats.nonce_rejections, 4);
    assert_eq!(stats.rejections, u64::try_from(cases.len()).unwrap() + 1);
}

#[test]
fn auth_applies_to_every_route() {
    let sandbox = Sandbox::start().unwrap();
    for path in [
        MARKET_PATH,
        TRIGGER_PATH,
        PLANS_PATH,
        OPEN_ORDERS_PATH,
        HISTORY_PATH,
        CANCEL_PATH,
    ] {
        let reply = send_hand_signed(&sandbox, (PARTNER.0, "wrong"), path, &body(path, ""));
        assert_eq!(reply.status, 401, "{path}");
        assert_eq!(reply.json()["message"], "Unauthorized request.");
        let reply = send_hand_signed(&sandbox, DISABLED, path, &body(path, ""));
        assert_eq!(reply.status, 403, "{path}");
        assert_eq!(reply.json()["code"], 2);
    }
}

#[test]
fn string_nonce_and_no_window_are_accepted() {
    let sandbox = Sandbox::start().unwrap();
    let path = MARKET_PATH;
    let body = format!(
        r#"{{"request":"{path}","nonce":"{}",{}}}"#,
        next_nonce(),
        order_fields()
    );
    let reply = send_hand_signed(&sandbox, PARTNER, path, &body);
    assert_eq!(reply.status, 200, "{}", reply.text());

    // Integer nonces, with and without the window.
    let fixed = format!(
        r#"{{"request":"{path}","nonce":{},{}}}"#,
        next_nonce(),
        order_fields()
    );
    assert_eq!(
        send_hand_signed(&sandbox, PARTNER, path, &fixed).status,
        200
    );
    assert_eq!(MARKET.send(&sandbox, PARTNER, order_fields()).status, 200);
    let plans = format!(r#"{{"request":"{PLANS_PATH}","nonce":{}}}"#, next_nonce());
    assert_eq!(
        send_hand_signed(&sandbox, PARTNER, PLANS_PATH, &plans).status,
        200
    );
    // Spaces inside strings are not spacing.
    let note = format!(r#"{},"note":"a b\t c""#, order_fields());
    assert_eq!(MARKET.send(&sandbox, PARTNER, &note).status, 200);
    assert_eq!(sandbox.order_records().len(), 4);
}

#[test]
fn protocol_errors_are_json() {
    let sandbox = Sandbox::start().unwrap();
    let reply = get(&sandbox, "/api/v4/no/such/path");
    insta::assert_json_snapshot!("unknown_path", reply.snapshot());
    assert_eq!(reply.content_type.as_deref(), Some("application/json"));

    let reply = get(&sandbox, MARKET_PATH);
    insta::assert_json_snapshot!("wrong_method", reply.snapshot());

    let big = format!(
        r#"{{"request":"{MARKET_PATH}","nonce":{},"padding":"{}"}}"#,
        next_nonce(),
        "x".repeat(100 * 1024)
    );
    // The size limit is checked before the signature: no need for a 136 KB payload header.
    let headers = [
        ("x-txc-apikey", PARTNER.0.to_owned()),
        ("x-txc-payload", "e30=".to_owned()),
    ];
    let reply = send_raw(&sandbox, MARKET_PATH, &headers, big.as_bytes());
    insta::assert_json_snapshot!("body_too_large", reply.snapshot());

    let stats = sandbox.stats();
    assert_eq!(stats.requests, 3);
    assert_eq!(stats.protocol_errors, 3);
    assert_eq!(stats.rejections, 0);
}

#[test]
fn body_limit_is_configurable() {
    let sandbox = Sandbox::builder().max_body_bytes(200).start().unwrap();
    let small = body(PLANS_PATH, "");
    assert_eq!(
        send_hand_signed(&sandbox, PARTNER, PLANS_PATH, &small).status,
        200
    );
    let large = body(PLANS_PATH, &format!(r#""pad":"{}""#, "y".repeat(300)));
    let reply = send_hand_signed(&sandbox, PARTNER, PLANS_PATH, &large);
    assert_eq!(reply.status, 413);
    assert_eq!(reply.json()["message"], "Request body is too large.");
}

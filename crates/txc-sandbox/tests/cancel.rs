//! `POST /api/v4/order/cancel` over real HTTP with hand-written bodies: canceling a resting
//! trigger order by either id, the final state it answers, what the cancellation changes, the
//! not-found answer, and validation in the endpoint's own wording.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use serde_json::{Value, json};
use txc_sandbox::Sandbox;

/// A resting BTC_USDT buy trigger order of the partner.
fn rest(sandbox: &Sandbox, client_order_id: &str) -> Value {
    resting(sandbox, PARTNER, "BTC_USDT", client_order_id, "")
}

const NOT_FOUND: &str = r#"{"code":2,"message":"Inner validation failed","errors":{"orderId":["Unexecuted order was not found."]}}"#;

#[test]
fn cancels_a_resting_order_by_either_id() {
    let sandbox = Sandbox::start().unwrap();
    let by_id = rest(&sandbox, "c-1");
    let by_client_id = rest(&sandbox, "c-2");

    let reply = CANCEL.send(&sandbox, PARTNER, &btc_order(&by_id["orderId"]));
    insta::assert_json_snapshot!("cancel_answer", reply.snapshot(), {
        ".body.timestamp" => "[timestamp]",
        ".body.orderId" => "[orderId]",
    });
    let answer = reply.json();
    assert_eq!(answer["status"], "CANCELED");
    assert_eq!(answer["orderId"], by_id["orderId"]);
    assert_eq!(answer["left"], "0.01");
    assert_eq!(answer["activated"], 0);

    let reply = CANCEL.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"c-2""#,
    );
    assert_eq!(reply.json()["orderId"], by_client_id["orderId"]);
    // An id as a digit string (older docs: String/Int).
    let third = rest(&sandbox, "c-3");
    let reply = CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","orderId":"{}""#, third["orderId"]),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());

    // Canceled: not open, its client order id free, never fires — and, the partner being a
    // B2B account, not in the history (the docs' B2B gap).
    assert_eq!(OPEN_ORDERS.send(&sandbox, PARTNER, "").json(), json!([]));
    let listed = HISTORY
        .send(&sandbox, PARTNER, r#""status":"CANCELED""#)
        .json();
    assert_eq!(listed, json!([]), "{listed}");
    assert_eq!(rest(&sandbox, "c-1")["status"], "OPEN");
    sandbox.set_price("BTC_USDT", "95000").unwrap();
    let records = sandbox.order_records();
    assert_eq!(records[0]["status"], "CANCELED");
    assert_eq!(records[0]["activated"], 0);
    assert_eq!(records[3]["status"], "FILLED", "the new c-1 fired");
    assert_eq!(sandbox.stats().canceled_orders, 3);
    assert_eq!(sandbox.stats().triggers_fired, 1);
}

#[test]
fn not_found_is_code_2() {
    let sandbox = Sandbox::start().unwrap();
    let resting = rest(&sandbox, "n-1");
    let filled = MARKET
        .send(
            &sandbox,
            PARTNER,
            &format!(
                r#"{},"clientOrderId":"n-2""#,
                fields("BTC_USDT", "buy", "0.01")
            ),
        )
        .json();
    let canceled = rest(&sandbox, "n-3");
    let id = |o: &Value| o["orderId"].as_u64().unwrap();
    assert_eq!(
        CANCEL
            .send(&sandbox, PARTNER, &btc_order(id(&canceled)))
            .status,
        200
    );
    let reply = CANCEL.send(&sandbox, PARTNER, r#""market":"BTC_USDT","orderId":1"#);
    insta::assert_json_snapshot!("cancel_not_found", reply.snapshot());
    for (case, account, fields) in [
        (
            "unknown id",
            PARTNER,
            r#""market":"BTC_USDT","orderId":1"#.to_owned(),
        ),
        (
            "unknown client id",
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"nope""#.to_owned(),
        ),
        ("filled", PARTNER, btc_order(id(&filled))),
        (
            "filled by client id",
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"n-2""#.to_owned(),
        ),
        ("already canceled", PARTNER, btc_order(id(&canceled))),
        (
            "another market",
            PARTNER,
            format!(r#""market":"BTC_PERP","orderId":{}"#, id(&resting)),
        ),
        ("another key", REGULAR, btc_order(id(&resting))),
        (
            "negative id",
            PARTNER,
            r#""market":"BTC_USDT","orderId":-5"#.to_owned(),
        ),
    ] {
        let reply = CANCEL.send(&sandbox, account, &fields);
        assert_eq!(reply.status, 400, "{case}: {}", reply.text());
        assert_eq!(reply.text(), NOT_FOUND, "{case}");
    }
    assert_eq!(sandbox.order_records()[0]["status"], "OPEN", "untouched");
}

#[test]
fn validation_answers() {
    let sandbox = Sandbox::start().unwrap();
    for (name, fields) in [
        ("nothing", ""),
        (
            "both_ids",
            r#""market":"BTC_USDT","orderId":1,"clientOrderId":"a""#,
        ),
        (
            "order_id_not_an_integer",
            r#""market":"BTC_USDT","orderId":"abc""#,
        ),
        ("market_not_a_string", r#""market":7,"orderId":1"#),
        ("market_malformed", r#""market":"BTC/USDT","orderId":1"#),
        ("market_unknown", r#""market":"DOGE_USDT","orderId":1"#),
        (
            "client_order_id_not_a_string",
            r#""market":"BTC_USDT","clientOrderId":1"#,
        ),
    ] {
        let reply = CANCEL.send(&sandbox, PARTNER, fields);
        insta::assert_json_snapshot!(format!("cancel_{name}"), reply.snapshot());
    }
    // The docs' examples, verbatim.
    assert_eq!(
        CANCEL.send(&sandbox, PARTNER, "").text(),
        r#"{"code":30,"message":"Validation failed","errors":{"market":["Market field is required."],"orderId":["OrderId field is required."]}}"#
    );
    assert_eq!(
        CANCEL
            .send(&sandbox, PARTNER, r#""market":"DOGE_USDT","orderId":1"#)
            .text(),
        r#"{"code":31,"message":"Validation failed","errors":{"market":["Market is not available."]}}"#
    );
    assert_eq!(
        CANCEL
            .send(&sandbox, PARTNER, r#""market":"BTC_USDT","orderId":"abc""#)
            .text(),
        r#"{"code":30,"message":"Validation failed","errors":{"orderId":["OrderId field should be an integer."]}}"#
    );
    assert_eq!(
        CANCEL
            .send(&sandbox, PARTNER, r#""market":7,"orderId":1"#)
            .text(),
        r#"{"code":30,"message":"Validation failed","errors":{"market":["Market field should be a string.","Market field format is invalid."]}}"#
    );
    assert_eq!(sandbox.stats().canceled_orders, 0);
}

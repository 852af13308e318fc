//! `POST /api/v4/order/modify` over real HTTP with hand-written bodies: a replacement with a
//! new `orderId` in the `OrderResponse` shape, by `orderId` or `clientOrderId`, for limit,
//! stop-limit and stop-market orders (`total` on a buy stop-market order), what it keeps (the
//! client id, an OTO group, an OCO leg's place), and every refusal — none of which changes
//! anything.

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

/// A partner's resting buy of 0.01 BTC_USDT at 64000, `quote-1`.
fn quote(sandbox: &Sandbox) -> Value {
    let reply = LIMIT.send(
        sandbox,
        PARTNER,
        &format!(
            r#"{},"clientOrderId":"quote-1","stopLoss":"60000""#,
            limit_fields("BTC_USDT", "buy", "0.01", "64000")
        ),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

#[test]
fn a_modify_replaces_the_order_with_a_new_id() {
    let sandbox = Sandbox::start().unwrap();
    let original = quote(&sandbox);
    let reply = MODIFY.send(
        &sandbox,
        PARTNER,
        &format!(
            r#""market":"BTC_USDT","orderId":{},"price":"64100","amount":"0.02""#,
            original["orderId"]
        ),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    // The OrderResponse shape: every key is one of the schema's.
    let properties: Vec<String> =
        serde_json::from_str::<Value>(&entry(spec_examples(), "orderResponseProperties"))
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
    for key in key_order(&reply.text()) {
        assert!(
            properties.contains(&key),
            "{key} is no OrderResponse property"
        );
    }
    let replaced = reply.json();
    assert_ne!(replaced["orderId"], original["orderId"], "a new orderId");
    assert_eq!(
        (replaced["price"].as_str(), replaced["amount"].as_str()),
        (Some("64100"), Some("0.02"))
    );
    assert_eq!(replaced["clientOrderId"], "quote-1");
    assert_eq!(
        replaced["oto"]["otoId"], original["oto"]["otoId"],
        "its OTO group kept"
    );
    assert_eq!(replaced["status"], "OPEN");
    let records = sandbox.order_records();
    assert_eq!(
        (records.len(), records[0]["status"].as_str()),
        (2, Some("CANCELED"))
    );
    // Found by its clientOrderId, which it kept; the amount left when none is sent.
    let again = MODIFY
        .send(
            &sandbox,
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"quote-1","price":"64200""#,
        )
        .json();
    assert_eq!(
        (again["price"].as_str(), again["amount"].as_str()),
        (Some("64200"), Some("0.02"))
    );
    assert_eq!(
        CONDITIONAL.send(&sandbox, PARTNER, "").json()["records"][0]["conditionalOrder"]["orderId"],
        again["orderId"]
    );
    assert_eq!(sandbox.stats().modified_orders, 2);
    // A replacement priced through the market executes at once, as any new order.
    let taken = MODIFY
        .send(
            &sandbox,
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"quote-1","price":"66000""#,
        )
        .json();
    assert_eq!(
        (taken["status"].as_str(), taken["dealMoney"].as_str()),
        (Some("FILLED"), Some("1300"))
    );
}

#[test]
fn stop_orders_take_a_new_activation_price_and_a_buy_stop_market_a_total() {
    let sandbox = Sandbox::start().unwrap();
    let stop = resting(&sandbox, PARTNER, "BTC_USDT", "stop-1", "");
    let moved = MODIFY
        .send(
            &sandbox,
            PARTNER,
            &format!(
                r#""market":"BTC_USDT","orderId":{},"activationPrice":"91000""#,
                stop["orderId"]
            ),
        )
        .json();
    assert_eq!(
        (moved["activation_price"].as_str(), moved["type"].as_str()),
        (Some("91000"), Some("stop market"))
    );
    // total ÷ activation price, rounded down to the step: 1000 / 91000.
    let total = MODIFY
        .send(
            &sandbox,
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"stop-1","total":"1000""#,
        )
        .json();
    assert_eq!(total["amount"], "0.010989");
    let stop_limit = STOP_LIMIT.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"activation_price":"64000","clientOrderId":"sl-1""#,
            limit_fields("BTC_USDT", "sell", "0.01", "63900")
        ),
    );
    assert_eq!(stop_limit.status, 200);
    let both = MODIFY.send(&sandbox, PARTNER, r#""market":"BTC_USDT","clientOrderId":"sl-1","price":"63800","activationPrice":"63950""#).json();
    assert_eq!(
        (both["price"].as_str(), both["activation_price"].as_str()),
        (Some("63800"), Some("63950"))
    );
}

#[test]
fn a_modified_oco_leg_stays_linked() {
    let sandbox = Sandbox::start().unwrap();
    let oco = bracket(&sandbox, "BTC_USDT", "bracket-1").json();
    let replaced = MODIFY
        .send(
            &sandbox,
            PARTNER,
            &format!(
                r#""market":"BTC_USDT","orderId":{},"price":"67000""#,
                oco["take_profit"]["orderId"]
            ),
        )
        .json();
    let listed = OCO_ORDERS.send(&sandbox, PARTNER, "").json();
    assert_eq!(listed[0]["id"], oco["id"]);
    assert_eq!(listed[0]["take_profit"]["orderId"], replaced["orderId"]);
    // The replacement executes: the stop-loss leg is canceled.
    sandbox.set_price("BTC_USDT", "67000").unwrap();
    let stop_loss = sandbox
        .order_records()
        .into_iter()
        .find(|o| o["orderId"] == oco["stop_loss"]["orderId"])
        .unwrap();
    assert_eq!(stop_loss["status"], "CANCELED");
}

#[test]
fn refusals_change_nothing() {
    let sandbox = Sandbox::start().unwrap();
    let original = quote(&sandbox);
    let id = original["orderId"].clone();
    let stop = resting(&sandbox, PARTNER, "BTC_USDT", "stop-1", "");
    // `{id}`: the resting quote's id; `{stop}`: the stop-limit order's (not modifiable by price).
    let cases: &[(&str, i64, &str)] = &[
        (r#""market":"BTC_USDT","price":"1""#, 30, "orderId"),
        (
            r#""market":"BTC_USDT","orderId":{id},"clientOrderId":"quote-1","price":"1""#,
            30,
            "orderId",
        ),
        (r#""orderId":{id},"price":"64100""#, 30, "market"),
        (
            r#""market":"NOPE_USDT","orderId":{id},"price":"64100""#,
            31,
            "market",
        ),
        (r#""market":"BTC_USDT","orderId":{id}"#, 30, "amount"),
        (
            r#""market":"BTC_USDT","orderId":{id},"amount":"0.01","total":"5""#,
            30,
            "total",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"amount":"x""#,
            32,
            "amount",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"amount":"0.0000001""#,
            32,
            "amount",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"price":"64100.001""#,
            33,
            "price",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"price":"1""#,
            32,
            "amount",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"amount":"2""#,
            10,
            "amount",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"activationPrice":"60000""#,
            30,
            "activationPrice",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"total":"100""#,
            30,
            "total",
        ),
        (
            r#""market":"BTC_USDT","orderId":{stop},"price":"90000""#,
            30,
            "price",
        ),
        (
            r#""market":"BTC_USDT","orderId":{id},"stp":"x","price":"64100""#,
            30,
            "stp",
        ),
    ];
    let fill = |template: &str| {
        template
            .replace("{id}", &id.to_string())
            .replace("{stop}", &stop["orderId"].to_string())
    };
    for &(template, code, field) in cases {
        let body = fill(template);
        let reply = MODIFY.send(&sandbox, PARTNER, &body);
        let answer = reply.json();
        assert_eq!(answer["code"], code, "{body}: {answer}");
        assert!(answer["errors"][field].is_array(), "{body}: {answer}");
    }
    // Not found, as the spec's example: unknown, another account's, on another market.
    for (account, body) in [
        (
            PARTNER,
            r#""market":"BTC_USDT","orderId":1,"price":"64100""#.to_owned(),
        ),
        (
            REGULAR,
            format!(r#""market":"BTC_USDT","orderId":{id},"price":"64100""#),
        ),
        (
            PARTNER,
            format!(r#""market":"ETH_USDT","orderId":{id},"price":"3400""#),
        ),
    ] {
        let reply = MODIFY.send(&sandbox, account, &body);
        assert_eq!(reply.status, 400, "{body}");
        assert_eq!(
            reply.json(),
            json!({"code":2,"message":"Inner validation failed","errors":{"orderId":["Unexecuted order was not found."]}})
        );
    }
    let records = sandbox.order_records();
    assert_eq!(records.len(), 2, "no replacement");
    assert!(records.iter().all(|o| o["status"] == "OPEN"));
    assert_eq!(sandbox.stats().modified_orders, 0);
}

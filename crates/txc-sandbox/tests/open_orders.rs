//! `POST /api/v4/orders` over real HTTP with hand-written bodies: which orders it lists (resting
//! trigger orders of the key), its record shape, its filters and pages, its validation answers
//! in the endpoint's own wording, and orders hidden by `Fault::VisibleAfter`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use txc_sandbox::{Fault, Route, Sandbox};

/// A resting BTC_USDT buy trigger order (activation above the price) with `client_order_id`.
fn rest(sandbox: &Sandbox, account: (&str, &str), market: &str, client_order_id: &str) -> Value {
    let side = if account == REGULAR {
        r#","positionSide":"LONG""#
    } else {
        ""
    };
    resting(sandbox, account, market, client_order_id, side)
}

fn ids(reply: &Reply) -> Vec<u64> {
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["orderId"].as_u64().unwrap())
        .collect()
}

fn id(order: &Value) -> u64 {
    order["orderId"].as_u64().unwrap()
}

#[test]
fn lists_the_keys_resting_orders_newest_first() {
    let sandbox = Sandbox::start().unwrap();
    let first = rest(&sandbox, PARTNER, "BTC_USDT", "a-1");
    let reply = MARKET.send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"));
    assert_eq!(reply.status, 200, "a filled market order is not open");
    let second = rest(&sandbox, PARTNER, "BTC_PERP", "a-2");
    rest(&sandbox, REGULAR, "BTC_USDT", "a-1");

    let reply = OPEN_ORDERS.send(&sandbox, PARTNER, "");
    assert_eq!(ids(&reply), vec![id(&second), id(&first)]);
    insta::assert_json_snapshot!("open_order_record", reply.json()[1], {
        ".timestamp" => "[timestamp]",
        ".orderId" => "[orderId]",
    });
    // The same order as the placement answered, in this endpoint's shape.
    let listed = &reply.json()[1];
    for field in ORDER_HEAD_KEYS.iter().chain(&[
        "amount",
        "left",
        "status",
        "stp",
        "positionSide",
        "reduceOnly",
        "activated",
        "activationCondition",
        "activation_price",
    ]) {
        assert_eq!(listed[*field], first[*field], "{field}");
    }
    assert!(listed.get("oto").is_none(), "oto only for OTO orders");
    assert!(
        listed.get("price").is_none(),
        "no price on stop-market orders"
    );

    // Once fired, it is no longer open.
    sandbox.set_price("BTC_USDT", "90000").unwrap();
    assert_eq!(
        ids(&OPEN_ORDERS.send(&sandbox, PARTNER, "")),
        vec![id(&second)]
    );
    assert_eq!(sandbox.stats().lookups_served, 2);
}

#[test]
fn filters_and_pages() {
    let sandbox = Sandbox::start().unwrap();
    let orders: Vec<u64> = (0..5)
        .map(|i| id(&rest(&sandbox, PARTNER, "BTC_USDT", &format!("p-{i}"))))
        .collect();
    let perp = id(&rest(&sandbox, PARTNER, "BTC_PERP", "p-0"));
    let newest_first: Vec<u64> = orders.iter().rev().copied().collect();

    let list = |fields: &str| ids(&OPEN_ORDERS.send(&sandbox, PARTNER, fields));
    assert_eq!(list(r#""market":"BTC_USDT""#), newest_first);
    assert_eq!(list(r#""market":"BTC_PERP""#), vec![perp]);
    assert_eq!(list(r#""market":"ETH_USDT""#), Vec::<u64>::new());
    assert_eq!(
        list(r#""market":"BTC_USDT","clientOrderId":"p-0""#),
        vec![orders[0]]
    );
    assert_eq!(
        list(r#""market":"BTC_PERP","clientOrderId":"p-0""#),
        vec![perp]
    );
    let by_id = btc_order(orders[2]);
    assert_eq!(list(&by_id), vec![orders[2]]);
    let by_text_id = format!(r#""market":"BTC_USDT","orderId":"{}""#, orders[2]);
    assert_eq!(list(&by_text_id), vec![orders[2]], "older docs: String/Int");
    assert_eq!(
        list(r#""market":"BTC_USDT","clientOrderId":"nope""#),
        Vec::<u64>::new()
    );
    assert_eq!(list(r#""market":"BTC_USDT","limit":2"#), newest_first[..2]);
    assert_eq!(
        list(r#""market":"BTC_USDT","limit":2,"offset":2"#),
        newest_first[2..4]
    );
    assert_eq!(
        list(r#""market":"BTC_USDT","limit":"2","offset":"4""#),
        newest_first[4..]
    );
    assert_eq!(list(r#""market":"BTC_USDT","offset":5"#), Vec::<u64>::new());
    // Another key sees none of them.
    assert_eq!(
        ids(&OPEN_ORDERS.send(&sandbox, REGULAR, "")),
        Vec::<u64>::new()
    );
}

#[test]
fn validation_answers() {
    let sandbox = Sandbox::start().unwrap();
    for (name, fields) in [
        (
            "limit_and_offset_too_large",
            r#""limit":101,"offset":4294967296"#,
        ),
        ("limit_zero_offset_negative", r#""limit":0,"offset":-1"#),
        ("limit_not_an_integer", r#""limit":"ten","offset":1.5"#),
        ("market_unknown", r#""market":"DOGE_USDT""#),
        ("market_empty", r#""market":"""#),
        ("market_malformed", r#""market":"btc-usdt""#),
        ("market_not_a_string", r#""market":5"#),
        ("id_without_market", r#""clientOrderId":"a-1""#),
        (
            "order_id_not_an_integer",
            r#""market":"BTC_USDT","orderId":"12a""#,
        ),
        (
            "client_order_id_empty",
            r#""market":"BTC_USDT","clientOrderId":"""#,
        ),
        (
            "client_order_id_not_a_string",
            r#""market":"BTC_USDT","clientOrderId":7"#,
        ),
    ] {
        let reply = OPEN_ORDERS.send(&sandbox, PARTNER, fields);
        insta::assert_json_snapshot!(format!("open_orders_{name}"), reply.snapshot());
    }
    // The docs' examples, verbatim.
    assert_eq!(
        OPEN_ORDERS
            .send(&sandbox, PARTNER, r#""market":"DOGE_USDT""#)
            .json(),
        json!({"code":31,"message":"Validation failed","errors":{"market":["Market is not available"]}})
    );
    assert_eq!(
        OPEN_ORDERS
            .send(&sandbox, PARTNER, r#""limit":101,"offset":4294967296"#)
            .json(),
        json!({"code":30,"message":"Validation failed","errors":{"limit":["The limit may not be greater than 100."],"offset":["The offset may not be greater than 4294967295."]}})
    );
    // The bounds themselves are fine.
    assert_eq!(
        OPEN_ORDERS
            .send(&sandbox, PARTNER, r#""limit":100,"offset":4294967295"#)
            .status,
        200
    );
    assert_eq!(
        OPEN_ORDERS
            .send(&sandbox, PARTNER, r#""limit":1,"offset":0"#)
            .status,
        200
    );
    assert_eq!(sandbox.stats().lookups_served, 2);
}

#[test]
fn an_order_can_become_visible_late() {
    let sandbox = hidden_once(Route::CollateralTriggerMarket);
    let hidden = rest(&sandbox, PARTNER, "BTC_USDT", "late-1");
    assert_eq!(hidden["status"], "OPEN", "answered as usual");
    let shown = rest(&sandbox, PARTNER, "BTC_USDT", "late-2");
    assert_eq!(
        ids(&OPEN_ORDERS.send(&sandbox, PARTNER, "")),
        vec![id(&shown)]
    );
    assert_eq!(
        ids(&OPEN_ORDERS.send(
            &sandbox,
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"late-1""#
        )),
        Vec::<u64>::new()
    );
    // It exists all the same: its client order id is taken, and the handle lists it.
    let again = format!(
        r#"{},"clientOrderId":"late-1""#,
        trigger_fields("BTC_USDT", "buy", "0.01", "90000")
    );
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &again).json()["code"], 36);
    assert_eq!(sandbox.order_records().len(), 2);

    // A short delay: visible once it has passed.
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::VisibleAfter(Duration::from_millis(50)),
        Some(1),
    );
    let soon = rest(&sandbox, PARTNER, "BTC_USDT", "late-3");
    let lookup = r#""market":"BTC_USDT","clientOrderId":"late-3""#;
    eventually(|| ids(&OPEN_ORDERS.send(&sandbox, PARTNER, lookup)) == vec![id(&soon)]);
}

//! `POST /api/v4/order/collateral/trigger-market` over real HTTP with hand-written bodies:
//! resting, firing on price moves, immediate activation, client order ids of open orders,
//! `activation_price` rules, cancellation at activation, reduce-only stops.

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

/// A BTC_USDT trigger order body.
fn trigger(side: &str, amount: &str, activation: &str) -> String {
    trigger_fields("BTC_USDT", side, amount, activation)
}

fn record(sandbox: &Sandbox, index: usize) -> Value {
    sandbox.order_records()[index].clone()
}

#[test]
fn rests_until_the_price_reaches_it() {
    let sandbox = Sandbox::start().unwrap();
    let reply = TRIGGER.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"clientOrderId":"breakout-1""#,
            trigger("buy", "0.01", "66000")
        ),
    );
    snap_order("trigger_order_open", &reply);
    let placed = reply.json();
    assert_eq!(placed["status"], "OPEN");
    assert_eq!(placed["type"], "stop market");
    assert_eq!(placed["activated"], 0);
    assert_eq!(placed["activationCondition"], "gte");
    assert_eq!(placed["left"], "0.01");
    assert_eq!(record(&sandbox, 0), placed);
    // Nothing is locked while it rests.
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));

    // Below the activation: nothing happens.
    sandbox.set_price("BTC_USDT", "65999").unwrap();
    assert_eq!(record(&sandbox, 0)["status"], "OPEN");

    sandbox.set_price("BTC_USDT", "66500").unwrap();
    let fired = record(&sandbox, 0);
    assert_eq!(fired["status"], "FILLED");
    assert_eq!(fired["activated"], 1);
    assert_eq!(
        fired["dealMoney"], "665",
        "fills at the price that fired it"
    );
    assert_eq!(fired["dealFee"], "0.665");
    assert_eq!(fired["left"], "0");
    assert_eq!(fired["orderId"], placed["orderId"]);
    assert_eq!(fired["timestamp"], placed["timestamp"]);
    // margin 66.5 + fee 0.665
    assert_eq!(
        sandbox.balance(PARTNER.0, "USDT").as_deref(),
        Some("9932.835")
    );
    assert_eq!(sandbox.positions(PARTNER.0)[0].entry_price, "66500");
    assert_eq!(sandbox.stats().triggers_fired, 1);
}

#[test]
fn sell_fires_at_or_below() {
    let sandbox = Sandbox::start().unwrap();
    let reply = TRIGGER.send(&sandbox, PARTNER, &trigger("sell", "0.01", "60000"));
    assert_eq!(reply.json()["activationCondition"], "lte");
    sandbox.set_price("BTC_USDT", "60001").unwrap();
    assert_eq!(record(&sandbox, 0)["status"], "OPEN");
    sandbox.set_price("BTC_USDT", "60000").unwrap();
    assert_eq!(record(&sandbox, 0)["status"], "FILLED");
    assert_eq!(sandbox.positions(PARTNER.0)[0].amount, "-0.01");
}

#[test]
fn fires_through_the_control_api_in_id_order() {
    let sandbox = Sandbox::start().unwrap();
    for activation in ["67000", "66000"] {
        let reply = TRIGGER.send(&sandbox, PARTNER, &trigger("buy", "0.01", activation));
        assert_eq!(reply.status, 200);
    }
    let reply = post_json(
        &sandbox,
        "/sandbox/v1/price",
        &json!({"market":"BTC_USDT","price":"66000"}),
    );
    assert_eq!(
        reply.json(),
        json!({"market":"BTC_USDT","price":"66000","triggered":1})
    );
    let reply = post_json(
        &sandbox,
        "/sandbox/v1/price",
        &json!({"market":"BTC_USDT","price":"68000"}),
    );
    assert_eq!(reply.json()["triggered"], 1);
    let orders = sandbox.order_records();
    assert!(orders.iter().all(|o| o["status"] == "FILLED"));
    assert_eq!(orders[0]["dealMoney"], "680");
    assert_eq!(orders[1]["dealMoney"], "660");
    assert!(orders[0]["orderId"].as_u64() < orders[1]["orderId"].as_u64());
}

#[test]
fn reached_at_placement_fills_at_once() {
    let sandbox = Sandbox::start().unwrap();
    // Buy activates at price ≥ 60000; the price is 65000.
    let reply = TRIGGER.send(&sandbox, PARTNER, &trigger("buy", "0.01", "60000"));
    snap_order("trigger_order_reached_at_placement", &reply);
    assert_eq!(sandbox.stats().triggers_fired, 1);
    assert_eq!(sandbox.stats().filled_orders, 1);
}

#[test]
fn open_trigger_holds_its_client_order_id() {
    let sandbox = Sandbox::start().unwrap();
    let with_id = |market: &str| {
        format!(
            r#"{},"clientOrderId":"cid-7""#,
            fields(market, "buy", "0.01")
        )
    };
    let resting = format!(
        r#"{},"clientOrderId":"cid-7""#,
        trigger("buy", "0.01", "70000")
    );
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &resting).status, 200);

    let reply = MARKET.send(&sandbox, PARTNER, &with_id("BTC_USDT"));
    snap_order("client_order_id_in_use", &reply);
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &resting).json()["code"], 36);
    // Another market, or another account: free.
    assert_eq!(
        MARKET.send(&sandbox, PARTNER, &with_id("BTC_PERP")).status,
        200
    );
    let other = format!(r#"{},"positionSide":"LONG""#, with_id("BTC_USDT"));
    assert_eq!(MARKET.send(&sandbox, REGULAR, &other).status, 200);

    // Once it fired, the id is free again.
    sandbox.set_price("BTC_USDT", "70000").unwrap();
    assert_eq!(
        MARKET.send(&sandbox, PARTNER, &with_id("BTC_USDT")).status,
        200
    );
}

#[test]
fn activation_price_rules() {
    let sandbox = Sandbox::start().unwrap();
    let base = r#""market":"BTC_USDT","side":"buy","amount":"0.01""#;
    for (name, extra) in [
        ("activation_price_missing", ""),
        ("activation_price_null", r#","activation_price":null"#),
        (
            "activation_price_not_a_number",
            r#","activation_price":"abc""#,
        ),
        ("activation_price_zero", r#","activation_price":"0""#),
        (
            "activation_price_out_of_range",
            r#","activation_price":"1e99""#,
        ),
        (
            "activation_price_json_number",
            r#","activation_price":66000"#,
        ),
        // The camelCase spelling of other endpoints is not this one's field.
        (
            "activation_price_camel_case",
            r#","activationPrice":"66000""#,
        ),
    ] {
        let reply = TRIGGER.send(&sandbox, PARTNER, &format!("{base}{extra}"));
        snap_order(name, &reply);
    }
    // Missing with everything else: every missing field at once.
    let reply = TRIGGER.send(&sandbox, PARTNER, "");
    assert_eq!(
        reply.json()["errors"].as_object().unwrap().len(),
        4,
        "{}",
        reply.text()
    );

    // The margin is checked at the activation price: 1 BTC at 90000 needs 9000 + 90.
    let reply = TRIGGER.send(&sandbox, PARTNER, &trigger("buy", "1", "100000"));
    assert_eq!(reply.json()["code"], 10);
    let reply = TRIGGER.send(&sandbox, PARTNER, &trigger("buy", "1", "90000"));
    assert_eq!(reply.status, 200);
    assert_eq!(sandbox.order_records().len(), 2);
}

#[test]
fn canceled_when_it_can_no_longer_execute() {
    let sandbox = Sandbox::start().unwrap();
    let reply = TRIGGER.send(&sandbox, PARTNER, &trigger("buy", "0.1", "70000"));
    assert_eq!(reply.status, 200);
    sandbox.set_balance(PARTNER.0, "USDT", "10").unwrap();
    sandbox.set_price("BTC_USDT", "71000").unwrap();
    let order = record(&sandbox, 0);
    assert_eq!(order["status"], "CANCELED");
    assert_eq!(order["activated"], 1);
    assert_eq!(order["dealStock"], "0");
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10"));
    assert!(sandbox.positions(PARTNER.0).is_empty());
}

#[test]
fn reduce_only_trigger_is_a_stop_loss() {
    let sandbox = Sandbox::start().unwrap();
    let stop = format!(r#"{},"reduceOnly":true"#, trigger("sell", "0.01", "60000"));
    // No position yet: 116.
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &stop).json()["code"], 116);
    let buy = fields("BTC_USDT", "buy", "0.01");
    assert_eq!(MARKET.send(&sandbox, PARTNER, &buy).status, 200);
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &stop).status, 200);
    sandbox.set_price("BTC_USDT", "59000").unwrap();
    assert!(sandbox.positions(PARTNER.0).is_empty());
    // 10000 − 0.65 (buy fee) − 60 (loss 0.01 × 6000) − 0.59 (sell fee)
    assert_eq!(
        sandbox.balance(PARTNER.0, "USDT").as_deref(),
        Some("9938.76")
    );
}

#[test]
fn reduce_only_trigger_is_cut_or_canceled_when_it_fires() {
    let sandbox = Sandbox::start().unwrap();
    assert_eq!(
        MARKET
            .send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"))
            .status,
        200
    );
    // Two stops, each for more than the position.
    let stop = |activation: &str| {
        format!(
            r#"{},"reduceOnly":true"#,
            trigger("sell", "0.05", activation)
        )
    };
    let reply = TRIGGER.send(&sandbox, PARTNER, &stop("60000"));
    assert_eq!(
        reply.json()["amount"],
        "0.05",
        "resting: the amount asked for"
    );
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &stop("59000")).status, 200);
    sandbox.set_price("BTC_USDT", "58000").unwrap();
    let first = record(&sandbox, 1);
    assert_eq!(first["status"], "FILLED");
    assert_eq!(first["amount"], "0.01", "cut to the position");
    // The second fired after the position was gone.
    let second = record(&sandbox, 2);
    assert_eq!(second["status"], "AUTO_CANCELED_REDUCE_ONLY");
    assert_eq!(second["activated"], 1);
    assert!(
        sandbox.positions(PARTNER.0).is_empty(),
        "closed, not flipped"
    );
}

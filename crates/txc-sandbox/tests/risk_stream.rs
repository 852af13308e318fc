//! The risk simulator on the WebSocket: a price move into margin call sends event 1 on
//! `positionsAccountMargin`, one below the maintenance level event 2 and then the liquidation
//! order (`source` `liquidation`), its deal, the balance and the positions; funding payments
//! arrive on `balanceMargin`. Each update decoded by txc-types as a client would.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::socket::{next, next_of, subscribed};
use common::{MARKET, entry, fields, key_order, spec_examples};
use serde_json::{Value, json};
use txc_sandbox::{AccountConfig, Sandbox};
use txc_types::events::{PositionEvent, PositionEventKind};

const TRADER: (&str, &str) = ("trader", "trader-secret");

fn sandbox(balance: &str) -> Sandbox {
    Sandbox::builder()
        .account(AccountConfig::new(TRADER.0, TRADER.1).balance("USDT", balance))
        .start()
        .unwrap()
}

fn buy(sandbox: &Sandbox, market: &str, amount: &str) {
    let reply = MARKET.send(sandbox, TRADER, &fields(market, "buy", amount));
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// The frames' methods.
fn methods(frames: &[Value]) -> Vec<&str> {
    frames
        .iter()
        .map(|f| f["method"].as_str().unwrap_or(""))
        .collect()
}

/// The `positionsAccountMargin_update` params of `frame`, decoded by txc-types too.
fn margin_event(frame: &Value) -> PositionEvent {
    assert_eq!(frame["method"], "positionsAccountMargin_update", "{frame}");
    assert_eq!(frame["id"], Value::Null);
    PositionEvent::from_params(&frame["params"].to_string()).unwrap()
}

#[test]
fn a_margin_call_then_a_liquidation_arrive_with_the_liquidation_order() {
    let sandbox = sandbox("1000");
    buy(&sandbox, "BTC_PERP", "0.1");
    let mut socket = subscribed(
        &sandbox,
        TRADER,
        &[
            ("positionsAccountMargin_subscribe", json!([])),
            ("ordersExecuted_subscribe", json!([["BTC_PERP"], 0])),
            ("balanceMargin_subscribe", json!(["USDT"])),
        ],
    );
    // Into margin call: event 1 with the position as it stands.
    sandbox.set_price("BTC_PERP", "57900").unwrap();
    let frame = next(&mut socket);
    let event = margin_event(&frame);
    assert_eq!(event.kind, PositionEventKind::MarginCall);
    assert_eq!(event.position.amount.as_str(), "0.1");
    let position = &frame["params"][1];
    // The example's fields (the stream's objects are read by name: their order is not kept).
    let mut example = key_order(&entry(&entry(spec_examples(), "marginEvent"), "1"));
    example.sort();
    let keys: Vec<&String> = position.as_object().unwrap().keys().collect();
    assert_eq!(keys, example.iter().collect::<Vec<_>>());
    assert_eq!(position["liq_stage"], "margin_call");
    assert_eq!(position["liq_price"], "56768");
    assert_eq!(position["base_price"], "65000");
    assert_eq!(position["amount_in_money"], "5790");
    assert_eq!(position["pnl"], "-710");
    assert_eq!(position["margin"], "650");
    assert_eq!(position["free_margin"], "343.5");
    assert_eq!(position["position_side"], "BOTH");
    // Below the maintenance level: event 2, then the liquidation order's fill — the balance
    // first, as for any fill — and the order.
    sandbox.set_price("BTC_PERP", "56700").unwrap();
    let frames = [next(&mut socket), next(&mut socket), next(&mut socket)];
    assert_eq!(
        methods(&frames),
        [
            "positionsAccountMargin_update",
            "balanceMargin_update",
            "ordersExecuted_update"
        ]
    );
    let event = margin_event(&frames[0]);
    assert_eq!(event.kind, PositionEventKind::Liquidation);
    assert_eq!(
        event.position.liq_stage.as_ref().map(|s| s.as_str()),
        Some("liquidation")
    );
    assert_eq!(frames[1]["params"][0]["B"], "297.0825");
    let order = &frames[2]["params"][0];
    assert_eq!(order["source"], "liquidation");
    assert_eq!(
        (&order["side"], &order["deal_stock"]),
        (&json!(1), &json!("0.025"))
    );
    assert_eq!(order["reduce_only"], true);
    // Further down: event 2 once more for what is left, a quarter of it, then the rest. The
    // balance channel sends the balance as it is when it reads it: the liquidation's end.
    sandbox.set_price("BTC_PERP", "55000").unwrap();
    let frames: Vec<Value> = (0..4).map(|_| next(&mut socket)).collect();
    assert_eq!(
        methods(&frames),
        [
            "positionsAccountMargin_update",
            "balanceMargin_update",
            "ordersExecuted_update",
            "ordersExecuted_update"
        ]
    );
    let event = margin_event(&frames[0]);
    assert_eq!(event.kind, PositionEventKind::Liquidation);
    assert_eq!(event.position.amount.as_str(), "0.075");
    assert_eq!(frames[1]["params"][0]["B"], "30.4575");
    assert_eq!(frames[2]["params"][0]["deal_stock"], "0.01875");
    assert_eq!(frames[3]["params"][0]["deal_stock"], "0.05625");
    assert!(sandbox.positions(TRADER.0).is_empty());
}

#[test]
fn funding_payments_arrive_on_the_balance_channel() {
    let sandbox = sandbox("10000");
    buy(&sandbox, "BTC_PERP", "0.01");
    let mut socket = subscribed(
        &sandbox,
        TRADER,
        &[
            ("balanceMargin_subscribe", json!(["USDT"])),
            ("positionsAccountMargin_subscribe", json!([])),
        ],
    );
    let before: f64 = sandbox.balance(TRADER.0, "USDT").unwrap().parse().unwrap();
    let paid = sandbox.funding_tick();
    assert_eq!(paid[0]["fundingAmount"], "-0.065");
    let update = next(&mut socket);
    assert_eq!(update["method"], "balanceMargin_update");
    let after: f64 = update["params"][0]["B"].as_str().unwrap().parse().unwrap();
    assert!((before - after - 0.065).abs() < 1e-9, "{before} → {after}");
    assert_eq!(
        sandbox.balance(TRADER.0, "USDT").unwrap(),
        update["params"][0]["B"]
    );
}

#[test]
fn funding_on_its_schedule_arrives_by_itself() {
    let sandbox = Sandbox::builder()
        .account(AccountConfig::new(TRADER.0, TRADER.1).balance("USDT", "10000"))
        .funding_interval(Duration::from_millis(200))
        .start()
        .unwrap();
    buy(&sandbox, "BTC_PERP", "0.01");
    let mut socket = subscribed(
        &sandbox,
        TRADER,
        &[("balanceMargin_subscribe", json!(["USDT"]))],
    );
    let first = next_of(&mut socket, "balanceMargin_update");
    let second = next_of(&mut socket, "balanceMargin_update");
    let amount =
        |frame: &Value| -> f64 { frame["params"][0]["B"].as_str().unwrap().parse().unwrap() };
    assert!((amount(&first) - amount(&second) - 0.065).abs() < 1e-9);
}

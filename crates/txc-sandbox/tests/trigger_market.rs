//! `POST /api/v4/order/collateral/trigger-market` over real HTTP: resting, firing on price
//! moves, immediate activation, client order ids of open orders, cancellation at activation.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use serde_json::json;
use txc_sandbox::Sandbox;
use txc_sign::decode;
use txc_types::{
    ActivationCondition, CollateralMarketOrder, CollateralTriggerMarketOrder, OrderStatus,
    OrderType, Side,
};

fn trigger(side: Side, amount: &str, activation: &str) -> CollateralTriggerMarketOrder {
    CollateralTriggerMarketOrder::builder("BTC_USDT", side, amount, activation)
        .build()
        .unwrap()
}

#[test]
fn rests_until_the_price_reaches_it() {
    let sandbox = Sandbox::start().unwrap();
    let order = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "66000")
        .client_order_id("breakout-1")
        .build()
        .unwrap();
    let reply = send(&sandbox, PARTNER, &order, true);
    insta::assert_json_snapshot!("trigger_order_open", reply.snapshot(), {
        ".body.timestamp" => "[timestamp]",
        ".body.orderId" => "[orderId]",
    });
    let placed = decode::<CollateralTriggerMarketOrder>(reply.status, &reply.body).unwrap();
    assert_eq!(placed.status, Some(OrderStatus::Open));
    assert_eq!(placed.order_type, Some(OrderType::StopMarket));
    assert_eq!(placed.activated, Some(false));
    assert_eq!(placed.activation_condition, Some(ActivationCondition::Gte));
    // Nothing is locked while it rests.
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));

    // Below the activation: nothing happens.
    sandbox.set_price("BTC_USDT", "65999").unwrap();
    assert_eq!(sandbox.orders()[0].status, Some(OrderStatus::Open));

    sandbox.set_price("BTC_USDT", "66500").unwrap();
    let fired = &sandbox.orders()[0];
    assert_eq!(fired.status, Some(OrderStatus::Filled));
    assert_eq!(fired.activated, Some(true));
    assert_eq!(
        fired.deal_money.as_deref(),
        Some("665"),
        "fills at the price that fired it"
    );
    assert_eq!(fired.deal_fee.as_deref(), Some("0.665"));
    assert_eq!(fired.left.as_deref(), Some("0"));
    assert_eq!(fired.order_id, placed.order_id);
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
    let reply = send(
        &sandbox,
        PARTNER,
        &trigger(Side::Sell, "0.01", "60000"),
        true,
    );
    assert_eq!(reply.json()["activationCondition"], "lte");
    sandbox.set_price("BTC_USDT", "60001").unwrap();
    assert_eq!(sandbox.orders()[0].status, Some(OrderStatus::Open));
    sandbox.set_price("BTC_USDT", "60000").unwrap();
    assert_eq!(sandbox.orders()[0].status, Some(OrderStatus::Filled));
    assert_eq!(sandbox.positions(PARTNER.0)[0].amount, "-0.01");
}

#[test]
fn fires_through_the_control_api_in_id_order() {
    let sandbox = Sandbox::start().unwrap();
    for activation in ["67000", "66000"] {
        assert_eq!(
            send(
                &sandbox,
                PARTNER,
                &trigger(Side::Buy, "0.01", activation),
                true
            )
            .status,
            200
        );
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
    let orders = sandbox.orders();
    assert!(orders.iter().all(|o| o.status == Some(OrderStatus::Filled)));
    assert_eq!(orders[0].deal_money.as_deref(), Some("680"));
    assert_eq!(orders[1].deal_money.as_deref(), Some("660"));
    assert!(orders[0].order_id < orders[1].order_id);
}

#[test]
fn reached_at_placement_fills_at_once() {
    let sandbox = Sandbox::start().unwrap();
    // Buy activates at price ≥ 60000; the price is 65000.
    let reply = send(
        &sandbox,
        PARTNER,
        &trigger(Side::Buy, "0.01", "60000"),
        true,
    );
    insta::assert_json_snapshot!("trigger_order_reached_at_placement", reply.snapshot(), {
        ".body.timestamp" => "[timestamp]",
        ".body.orderId" => "[orderId]",
    });
    assert_eq!(sandbox.stats().triggers_fired, 1);
    assert_eq!(sandbox.stats().filled_orders, 1);
}

#[test]
fn open_trigger_holds_its_client_order_id() {
    let sandbox = Sandbox::start().unwrap();
    let with_id = |market: &str| {
        CollateralMarketOrder::builder(market, Side::Buy, "0.01")
            .client_order_id("cid-7")
            .build()
            .unwrap()
    };
    let resting = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
        .client_order_id("cid-7")
        .build()
        .unwrap();
    assert_eq!(send(&sandbox, PARTNER, &resting, true).status, 200);

    let reply = send(&sandbox, PARTNER, &with_id("BTC_USDT"), true);
    insta::assert_json_snapshot!("client_order_id_in_use", reply.snapshot());
    assert_eq!(send(&sandbox, PARTNER, &resting, true).json()["code"], 36);
    // Another market, or another account: free.
    assert_eq!(
        send(&sandbox, PARTNER, &with_id("BTC_PERP"), true).status,
        200
    );
    let other = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("cid-7")
        .position_side(txc_types::PositionSide::Long)
        .build()
        .unwrap();
    assert_eq!(send(&sandbox, REGULAR, &other, true).status, 200);

    // Once it fired, the id is free again.
    sandbox.set_price("BTC_USDT", "70000").unwrap();
    assert_eq!(
        send(&sandbox, PARTNER, &with_id("BTC_USDT"), true).status,
        200
    );
}

#[test]
fn activation_price_answers() {
    let sandbox = Sandbox::start().unwrap();
    let base = r#""market":"BTC_USDT","side":"buy","amount":"0.01""#;
    for (name, extra) in [
        ("activation_price_missing", ""),
        (
            "activation_price_not_a_number",
            r#","activation_price":"abc""#,
        ),
        ("activation_price_zero", r#","activation_price":"0""#),
        (
            "activation_price_json_number",
            r#","activation_price":66000"#,
        ),
    ] {
        let reply = send_fields(&sandbox, PARTNER, TRIGGER_PATH, &format!("{base}{extra}"));
        insta::assert_json_snapshot!(name, reply.snapshot());
    }
    // The margin is checked at the activation price: 1 BTC at 90000 needs 9000 + 90.
    let reply = send(&sandbox, PARTNER, &trigger(Side::Buy, "1", "100000"), true);
    assert_eq!(reply.json()["code"], 10);
    let reply = send(&sandbox, PARTNER, &trigger(Side::Buy, "1", "90000"), true);
    assert_eq!(reply.status, 200);
    assert!(sandbox.orders().len() == 1);
}

#[test]
fn canceled_when_it_can_no_longer_execute() {
    let sandbox = Sandbox::start().unwrap();
    assert_eq!(
        send(&sandbox, PARTNER, &trigger(Side::Buy, "0.1", "70000"), true).status,
        200
    );
    sandbox.set_balance(PARTNER.0, "USDT", "10").unwrap();
    sandbox.set_price("BTC_USDT", "71000").unwrap();
    let order = &sandbox.orders()[0];
    assert_eq!(order.status, Some(OrderStatus::Canceled));
    assert_eq!(order.activated, Some(true));
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10"));
    assert!(sandbox.positions(PARTNER.0).is_empty());
}

#[test]
fn reduce_only_trigger_is_a_stop_loss() {
    let sandbox = Sandbox::start().unwrap();
    // No position yet: 116.
    let stop = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Sell, "0.01", "60000")
        .reduce_only(true)
        .build()
        .unwrap();
    assert_eq!(send(&sandbox, PARTNER, &stop, true).json()["code"], 116);
    let buy = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();
    assert_eq!(send(&sandbox, PARTNER, &buy, true).status, 200);
    assert_eq!(send(&sandbox, PARTNER, &stop, true).status, 200);
    sandbox.set_price("BTC_USDT", "59000").unwrap();
    assert!(sandbox.positions(PARTNER.0).is_empty());
    // 10000 − 0.65 (buy fee) − 60 (loss 0.01 × 6000) − 0.59 (sell fee)
    assert_eq!(
        sandbox.balance(PARTNER.0, "USDT").as_deref(),
        Some("9938.76")
    );
}

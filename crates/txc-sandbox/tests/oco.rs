//! OCO and OTO orders over real HTTP with hand-written bodies: creating an OCO, listing it
//! (`/api/v4/oco-orders`, `/api/v4/conditional-orders`), canceling it (`oco-cancel`,
//! `conditional-cancel`), an OTO group's life and its cancels (`oto-cancel`,
//! `conditional-cancel`) — each answer against the spec's example (keys and their order) and
//! each documented refusal.

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

fn leg_status(sandbox: &Sandbox, id: &Value) -> String {
    sandbox
        .order_records()
        .iter()
        .find(|o| o["orderId"] == *id)
        .map(|o| o["status"].as_str().unwrap().to_owned())
        .unwrap()
}

#[test]
fn an_oco_is_created_listed_and_canceled_in_the_spec_shapes() {
    let sandbox = Sandbox::start().unwrap();
    let reply = bracket(&sandbox, "BTC_USDT", "bracket-1");
    let example = entry(spec_examples(), "oco");
    same_keys(&reply.text(), &example, &[], &[]);
    for leg in ["stop_loss", "take_profit"] {
        same_keys(&entry(&reply.text(), leg), &entry(&example, leg), &[], &[]);
    }
    let oco = reply.json();
    let (stop_loss, take_profit) = (&oco["stop_loss"], &oco["take_profit"]);
    assert_eq!(
        (stop_loss["type"].as_str(), take_profit["type"].as_str()),
        (Some("stop limit"), Some("limit"))
    );
    assert_eq!(
        (stop_loss["status"].as_str(), take_profit["status"].as_str()),
        (Some("OPEN"), Some("OPEN"))
    );
    assert_eq!(
        (
            stop_loss["price"].as_str(),
            stop_loss["activation_price"].as_str()
        ),
        (Some("63900"), Some("64000"))
    );
    assert_eq!(
        (
            stop_loss["takerFee"].as_str(),
            stop_loss["makerFee"].as_str()
        ),
        (Some("0.001"), Some("0.0005"))
    );
    assert_eq!(
        (
            stop_loss["clientOrderId"].as_str(),
            take_profit["clientOrderId"].as_str()
        ),
        (Some("bracket-1"), Some("bracket-1"))
    );
    assert_eq!(sandbox.stats().accepted_orders, 2);

    // The listing: the spec's OcoOrderLeg, `margin …` types, no positionSide on a spot market.
    let list = OCO_ORDERS.send(&sandbox, PARTNER, "");
    let item = entry(&list.text(), "0");
    let example = entry(&entry(spec_examples(), "ocoOrders"), "0");
    same_keys(&item, &example, &[], &[]);
    for leg in ["stop_loss", "take_profit"] {
        same_keys(&entry(&item, leg), &entry(&example, leg), &[], &[]);
    }
    let listed = list.json();
    assert_eq!(listed[0]["id"], oco["id"]);
    assert_eq!(listed[0]["stop_loss"]["type"], "margin stop limit");
    assert_eq!(listed[0]["take_profit"]["type"], "margin limit");

    // Among the conditional orders: the spec's OCO record, camelCase legs.
    let conditional = CONDITIONAL.send(&sandbox, PARTNER, "");
    let record = at_path(&conditional.text(), &["records", "0"]);
    let example = at_path(spec_examples(), &["conditionalOrders", "records", "0"]);
    same_keys(&record, &example, &[], &[]);
    for leg in ["stopLoss", "takeProfit"] {
        same_keys(&entry(&record, leg), &entry(&example, leg), &[], &[]);
    }
    assert_eq!(conditional.json()["total"], 1);

    // Canceled by its id: both legs, in the spec's shape.
    let canceled = OCO_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","orderId":{}"#, oco["id"]),
    );
    assert_eq!(canceled.status, 200, "{}", canceled.text());
    let example = entry(spec_examples(), "ocoCancel");
    same_keys(&canceled.text(), &example, &[], &[]);
    for leg in ["stop_loss", "take_profit"] {
        same_keys(
            &entry(&canceled.text(), leg),
            &entry(&example, leg),
            &[],
            &[],
        );
        assert_eq!(canceled.json()[leg]["status"], "CANCELED");
    }
    assert!(OCO_ORDERS.list(&sandbox, PARTNER, "").is_empty());
    // Again: not found, as the spec's example.
    let again = OCO_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","orderId":{}"#, oco["id"]),
    );
    assert_eq!(again.status, 400);
    assert_eq!(
        again.json(),
        json!({"code":2,"message":"Inner validation failed","errors":{"orderId":["Unexecuted order was not found."]}})
    );

    // By its clientOrderId, which both legs carry.
    bracket(&sandbox, "BTC_USDT", "bracket-2");
    let by_client = OCO_CANCEL.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"bracket-2""#,
    );
    assert_eq!(by_client.json()["take_profit"]["status"], "CANCELED");
}

#[test]
fn on_a_futures_market_the_listed_legs_carry_their_position_side() {
    let sandbox = Sandbox::start().unwrap();
    bracket(&sandbox, "BTC_PERP", "perp-1");
    let list = OCO_ORDERS.send(&sandbox, PARTNER, r#""market":"BTC_PERP""#);
    let example = entry(&entry(spec_examples(), "ocoOrders"), "0");
    let item = entry(&list.text(), "0");
    same_keys(
        &entry(&item, "stop_loss"),
        &entry(&example, "stop_loss"),
        &["positionSide"],
        &[],
    );
    assert_eq!(list.json()[0]["take_profit"]["positionSide"], "BOTH");
    assert!(
        OCO_ORDERS
            .list(&sandbox, PARTNER, r#""market":"BTC_USDT""#)
            .is_empty()
    );
}

#[test]
fn one_leg_executing_cancels_the_other() {
    let sandbox = Sandbox::start().unwrap();
    // The take-profit leg executes.
    let first = bracket(&sandbox, "BTC_USDT", "tp").json();
    sandbox.set_price("BTC_USDT", "66000").unwrap();
    assert_eq!(
        leg_status(&sandbox, &first["take_profit"]["orderId"]),
        "FILLED"
    );
    assert_eq!(
        leg_status(&sandbox, &first["stop_loss"]["orderId"]),
        "CANCELED"
    );
    // The stop-loss leg activates (and its limit executes): the take-profit leg is canceled.
    sandbox.set_price("BTC_USDT", "65000").unwrap();
    let second = bracket(&sandbox, "BTC_USDT", "sl").json();
    sandbox.set_price("BTC_USDT", "64000").unwrap();
    assert_eq!(
        leg_status(&sandbox, &second["stop_loss"]["orderId"]),
        "FILLED"
    );
    assert_eq!(
        leg_status(&sandbox, &second["take_profit"]["orderId"]),
        "CANCELED"
    );
    assert!(OCO_ORDERS.list(&sandbox, PARTNER, "").is_empty());
    let cancel = CONDITIONAL_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","id":{}"#, second["id"]),
    );
    assert_eq!(
        (cancel.status, cancel.json()["code"].as_i64()),
        (400, Some(2))
    );
}

#[test]
fn conditional_and_oto_cancels_take_the_listed_ids() {
    let sandbox = Sandbox::start().unwrap();
    let oco = bracket(&sandbox, "BTC_USDT", "b-1").json();
    let oto = resting(
        &sandbox,
        PARTNER,
        "BTC_USDT",
        "t-1",
        r#","stopLoss":"50000","takeProfit":"95000""#,
    );
    let listed = CONDITIONAL.send(&sandbox, PARTNER, "").json();
    let ids: Vec<&Value> = listed["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert_eq!(ids, [&oto["oto"]["otoId"], &oco["id"]], "newest first");
    let not_found = |field: &str| json!({"code":2,"message":"Inner validation failed","errors":{field:["Unexecuted order was not found."]}});

    // A leg's orderId is no conditional id.
    let leg = CONDITIONAL_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(
            r#""market":"BTC_USDT","id":{}"#,
            oco["stop_loss"]["orderId"]
        ),
    );
    assert_eq!((leg.status, leg.json()), (400, not_found("id")));
    // An OCO's id is no OTO's.
    let wrong = OTO_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","otoId":{}"#, oco["id"]),
    );
    assert_eq!((wrong.status, wrong.json()), (400, not_found("otoId")));

    // The OTO by its id: the order and its group, a literal [].
    let canceled = OTO_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","otoId":{}"#, oto["oto"]["otoId"]),
    );
    assert_eq!((canceled.status, canceled.text()), (200, "[]".to_owned()));
    assert_eq!(leg_status(&sandbox, &oto["orderId"]), "CANCELED");
    // The OCO by conditional-cancel: both legs.
    let canceled = CONDITIONAL_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","id":{}"#, oco["id"]),
    );
    assert_eq!((canceled.status, canceled.text()), (200, "[]".to_owned()));
    assert_eq!(
        leg_status(&sandbox, &oco["stop_loss"]["orderId"]),
        "CANCELED"
    );
    assert_eq!(
        leg_status(&sandbox, &oco["take_profit"]["orderId"]),
        "CANCELED"
    );
    assert_eq!(CONDITIONAL.send(&sandbox, PARTNER, "").json()["total"], 0);
    // An OTO canceled by conditional-cancel too.
    let oto = resting(
        &sandbox,
        PARTNER,
        "BTC_USDT",
        "t-2",
        r#","stopLoss":"50000""#,
    );
    let canceled = CONDITIONAL_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"BTC_USDT","id":{}"#, oto["oto"]["otoId"]),
    );
    assert_eq!(canceled.text(), "[]");
    // On another market: not found.
    let oto = resting(
        &sandbox,
        PARTNER,
        "BTC_USDT",
        "t-3",
        r#","stopLoss":"50000""#,
    );
    let elsewhere = OTO_CANCEL.send(
        &sandbox,
        PARTNER,
        &format!(r#""market":"ETH_USDT","otoId":{}"#, oto["oto"]["otoId"]),
    );
    assert_eq!(elsewhere.status, 400);
}

#[test]
fn an_oto_group_activates_when_its_limit_order_fills() {
    let sandbox = Sandbox::start().unwrap();
    let body = format!(
        r#"{},"stopLoss":"60000","takeProfit":"70000","clientOrderId":"oto-limit""#,
        limit_fields("BTC_USDT", "buy", "0.01", "64000")
    );
    let parent = LIMIT.send(&sandbox, PARTNER, &body).json();
    assert!(parent["oto"]["otoId"].is_u64());
    let listed = CONDITIONAL.send(&sandbox, PARTNER, "");
    let record = at_path(&listed.text(), &["records", "0"]);
    same_keys(
        &record,
        &at_path(spec_examples(), &["conditionalOrders", "records", "1"]),
        &[],
        &[],
    );
    // The group's order in the OrderResponse shape with its `oto`.
    same_keys(
        &entry(&record, "conditionalOrder"),
        &at_path(
            spec_examples(),
            &["conditionalOrders", "records", "1", "conditionalOrder"],
        ),
        &["oto"],
        &[],
    );
    sandbox.set_price("BTC_USDT", "63000").unwrap();
    // Filled: a reduce-only stop-loss and take-profit on the other side, linked.
    let open = OPEN_ORDERS.send(&sandbox, PARTNER, "").json();
    let children = open.as_array().unwrap();
    assert_eq!(children.len(), 2);
    assert!(
        children
            .iter()
            .all(|o| o["side"] == "sell" && o["reduceOnly"] == true && o["amount"] == "0.01")
    );
    let types: Vec<&str> = children
        .iter()
        .map(|o| o["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["limit", "stop market"]);
    assert_eq!(CONDITIONAL.send(&sandbox, PARTNER, "").json()["total"], 0);
    // Not among the orders a request placed.
    assert_eq!(sandbox.order_records().len(), 1);
    // The stop-loss fires: the position closes, the take-profit is canceled.
    sandbox.set_price("BTC_USDT", "59000").unwrap();
    assert!(OPEN_ORDERS.list(&sandbox, PARTNER, "").is_empty());
    assert!(sandbox.positions(PARTNER.0).is_empty());
}

#[test]
fn refusals() {
    let sandbox = Sandbox::start().unwrap();
    let missing = OCO.send(&sandbox, PARTNER, "").json();
    let mut fields: Vec<&String> = missing["errors"].as_object().unwrap().keys().collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "activation_price",
            "amount",
            "market",
            "price",
            "side",
            "stop_limit_price"
        ]
    );
    assert_eq!(missing["code"], 30);
    for (endpoint, body, code, field) in [
        (
            OCO,
            oco_fields("BTC_USDT", "sell", "66000", "64000", "63900.001"),
            33,
            "stop_limit_price",
        ),
        (
            OCO,
            oco_fields("BTC_USDT", "sell", "66000", "64000", "1"),
            32,
            "amount",
        ),
        (
            OCO,
            format!(
                r#"{},"reduceOnly":true"#,
                oco_fields("BTC_USDT", "sell", "66000", "64000", "63900")
            ),
            116,
            "reduceOnly",
        ),
        (
            OCO_CANCEL,
            r#""market":"BTC_USDT""#.to_owned(),
            30,
            "orderId",
        ),
        (
            OCO_CANCEL,
            r#""market":"BTC_USDT","orderId":1,"clientOrderId":"a""#.to_owned(),
            30,
            "orderId",
        ),
        (
            OCO_CANCEL,
            r#""market":"NOPE_USDT","orderId":1"#.to_owned(),
            31,
            "market",
        ),
        (
            CONDITIONAL_CANCEL,
            r#""market":"BTC_USDT""#.to_owned(),
            30,
            "id",
        ),
        (CONDITIONAL_CANCEL, r#""id":1"#.to_owned(), 30, "market"),
        (
            CONDITIONAL_CANCEL,
            r#""market":"NOPE_USDT","id":1"#.to_owned(),
            31,
            "market",
        ),
        (
            OTO_CANCEL,
            r#""market":"BTC_USDT","otoId":"x""#.to_owned(),
            30,
            "otoId",
        ),
        (OCO_ORDERS, r#""limit":101"#.to_owned(), 30, "limit"),
        (
            OCO_ORDERS,
            r#""market":"NOPE_USDT""#.to_owned(),
            31,
            "market",
        ),
    ] {
        let reply = endpoint.send(&sandbox, PARTNER, &body);
        let answer = reply.json();
        assert_eq!(reply.status, 422, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
        assert!(answer["errors"][field].is_array(), "{body}: {answer}");
    }
    assert!(sandbox.order_records().is_empty());
}

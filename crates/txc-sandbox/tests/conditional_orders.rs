//! `POST /api/v4/conditional-orders` as the spec describes it: OTO groups made by trigger
//! orders with a stop-loss or take-profit, `limit` 1–100, code 31 for an unknown market, pages
//! with their `total` — and the look-ups lagging apart (`Fault::Lagging`).

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

/// A resting buy trigger order with a stop-loss (an OTO group); its answer.
fn oto(sandbox: &Sandbox, market: &str, client_order_id: &str) -> Value {
    resting(
        sandbox,
        PARTNER,
        market,
        client_order_id,
        r#","stopLoss":"50000""#,
    )
}

#[test]
fn oto_groups_of_resting_trigger_orders_paged_with_their_total() {
    let sandbox = Sandbox::start().unwrap();
    let first = oto(&sandbox, "BTC_USDT", "g-1");
    // Neither a trigger order without stop-loss or take-profit, nor a market order (filled at
    // once) makes a listed group.
    TRIGGER.send(
        &sandbox,
        PARTNER,
        &trigger_fields("BTC_USDT", "buy", "0.01", "90000"),
    );
    MARKET.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"stopLoss":"50000""#,
            fields("BTC_USDT", "buy", "0.01")
        ),
    );
    let second = oto(&sandbox, "ETH_USDT", "g-2");
    let page = CONDITIONAL.send(&sandbox, PARTNER, "").json();
    assert_eq!(
        (
            page["limit"].clone(),
            page["offset"].clone(),
            page["total"].clone()
        ),
        (json!(100), json!(0), json!(2))
    );
    let records = page["records"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    let group = &records[1];
    assert_eq!(group["type"], "oto");
    assert_eq!(group["id"], first["oto"]["otoId"]);
    assert_eq!(group["stopLossPrice"], "50000");
    assert!(group.get("takeProfitPrice").is_none());
    let order = &group["conditionalOrder"];
    assert_eq!(order["orderId"], first["orderId"]);
    assert_eq!(order["clientOrderId"], "g-1");
    assert_eq!(order["status"], "OPEN");
    assert_eq!(order["activation_price"], "90000");
    // The keys in the spec's order.
    let text = CONDITIONAL.send(&sandbox, PARTNER, "").text();
    let expected = format!(
        r#"{{"id":{},"type":"oto","stopLossPrice":"50000","conditionalOrder":{{"orderId":{}"#,
        first["oto"]["otoId"], first["orderId"]
    );
    assert!(text.contains(&expected), "{text}");
    assert!(
        text.starts_with(r#"{"limit":100,"offset":0,"total":2,"records":["#),
        "{text}"
    );

    // One market; pages.
    let eth = CONDITIONAL
        .send(&sandbox, PARTNER, r#""market":"ETH_USDT""#)
        .json();
    assert_eq!(eth["total"], 1);
    assert_eq!(
        eth["records"][0]["conditionalOrder"]["orderId"],
        second["orderId"]
    );
    let page = CONDITIONAL
        .send(&sandbox, PARTNER, r#""limit":1,"offset":1"#)
        .json();
    assert_eq!(
        (
            page["total"].clone(),
            page["records"].as_array().unwrap().len()
        ),
        (json!(2), 1)
    );
    assert_eq!(
        page["records"][0]["conditionalOrder"]["clientOrderId"],
        "g-1"
    );
    // Another account's groups are its own.
    let other = CONDITIONAL.send(&sandbox, REGULAR, "").json();
    assert_eq!(other["total"], 0);
    // Fired or canceled: no longer listed.
    sandbox.set_price("BTC_USDT", "95000").unwrap();
    let page = CONDITIONAL.send(&sandbox, PARTNER, "").json();
    assert_eq!(page["total"], 1);
}

#[test]
fn validation_answers() {
    let sandbox = Sandbox::start().unwrap();
    let unknown = CONDITIONAL.send(&sandbox, PARTNER, r#""market":"DOGE_USDT""#);
    assert_eq!(
        (unknown.status, unknown.json()["code"].clone()),
        (422, json!(31))
    );
    for page in [
        r#""limit":0"#,
        r#""limit":101"#,
        r#""offset":-1"#,
        r#""limit":"x""#,
    ] {
        let reply = CONDITIONAL.send(&sandbox, PARTNER, page);
        assert_eq!(
            (reply.status, reply.json()["code"].clone()),
            (422, json!(30)),
            "{page}"
        );
    }
    assert_eq!(
        CONDITIONAL.send(&sandbox, PARTNER, r#""limit":100"#).status,
        200
    );
}

#[test]
fn oto_orders_can_be_left_out_of_the_open_orders() {
    let sandbox = Sandbox::builder()
        .oto_orders_in_open_orders(false)
        .start()
        .unwrap();
    oto(&sandbox, "BTC_USDT", "only-1");
    let open = OPEN_ORDERS.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"only-1""#,
    );
    assert_eq!(open.json(), json!([]));
    let page = CONDITIONAL.send(&sandbox, PARTNER, "").json();
    assert_eq!(
        page["records"][0]["conditionalOrder"]["clientOrderId"],
        "only-1"
    );
    // Its id is still held: open is open.
    let again = format!(
        r#"{},"clientOrderId":"only-1""#,
        trigger_fields("BTC_USDT", "buy", "0.01", "90000")
    );
    let again = TRIGGER.send(&sandbox, PARTNER, &again);
    assert_eq!(again.json()["code"], 36);
}

#[test]
fn each_look_up_can_lag_on_its_own() {
    let sandbox = Sandbox::start().unwrap();
    oto(&sandbox, "BTC_USDT", "lag-1");
    // The open orders lag an hour: the order was not there yet.
    sandbox.inject_fault(
        Route::OpenOrders,
        Fault::Lagging(Duration::from_secs(3600)),
        Some(1),
    );
    let lagging = OPEN_ORDERS.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"lag-1""#,
    );
    assert_eq!(lagging.json(), json!([]));
    let now = OPEN_ORDERS.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"lag-1""#,
    );
    assert_eq!(now.json()[0]["clientOrderId"], "lag-1");
    // Filled now; a lagging history has not seen it finish, a lagging open orders list still
    // shows it resting, and so do the conditional orders.
    std::thread::sleep(Duration::from_millis(1_100));
    sandbox.set_price("BTC_USDT", "95000").unwrap();
    let id = r#""market":"BTC_USDT","clientOrderId":"lag-1""#;
    assert_eq!(
        HISTORY.send(&sandbox, PARTNER, id).json()["BTC_USDT"][0]["status"],
        "FILLED"
    );
    sandbox.inject_fault(
        Route::OrderHistory,
        Fault::Lagging(Duration::from_secs(1)),
        Some(1),
    );
    assert_eq!(HISTORY.send(&sandbox, PARTNER, id).json()["code"], 30);
    sandbox.inject_fault(
        Route::OpenOrders,
        Fault::Lagging(Duration::from_secs(1)),
        Some(1),
    );
    let resting = OPEN_ORDERS.send(&sandbox, PARTNER, id).json();
    assert_eq!(
        (
            resting[0]["clientOrderId"].clone(),
            resting[0]["status"].clone()
        ),
        (json!("lag-1"), json!("OPEN"))
    );
    assert_eq!(resting[0]["dealStock"], "0");
    sandbox.inject_fault(
        Route::ConditionalOrders,
        Fault::Lagging(Duration::from_secs(1)),
        Some(1),
    );
    assert_eq!(CONDITIONAL.send(&sandbox, PARTNER, "").json()["total"], 1);
    assert_eq!(CONDITIONAL.send(&sandbox, PARTNER, "").json()["total"], 0);
    assert_eq!(OPEN_ORDERS.send(&sandbox, PARTNER, id).json(), json!([]));
}

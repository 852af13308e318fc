//! Limit, stop-limit and bulk orders over real HTTP with hand-written bodies: their answers
//! against the spec's examples (keys and their order), resting on the book and filling as the
//! price moves (in part, with a volume), executing at once against the market, `ioc`,
//! post-only and RPI, the refusals the spec documents (30, 31, 32, 33, 36, 37, 40, 43, 10,
//! 111, 114, 116), the look-ups and the history of a limit order.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use serde_json::Value;
use txc_sandbox::{AccountConfig, MarketConfig, PriceStep, Sandbox};

/// A partner's resting buy of 0.01 BTC_USDT at 64000.5.
fn resting_bid(sandbox: &Sandbox) -> Reply {
    let reply = LIMIT.send(
        sandbox,
        PARTNER,
        &format!(
            r#"{},"clientOrderId":"bid-1""#,
            limit_fields("BTC_USDT", "buy", "0.01", "64000.5")
        ),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
}

#[test]
fn a_limit_order_rests_in_the_spec_shape_and_fills_as_maker_when_the_price_crosses_it() {
    let sandbox = Sandbox::start().unwrap();
    let reply = resting_bid(&sandbox);
    // Every key of the spec's example, in its order, and nothing else.
    same_keys(&reply.text(), &entry(spec_examples(), "limit"), &[], &[]);
    let order = reply.json();
    assert_eq!(order["type"], "limit");
    assert_eq!(order["status"], "OPEN", "resting: the sandbox's OPEN");
    assert_eq!(order["price"], "64000.5");
    assert_eq!(
        (order["left"].as_str(), order["dealStock"].as_str()),
        (Some("0.01"), Some("0"))
    );
    assert_eq!(
        (
            order["postOnly"].as_bool(),
            order["ioc"].as_bool(),
            order["rpi"].as_bool()
        ),
        (Some(false), Some(false), Some(false))
    );
    assert_eq!(order["oto"], Value::Null);
    assert_eq!(
        sandbox.balance(PARTNER.0, "USDT").as_deref(),
        Some("10000"),
        "nothing locked"
    );

    // Listed among the open orders in the OrderResponse shape of the spec's example.
    let open = OPEN_ORDERS.send(&sandbox, PARTNER, r#""market":"BTC_USDT""#);
    let example = at_path(
        spec_examples(),
        &["conditionalOrders", "records", "1", "conditionalOrder"],
    );
    same_keys(&entry(&open.text(), "0"), &example, &[], &[]);
    assert_eq!(open.json()[0]["price"], "64000.5");

    // The price falls through it: filled at its own price, with the maker fee.
    sandbox.set_price("BTC_USDT", "64000").unwrap();
    let filled = &sandbox.order_records()[0];
    assert_eq!(filled["status"], "FILLED");
    assert_eq!(filled["dealMoney"], "640.005");
    assert_eq!(filled["dealFee"], "0.3200025", "0.05 % maker fee");
    // 64.0005 of margin at leverage 10, the fee.
    assert_eq!(
        sandbox.balance(PARTNER.0, "USDT").as_deref(),
        Some("9935.6794975")
    );
    assert_eq!(sandbox.positions(PARTNER.0)[0].entry_price, "64000.5");
    let history = HISTORY
        .send(&sandbox, PARTNER, r#""clientOrderId":"bid-1""#)
        .json();
    let record = &history["BTC_USDT"][0];
    assert_eq!(
        (
            record["type"].as_str(),
            record["price"].as_str(),
            record["status"].as_str()
        ),
        (Some("limit"), Some("64000.5"), Some("FILLED"))
    );
}

#[test]
fn a_move_with_a_volume_fills_in_part() {
    let sandbox = Sandbox::start().unwrap();
    // The regular account: the partner's canceled orders never reach the history.
    let reply = LIMIT.send(
        &sandbox,
        REGULAR,
        &format!(
            r#"{},"positionSide":"LONG""#,
            limit_fields("BTC_USDT", "buy", "0.01", "64000.5")
        ),
    );
    let id = reply.json()["orderId"].clone();
    let moves = sandbox
        .follow_price_path("BTC_USDT", &[PriceStep::to("63999").volume("0.004")])
        .unwrap();
    assert_eq!((moves[0].filled, moves[0].triggered), (1, 0));
    let open = OPEN_ORDERS
        .send(&sandbox, REGULAR, r#""market":"BTC_USDT""#)
        .json();
    assert_eq!(open[0]["orderId"], id);
    assert_eq!(open[0]["status"], "PARTIALLY_FILLED");
    assert_eq!(
        (open[0]["dealStock"].as_str(), open[0]["left"].as_str()),
        (Some("0.004"), Some("0.006"))
    );
    // Canceled with the rest: the history's PARTIALLY_FILLED filter finds it.
    let canceled = CANCEL.send(&sandbox, REGULAR, &btc_order(&id));
    assert_eq!(canceled.json()["status"], "CANCELED");
    let partly = HISTORY
        .send(&sandbox, REGULAR, r#""status":"PARTIALLY_FILLED""#)
        .json();
    assert_eq!(partly["BTC_USDT"][0]["id"], id);
    assert_eq!(partly["BTC_USDT"][0]["dealStock"], "0.004");
}

#[test]
fn a_marketable_limit_order_takes_at_the_market_and_ioc_cancels_the_rest() {
    let sandbox = Sandbox::start().unwrap();
    let taken = LIMIT.send(
        &sandbox,
        PARTNER,
        &limit_fields("BTC_USDT", "buy", "0.01", "66000"),
    );
    let taken = taken.json();
    assert_eq!(taken["status"], "FILLED");
    assert_eq!(
        (taken["dealMoney"].as_str(), taken["dealFee"].as_str()),
        (Some("650"), Some("0.65")),
        "at the market, taker fee"
    );
    // An ioc sell above the market takes nothing and ends.
    let ioc = LIMIT.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"ioc":true"#,
            limit_fields("BTC_USDT", "sell", "0.01", "66000")
        ),
    );
    let ioc = ioc.json();
    assert_eq!(
        (
            ioc["status"].as_str(),
            ioc["dealStock"].as_str(),
            ioc["ioc"].as_bool()
        ),
        (Some("CANCELED"), Some("0"), Some(true))
    );
    assert!(OPEN_ORDERS.list(&sandbox, PARTNER, "").is_empty());
}

#[test]
fn refusals_by_the_spec_and_the_markets_rules() {
    let sandbox = Sandbox::start().unwrap();
    // A BTC_USDT order of `side`, `amount` at `price`, with `extra` fields.
    let on = |side: &str, amount: &str, price: &str, extra: &str| {
        format!("{}{extra}", limit_fields("BTC_USDT", side, amount, price))
    };
    let order = |extra: &str| on("buy", "0.01", "64000", extra);
    let cases: Vec<(String, (&str, &str), i64, &str)> = vec![
        (String::new(), PARTNER, 30, "price"),
        (on("buy", "0.01", "64000.123", ""), PARTNER, 33, "price"),
        (on("buy", "0.01", "x", ""), PARTNER, 33, "price"),
        (on("buy", "0.001", "1", ""), PARTNER, 32, "amount"),
        (on("buy", "200000", "65000", ""), PARTNER, 32, "amount"),
        (on("buy", "0.0000001", "64000", ""), PARTNER, 32, "amount"),
        (
            limit_fields("NOPE_USDT", "buy", "0.01", "64000"),
            PARTNER,
            31,
            "market",
        ),
        (
            order(r#","clientOrderId":"a b""#),
            PARTNER,
            36,
            "clientOrderId",
        ),
        (order(r#","stopLoss":"60000.001""#), PARTNER, 33, "stopLoss"),
        (order(r#","ioc":true,"postOnly":true"#), PARTNER, 37, "ioc"),
        (order(r#","ioc":true,"rpi":true"#), PARTNER, 40, "rpi"),
        (
            order(r#","rpi":true,"postOnly":true"#),
            PARTNER,
            30,
            "postOnly",
        ),
        (order(r#","postOnly":"yes""#), PARTNER, 30, "postOnly"),
        (order(r#","reduceOnly":true"#), PARTNER, 116, "reduceOnly"),
        (
            order(r#","reduceOnly":true,"takeProfit":"70000""#),
            PARTNER,
            30,
            "reduceOnly",
        ),
        (order(""), REGULAR, 114, "positionSide"),
        (on("buy", "2", "64000", ""), PARTNER, 10, "amount"),
        // Would take at once: refused as post-only or RPI (the sandbox's 30).
        (
            on("buy", "0.01", "65000", r#","postOnly":true"#),
            PARTNER,
            30,
            "postOnly",
        ),
        (
            on("sell", "0.01", "65000", r#","rpi":true"#),
            PARTNER,
            30,
            "rpi",
        ),
    ];
    for (body, account, code, field) in cases {
        let reply = LIMIT.send(&sandbox, account, &body);
        let answer = reply.json();
        assert_eq!(reply.status, 422, "{body}: {}", reply.text());
        assert_eq!(answer["code"], code, "{body}: {answer}");
        assert!(answer["errors"][field].is_array(), "{body}: {answer}");
    }
    let missing = LIMIT.send(&sandbox, PARTNER, "").json();
    assert_eq!(
        keys_of(&missing["errors"]),
        ["amount", "market", "price", "side"]
    );
    assert_eq!(missing["errors"]["price"][0], "Price field is required.");
    let step = LIMIT
        .send(
            &sandbox,
            PARTNER,
            &limit_fields("BTC_USDT", "buy", "0.01", "64000.123"),
        )
        .json();
    assert_eq!(step["errors"]["price"][0], "Min price step = 0.01");
    let small = LIMIT
        .send(
            &sandbox,
            PARTNER,
            &limit_fields("BTC_USDT", "buy", "0.001", "1"),
        )
        .json();
    assert_eq!(
        small["errors"]["amount"][0],
        "Total amount should be no less than 5"
    );
    // A post-only order that would not take rests.
    let maker = LIMIT.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"postOnly":true"#,
            limit_fields("BTC_USDT", "buy", "0.01", "64999.99")
        ),
    );
    assert_eq!(maker.json()["status"], "OPEN");
    assert!(sandbox.order_records().len() == 1, "nothing else placed");
}

#[test]
fn rpi_and_the_position_limit_per_account_and_market() {
    let sandbox = Sandbox::builder()
        .clear_defaults()
        .account(
            AccountConfig::new("no-rpi", "secret")
                .rpi(false)
                .balance("USDT", "100000"),
        )
        .market(
            MarketConfig::new("SOL_USDT", "150")
                .amount_step("0.1")
                .money_precision(2)
                .max_position("10"),
        )
        .start()
        .unwrap();
    let key = ("no-rpi", "secret");
    let rpi = LIMIT.send(
        &sandbox,
        key,
        &format!(
            r#"{},"rpi":true"#,
            limit_fields("SOL_USDT", "buy", "1", "140")
        ),
    );
    assert_eq!(rpi.json()["code"], 43, "{}", rpi.text());
    let within = MARKET.send(&sandbox, key, &fields("SOL_USDT", "buy", "10"));
    assert_eq!(within.status, 200, "{}", within.text());
    let beyond = LIMIT.send(
        &sandbox,
        key,
        &limit_fields("SOL_USDT", "buy", "0.1", "140"),
    );
    assert_eq!(beyond.json()["code"], 111, "{}", beyond.text());
    // Reducing is always allowed.
    let reducing = LIMIT.send(&sandbox, key, &limit_fields("SOL_USDT", "sell", "5", "160"));
    assert_eq!(reducing.json()["status"], "OPEN");
}

#[test]
fn a_stop_limit_order_waits_activates_and_rests() {
    let sandbox = Sandbox::start().unwrap();
    let body = format!(
        r#"{},"activation_price":"66000","clientOrderId":"stop-1""#,
        limit_fields("BTC_USDT", "buy", "0.01", "65900")
    );
    let reply = STOP_LIMIT.send(&sandbox, PARTNER, &body);
    assert_eq!(reply.status, 200, "{}", reply.text());
    // The spec example's keys, plus the stop fields the trigger order answers too.
    same_keys(
        &reply.text(),
        &entry(spec_examples(), "stopLimit"),
        &["activated", "activationCondition"],
        &[],
    );
    let order = reply.json();
    assert_eq!(
        (order["type"].as_str(), order["status"].as_str()),
        (Some("stop limit"), Some("OPEN"))
    );
    assert_eq!(
        (
            order["activation_price"].as_str(),
            order["activated"].as_u64()
        ),
        (Some("66000"), Some(0))
    );
    // Required fields, together.
    let missing = STOP_LIMIT
        .send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"))
        .json();
    assert_eq!(keys_of(&missing["errors"]), ["activation_price", "price"]);
    // Reached: it becomes a limit buy at 65900 with the market at 66000 — resting.
    sandbox.set_price("BTC_USDT", "66000").unwrap();
    let open = OPEN_ORDERS
        .send(
            &sandbox,
            PARTNER,
            r#""market":"BTC_USDT","clientOrderId":"stop-1""#,
        )
        .json();
    assert_eq!(
        (open[0]["activated"].as_u64(), open[0]["status"].as_str()),
        (Some(1), Some("OPEN"))
    );
    sandbox.set_price("BTC_USDT", "65800").unwrap();
    let filled = &sandbox.order_records()[0];
    assert_eq!(
        (filled["status"].as_str(), filled["dealMoney"].as_str()),
        (Some("FILLED"), Some("659"))
    );
}

#[test]
fn a_bulk_answers_each_order_in_its_place() {
    let sandbox = Sandbox::start().unwrap();
    let orders = format!(
        r#""orders":[{{{}}},{{{}}},{{{}}}]"#,
        limit_fields("BTC_USDT", "buy", "0.01", "64000"),
        limit_fields("BTC_USDT", "buy", "0.0001", "64000"),
        limit_fields("ETH_USDT", "sell", "0.1", "3400"),
    );
    let reply = BULK.send(&sandbox, PARTNER, &orders);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let items = reply.json();
    let example = entry(spec_examples(), "bulk");
    for (i, item) in items.as_array().unwrap().iter().enumerate() {
        same_keys(
            &entry(&reply.text(), &i.to_string()),
            &entry(&example, "0"),
            &[],
            &[],
        );
        assert!(
            item["result"].is_null() != item["error"].is_null(),
            "{item}"
        );
    }
    // The result's keys: the example's (whose order the spec's schema and example disagree
    // on), the error's the example's.
    let mut result = key_order(&at_path(&reply.text(), &["0", "result"]));
    let mut wanted = key_order(&at_path(&example, &["0", "result"]));
    result.sort();
    wanted.sort();
    assert_eq!(result, wanted);
    same_keys(
        &at_path(&reply.text(), &["1", "error"]),
        &at_path(&example, &["1", "error"]),
        &[],
        &[],
    );
    assert_eq!(items[0]["result"]["status"], "OPEN");
    assert_eq!(items[1]["error"]["code"], 32);
    assert_eq!(
        items[2]["result"]["status"], "FILLED",
        "a sell below the market takes it"
    );
    assert_eq!(sandbox.stats().accepted_orders, 2);

    // stopOnFail: the orders after the first refused one are not processed.
    let stopping = format!(
        r#""stopOnFail":true,"orders":[{{{}}},{{{}}},{{{}}}]"#,
        limit_fields("BTC_USDT", "buy", "0.01", "63000"),
        limit_fields("BTC_USDT", "buy", "0.01", "63000.001"),
        limit_fields("BTC_USDT", "buy", "0.01", "62000"),
    );
    let items = BULK.send(&sandbox, PARTNER, &stopping).json();
    assert_eq!(items[0]["result"]["status"], "OPEN");
    assert_eq!(items[1]["error"]["code"], 33);
    assert_eq!(items[2]["error"]["code"], 30);
    assert!(items[2]["error"]["errors"]["stopOnFail"].is_array());
    assert_eq!(sandbox.stats().accepted_orders, 3);

    // The envelope: 1 to 20 orders.
    let one = format!("{{{}}}", limit_fields("BTC_USDT", "buy", "0.01", "60000"));
    let many = format!(r#""orders":[{}]"#, vec![one.as_str(); 21].join(","));
    for (body, message) in [
        (many.as_str(), "validation.between"),
        (r#""orders":[]"#, "validation.between"),
        (r#""orders":"x""#, "validation.required"),
        ("", "validation.required"),
    ] {
        let answer = BULK.send(&sandbox, PARTNER, body).json();
        assert_eq!(
            (
                answer["code"].as_i64(),
                answer["errors"]["orders"][0].as_str()
            ),
            (Some(30), Some(message)),
            "{body}"
        );
    }
    let twenty = format!(r#""orders":[{}]"#, vec![one.as_str(); 20].join(","));
    assert_eq!(
        BULK.send(&sandbox, PARTNER, &twenty)
            .json()
            .as_array()
            .unwrap()
            .len(),
        20
    );
}

#[test]
fn the_control_api_moves_the_price_along_a_path() {
    let sandbox = Sandbox::start().unwrap();
    resting_bid(&sandbox);
    let reply = post_json(
        &sandbox,
        "/sandbox/v1/price-path",
        &serde_json::json!({"market": "BTC_USDT", "steps": [
            {"price": "64500"},
            {"price": "63000", "volume": "0.004"},
            {"price": "63500"},
        ]}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let moves = reply.json()["moves"].clone();
    let filled: Vec<u64> = moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["filled"].as_u64().unwrap())
        .collect();
    assert_eq!(
        filled,
        [0, 1, 1],
        "nothing, then part, then the rest (still crossed)"
    );
    assert_eq!(sandbox.order_records()[0]["status"], "FILLED");
    let bad = post_json(
        &sandbox,
        "/sandbox/v1/price-path",
        &serde_json::json!({"market": "BTC_USDT", "steps": [{"price": "1"}, {"price": "-1"}]}),
    );
    assert_eq!(bad.status, 400);
    // Played in the background.
    sandbox.set_price("BTC_USDT", "65000").unwrap();
    resting_bid(&sandbox);
    let scheduled = post_json(
        &sandbox,
        "/sandbox/v1/price-path",
        &serde_json::json!({"market": "BTC_USDT", "intervalMs": 10, "steps": [{"price": "64500"}, {"price": "64000"}]}),
    );
    assert_eq!(scheduled.json()["scheduled"], 2);
    eventually(|| sandbox.order_records()[1]["status"] == "FILLED");
}

/// An object's keys, sorted.
fn keys_of(value: &Value) -> Vec<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

//! `POST /api/v4/order/collateral/market` over real HTTP with hand-written bodies: the filled
//! order's record, then one test per rule class of the docs, each answer snapshotted.

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

/// Sends each `(name, account, fields)` as a market order and snapshots the answer.
fn snap_all(sandbox: &Sandbox, cases: &[(&str, (&str, &str), String)]) {
    for (name, account, fields) in cases {
        snap_order(name, &MARKET.send(sandbox, *account, fields));
    }
}

/// Sends a market order by the partner for each of `values` (put in the body by `with`); each
/// is answered `expected`.
fn each_answers(sandbox: &Sandbox, with: impl Fn(&str) -> String, values: &[&str], expected: i64) {
    for value in values {
        let reply = MARKET.send(sandbox, PARTNER, &with(value));
        assert_eq!(code(&reply), expected, "{value}");
    }
}

#[test]
fn fills_at_the_market_price() {
    let sandbox = Sandbox::start().unwrap();
    let reply = MARKET.send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"));
    snap_order("market_order_filled", &reply);
    let json = reply.json();
    assert_eq!(json["status"], "FILLED");
    assert_eq!(json["type"], "market");
    assert_eq!(json["clientOrderId"], "");
    assert_eq!(json["oto"], Value::Null);
    assert_eq!(json["dealMoney"], "650");
    assert_eq!(json["dealFee"], "0.65");
    assert!(json["orderId"].is_u64());
    assert!(json["timestamp"].as_f64().unwrap() > 1.7e9);
    // Every key of the docs' example, in its order.
    let text = reply.text();
    let at: Vec<usize> = ORDER_HEAD_KEYS
        .iter()
        .chain(&[
            "dealMoney",
            "dealStock",
            "amount",
            "left",
            "dealFee",
            "status",
            "stp",
            "oto",
            "positionSide",
            "reduceOnly",
        ])
        .map(|k| {
            text.find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k} missing"))
        })
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "docs' key order: {text}"
    );
    assert_eq!(json.as_object().unwrap().len(), at.len());
    // The handle's records are the answers.
    assert_eq!(sandbox.order_records(), vec![json]);
}

#[test]
fn oto_and_client_order_id() {
    let sandbox = Sandbox::start().unwrap();
    let body = r#""market":"BTC_PERP","side":"sell","amount":"0.002","clientOrderId":"order-1.a_B","stopLoss":"70000","takeProfit":60000,"stp":"co""#;
    let reply = MARKET.send(&sandbox, PARTNER, body);
    snap_order("market_order_oto", &reply);
    let oto = &reply.json()["oto"];
    assert!(oto["otoId"].is_u64());
    assert_eq!(
        oto["takeProfit"], "60000",
        "a JSON number price, echoed as text"
    );
    // A filled market order does not hold its client order id.
    assert_eq!(MARKET.send(&sandbox, PARTNER, body).status, 200);
}

#[test]
fn lenient_where_the_docs_are() {
    let sandbox = Sandbox::start().unwrap();
    // Reordered keys, string nonce, lower-case positionSide, legacy stp, null optional fields,
    // an unknown field.
    let nonce = next_nonce();
    let body = format!(
        r#"{{"amount":"0.5","stp":"cancel_both","positionSide":"long","clientOrderId":null,"takeProfit":null,"leverage":5,"side":"buy","market":"ETH_USDT","nonceWindow":true,"nonce":"{nonce}","request":"{MARKET_PATH}"}}"#
    );
    let reply = send_hand_signed(&sandbox, REGULAR, MARKET_PATH, &body);
    snap_order("market_order_hand_made_hedge", &reply);
    let json = reply.json();
    assert_eq!(json["positionSide"], "LONG");
    assert_eq!(json["stp"], "cb");
    assert_eq!(json["clientOrderId"], "");

    // The amount as a JSON number ("Amount field should be numeric string or number.").
    let reply = MARKET.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","side":"buy","amount":0.01"#,
    );
    snap_order("amount_json_number", &reply);
    assert_eq!(reply.json()["amount"], "0.01");

    // One-way mode ignores positionSide and answers BOTH.
    let reply = MARKET.send(
        &sandbox,
        PARTNER,
        r#""market":"ETH_USDT","side":"sell","amount":"0.5","positionSide":"SHORT","stp":"cancel_new""#,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["positionSide"], "BOTH");
    assert_eq!(reply.json()["stp"], "cn");
}

#[test]
fn missing_fields_are_reported_together() {
    let sandbox = Sandbox::start().unwrap();
    snap_all(
        &sandbox,
        &[
            ("missing_all", PARTNER, String::new()),
            (
                "missing_market",
                PARTNER,
                r#""side":"buy","amount":"1""#.to_owned(),
            ),
            (
                "missing_null_side_and_amount",
                PARTNER,
                r#""market":"BTC_USDT","side":null"#.to_owned(),
            ),
        ],
    );
    let reply = MARKET.send(&sandbox, PARTNER, "");
    assert_eq!(
        reply.json(),
        json!({"code":30,"message":"Validation failed","errors":{"amount":["Amount field is required."],"market":["Market field is required."],"side":["Side field is required."]}}),
        "the docs' example, verbatim"
    );
}

#[test]
fn market_rules() {
    let sandbox = Sandbox::start().unwrap();
    let with = |market: &str| format!(r#""market":{market},"side":"buy","amount":"1""#);
    snap_all(
        &sandbox,
        &[
            ("market_not_a_string", PARTNER, with("7")),
            ("market_empty", PARTNER, with(r#""""#)),
            ("market_malformed", PARTNER, with(r#""btc-usdt""#)),
            ("market_unknown", PARTNER, with(r#""DOGE_USDT""#)),
        ],
    );
    each_answers(
        &sandbox,
        with,
        &[r#""btc_usdt""#, r#""BTC_USDT ""#, "[]", r#""BTC""#],
        31,
    );
}

#[test]
fn side_rules() {
    let sandbox = Sandbox::start().unwrap();
    let with = |side: &str| format!(r#""market":"BTC_USDT","side":{side},"amount":"0.01""#);
    snap_order(
        "side_invalid",
        &MARKET.send(&sandbox, PARTNER, &with(r#""long""#)),
    );
    for side in [r#""BUY""#, r#""""#, "1", "true"] {
        let reply = MARKET.send(&sandbox, PARTNER, &with(side));
        assert_eq!(code(&reply), 30, "{side}");
        assert_eq!(
            reply.json()["errors"]["side"][0],
            "Side field should contain only 'buy' or 'sell' values."
        );
    }
}

#[test]
fn amount_rules() {
    let sandbox = Sandbox::start().unwrap();
    let with = |amount: &str| format!(r#""market":"BTC_USDT","side":"buy","amount":{amount}"#);
    snap_all(
        &sandbox,
        &[
            ("amount_not_numeric", PARTNER, with(r#""abc""#)),
            ("amount_boolean", PARTNER, with("true")),
            ("amount_zero", PARTNER, with(r#""0""#)),
            ("amount_negative_number", PARTNER, with("-1")),
            ("amount_below_min", PARTNER, with(r#""0.0005""#)),
            ("amount_off_step", PARTNER, with(r#""0.0010001""#)),
            (
                "amount_below_min_and_off_step",
                PARTNER,
                with(r#""0.0000001""#),
            ),
            ("amount_out_of_range", PARTNER, with(r#""1e40""#)),
        ],
    );
    // PHP's numeric strings: exponents, a leading dot, surrounding whitespace.
    for amount in [
        r#""1e-2""#,
        r#"".01""#,
        r#"" 0.01""#,
        r#""0.01 ""#,
        r#""+0.01""#,
        "1e-2",
    ] {
        let reply = MARKET.send(&sandbox, PARTNER, &with(amount));
        assert_eq!(reply.status, 200, "{amount}: {}", reply.text());
        assert_eq!(reply.json()["amount"], "0.01", "{amount}");
    }
    for amount in [r#""0x10""#, r#""1,5""#, r#""""#, "[]", "{}", r#""NaN""#] {
        let reply = MARKET.send(&sandbox, PARTNER, &with(amount));
        assert_eq!(
            reply.json()["errors"]["amount"][0],
            "Amount field should be numeric string or number.",
            "{amount}"
        );
    }
}

#[test]
fn client_order_id_rules() {
    let sandbox = Sandbox::start().unwrap();
    let with = |id: &str| {
        format!(r#""market":"BTC_USDT","side":"buy","amount":"0.01","clientOrderId":{id}"#)
    };
    snap_all(
        &sandbox,
        &[
            ("client_order_id_empty", PARTNER, with(r#""""#)),
            ("client_order_id_not_a_string", PARTNER, with("123")),
            ("client_order_id_bad_chars", PARTNER, with(r#""a b/c""#)),
            (
                "client_order_id_too_long",
                PARTNER,
                with(&format!(r#""{}""#, "x".repeat(65))),
            ),
        ],
    );
    let reply = MARKET.send(&sandbox, PARTNER, &with(r#""""#));
    assert_eq!(
        (reply.status, code(&reply)),
        (422, 36),
        "an empty id is refused, not absent"
    );
    let longest = format!(r#""{}""#, "x".repeat(64));
    assert_eq!(MARKET.send(&sandbox, PARTNER, &with(&longest)).status, 200);
    each_answers(
        &sandbox,
        with,
        &[r#"" a""#, r#""ü""#, r#""a\n""#, r#""a+b""#],
        36,
    );
}

#[test]
fn price_rules() {
    let sandbox = Sandbox::start().unwrap();
    let base = r#""market":"BTC_USDT","side":"buy","amount":"0.01""#;
    snap_all(
        &sandbox,
        &[
            (
                "stop_loss_negative",
                PARTNER,
                format!(r#"{base},"stopLoss":"-1""#),
            ),
            (
                "stop_loss_not_numeric",
                PARTNER,
                format!(r#"{base},"stopLoss":"x""#),
            ),
            (
                "take_profit_zero",
                PARTNER,
                format!(r#"{base},"takeProfit":"0.0""#),
            ),
            (
                "take_profit_out_of_range",
                PARTNER,
                format!(r#"{base},"takeProfit":1e-30"#),
            ),
        ],
    );
}

#[test]
fn position_side_rules() {
    let sandbox = Sandbox::start().unwrap();
    let base = r#""market":"BTC_USDT","side":"buy","amount":"0.01""#;
    snap_all(
        &sandbox,
        &[
            (
                "position_side_invalid",
                PARTNER,
                format!(r#"{base},"positionSide":"UP""#),
            ),
            ("hedge_without_position_side", REGULAR, base.to_owned()),
            (
                "hedge_position_side_both",
                REGULAR,
                format!(r#"{base},"positionSide":"BOTH""#),
            ),
        ],
    );
    for side in ["long", "Long", "LONG"] {
        let reply = MARKET.send(
            &sandbox,
            REGULAR,
            &format!(r#"{base},"positionSide":"{side}""#),
        );
        assert_eq!(reply.json()["positionSide"], "LONG", "{side}");
    }
    assert_eq!(
        code(&MARKET.send(&sandbox, PARTNER, &format!(r#"{base},"positionSide":1"#))),
        30
    );
}

#[test]
fn stp_rules() {
    let sandbox = Sandbox::start().unwrap();
    let with =
        |stp: &str| format!(r#""market":"BTC_USDT","side":"buy","amount":"0.01","stp":"{stp}""#);
    snap_order(
        "stp_invalid",
        &MARKET.send(&sandbox, PARTNER, &with("never")),
    );
    for (sent, answered) in [
        ("no", "no"),
        ("cb", "cb"),
        ("cn", "cn"),
        ("co", "co"),
        ("cancel_both", "cb"),
        ("cancel_new", "cn"),
        ("cancel_old", "co"),
    ] {
        assert_eq!(
            MARKET.send(&sandbox, PARTNER, &with(sent)).json()["stp"],
            answered
        );
    }
    assert_eq!(code(&MARKET.send(&sandbox, PARTNER, &with("CB"))), 30);
}

#[test]
fn reduce_only_rules() {
    let sandbox = Sandbox::start().unwrap();
    let perp = |side: &str, amount: &str, extra: &str| {
        MARKET.send(
            &sandbox,
            PARTNER,
            &format!(r#""market":"BTC_PERP","side":"{side}","amount":"{amount}"{extra}"#),
        )
    };
    snap_order(
        "reduce_only_not_boolean",
        &perp("sell", "0.01", r#","reduceOnly":"true""#),
    );
    snap_order(
        "reduce_only_with_stop_loss",
        &perp("sell", "0.01", r#","reduceOnly":true,"stopLoss":"50000""#),
    );
    snap_order(
        "reduce_only_without_position",
        &perp("sell", "0.01", r#","reduceOnly":true"#),
    );
    assert_eq!(code(&perp("sell", "0.01", r#","reduceOnly":1"#)), 30);

    assert_eq!(perp("buy", "0.01", "").status, 200);
    // The same side as the position: nothing to reduce.
    assert_eq!(code(&perp("buy", "0.01", r#","reduceOnly":true"#)), 116);
    let reply = perp("sell", "0.004", r#","reduceOnly":true"#);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["reduceOnly"], true);
    assert_eq!(sandbox.positions(PARTNER.0)[0].amount, "0.006");
    // Larger than the position: reduced to the position's size, the answer says so.
    let reply = perp("sell", "0.05", r#","reduceOnly":true"#);
    snap_order("reduce_only_reduced_to_the_position", &reply);
    assert_eq!(reply.json()["amount"], "0.006");
    assert_eq!(reply.json()["dealStock"], "0.006");
    assert!(
        sandbox.positions(PARTNER.0).is_empty(),
        "closed, not flipped"
    );
}

#[test]
fn balance_rule() {
    let sandbox = Sandbox::start().unwrap();
    let reply = MARKET.send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "2"));
    snap_order("not_enough_balance", &reply);
    // "1e5" is a numeric string: 100 000 BTC, which no balance covers.
    let reply = MARKET.send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "1e5"));
    assert_eq!(code(&reply), 10);
}

#[test]
fn rejections_change_nothing() {
    let sandbox = Sandbox::start().unwrap();
    let bodies = [
        String::new(),
        fields("DOGE_USDT", "buy", "1"),
        fields("BTC_USDT", "up", "1"),
        fields("BTC_USDT", "buy", "0"),
        fields("BTC_USDT", "buy", "2"),
        r#""market":"BTC_USDT","side":"buy","amount":"1e40""#.to_owned(),
        r#""market":"BTC_USDT","side":"buy","amount":"0.01","clientOrderId":"""#.to_owned(),
        r#""market":"BTC_USDT","side":"sell","amount":"0.01","reduceOnly":true"#.to_owned(),
    ];
    for body in &bodies {
        assert!(MARKET.send(&sandbox, PARTNER, body).status >= 400, "{body}");
    }
    let reply = MARKET.send(&sandbox, REGULAR, &fields("BTC_USDT", "buy", "0.01"));
    assert_eq!(code(&reply), 114);
    assert!(sandbox.order_records().is_empty());
    assert!(sandbox.positions(PARTNER.0).is_empty());
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));
    assert_eq!(sandbox.balance(REGULAR.0, "USDT").as_deref(), Some("10000"));
    let stats = sandbox.stats();
    assert_eq!(stats.rejections, 9);
    assert_eq!(stats.rejections_by_code[&30], 2);
    assert_eq!(stats.rejections_by_code[&1], 1);
    assert_eq!(stats.rejections_by_message["Inner validation failed"], 2);
}

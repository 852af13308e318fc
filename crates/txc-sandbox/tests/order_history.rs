//! `POST /api/v4/trade-account/order/history` over real HTTP with hand-written bodies: finished
//! orders keyed by market in the history's own record shape, the two look-up modes and their
//! two not-found answers, the status and date filters, pages, validation in the endpoint's own
//! wording, B2B accounts, and orders hidden by `Fault::VisibleAfter`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::*;
use serde_json::{Value, json};
use txc_sandbox::{AccountConfig, Route, Sandbox};

fn now_s() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
    .unwrap()
}

/// A filled market order, with `client_order_id` unless it is empty.
fn place(sandbox: &Sandbox, market: &str, side: &str, client_order_id: &str) -> u64 {
    let mut body = fields(market, side, "0.01");
    if !client_order_id.is_empty() {
        body.push_str(&format!(r#","clientOrderId":"{client_order_id}""#));
    }
    let reply = MARKET.send(sandbox, PARTNER, &body);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["orderId"].as_u64().unwrap()
}

/// A BTC_USDT trigger order's id.
fn rest(sandbox: &Sandbox, side: &str, activation: &str, client_order_id: &str) -> u64 {
    let order = trigger_fields("BTC_USDT", side, "0.01", activation);
    let reply = TRIGGER.send(
        sandbox,
        PARTNER,
        &format!(r#"{order},"clientOrderId":"{client_order_id}""#),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["orderId"].as_u64().unwrap()
}

/// The ids in a history answer, market by market (markets in name order), newest first.
fn ids(reply: &Reply) -> Vec<(String, u64)> {
    assert_eq!(reply.status, 200, "{}", reply.text());
    match reply.json() {
        Value::Array(a) if a.is_empty() => Vec::new(),
        Value::Object(by_market) => by_market
            .iter()
            .flat_map(|(market, list)| {
                list.as_array()
                    .unwrap()
                    .iter()
                    .map(|o| (market.clone(), o["id"].as_u64().unwrap()))
                    .collect::<Vec<_>>()
            })
            .collect(),
        other => panic!("not a history answer: {other}"),
    }
}

/// A sandbox whose partner account records its canceled orders (the demo partner is a B2B
/// account, which does not).
fn recording_cancels() -> Sandbox {
    Sandbox::builder()
        .account(
            AccountConfig::new(PARTNER.0, PARTNER.1)
                .partner(true)
                .balance("USDT", "10000"),
        )
        .start()
        .unwrap()
}

#[test]
fn finished_orders_by_market_in_the_history_shape() {
    let sandbox = recording_cancels();
    let filled = place(&sandbox, "BTC_USDT", "buy", "h-1");
    let perp = place(&sandbox, "BTC_PERP", "sell", "");
    let fired = rest(&sandbox, "sell", "60000", "h-stop");
    let canceled = rest(&sandbox, "buy", "90000", "h-cancel");
    let open = rest(&sandbox, "buy", "95000", "h-open");
    let reply = CANCEL.send(&sandbox, PARTNER, &btc_order(canceled));
    assert_eq!(reply.status, 200, "{}", reply.text());
    sandbox.set_price("BTC_USDT", "59000").unwrap();

    let reply = HISTORY.send(&sandbox, PARTNER, "");
    insta::assert_json_snapshot!("history_by_market", reply.snapshot(), {
        ".body.*[].id" => "[id]",
        ".body.*[].ctime" => "[ctime]",
        ".body.*[].ftime" => "[ftime]",
        ".body.*[].activated" => "[activated]",
    });
    let listed = ids(&reply);
    assert_eq!(
        listed,
        vec![
            ("BTC_PERP".to_owned(), perp),
            ("BTC_USDT".to_owned(), canceled),
            ("BTC_USDT".to_owned(), fired),
            ("BTC_USDT".to_owned(), filled),
        ],
        "newest first; the open order is not history"
    );
    assert!(listed.iter().all(|(_, id)| *id != open));
    let json = reply.json();
    let stop = &json["BTC_USDT"][1];
    assert!(
        stop["activated"].as_f64().unwrap() > 1.7e9,
        "a timestamp, not 0/1"
    );
    assert_eq!(stop["activationCondition"], "<=");
    assert_eq!(stop["activationPrice"], "60000");
    assert_eq!(
        json["BTC_USDT"][0]["activated"], 0,
        "canceled before it fired"
    );
    assert!(json["BTC_USDT"][2].get("activationPrice").is_none());
    assert!(json["BTC_USDT"][2]["ftime"].as_f64() >= json["BTC_USDT"][2]["ctime"].as_f64());
}

#[test]
fn look_ups_and_their_two_not_found_answers() {
    let sandbox = Sandbox::start().unwrap();
    let first = place(&sandbox, "BTC_USDT", "buy", "reused");
    let second = place(&sandbox, "BTC_USDT", "sell", "reused");
    let other = place(&sandbox, "BTC_USDT", "buy", "other");

    let lookup = |fields: &str| HISTORY.send(&sandbox, PARTNER, fields);
    let by_client_id = lookup(r#""market":"BTC_USDT","clientOrderId":"other""#);
    assert_eq!(ids(&by_client_id), vec![("BTC_USDT".to_owned(), other)]);
    // A reused id: every order that carried it, newest first.
    let reused = lookup(r#""clientOrderId":"reused""#);
    assert_eq!(
        ids(&reused),
        vec![
            ("BTC_USDT".to_owned(), second),
            ("BTC_USDT".to_owned(), first)
        ]
    );
    // orderId wins over clientOrderId.
    let both = lookup(&format!(r#""clientOrderId":"other","orderId":{first}"#));
    assert_eq!(ids(&both), vec![("BTC_USDT".to_owned(), first)]);

    // No match by clientOrderId: 422 code 30; by orderId: an empty 200.
    let missing = lookup(r#""market":"BTC_USDT","clientOrderId":"nope""#);
    insta::assert_json_snapshot!("history_client_order_id_not_found", missing.snapshot());
    assert_eq!(
        missing.json(),
        json!({"code":30,"message":"Validation failed","errors":{"orderHistory":["OrderHistory was not found."]}})
    );
    let missing = lookup(r#""market":"BTC_USDT","orderId":1"#);
    insta::assert_json_snapshot!("history_order_id_not_found", missing.snapshot());
    assert_eq!(missing.text(), "[]");
    // The market narrows a look-up.
    assert_eq!(
        code(&lookup(r#""market":"BTC_PERP","clientOrderId":"other""#)),
        30
    );
    // Another key's order is not found.
    let reply = HISTORY.send(&sandbox, REGULAR, r#""clientOrderId":"other""#);
    assert_eq!(code(&reply), 30);
}

#[test]
fn status_dates_and_pages() {
    let sandbox = recording_cancels();
    let filled: Vec<u64> = (0..3)
        .map(|i| place(&sandbox, "BTC_USDT", "buy", &format!("s-{i}")))
        .collect();
    let canceled = rest(&sandbox, "buy", "90000", "s-c");
    assert_eq!(
        CANCEL
            .send(
                &sandbox,
                PARTNER,
                r#""market":"BTC_USDT","clientOrderId":"s-c""#
            )
            .status,
        200
    );
    let list = |fields: &str| -> Vec<u64> {
        ids(&HISTORY.send(&sandbox, PARTNER, fields))
            .into_iter()
            .map(|(_, id)| id)
            .collect()
    };
    let now = now_s();
    assert_eq!(list(r#""status":"CANCELED""#), vec![canceled]);
    assert_eq!(
        list(r#""status":"FILLED""#),
        vec![filled[2], filled[1], filled[0]]
    );
    assert_eq!(
        list(r#""status":"ALL","limit":2"#),
        vec![canceled, filled[2]]
    );
    assert_eq!(list(r#""limit":2,"offset":2"#), vec![filled[1], filled[0]]);
    assert_eq!(list(r#""offset":"4""#), Vec::<u64>::new());
    assert_eq!(list(r#""status":"PARTIALLY_FILLED""#), Vec::<u64>::new());
    // Dates: a window around now, one in the past, the future clamped to now.
    assert_eq!(
        list(&format!(
            r#""startDate":{},"endDate":{}"#,
            now - 60,
            now + 60
        ))
        .len(),
        4
    );
    assert_eq!(
        list(&format!(
            r#""startDate":{},"endDate":{}"#,
            now - 86_400,
            now - 3_600
        ))
        .len(),
        0
    );
    assert_eq!(
        list(&format!(r#""endDate":{}"#, now + 86_400 * 365)).len(),
        4
    );
    // Rejected dates, which a look-up ignores.
    let too_early = format!(r#""startDate":{}"#, now - 200 * 86_400);
    let too_long = format!(r#""startDate":{},"endDate":{}"#, now - 40 * 86_400, now);
    let reversed = format!(r#""startDate":{},"endDate":{}"#, now, now - 60);
    for (name, fields) in [
        ("history_start_too_early", &too_early),
        ("history_period_too_long", &too_long),
        ("history_start_after_end", &reversed),
    ] {
        let reply = HISTORY.send(&sandbox, PARTNER, fields);
        assert_eq!(
            (reply.status, code(&reply)),
            (422, 30),
            "{name}: {}",
            reply.text()
        );
        insta::assert_json_snapshot!(name, reply.snapshot());
        let lookup = format!(r#"{fields},"clientOrderId":"s-c""#);
        assert_eq!(
            list(&lookup),
            vec![canceled],
            "{name}: ignored by a look-up"
        );
    }
}

#[test]
fn validation_answers() {
    let sandbox = Sandbox::start().unwrap();
    for (name, fields) in [
        ("limit_too_large", r#""limit":501"#),
        ("limit_and_offset_wrong", r#""limit":0,"offset":-1"#),
        (
            "not_integers",
            r#""limit":"x","offset":true,"orderId":1.5,"startDate":"soon""#,
        ),
        ("market_not_a_string", r#""market":5"#),
        ("market_malformed", r#""market":"BTCUSDT""#),
        ("market_unknown", r#""market":"DOGE_USDT""#),
        ("status_unknown", r#""status":"OPEN""#),
        ("client_order_id_not_a_string", r#""clientOrderId":["a"]"#),
    ] {
        let reply = HISTORY.send(&sandbox, PARTNER, fields);
        insta::assert_json_snapshot!(format!("history_{name}"), reply.snapshot());
    }
    assert_eq!(
        HISTORY.send(&sandbox, PARTNER, r#""limit":500"#).status,
        200
    );
    assert_eq!(sandbox.stats().lookups_served, 1);
}

#[test]
fn b2b_accounts_do_not_record_canceled_orders() {
    // The partner demo account is a B2B account.
    let sandbox = Sandbox::start().unwrap();
    let filled = place(&sandbox, "BTC_USDT", "buy", "b-1");
    let canceled = rest(&sandbox, "buy", "90000", "b-2");
    let reply = CANCEL.send(&sandbox, PARTNER, &btc_order(canceled));
    assert_eq!(reply.status, 200);
    assert_eq!(
        ids(&HISTORY.send(&sandbox, PARTNER, "")),
        vec![("BTC_USDT".to_owned(), filled)]
    );
    // Invisible to both look-ups.
    assert_eq!(
        code(&HISTORY.send(&sandbox, PARTNER, r#""clientOrderId":"b-2""#)),
        30
    );
    let open = OPEN_ORDERS.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"b-2""#,
    );
    assert_eq!(open.json(), json!([]));
    // An account that records cancels shows it.
    let sandbox = Sandbox::builder()
        .account(
            AccountConfig::new(PARTNER.0, PARTNER.1)
                .partner(true)
                .balance("USDT", "10000"),
        )
        .start()
        .unwrap();
    let canceled = rest(&sandbox, "buy", "90000", "b-3");
    CANCEL.send(&sandbox, PARTNER, &btc_order(canceled));
    assert_eq!(
        ids(&HISTORY.send(&sandbox, PARTNER, "")),
        vec![("BTC_USDT".to_owned(), canceled)]
    );
}

#[test]
fn an_order_can_become_visible_late() {
    let sandbox = hidden_once(Route::CollateralMarket);
    let hidden = place(&sandbox, "BTC_USDT", "buy", "v-1");
    let shown = place(&sandbox, "BTC_USDT", "buy", "v-2");
    assert_eq!(
        ids(&HISTORY.send(&sandbox, PARTNER, "")),
        vec![("BTC_USDT".to_owned(), shown)]
    );
    assert_eq!(
        code(&HISTORY.send(&sandbox, PARTNER, r#""clientOrderId":"v-1""#)),
        30
    );
    assert_eq!(
        HISTORY
            .send(&sandbox, PARTNER, &format!(r#""orderId":{hidden}"#))
            .text(),
        "[]"
    );
    assert_eq!(sandbox.order_records().len(), 2, "placed all the same");
}

//! The positions and risk-control routes over real HTTP with hand-written bodies: each rule of
//! the crate docs' table answers its status, code and field messages; the rate limits; the
//! kill switch running out on the sandbox's clock; bulk cancel's per-item answers.

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
use txc_sandbox::{Route, Sandbox, demo};

/// The answer's status, code and field errors.
fn refusal(reply: &Reply) -> (u16, Value, Value) {
    let body = reply.json();
    (reply.status, body["code"].clone(), body["errors"].clone())
}

#[test]
fn each_rule_answers_its_code_and_message() {
    let sandbox = Sandbox::start().unwrap();
    let far = now_ms() / 1_000 + 60;
    // (path, fields, status, code, field errors)
    let table: Vec<(&str, String, u16, i64, Value)> = vec![
        (
            BALANCE_PATH,
            r#""ticker":"XRP""#.into(),
            422,
            30,
            json!({"ticker":["ticker is invalid."]}),
        ),
        (
            BALANCE_PATH,
            r#""ticker":7"#.into(),
            422,
            30,
            json!({"ticker":["ticker is invalid."]}),
        ),
        (
            POSITIONS_PATH,
            r#""market":"btc usdt""#.into(),
            422,
            30,
            json!({"market":["Market field format is invalid."]}),
        ),
        (
            POSITION_HISTORY_PATH,
            r#""startDate":10,"endDate":9"#.into(),
            422,
            30,
            json!({"startDate":["StartDate should not be greater than endDate."]}),
        ),
        (
            POSITION_HISTORY_PATH,
            format!(r#""endDate":{far}"#),
            422,
            30,
            json!({"endDate":["The date should not be later than the current time."]}),
        ),
        (
            POSITION_HISTORY_PATH,
            r#""limit":101"#.into(),
            422,
            30,
            json!({"limit":["Limit should not be greater than 100."]}),
        ),
        (
            CLOSE_PATH,
            String::new(),
            422,
            30,
            json!({"market":["Market field is required."],"positionId":["PositionId field is required."]}),
        ),
        (
            CLOSE_PATH,
            r#""positionId":"x","market":"BTC_USDT""#.into(),
            422,
            30,
            json!({"positionId":["PositionId field should be an integer."]}),
        ),
        (
            CLOSE_PATH,
            r#""positionId":1,"market":"BTC_USDT""#.into(),
            400,
            104,
            json!({"positionId":["Position not found."]}),
        ),
        (
            LEVERAGE_PATH,
            r#""leverage":4"#.into(),
            422,
            30,
            json!({"leverage":["The selected leverage is invalid."]}),
        ),
        (
            LEVERAGE_PATH,
            r#""leverage":"ten""#.into(),
            422,
            30,
            json!({"leverage":["The leverage must be an integer."]}),
        ),
        (
            HEDGE_UPDATE_PATH,
            r#""hedgeMode":"yes""#.into(),
            422,
            30,
            json!({"hedgeMode":["The hedge mode field must be true or false."]}),
        ),
        (
            CANCEL_ALL_PATH,
            r#""market":7"#.into(),
            422,
            30,
            json!({"market":["Market field should be a string.","Market field format is invalid."]}),
        ),
        (
            CANCEL_ALL_PATH,
            r#""type":"spot""#.into(),
            422,
            30,
            json!({"type":["The type must be an array."]}),
        ),
        (
            CANCEL_ALL_PATH,
            r#""market":"DOGE_USDT""#.into(),
            422,
            31,
            json!({"market":["Market is not available."]}),
        ),
        (
            CANCEL_ALL_PATH,
            r#""market":"BTC_USDT","positionSide":"long""#.into(),
            422,
            30,
            json!({"positionSide":["PositionSide is accepted only for perpetual futures markets."]}),
        ),
        (
            CANCEL_BULK_PATH,
            String::new(),
            422,
            30,
            json!({"orders":["validation.required"]}),
        ),
        (
            CANCEL_BULK_PATH,
            r#""orders":[]"#.into(),
            422,
            30,
            json!({"orders":["validation.between"]}),
        ),
        (
            KILL_SWITCH_PATH,
            String::new(),
            422,
            30,
            json!({"market":["Market field is required."],"timeout":["Timeout field is required."]}),
        ),
        (
            KILL_SWITCH_PATH,
            r#""market":"BTC_USDT","timeout":"4""#.into(),
            422,
            30,
            json!({"timeout":["Timeout should be at least 5."]}),
        ),
        (
            KILL_SWITCH_PATH,
            r#""market":"BTC_USDT","timeout":"601""#.into(),
            422,
            30,
            json!({"timeout":["Timeout should not be greater than 600."]}),
        ),
        (
            KILL_SWITCH_PATH,
            r#""market":"DOGE_USDT","timeout":"60""#.into(),
            422,
            31,
            json!({"market":["Market is not available."]}),
        ),
        (
            KILL_SWITCH_PATH,
            r#""market":"BTC_USDT","timeout":"60","types":[]"#.into(),
            422,
            30,
            json!({"types":["The types must have between 1 and 3 items."]}),
        ),
        (
            KILL_SWITCH_STATUS_PATH,
            r#""market":"DOGE_USDT""#.into(),
            422,
            31,
            json!({"market":["Market is not available."]}),
        ),
    ];
    for (path, fields, status, code, errors) in table {
        let reply = send_fields(&sandbox, PARTNER, path, &fields);
        assert_eq!(
            refusal(&reply),
            (status, json!(code), errors),
            "{path} {fields}"
        );
    }
    // Nothing was changed by the refusals.
    assert!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).is_empty());
}

#[test]
fn bulk_cancel_answers_each_item_in_place() {
    let sandbox = Sandbox::start().unwrap();
    let rest = resting(&sandbox, PARTNER, "BTC_USDT", "bulk-1", "");
    let items = r#""orders":[7,{"orderId":1},{"market":"DOGE_USDT","orderId":1},
        {"market":"BTC_USDT"},{"market":"BTC_USDT","orderId":1,"clientOrderId":"x"},
        {"market":"BTC_USDT","clientOrderId":"bulk-1"},{"market":"BTC_USDT","orderId":1}]"#
        .replace(['\n', ' '], "");
    let reply = send_fields(&sandbox, PARTNER, CANCEL_BULK_PATH, &items);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let answer = reply.json();
    let error = |i: usize| {
        let e = &answer[i]["error"];
        assert!(answer[i]["result"].is_null());
        (e["code"].as_i64().unwrap(), e["errors"].clone())
    };
    assert_eq!(error(0), (30, json!({"request":["Invalid order format"]})));
    assert_eq!(error(1), (30, json!({"market":["validation.required"]})));
    assert_eq!(
        error(2),
        (30, json!({"market":["validation.market_not_exist"]}))
    );
    assert_eq!(error(3), (30, json!({"request":["validation.required"]})));
    assert_eq!(
        error(4),
        (30, json!({"request":["api.validation.order.chooseOneId"]}))
    );
    assert_eq!(
        answer[5],
        json!({"result":{"orderId":rest["orderId"],"clientOrderId":"bulk-1","market":"BTC_USDT"},"error":null})
    );
    assert_eq!(
        error(6),
        (
            404,
            json!({"orderId":["Order does not exist or already cancelled"]})
        )
    );
    assert_eq!(sandbox.stats().mass_canceled_orders, 1);
}

#[test]
fn the_routes_have_their_documented_limits_and_take_their_own() {
    let sandbox = Sandbox::builder()
        .rate_limit(Route::Leverage, 2)
        .start()
        .unwrap();
    for _ in 0..2 {
        assert_eq!(
            send_fields(&sandbox, PARTNER, LEVERAGE_PATH, r#""leverage":5"#).status,
            200
        );
    }
    let limited = send_fields(&sandbox, PARTNER, LEVERAGE_PATH, r#""leverage":5"#);
    assert_eq!(
        (limited.status, limited.json()["message"].clone()),
        (429, json!("Too many requests."))
    );
    // Another route keeps its own documented limit.
    assert_eq!(send_fields(&sandbox, PARTNER, BALANCE_PATH, "").status, 200);
    assert_eq!(sandbox.stats().rate_limited, 1);
}

#[test]
fn a_timer_runs_out_on_the_sandbox_s_clock_and_cancels_its_kinds_only() {
    let sandbox = Sandbox::builder()
        .kill_switch_second(Duration::from_millis(20))
        .start()
        .unwrap();
    let rest = |market: &str| {
        let order = trigger_fields(market, "buy", "0.01", "90000");
        TRIGGER.send(&sandbox, PARTNER, &order).json()["orderId"].clone()
    };
    let margin = rest("BTC_USDT");
    let futures = rest("BTC_PERP");
    // A timer for futures orders on BTC_USDT cancels nothing there; one for every kind on
    // BTC_PERP cancels its order.
    let set = |fields: &str| send_fields(&sandbox, PARTNER, KILL_SWITCH_PATH, fields).json();
    let timer = set(r#""market":"BTC_USDT","timeout":"5","types":["futures"]"#);
    assert_eq!(timer["types"], json!(["futures"]));
    let timer = set(r#""market":"BTC_PERP","timeout":"5""#);
    assert_eq!(timer["types"], Value::Null);
    assert_eq!(
        timer["cancellationTime"].as_u64().unwrap() - timer["startTime"].as_u64().unwrap(),
        5
    );
    let status = |id: &Value| {
        sandbox
            .order_records()
            .into_iter()
            .find(|o| &o["orderId"] == id)
            .unwrap()["status"]
            .clone()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while sandbox.stats().kill_switches_fired < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the timers never ran out"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(status(&margin), json!("OPEN"));
    assert_eq!(status(&futures), json!("CANCELED"));
    assert_eq!(sandbox.stats().kill_switch_canceled_orders, 1);
    let listed = send_fields(&sandbox, PARTNER, KILL_SWITCH_STATUS_PATH, "").json();
    assert_eq!(listed, json!([]));
}

//! Flexible lending (`/api/v4/main-account/smart-flex/…`) over real HTTP with hand-written
//! bodies: every route answers in the spec's shape (and `txc-types` reads it), every
//! documented refusal word for word as the spec's examples give it, the plans offered to
//! each account, accrual at an accelerated day against `txc-types`' reference, the shared
//! main-account rate limit, and the faults the exactly-once tests need — answers lost after
//! processing, 5xx with and without processing, lagging and hidden reads.
//!
//! The spec's answer and refusal examples are in `fixtures/flex_documented.json`, copied from
//! the spec.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::*;
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use txc_sandbox::{AccountConfig, Fault, FlexPlanConfig, Route, Sandbox, demo};
use txc_types::endpoint::Acknowledged;
use txc_types::investments::flex::accrual::daily_earning;
use txc_types::investments::flex::{
    FlexHistoryPage, FlexInvestmentsPage, FlexPlan, FlexTransaction,
};

const PLANS_PATH: &str = "/api/v4/main-account/smart-flex/plans";
const INVESTMENTS_PATH: &str = "/api/v4/main-account/smart-flex/investments";
const HISTORY_PATH: &str = "/api/v4/main-account/smart-flex/investments/history";
const PAYMENTS_PATH: &str = "/api/v4/main-account/smart-flex/investments/payment-history";
const INVEST_PATH: &str = "/api/v4/main-account/smart-flex/investments/invest";
const WITHDRAW_PATH: &str = "/api/v4/main-account/smart-flex/investments/withdraw";
const CLOSE_PATH: &str = "/api/v4/main-account/smart-flex/investments/close";
const AUTO_INVEST_PATH: &str = "/api/v4/main-account/smart-flex/investments/auto-invest";

const FLEX_PLANS: Endpoint = Endpoint(PLANS_PATH);
const INVESTMENTS: Endpoint = Endpoint(INVESTMENTS_PATH);
const FLEX_HISTORY: Endpoint = Endpoint(HISTORY_PATH);
const PAYMENTS: Endpoint = Endpoint(PAYMENTS_PATH);
const INVEST: Endpoint = Endpoint(INVEST_PATH);
const WITHDRAW: Endpoint = Endpoint(WITHDRAW_PATH);
const CLOSE: Endpoint = Endpoint(CLOSE_PATH);
const AUTO_INVEST: Endpoint = Endpoint(AUTO_INVEST_PATH);

/// The spec's USDT plan: 10 to 100 000 at 15 %.
const USDT: &str = demo::FLEX_USDT_PLAN;
/// An account with flex lending off.
const NO_FLEX: (&str, &str) = ("no-flex-key", "no-flex-secret");

fn documented() -> Value {
    serde_json::from_str(include_str!("fixtures/flex_documented.json")).unwrap()
}

fn plan_fields(plan: &str, amount: &str) -> String {
    format!(r#""plan":"{plan}","amount":"{amount}""#)
}

/// Reads an answer with `txc-types`, as a client would.
fn read<T: DeserializeOwned>(reply: &Reply) -> T {
    serde_json::from_slice(&reply.body)
        .unwrap_or_else(|e| panic!("txc-types cannot read it ({e}): {}", reply.text()))
}

/// Whether `value` has `example`'s shape: the same keys in the same order, each of the same
/// JSON type (an array's items like the example's first).
fn same_shape(value: &Value, example: &Value, at: &str) {
    match (value, example) {
        (Value::Object(v), Value::Object(e)) => {
            let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(v), keys(e), "{at}");
            for (key, item) in v {
                same_shape(item, &e[key], &format!("{at}.{key}"));
            }
        }
        (Value::Array(v), Value::Array(e)) => {
            if let Some(first) = e.first() {
                assert!(
                    !v.is_empty(),
                    "{at}: an empty list where the example has items"
                );
                for item in v {
                    same_shape(item, first, &format!("{at}[]"));
                }
            } else {
                assert!(v.is_empty(), "{at}");
            }
        }
        (v, e) => assert_eq!(
            std::mem::discriminant(v),
            std::mem::discriminant(e),
            "{at}: {v} is not shaped like {e}"
        ),
    }
}

#[test]
fn every_route_answers_in_the_specs_shape() {
    let sandbox = Sandbox::builder()
        .flex_accrual_interval(Duration::from_millis(40))
        .start()
        .unwrap();
    let answers = &documented()["answers"];
    let check = |path: &str, reply: &Reply| {
        let example = &answers[path];
        assert_eq!(reply.status, example["status"], "{path}: {}", reply.text());
        same_shape(&reply.json(), &example["body"], path);
    };
    let reply = FLEX_PLANS.send(&sandbox, REGULAR, "");
    check(PLANS_PATH, &reply);
    let plans: Vec<FlexPlan> = read(&reply);
    assert_eq!(
        plans.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        [demo::FLEX_USDT_PLAN, demo::FLEX_BTC_PLAN],
        "the paused plan and the partner's private one are not the regular account's"
    );
    // The spec's example plan, byte for byte.
    assert!(reply.text().starts_with(
        r#"[{"id":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","ticker":"USDT","minInvestment":"10.0","maxInvestment":"100000.0","maxRate":"0.15"},"#
    ));

    let reply = INVEST.send(
        &sandbox,
        REGULAR,
        &format!(
            r#"{},"withReinvest":true"#,
            plan_fields(USDT, "1000.500000")
        ),
    );
    check(INVEST_PATH, &reply);
    let invested: FlexTransaction = read(&reply);
    assert!(invested.transaction_id().starts_with("tx_"));
    // Let a day or two pass: the history gains its earnings.
    eventually(|| {
        PAYMENTS.send(&sandbox, REGULAR, "").json()["data"]
            .as_array()
            .unwrap()
            .len()
            >= 2
    });
    let reply = WITHDRAW.send(&sandbox, REGULAR, &plan_fields(USDT, "500.250000"));
    check(WITHDRAW_PATH, &reply);
    let reply = AUTO_INVEST.send(
        &sandbox,
        REGULAR,
        &format!(r#""plan":"{USDT}","enabled":false"#),
    );
    check(AUTO_INVEST_PATH, &reply);
    assert_eq!(reply.text(), r#"{"data":[]}"#);
    let _: Acknowledged = read(&reply);

    let reply = INVESTMENTS.send(&sandbox, REGULAR, "");
    check(INVESTMENTS_PATH, &reply);
    let page: FlexInvestmentsPage = read(&reply);
    assert_eq!(page.data.len(), 1);
    assert!(!page.data[0].with_auto_reinvest);
    for (path, endpoint) in [(HISTORY_PATH, FLEX_HISTORY), (PAYMENTS_PATH, PAYMENTS)] {
        let reply = endpoint.send(&sandbox, REGULAR, "");
        check(path, &reply);
        let page: FlexHistoryPage = read(&reply);
        assert!(
            page.data
                .iter()
                .all(|r| r.investment_id == page.data[0].investment_id)
        );
    }
    let history: FlexHistoryPage = read(&FLEX_HISTORY.send(&sandbox, REGULAR, ""));
    // The investment's own transaction is the history's INVEST record.
    assert!(
        history
            .data
            .iter()
            .any(|r| r.transaction_id == invested.transaction_id()
                && r.action_type.code() == 1
                && r.amount.as_str() == "1000.5")
    );

    let reply = CLOSE.send(&sandbox, REGULAR, &format!(r#""plan":"{USDT}""#));
    check(CLOSE_PATH, &reply);
    let page: FlexInvestmentsPage = read(&INVESTMENTS.send(&sandbox, REGULAR, ""));
    assert!(!page.data[0].is_active());
    assert_eq!(page.data[0].invested.as_str(), "0");
}

/// A sandbox whose account `NO_FLEX` has flex lending off, with a short plan cap to test.
fn refusing() -> Sandbox {
    Sandbox::builder()
        .account(
            AccountConfig::new(NO_FLEX.0, NO_FLEX.1)
                .flex_lending(false)
                .main_balance("USDT", "100"),
        )
        .flex_plan(
            FlexPlanConfig::new("capped", "USDT")
                .investment("10", "100")
                .max_rate("0.1")
                .min_withdrawal("1"),
        )
        .flex_plan(FlexPlanConfig::new("unavailable", "USDT").status(2))
        .start()
        .unwrap()
}

#[test]
fn the_documented_refusals_word_for_word() {
    let sandbox = refusing();
    let refusals = &documented()["refusals"];
    let expect = |path: &str, status: u16, name: &str, reply: Reply| {
        let example = &refusals[path][status.to_string()][name];
        assert!(example.is_object(), "{path} {status} {name}");
        assert_eq!(
            (reply.status, reply.json()),
            (status, example.clone()),
            "{path} {name}"
        );
    };
    // Every route: 403 without lending access.
    for path in [
        PLANS_PATH,
        INVESTMENTS_PATH,
        HISTORY_PATH,
        PAYMENTS_PATH,
        INVEST_PATH,
        WITHDRAW_PATH,
        CLOSE_PATH,
        AUTO_INVEST_PATH,
    ] {
        let reply = Endpoint(path).send(&sandbox, NO_FLEX, &plan_fields(USDT, "10"));
        expect(path, 403, "example", reply);
    }
    // Investing.
    let invest = |fields: &str| INVEST.send(&sandbox, PARTNER, fields);
    expect(
        INVEST_PATH,
        400,
        "invalidPlan",
        invest(&plan_fields("nope", "10")),
    );
    expect(
        INVEST_PATH,
        400,
        "invalidAmount",
        invest(&plan_fields(USDT, "ten")),
    );
    expect(
        INVEST_PATH,
        422,
        "planUnavailable",
        invest(&plan_fields("unavailable", "10")),
    );
    expect(
        INVEST_PATH,
        422,
        "planPaused",
        invest(&plan_fields(demo::FLEX_PAUSED_PLAN, "100")),
    );
    expect(
        INVEST_PATH,
        422,
        "amountTooLow",
        invest(&plan_fields(USDT, "9.99")),
    );
    expect(
        INVEST_PATH,
        422,
        "amountTooHigh",
        invest(&plan_fields(USDT, "100000.01")),
    );
    expect(
        INVEST_PATH,
        422,
        "amountTooSmall",
        invest(&plan_fields(USDT, "0")),
    );
    let private = INVEST.send(
        &sandbox,
        REGULAR,
        &plan_fields(demo::FLEX_PARTNER_PLAN, "100"),
    );
    expect(INVEST_PATH, 422, "privatePlan", private);
    sandbox
        .set_main_balance(demo::PARTNER_API_KEY, "USDT", "9")
        .unwrap();
    expect(
        INVEST_PATH,
        422,
        "insufficientBalance",
        invest(&plan_fields(USDT, "10")),
    );
    sandbox
        .set_main_balance(demo::PARTNER_API_KEY, "USDT", "10000")
        .unwrap();
    assert_eq!(invest(&plan_fields("capped", "60")).status, 201);
    expect(
        INVEST_PATH,
        422,
        "investmentLimit",
        invest(&plan_fields("capped", "41")),
    );
    // Withdrawing and closing.
    let withdraw =
        |plan: &str, amount: &str| WITHDRAW.send(&sandbox, PARTNER, &plan_fields(plan, amount));
    let close = |plan: &str| CLOSE.send(&sandbox, PARTNER, &format!(r#""plan":"{plan}""#));
    expect(WITHDRAW_PATH, 400, "invalidPlan", withdraw("nope", "1"));
    expect(
        WITHDRAW_PATH,
        422,
        "investmentNotFound",
        withdraw(USDT, "1"),
    );
    expect(CLOSE_PATH, 400, "invalidPlan", close("nope"));
    expect(CLOSE_PATH, 422, "investmentNotFound", close(USDT));
    expect(
        WITHDRAW_PATH,
        422,
        "amountTooSmall",
        withdraw("capped", "0"),
    );
    expect(
        WITHDRAW_PATH,
        422,
        "belowMinPossible",
        withdraw("capped", "0.5"),
    );
    expect(
        WITHDRAW_PATH,
        422,
        "exceedsInvested",
        withdraw("capped", "61"),
    );
    expect(WITHDRAW_PATH, 422, "belowMinLeft", withdraw("capped", "51"));
    assert_eq!(withdraw("capped", "50").status, 201);
    assert_eq!(close("capped").status, 201);
    expect(
        WITHDRAW_PATH,
        422,
        "investmentClosed",
        withdraw("capped", "1"),
    );
    expect(CLOSE_PATH, 422, "alreadyClosed", close("capped"));
    // Auto-invest: no plan, then no investment.
    expect(
        AUTO_INVEST_PATH,
        422,
        "example",
        AUTO_INVEST.send(&sandbox, PARTNER, &format!(r#""plan":"{USDT}""#)),
    );
    let reply = AUTO_INVEST.send(&sandbox, PARTNER, r#""enabled":"maybe""#);
    expect(AUTO_INVEST_PATH, 400, "example", reply);

    // The lists' combined examples: every field the sandbox refuses is refused in the
    // example's words.
    let within = |path: &str, name: &str, reply: Reply| {
        let example = &refusals[path]["400"][name];
        let body = reply.json();
        assert_eq!(reply.status, 400, "{path}: {body}");
        assert_eq!(
            (body["code"].clone(), body["message"].clone()),
            (example["code"].clone(), example["message"].clone())
        );
        let fields = body["errors"].as_object().unwrap();
        assert!(!fields.is_empty());
        for (field, messages) in fields {
            for message in messages.as_array().unwrap() {
                let documented = example["errors"][field]
                    .as_array()
                    .unwrap_or_else(|| panic!("{path}: {field}"));
                assert!(documented.contains(message), "{path}: {field}: {message}");
            }
        }
        fields.len()
    };
    // The body's rules first (all their fields together), then whether the ticker exists.
    let plans = FLEX_PLANS.send(
        &sandbox,
        PARTNER,
        r#""ticker":"NOPE","limit":101,"offset":-1"#,
    );
    assert_eq!(within(PLANS_PATH, "invalidFields", plans), 2);
    let plans = FLEX_PLANS.send(&sandbox, PARTNER, r#""ticker":"NOPE""#);
    assert_eq!(within(PLANS_PATH, "invalidFields", plans), 1);
    let plans = FLEX_PLANS.send(&sandbox, PARTNER, r#""limit":"x","offset":"y""#);
    assert_eq!(within(PLANS_PATH, "invalidFields", plans), 2);
    let investments = INVESTMENTS.send(&sandbox, PARTNER, r#""plan":"nope","investmentStatus":2"#);
    assert_eq!(within(INVESTMENTS_PATH, "invalidFields", investments), 2);
    for (field, value) in [("ticker", "NOPE"), ("investment", "inv_nope")] {
        let reply = INVESTMENTS.send(&sandbox, PARTNER, &format!(r#""{field}":"{value}""#));
        assert_eq!(within(INVESTMENTS_PATH, "invalidFields", reply), 1);
    }
    for (path, endpoint) in [(HISTORY_PATH, FLEX_HISTORY), (PAYMENTS_PATH, PAYMENTS)] {
        let reply = endpoint.send(
            &sandbox,
            PARTNER,
            r#""plan":"nope","dateFrom":"today","dateTo":-1"#,
        );
        assert_eq!(within(path, "example", reply), 3);
        for (field, value) in [("investment", "inv_nope"), ("transaction", "tx_nope")] {
            let reply = endpoint.send(&sandbox, PARTNER, &format!(r#""{field}":"{value}""#));
            assert_eq!(within(path, "example", reply), 1);
        }
    }
    let reply = FLEX_HISTORY.send(&sandbox, PARTNER, r#""actionTypes":[9,1]"#);
    assert_eq!(within(HISTORY_PATH, "example", reply), 1);
    let reply = FLEX_HISTORY.send(&sandbox, PARTNER, r#""actionTypes":"1""#);
    assert_eq!(within(HISTORY_PATH, "example", reply), 1);
}

#[test]
fn plans_are_offered_by_account_status_and_ticker() {
    let sandbox = Sandbox::start().unwrap();
    let ids = |account, fields: &str| -> Vec<String> {
        let reply = FLEX_PLANS.send(&sandbox, account, fields);
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply
            .json()
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        ids(PARTNER, ""),
        [
            demo::FLEX_USDT_PLAN,
            demo::FLEX_BTC_PLAN,
            demo::FLEX_PARTNER_PLAN
        ]
    );
    assert_eq!(ids(PARTNER, r#""ticker":"BTC""#), [demo::FLEX_BTC_PLAN]);
    assert_eq!(ids(PARTNER, r#""ticker":"ETH""#), Vec::<String>::new());
    assert_eq!(
        ids(PARTNER, r#""limit":1,"offset":1"#),
        [demo::FLEX_BTC_PLAN]
    );
    // Paused since: no longer listed; active again: listed.
    sandbox
        .set_flex_plan_status(demo::FLEX_BTC_PLAN, 4)
        .unwrap();
    assert_eq!(ids(REGULAR, ""), [demo::FLEX_USDT_PLAN]);
    sandbox
        .set_flex_plan_status(demo::FLEX_BTC_PLAN, 1)
        .unwrap();
    assert_eq!(ids(REGULAR, "").len(), 2);
    // The plans share the main-account rate limit.
    let limited = Sandbox::builder().rate_limits(10_000, 2).start().unwrap();
    assert_eq!(FLEX_PLANS.send(&limited, PARTNER, "").status, 200);
    assert_eq!(PLANS.send(&limited, PARTNER, "").status, 200);
    assert_eq!(FLEX_PLANS.send(&limited, PARTNER, "").status, 429);
}

#[test]
fn earnings_accrue_each_day_and_reinvest() {
    let day = Duration::from_millis(60);
    let sandbox = Sandbox::builder()
        .flex_accrual_interval(day)
        .start()
        .unwrap();
    let start = sandbox.main_balance(demo::REGULAR_API_KEY, "USDT").unwrap();
    assert_eq!(start, "10000");
    let reply = INVEST.send(&sandbox, REGULAR, &plan_fields(USDT, "1000"));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let earnings = || -> Vec<Value> {
        PAYMENTS.send(&sandbox, REGULAR, r#""limit":1000"#).json()["data"]
            .as_array()
            .unwrap()
            .clone()
    };
    eventually(|| earnings().len() >= 3);
    // Each day's earning is the reference's: 1000 × 0.15 / 365, cut to 8 places.
    let expected = daily_earning(Decimal::from(1000), "0.15".parse().unwrap()).unwrap();
    assert_eq!(expected.normalize().to_string(), "0.4109589");
    let paid = earnings();
    assert!(
        paid.iter()
            .all(|e| e["amount"] == "0.4109589" && e["actionType"] == 4),
        "{paid:?}"
    );
    // Paid into the main balance (never more than the days listed: both settle first).
    let listed = paid.len();
    let balance: Decimal = sandbox
        .main_balance(demo::REGULAR_API_KEY, "USDT")
        .unwrap()
        .parse()
        .unwrap();
    let days = (balance - Decimal::from(9000)) / expected;
    assert!(
        days >= Decimal::from(listed as u64),
        "{balance} after {listed} days"
    );
    // Reinvesting: the investment grows by each earning, the balance stops growing.
    let reply = AUTO_INVEST.send(
        &sandbox,
        REGULAR,
        &format!(r#""plan":"{USDT}","enabled":true"#),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let invested = || -> String {
        INVESTMENTS.send(&sandbox, REGULAR, "").json()["data"][0]["invested"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    eventually(|| invested() != "1000");
    let history = FLEX_HISTORY
        .send(&sandbox, REGULAR, r#""actionTypes":[2],"limit":1000"#)
        .json();
    let reinvested = history["data"].as_array().unwrap();
    assert!(!reinvested.is_empty());
    assert!(reinvested.iter().all(|r| r["actionType"] == 2));
    // The sandbox's own views agree with the lists.
    let records = sandbox.flex_investment_records();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["apiKey"], demo::REGULAR_API_KEY);
    assert!(sandbox.flex_history_records().len() >= listed + 2);
}

#[test]
fn faults_lose_answers_and_lag_reads() {
    let sandbox = Sandbox::start().unwrap();
    // Processed, then the connection closes without an answer: the history shows it.
    sandbox.inject_fault(Route::FlexInvest, Fault::DropAfterProcessing, Some(1));
    let request = signed_request(&sandbox, PARTNER, INVEST_PATH, &plan_fields(USDT, "100"));
    assert!(agent().run(request).is_err());
    let history = FLEX_HISTORY.send(&sandbox, PARTNER, "").json();
    assert_eq!(history["data"][0]["actionType"], 1);
    assert_eq!(history["data"][0]["amount"], "100");
    // A 503 without processing: nothing withdrawn.
    sandbox.inject_fault(Route::FlexWithdraw, Fault::Unavailable, Some(1));
    assert_eq!(
        WITHDRAW
            .send(&sandbox, PARTNER, &plan_fields(USDT, "10"))
            .status,
        503
    );
    assert_eq!(sandbox.flex_investment_records()[0]["invested"], "100");
    // A gateway's 503 after processing: withdrawn all the same.
    let gateway = Fault::AnswerAfterProcessing {
        status: 503,
        content_type: "application/json".to_owned(),
        body: br#"{"status":503,"errors":{}}"#.to_vec(),
    };
    sandbox.inject_fault(Route::FlexWithdraw, gateway.clone(), Some(1));
    assert_eq!(
        WITHDRAW
            .send(&sandbox, PARTNER, &plan_fields(USDT, "10"))
            .status,
        503
    );
    assert_eq!(sandbox.flex_investment_records()[0]["invested"], "90");
    // Close and auto-invest: processed, answers lost; the investment's state tells.
    sandbox.inject_fault(Route::FlexAutoInvest, Fault::DropAfterProcessing, Some(1));
    let request = signed_request(
        &sandbox,
        PARTNER,
        AUTO_INVEST_PATH,
        &format!(r#""plan":"{USDT}","enabled":true"#),
    );
    assert!(agent().run(request).is_err());
    assert_eq!(
        sandbox.flex_investment_records()[0]["withAutoReinvest"],
        true
    );
    sandbox.inject_fault(Route::FlexClose, gateway, Some(1));
    assert_eq!(
        CLOSE
            .send(&sandbox, PARTNER, &format!(r#""plan":"{USDT}""#))
            .status,
        503
    );
    assert_eq!(sandbox.flex_investment_records()[0]["status"], 0);

    // Lagging lists answer from a while ago: the reopened investment is not there yet.
    assert_eq!(
        INVEST
            .send(&sandbox, PARTNER, &plan_fields(USDT, "20"))
            .status,
        201
    );
    let lag = Fault::Lagging(Duration::from_secs(3600));
    sandbox.inject_fault(Route::FlexInvestments, lag.clone(), Some(1));
    assert_eq!(
        INVESTMENTS.send(&sandbox, PARTNER, "").json()["data"],
        json!([])
    );
    sandbox.inject_fault(Route::FlexHistory, lag.clone(), Some(1));
    assert_eq!(
        FLEX_HISTORY.send(&sandbox, PARTNER, "").json()["data"],
        json!([])
    );
    sandbox.inject_fault(Route::FlexPayments, lag, Some(1));
    assert_eq!(PAYMENTS.send(&sandbox, PARTNER, "").status, 200);
    let now = INVESTMENTS.send(&sandbox, PARTNER, "").json();
    assert_eq!(
        (
            now["data"][0]["invested"].clone(),
            now["data"][0]["status"].clone()
        ),
        (json!("20"), json!(1))
    );
    // A top-up hidden from the lists for a while: answered, listed only later.
    sandbox.inject_fault(
        Route::FlexInvest,
        Fault::VisibleAfter(Duration::from_millis(300)),
        Some(1),
    );
    assert_eq!(
        INVEST
            .send(&sandbox, PARTNER, &plan_fields(USDT, "30"))
            .status,
        201
    );
    assert_eq!(
        INVESTMENTS.send(&sandbox, PARTNER, "").json()["data"][0]["invested"],
        "20"
    );
    eventually(|| INVESTMENTS.send(&sandbox, PARTNER, "").json()["data"][0]["invested"] == "50");
    // The plans' route takes faults like the others.
    sandbox.inject_fault(Route::FlexPlans, Fault::Unavailable, Some(1));
    assert_eq!(FLEX_PLANS.send(&sandbox, PARTNER, "").status, 503);
    assert_eq!(sandbox.stats().faults_injected, 10);
}

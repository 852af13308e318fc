//! Flexible lending driven on the state directly, with no server and time given as an
//! argument (deterministic): accrual day by day, top-ups, withdrawals, reinvestment, closing
//! and reopening, the documented refusals, lagging and hidden reads — and the accrual held
//! against `txc-types`' reference arithmetic, written separately from the spec.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;
use std::time::Duration;

use http::StatusCode;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};
use txc_types::investments::flex::accrual::FlexLedger;

use crate::config::{AccountConfig, Config, FlexPlanConfig, Markets, Settings};
use crate::rules::{self, FlexHistoryFilter, FlexInvestmentsFilter};
use crate::state::{Changes, State};
use crate::wire::{Rejection, decimal};

const KEY: &str = "lender";
const OTHER: &str = "other";
/// 36.5 % a year: a day earns 0.001 of the principal.
const PLAN: &str = "plan-flex";
const PAUSED: &str = "plan-paused";
const PRIVATE: &str = "plan-private";
const GONE: &str = "plan-inactive";
const DOWN: &str = "plan-unavailable";
/// A flex day: one second, so that history times are whole days.
const DAY: u64 = 1_000_000;
/// A moment well into the sandbox's time: day 100.
const T0: u64 = 100 * DAY;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

/// A state with two accounts (10 000 USDT in each main account), the plan `PLAN` (10 to
/// 1 000, 36.5 %, least withdrawal 1), and plans paused, private to `OTHER`, inactive and
/// unavailable.
fn state() -> State {
    let account = |key: &str| {
        AccountConfig::new(key, "secret")
            .main_balance("USDT", "10000")
            .validate()
            .unwrap()
    };
    let plan = |id: &str, status: i64| {
        FlexPlanConfig::new(id, "USDT")
            .investment("10", "1000")
            .max_rate("0.365")
            .min_withdrawal("1")
            .status(status)
    };
    let flex_plans = [
        plan(PLAN, 1),
        plan(PAUSED, 4),
        plan(PRIVATE, 1).private_to(OTHER),
        plan(GONE, 3),
        plan(DOWN, 2),
    ];
    let config = Config {
        accounts: vec![account(KEY), account(OTHER)],
        markets: Vec::new(),
        plans: Vec::new(),
        flex_plans: flex_plans.iter().map(|p| p.validate().unwrap()).collect(),
        settings: Settings {
            flex_accrual_interval: Duration::from_micros(DAY),
            ..Settings::default()
        },
    };
    let markets = Arc::new(Markets::new(&config.markets));
    let mut state = State::new(&config, markets, Changes::unheard());
    state.accrue_flex(T0);
    state
}

fn fields(body: Value) -> Map<String, Value> {
    match body {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn known(id: &str) -> bool {
    [PLAN, PAUSED, PRIVATE, GONE, DOWN].contains(&id)
}

/// Invests `amount` in `plan` for `key` at `at`, reinvesting when `reinvest` says.
fn invest(
    state: &mut State,
    key: &str,
    plan: &str,
    amount: &str,
    reinvest: Option<bool>,
    at: u64,
) -> Result<String, Rejection> {
    let mut body = json!({"plan": plan, "amount": amount});
    if let Some(r) = reinvest {
        body["withReinvest"] = json!(r);
    }
    let request = rules::parse_flex_invest(&fields(body), known)?;
    let answer = state.flex_invest(key, request, at, Duration::ZERO)?;
    Ok(answer.data.transaction_id)
}

fn withdraw(state: &mut State, amount: &str, at: u64) -> Result<String, Rejection> {
    let request =
        rules::parse_flex_withdraw(&fields(json!({"plan": PLAN, "amount": amount})), known)?;
    Ok(state.flex_withdraw(KEY, request, at)?.data.transaction_id)
}

fn auto_invest(state: &mut State, enabled: bool, at: u64) -> Result<(), Rejection> {
    let request =
        rules::parse_flex_auto_invest(&fields(json!({"plan": PLAN, "enabled": enabled})), known)?;
    state.flex_auto_invest(KEY, &request, at).map(|_| ())
}

fn main(state: &State, key: &str) -> Decimal {
    state.accounts.get(key).unwrap().main["USDT"]
}

/// `KEY`'s investment in `PLAN` as the list shows it at `at`.
fn listed(state: &mut State, at: u64) -> Vec<Value> {
    let filter = rules::parse_flex_investments(&Map::new(), known).unwrap();
    investments(state, &filter, at, at)
}

fn investments(
    state: &mut State,
    filter: &FlexInvestmentsFilter,
    now: u64,
    as_of: u64,
) -> Vec<Value> {
    let page = state.flex_investments(KEY, filter, now, as_of).unwrap();
    page.data
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect()
}

/// `KEY`'s history, newest first: `(action, amount, seconds)`.
fn history(state: &mut State, at: u64, earnings_only: bool) -> Vec<(i64, String, u64)> {
    let filter: FlexHistoryFilter =
        rules::parse_flex_history(&fields(json!({"limit": 1000})), known, true).unwrap();
    let page = state
        .flex_history(KEY, &filter, (at, at), earnings_only)
        .unwrap();
    page.data
        .iter()
        .map(|r| (r.action_type, r.amount.clone(), r.created_at))
        .collect()
}

#[test]
fn a_day_earns_on_what_stayed_invested_all_day() {
    let mut state = state();
    invest(&mut state, KEY, PLAN, "100", None, T0 + DAY / 2).unwrap();
    assert_eq!(main(&state, KEY), d("9900"));
    // The first day end: the money was not there all day.
    state.accrue_flex(T0 + DAY);
    assert_eq!(history(&mut state, T0 + DAY, true), []);
    // The second: 100 × 0.365 / 365 = 0.1, paid to the main balance at the day's end.
    state.accrue_flex(T0 + 2 * DAY + 5);
    assert_eq!(
        history(&mut state, T0 + 2 * DAY, true),
        [(4, "0.1".to_owned(), 102)]
    );
    assert_eq!(main(&state, KEY), d("9900.1"));
    // Settling late pays the same days, each at its end.
    state.accrue_flex(T0 + 5 * DAY);
    let earnings = history(&mut state, T0 + 5 * DAY, true);
    assert_eq!(
        earnings.iter().map(|e| e.2).collect::<Vec<_>>(),
        [105, 104, 103, 102]
    );
    assert_eq!(main(&state, KEY), d("9900.4"));
    let record = &listed(&mut state, T0 + 5 * DAY)[0];
    assert_eq!(
        (record["invested"].clone(), record["status"].clone()),
        (json!("100"), json!(1))
    );
}

#[test]
fn top_ups_earn_from_the_next_day_and_withdrawals_at_once() {
    let mut state = state();
    invest(&mut state, KEY, PLAN, "500", None, T0 + 1).unwrap();
    state.accrue_flex(T0 + DAY); // invested during the day: nothing
    state.accrue_flex(T0 + 2 * DAY); // a whole day of 500: 0.5
    invest(&mut state, KEY, PLAN, "300", None, T0 + 2 * DAY + 10).unwrap(); // a top-up
    state.accrue_flex(T0 + 3 * DAY); // still 500 all day: 0.5
    withdraw(&mut state, "200", T0 + 3 * DAY + 10).unwrap(); // 600 left
    state.accrue_flex(T0 + 4 * DAY); // 600: 0.6
    let earnings: Vec<String> = history(&mut state, T0 + 4 * DAY, true)
        .into_iter()
        .map(|e| e.1)
        .collect();
    assert_eq!(earnings, ["0.6", "0.5", "0.5"]);
    let actions: Vec<i64> = history(&mut state, T0 + 4 * DAY, false)
        .into_iter()
        .map(|e| e.0)
        .collect();
    assert_eq!(actions, [4, 3, 4, 1, 4, 1]);
    assert_eq!(main(&state, KEY), d("10000") - d("600") + d("1.6"));
}

#[test]
fn reinvesting_compounds_and_can_be_switched() {
    let mut state = state();
    invest(&mut state, KEY, PLAN, "100", Some(true), T0 + 1).unwrap();
    state.accrue_flex(T0 + 3 * DAY);
    // Nothing the first day; then 100 → 100.1 → 100.2001, nothing paid out.
    let record = &listed(&mut state, T0 + 3 * DAY)[0];
    assert_eq!(record["invested"], "100.2001");
    assert_eq!(record["withAutoReinvest"], true);
    assert_eq!(main(&state, KEY), d("9900"));
    let actions: Vec<i64> = history(&mut state, T0 + 3 * DAY, false)
        .into_iter()
        .map(|e| e.0)
        .collect();
    assert_eq!(actions, [2, 4, 2, 4, 1]);
    // Switched off, the next day's earning is paid out; switching again changes nothing.
    auto_invest(&mut state, false, T0 + 3 * DAY + 1).unwrap();
    auto_invest(&mut state, false, T0 + 3 * DAY + 2).unwrap();
    state.accrue_flex(T0 + 4 * DAY);
    assert_eq!(main(&state, KEY), d("9900.1002001"));
    let record = &listed(&mut state, T0 + 4 * DAY)[0];
    assert_eq!(
        (
            record["withAutoReinvest"].clone(),
            record["updatedAt"].clone()
        ),
        (json!(false), json!(103))
    );
    // A top-up without `withReinvest` keeps the setting; with it, sets it.
    invest(&mut state, KEY, PLAN, "10", None, T0 + 4 * DAY + 1).unwrap();
    assert_eq!(
        listed(&mut state, T0 + 4 * DAY + 1)[0]["withAutoReinvest"],
        false
    );
    invest(&mut state, KEY, PLAN, "10", Some(true), T0 + 4 * DAY + 2).unwrap();
    assert_eq!(
        listed(&mut state, T0 + 4 * DAY + 2)[0]["withAutoReinvest"],
        true
    );
}

#[test]
fn closing_pays_back_and_investing_again_reopens() {
    let mut state = state();
    invest(&mut state, KEY, PLAN, "100", None, T0 + 1).unwrap();
    state.accrue_flex(T0 + 2 * DAY);
    state.flex_close(KEY, PLAN, T0 + 2 * DAY + DAY / 2).unwrap();
    assert_eq!(main(&state, KEY), d("10000.1"));
    state.accrue_flex(T0 + 3 * DAY); // closed: nothing
    let record = listed(&mut state, T0 + 3 * DAY)[0].clone();
    assert_eq!(
        (record["invested"].clone(), record["status"].clone()),
        (json!("0"), json!(0))
    );
    let id = record["id"].clone();
    // Reopened: the same investment, an OPEN_INVESTMENT record, earning from the next day.
    invest(&mut state, KEY, PLAN, "50", None, T0 + 3 * DAY + 1).unwrap();
    state.accrue_flex(T0 + 4 * DAY);
    state.accrue_flex(T0 + 5 * DAY);
    let list = listed(&mut state, T0 + 5 * DAY);
    assert_eq!(list.len(), 1);
    assert_eq!(
        (list[0]["id"].clone(), list[0]["status"].clone()),
        (id, json!(1))
    );
    let actions: Vec<(i64, String)> = history(&mut state, T0 + 5 * DAY, false)
        .into_iter()
        .map(|e| (e.0, e.1))
        .collect();
    assert_eq!(
        actions,
        [
            (4, "0.05".to_owned()),
            (6, "50".to_owned()),
            (5, "100".to_owned()),
            (4, "0.1".to_owned()),
            (1, "100".to_owned())
        ]
    );
}

/// The refusal's status, code, field and message.
fn refusal(r: Result<impl std::fmt::Debug, Rejection>) -> (StatusCode, i64, String, String) {
    let r = r.unwrap_err();
    let (field, messages) = r.errors.iter().next().unwrap();
    (r.status, r.code, field.clone(), messages[0].clone())
}

fn inner(code: i64, field: &str, message: &str) -> (StatusCode, i64, String, String) {
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        code,
        field.to_owned(),
        message.to_owned(),
    )
}

#[test]
fn the_documented_refusals() {
    let mut state = state();
    let at = T0 + 1;
    let invalid = (
        StatusCode::BAD_REQUEST,
        0,
        "plan".to_owned(),
        "The selected plan is invalid.".to_owned(),
    );
    assert_eq!(
        refusal(invest(&mut state, KEY, GONE, "100", None, at)),
        invalid
    );
    assert_eq!(
        refusal(invest(&mut state, KEY, PAUSED, "100", None, at)),
        inner(0, "plan", "Plan is paused")
    );
    assert_eq!(
        refusal(invest(&mut state, KEY, DOWN, "100", None, at)),
        inner(0, "plan", "Plan is unavailable")
    );
    assert_eq!(
        refusal(invest(&mut state, KEY, PRIVATE, "100", None, at)),
        inner(0, "plan", "Private plan not available for this user")
    );
    assert!(invest(&mut state, OTHER, PRIVATE, "100", None, at).is_ok());
    assert_eq!(
        refusal(invest(&mut state, KEY, PLAN, "0", None, at)),
        inner(0, "amount", "Amount is too small")
    );
    assert_eq!(
        refusal(invest(&mut state, KEY, PLAN, "9.999999", None, at)),
        inner(2, "amount", "Amount is less than min investment")
    );
    assert_eq!(
        refusal(invest(&mut state, KEY, PLAN, "1000.000001", None, at)),
        inner(3, "amount", "Amount is more than max investment")
    );
    state
        .accounts
        .get_mut(KEY)
        .unwrap()
        .main
        .insert("USDT".into(), d("9"));
    assert_eq!(
        refusal(invest(&mut state, KEY, PLAN, "10", None, at)),
        inner(4, "amount", "Available 9 < 10")
    );
    state
        .accounts
        .get_mut(KEY)
        .unwrap()
        .main
        .insert("USDT".into(), d("10000"));
    // Withdrawing, closing and auto-invest without an investment.
    assert_eq!(
        refusal(withdraw(&mut state, "5", at)),
        inner(0, "amount", "Investment does not exist")
    );
    assert_eq!(
        refusal(state.flex_close(KEY, PLAN, at)),
        inner(0, "amount", "Investment does not exist")
    );
    assert_eq!(
        refusal(auto_invest(&mut state, true, at)),
        inner(0, "plan", "No existing investments for this plan")
    );
    invest(&mut state, KEY, PLAN, "600", None, at).unwrap();
    assert_eq!(
        refusal(invest(&mut state, KEY, PLAN, "400.000001", None, at)),
        inner(0, "amount", "Investment limit is exceeded")
    );
    invest(&mut state, KEY, PLAN, "400", None, at).unwrap(); // exactly the maximum
    assert_eq!(
        refusal(withdraw(&mut state, "-1", at)),
        inner(0, "amount", "Withdraw amount is too small")
    );
    assert_eq!(
        refusal(withdraw(&mut state, "0.5", at)),
        inner(0, "amount", "Cannot withdraw amount < min possible")
    );
    assert_eq!(
        refusal(withdraw(&mut state, "1000.000001", at)),
        inner(0, "amount", "Withdraw amount exceeds total invested")
    );
    assert_eq!(
        refusal(withdraw(&mut state, "990.000001", at)),
        inner(0, "minAmountLeft", "Amount left < min investment")
    );
    withdraw(&mut state, "990", at).unwrap(); // exactly the minimum left
    state.flex_close(KEY, PLAN, at).unwrap();
    for closed in [
        refusal(withdraw(&mut state, "5", at)),
        refusal(state.flex_close(KEY, PLAN, at)),
    ] {
        assert_eq!(
            closed,
            inner(0, "investment", "Cannot withdraw from closed investment")
        );
    }
    // A plan paused since: withdrawing is refused (the plan must be active), closing is not.
    invest(&mut state, KEY, PLAN, "100", None, at).unwrap();
    state.set_flex_plan_status(PLAN, 4, at).unwrap();
    assert_eq!(refusal(withdraw(&mut state, "5", at)), invalid);
    assert!(state.flex_close(KEY, PLAN, at).is_ok());
    assert!(state.set_flex_plan_status("nope", 1, at).is_err());
}

#[test]
fn lagging_and_hidden_reads() {
    let mut state = state();
    invest(&mut state, KEY, PLAN, "100", None, T0).unwrap();
    withdraw(&mut state, "50", T0 + 1_000).unwrap();
    let filter = rules::parse_flex_investments(&Map::new(), known).unwrap();
    // As of before the investment: nothing; between: 100; now: 50.
    assert!(investments(&mut state, &filter, T0 + 2_000, T0 - 1).is_empty());
    assert_eq!(
        investments(&mut state, &filter, T0 + 2_000, T0 + 500)[0]["invested"],
        "100"
    );
    assert_eq!(
        investments(&mut state, &filter, T0 + 2_000, T0 + 2_000)[0]["invested"],
        "50"
    );
    // An investment filter the lagging list does not know yet is refused, as on the exchange.
    let id = investments(&mut state, &filter, T0 + 2_000, T0 + 2_000)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let by_id = rules::parse_flex_investments(&fields(json!({"investment": id})), known).unwrap();
    assert!(
        state
            .flex_investments(KEY, &by_id, T0 + 2_000, T0 - 1)
            .is_err()
    );
    // A top-up hidden for a while: the history and the list show it only after.
    let request =
        rules::parse_flex_invest(&fields(json!({"plan": PLAN, "amount": "20"})), known).unwrap();
    state
        .flex_invest(KEY, request, T0 + 3_000, Duration::from_micros(5_000))
        .unwrap();
    assert_eq!(history(&mut state, T0 + 4_000, false).len(), 2);
    assert_eq!(
        investments(&mut state, &filter, T0 + 4_000, T0 + 4_000)[0]["invested"],
        "50"
    );
    assert_eq!(history(&mut state, T0 + 8_000, false).len(), 3);
    assert_eq!(
        investments(&mut state, &filter, T0 + 8_000, T0 + 8_000)[0]["invested"],
        "70"
    );
    // Another account sees none of it.
    let page = state
        .flex_investments(OTHER, &filter, T0 + 8_000, T0 + 8_000)
        .unwrap();
    assert!(page.data.is_empty());
}

/// An operation of the property test, at a fraction of a day.
#[derive(Debug, Clone)]
enum Op {
    Invest(u32),
    Withdraw(u32),
    Reinvest(bool),
    Close,
    /// Lets this many day ends pass.
    Days(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (1u32..=1_000_000).prop_map(Op::Invest),
        (1u32..=1_000_000).prop_map(Op::Withdraw),
        any::<bool>().prop_map(Op::Reinvest),
        Just(Op::Close),
        (0u8..4).prop_map(Op::Days),
    ]
}

/// Cents of a unit, as a decimal: `n / 1000`.
fn milli(n: u32) -> Decimal {
    Decimal::new(i64::from(n), 3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the operations, the sandbox's accrual is the reference's: the same earnings
    /// day by day, the same amount invested, the same paid out — and an operation the
    /// sandbox refuses is one the reference's figures forbid.
    #[test]
    fn the_accrual_is_the_references(rate in 0u32..=500, ops in proptest::collection::vec(op(), 1..30)) {
        let rate = Decimal::new(i64::from(rate), 3);
        let mut state = state();
        let mut ledger = FlexLedger::new(rate).unwrap();
        if let Some(plan) = state.flex.plans.iter_mut().find(|p| p.record.id == PLAN) {
            plan.rate = rate;
            plan.max = d("1000000");
            plan.min = Decimal::ZERO;
            plan.min_withdrawal = Decimal::ZERO;
        }
        state.accounts.get_mut(KEY).unwrap().main.insert("USDT".into(), d("100000000"));
        let start = main(&state, KEY);
        let mut now = T0 + 1;
        let (mut put_in, mut taken_out) = (Decimal::ZERO, Decimal::ZERO);
        let mut paid = Decimal::ZERO;
        for op in ops {
            now += 7;
            match op {
                Op::Invest(n) => {
                    let amount = decimal::text(milli(n));
                    let done = invest(&mut state, KEY, PLAN, &amount, None, now).is_ok();
                    prop_assert!(done);
                    ledger.invest(milli(n)).unwrap();
                    put_in += milli(n);
                }
                Op::Withdraw(n) => {
                    let done = withdraw(&mut state, &decimal::text(milli(n)), now).is_ok();
                    prop_assert_eq!(done, ledger.is_open() && milli(n) <= ledger.invested());
                    if done {
                        ledger.withdraw(milli(n)).unwrap();
                        taken_out += milli(n);
                    }
                }
                Op::Reinvest(on) => {
                    let done = auto_invest(&mut state, on, now).is_ok();
                    prop_assert_eq!(done, ledger.is_open());
                    if done {
                        ledger.set_reinvest(on);
                    }
                }
                Op::Close => {
                    let done = state.flex_close(KEY, PLAN, now).is_ok();
                    prop_assert_eq!(done, ledger.is_open());
                    if done {
                        taken_out += ledger.close();
                    }
                }
                Op::Days(n) => {
                    for _ in 0..n {
                        now = (now / DAY + 1) * DAY + 3;
                        state.accrue_flex(now);
                        let day = ledger.end_day().unwrap();
                        if !day.reinvested {
                            paid += day.earning;
                        }
                        let last = history(&mut state, now, true).first().map(|e| e.1.clone());
                        if !day.earning.is_zero() {
                            prop_assert_eq!(last, Some(decimal::text(day.earning)));
                        }
                    }
                }
            }
            let invested = listed(&mut state, now)
                .first()
                .map_or(Decimal::ZERO, |r| decimal::parse(r["invested"].as_str().unwrap()).unwrap());
            prop_assert_eq!(invested, ledger.invested());
        }
        prop_assert_eq!(paid, ledger.paid_out());
        prop_assert_eq!(main(&state, KEY), start - put_in + taken_out + ledger.paid_out());
        let earned: Decimal = history(&mut state, now, true)
            .iter()
            .map(|e| decimal::parse(&e.1).unwrap())
            .sum();
        prop_assert_eq!(earned, ledger.earned());
    }
}

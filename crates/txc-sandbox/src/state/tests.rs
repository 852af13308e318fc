//! The state driven directly, with no server, no authentication and no transport: a body read
//! by the rules, then placed, filled, fired, canceled, invested — and what the state tells its
//! subscriber. That these need nothing above the state is the layering's proof.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use super::*;
use crate::config::{AccountConfig, MarketConfig, PlanConfig, PositionMode};
use crate::rules::{self, MarketRule, OrderKind};
use crate::wire::{self, OrderStatus, decimal};

const KEY: &str = "one-way";
const HEDGE: &str = "hedge";
const PLAN: &str = "plan-10-percent";

/// What a subscriber was told, in order.
#[derive(Debug, Default)]
pub(super) struct Recorder(Mutex<Vec<Change>>);

impl Subscriber for Recorder {
    fn listening(&self) -> bool {
        true
    }

    fn notify(&self, change: Change) {
        self.0.lock().unwrap().push(change);
    }
}

impl Recorder {
    /// The changes told so far, taken.
    pub(super) fn take(&self) -> Vec<Change> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// A state of two accounts (one-way with 10 000 USDT of collateral and of main balance, and
/// one in hedge mode), `BTC_USDT` at 65 000 and a plan of 10 % over a one-minute term whose
/// minute lasts a millisecond; its changes go to the recorder.
fn state() -> (State, Arc<Recorder>) {
    let account = AccountConfig::new(KEY, "secret")
        .partner(true)
        .balance("USDT", "10000")
        .main_balance("USDT", "10000");
    let hedge = AccountConfig::new(HEDGE, "secret")
        .position_mode(PositionMode::Hedge)
        .balance("USDT", "10000");
    let plan = PlanConfig::new(PLAN, "USDT")
        .percent("10")
        .duration_minutes(1)
        .investment("10", "1000", "5000");
    let settings = Settings {
        investment_minute: Duration::from_millis(1),
        ..Settings::default()
    };
    state_of(
        vec![account, hedge],
        vec![MarketConfig::new("BTC_USDT", "65000")],
        vec![plan],
        settings,
    )
}

/// A state of `accounts`, `markets` and `plans` with `settings`; its changes go to the
/// recorder.
pub(super) fn state_of(
    accounts: Vec<AccountConfig>,
    markets: Vec<MarketConfig>,
    plans: Vec<PlanConfig>,
    settings: Settings,
) -> (State, Arc<Recorder>) {
    let config = Config {
        accounts: accounts.iter().map(|a| a.validate().unwrap()).collect(),
        markets: markets.iter().map(|m| m.validate().unwrap()).collect(),
        plans: plans.iter().map(|p| p.validate().unwrap()).collect(),
        flex_plans: Vec::new(),
        settings,
    };
    let recorder = Arc::new(Recorder::default());
    let markets = Arc::new(Markets::new(&config.markets));
    let changes = Changes::to(Arc::clone(&recorder) as Arc<dyn Subscriber>);
    (State::new(&config, markets, changes), recorder)
}

fn fields(body: Value) -> Map<String, Value> {
    match body {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Reads an order body with the rules and places it for `api_key`.
fn place(
    state: &mut State,
    api_key: &str,
    kind: OrderKind,
    body: Value,
) -> Result<Value, wire::Rejection> {
    let request = rules::parse_order(&fields(body), kind, &state.markets)?;
    let record = state.place(api_key, request, Duration::ZERO)?;
    Ok(serde_json::to_value(record).unwrap())
}

fn balance(state: &State, api_key: &str) -> String {
    decimal::text(state.accounts.get(api_key).unwrap().balance("USDT"))
}

#[test]
fn a_market_order_fills_at_the_price_and_opens_a_position() {
    let (mut state, changes) = state();
    let order = place(
        &mut state,
        KEY,
        OrderKind::Market,
        json!({"market": "BTC_USDT", "side": "buy", "amount": "0.01", "clientOrderId": "a-1"}),
    )
    .unwrap();
    assert_eq!(order["status"], "FILLED");
    assert_eq!(order["dealMoney"], "650");
    assert_eq!(order["dealFee"], "0.65");
    assert_eq!(order["positionSide"], "BOTH");
    // 65 of margin at leverage 10, 0.65 of fee.
    assert_eq!(balance(&state, KEY), "9934.35");
    let positions = state.positions_of(KEY);
    assert_eq!(positions.len(), 1);
    assert_eq!(
        (
            positions[0].amount.as_str(),
            positions[0].entry_price.as_str()
        ),
        ("0.01", "65000")
    );
    assert_eq!(positions[0].margin, "65");

    // The fill changed the account, then the order finished with its deal.
    let told = changes.take();
    assert!(matches!(&told[0], Change::Account { api_key } if api_key == KEY));
    let Change::Order {
        change,
        order,
        deals,
    } = &told[1]
    else {
        panic!("{told:?}");
    };
    assert_eq!(*change, OrderChange::Finished);
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(deals.len(), 1);
    assert!(!deals[0].execution.maker);
    assert_eq!(told.len(), 2);
    assert_eq!(state.stats.filled_orders, 1);
}

#[test]
fn a_rejected_order_changes_nothing_and_tells_no_one() {
    let (mut state, changes) = state();
    // 2 BTC lock 13 000 of margin: more than the balance.
    let refused = place(
        &mut state,
        KEY,
        OrderKind::Market,
        json!({"market": "BTC_USDT", "side": "buy", "amount": "2"}),
    )
    .unwrap_err();
    assert_eq!(
        (refused.code, refused.message),
        (10, "Inner validation failed")
    );
    // The rules refuse before the state is asked: an amount off the step is code 32.
    let off_step = place(
        &mut state,
        KEY,
        OrderKind::Market,
        json!({"market": "BTC_USDT", "side": "buy", "amount": "0.0000001"}),
    )
    .unwrap_err();
    assert_eq!(off_step.code, 32);
    // In hedge mode, an order must say which side it acts on.
    let sideless = place(
        &mut state,
        HEDGE,
        OrderKind::Market,
        json!({"market": "BTC_USDT", "side": "buy", "amount": "0.01"}),
    )
    .unwrap_err();
    assert_eq!(sideless.code, 114);
    assert_eq!(balance(&state, KEY), "10000");
    assert!(state.orders.all().is_empty());
    assert!(changes.take().is_empty());
}

#[test]
fn a_trigger_order_rests_until_the_price_reaches_it_then_fills_there() {
    let (mut state, changes) = state();
    let resting = place(
        &mut state,
        KEY,
        OrderKind::Trigger,
        json!({"market": "BTC_USDT", "side": "buy", "amount": "0.01", "activation_price": "66000"}),
    )
    .unwrap();
    assert_eq!(resting["status"], "OPEN");
    assert_eq!(resting["activated"], 0);
    assert_eq!(
        balance(&state, KEY),
        "10000",
        "nothing is locked while it rests"
    );
    let told = changes.take();
    assert!(matches!(
        told.as_slice(),
        [Change::Order {
            change: OrderChange::New,
            deals,
            ..
        }] if deals.is_empty()
    ));

    assert_eq!(state.set_price("BTC_USDT", "65500").unwrap(), 0);
    assert_eq!(state.set_price("BTC_USDT", "66000").unwrap(), 1);
    let fired = &state.order_records()[0];
    assert_eq!(fired["status"], "FILLED");
    assert_eq!(fired["activated"], 1);
    assert_eq!(fired["dealMoney"], "660");
    assert_eq!(state.positions_of(KEY)[0].entry_price, "66000");
    assert_eq!(state.stats.triggers_fired, 1);
    let finished = changes
        .take()
        .into_iter()
        .filter(|c| {
            matches!(
                c,
                Change::Order {
                    change: OrderChange::Finished,
                    deals,
                    ..
                } if deals.len() == 1
            )
        })
        .count();
    assert_eq!(finished, 1);
}

#[test]
fn a_canceled_trigger_order_never_fires() {
    let (mut state, _) = state();
    place(
        &mut state,
        KEY,
        OrderKind::Trigger,
        json!({"market": "BTC_USDT", "side": "sell", "amount": "0.01", "activation_price": "60000", "clientOrderId": "stop-1"}),
    )
    .unwrap();
    let cancel = rules::CancelRequest::parse(
        &fields(json!({"market": "BTC_USDT", "clientOrderId": "stop-1"})),
        &state.markets,
    )
    .unwrap();
    let canceled = serde_json::to_value(state.cancel(KEY, &cancel).unwrap()).unwrap();
    assert_eq!(canceled["status"], "CANCELED");
    assert_eq!(state.cancel(KEY, &cancel).unwrap_err().code, 2);
    assert_eq!(state.set_price("BTC_USDT", "59000").unwrap(), 0);
    assert!(state.positions_of(KEY).is_empty());
}

#[test]
fn a_reduce_only_order_is_cut_to_the_position_and_closes_it() {
    let (mut state, _) = state();
    let body = json!({"market": "BTC_USDT", "side": "sell", "amount": "0.05", "reduceOnly": true});
    let nothing_to_reduce = place(&mut state, KEY, OrderKind::Market, body.clone()).unwrap_err();
    assert_eq!(nothing_to_reduce.code, 116);

    place(
        &mut state,
        KEY,
        OrderKind::Market,
        json!({"market": "BTC_USDT", "side": "buy", "amount": "0.02"}),
    )
    .unwrap();
    state.set_price("BTC_USDT", "70000").unwrap();
    let closing = place(&mut state, KEY, OrderKind::Market, body).unwrap();
    assert_eq!(closing["amount"], "0.02", "cut to the position");
    assert!(state.positions_of(KEY).is_empty());
    // Margin back, 0.02 × 5 000 of profit, both fees paid: 1.3 + 1.4.
    assert_eq!(balance(&state, KEY), "10097.3");

    // The position's history: opened, then closed with what it realized, newest first.
    let query =
        rules::parse_position_history(&fields(json!({})), state.clock.now_ms() / 1_000).unwrap();
    let events = state.position_history(KEY, &query);
    let amounts: Vec<&str> = events.iter().map(|e| e.head.amount.as_str()).collect();
    assert_eq!(amounts, ["0", "0.02"]);
    assert_eq!(events[0].order_detail.realized_pnl.as_deref(), Some("100"));
    assert_eq!(events[1].order_detail.realized_pnl, None);
}

#[test]
fn an_investment_takes_the_main_balance_and_pays_its_interest_at_the_term() {
    let (mut state, _) = state();
    let main = |state: &State| state.accounts.get(KEY).unwrap().main.get("USDT").copied();
    let request = rules::parse_invest(&fields(json!({"planId": PLAN, "amount": "100"})), |id| {
        id == PLAN
    })
    .unwrap();
    let made = state.invest(KEY, request, Duration::ZERO).unwrap();
    assert_eq!(main(&state), Some(Decimal::from(9_900)));
    assert_eq!(state.plans[0].max_possible_investment, "4900");

    // The term is a minute of a millisecond: once it is over, the next request settles it.
    std::thread::sleep(Duration::from_millis(5));
    let filter = rules::parse_investments(&fields(json!({}))).unwrap();
    let page = state.investments_page(KEY, &filter).unwrap();
    assert_eq!(page.records.len(), 1);
    let investment = &page.records[0];
    assert_eq!(
        (investment.id.as_str(), investment.status),
        (made.id.as_str(), 2)
    );
    // 10 % of 100 over the whole term, the principal back.
    assert_eq!(investment.interest_paid, "10");
    assert_eq!(main(&state), Some(Decimal::from(10_010)));
    assert_eq!(state.plans[0].max_possible_investment, "5000");
    let closing_again = state.close_investment(KEY, &made.id).unwrap_err();
    assert_eq!(closing_again.message, "Inner validation failed");
}

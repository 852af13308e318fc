//! Positions and risk controls through both transports against the sandbox: balances and
//! summaries, open positions and their history, closing (and resolving a close whose outcome
//! is unknown), leverage, hedge mode and the position-mode pre-flight, cancel-all, bulk cancel,
//! and the kill switch with its guard. Each scenario runs once per transport.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[macro_use]
mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::risk::{RiskApi, RiskDriver};
use common::{config, eventually, market};
use txc_core::Error;
use txc_core::decode::ApiErrorClass;
use txc_core::resolve::{CloseResolution, RoundVerdict};
use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule, ModeCheck};
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_types::errors::ValidationError;
use txc_types::orders::{
    CancelAllOrders, CancelOrder, CancelOrders, CollateralMarketOrder,
    CollateralTriggerMarketOrder, KillSwitchAnswer, KillSwitchStatusQuery, Order, OrderClass,
    OrderStatus, PositionSide, SetKillSwitch, Side,
};
use txc_types::positions::{
    BalanceSummaryQuery, ClosePosition, CollateralBalanceQuery, OpenPositionsQuery,
    PositionHistoryQuery, PositionMode, SetHedgeMode, SetLeverage,
};

scenarios!(
    balances_and_the_account_summary_follow_the_orders,
    a_position_is_read_closed_and_recorded,
    closing_what_is_not_open_is_not_found,
    a_lost_close_answer_resolves_as_closed,
    an_unprocessed_close_resolves_as_still_open,
    leverage_is_set_and_refused_while_positions_are_open,
    hedge_mode_switches_and_orders_are_checked_before_sending,
    the_mode_is_read_once_and_again_after_code_114,
    without_the_check_the_exchange_decides,
    cancel_all_and_bulk_cancel_act_on_what_they_name,
    an_ambiguous_cancel_all_is_never_resent,
    kill_switch_timers_are_set_listed_and_deleted,
    a_guard_keeps_the_timer_armed_and_deletes_it_when_dropped,
    a_guard_reports_failed_rearms_and_the_lapse,
    the_position_history_window_is_checked_before_sending,
);

/// The partner's configuration with the position-mode check on (the tests' other clients
/// turn it off).
fn learning() -> txc_core::ClientConfig {
    config::partner().position_mode_check(ModeCheck::Learn)
}

/// A buy trigger order of 0.01 on `market`, placed with `client`: above the market's price,
/// it rests.
fn resting(client: &dyn RiskApi, market: &str, price: &str) -> Order {
    let order = CollateralTriggerMarketOrder::builder(market, Side::Buy, "0.01", price)
        .build()
        .unwrap();
    client.trigger(&order).unwrap()
}

/// The only open position of the partner on `market`.
fn position(client: &dyn RiskApi, market: &str) -> txc_types::positions::Position {
    let open = client
        .open_positions(&OpenPositionsQuery::of_market(market).unwrap())
        .unwrap();
    assert_eq!(open.len(), 1, "{open:?}");
    open.into_iter().next().unwrap()
}

fn balances_and_the_account_summary_follow_the_orders(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let all = client
        .collateral_balance(&CollateralBalanceQuery::new())
        .unwrap();
    assert_eq!(all.get("USDT").map(|d| d.as_str()), Some("10000"));
    let usdt = client
        .collateral_balance(&CollateralBalanceQuery::of_ticker("USDT").unwrap())
        .unwrap();
    assert_eq!(usdt.balances.len(), 1);
    let summary = client.account_summary().unwrap();
    assert_eq!((summary.leverage, summary.equity.as_str()), (10, "10000"));
    assert_eq!(summary.margin.as_str(), "0");
    // A filled order of 650 USDT at leverage 10 holds 65 of margin and pays a 0.65 fee.
    client.market(&market("0.01")).unwrap();
    let summary = client.account_summary().unwrap();
    assert_eq!(summary.margin.as_str(), "65");
    assert_eq!(summary.free_margin.as_str(), "9934.35");
    assert_eq!(summary.equity.as_str(), "9999.35");
    let assets = client.balance_summary(&BalanceSummaryQuery::new()).unwrap();
    let usdt = assets.iter().find(|a| a.asset == "USDT").unwrap();
    assert_eq!(usdt.balance.as_str(), "9934.35");
    assert_eq!(usdt.available_with_borrow.as_str(), "99343.5");
    // An unknown ticker is refused by the exchange; a malformed one never leaves the client.
    let (_, api) = common::api_error(
        client.collateral_balance(&CollateralBalanceQuery::of_ticker("XRP").unwrap()),
    );
    assert_eq!((api.code, api.class), (Some(30), ApiErrorClass::Validation));
    assert!(CollateralBalanceQuery::of_ticker("usdt").is_err());
}

fn a_position_is_read_closed_and_recorded(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let opened = client.market(&market("0.01")).unwrap();
    sandbox.set_price("BTC_USDT", "66000").unwrap();
    let open = position(&*client, "BTC_USDT");
    assert_eq!(open.amount.as_ref().unwrap().as_str(), "0.01");
    assert_eq!(open.base_price.as_ref().unwrap().as_str(), "65000");
    assert_eq!(open.unrealized_pnl.as_ref().unwrap().as_str(), "10");
    assert_eq!(open.position_side, Some(PositionSide::Both));
    let opening = client
        .position_history(&PositionHistoryQuery::of_position(
            "BTC_USDT".parse().unwrap(),
            open.position_id,
        ))
        .unwrap();
    assert_eq!(opening.len(), 1);
    assert_eq!(
        opening[0].order_detail.as_ref().unwrap().id,
        opened.order_id
    );
    assert_eq!(opening[0].is_hedge, Some(false));

    let close = ClosePosition::new("BTC_USDT", open.position_id).unwrap();
    client.close_position(&close).unwrap();
    assert!(
        client
            .open_positions(&OpenPositionsQuery::new())
            .unwrap()
            .is_empty()
    );
    let events = client
        .position_history(
            &PositionHistoryQuery::builder()
                .market("BTC_USDT")
                .position_id(open.position_id)
                .build()
                .unwrap(),
        )
        .unwrap();
    assert_eq!(events.len(), 2, "{events:?}");
    let closing = &events[0];
    assert_eq!(closing.amount.as_ref().unwrap().as_str(), "0");
    let detail = closing.order_detail.as_ref().unwrap();
    assert_eq!(detail.realized_pnl.as_ref().unwrap().as_str(), "10");
    // The closing order is an order like any other: filled, in the history.
    let closing_order = sandbox
        .orders()
        .into_iter()
        .find(|o| o.order_id == detail.id);
    assert_eq!(closing_order.unwrap().status, Some(OrderStatus::Filled));
    // 10000 − 0.65 (fee) + 10 (profit) − 0.66 (fee).
    assert_eq!(
        sandbox.balance(demo::PARTNER_API_KEY, "USDT").unwrap(),
        "10008.69"
    );
}

fn closing_what_is_not_open_is_not_found(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    client.market(&market("0.01")).unwrap();
    let open = position(&*client, "BTC_USDT");
    for close in [
        ClosePosition::new("BTC_USDT", open.position_id + 1).unwrap(),
        ClosePosition::new("ETH_USDT", open.position_id).unwrap(),
    ] {
        let (error, api) = common::api_error(client.close_position(&close));
        assert_eq!((api.code, api.class), (Some(104), ApiErrorClass::NotFound));
        assert!(!error.outcome_unknown());
    }
    // Closing with a side one-way mode has no use for is refused before sending.
    let requests = sandbox.stats().requests;
    let sided = ClosePosition::new("BTC_USDT", open.position_id)
        .unwrap()
        .position_side(PositionSide::Long);
    let refused = client.close_position(&sided).unwrap_err();
    assert!(matches!(refused, Error::InvalidRequest(ref e) if e.field() == "positionSide"));
    assert!(refused.to_string().contains("one-way mode"), "{refused}");
    assert_eq!(sandbox.stats().requests, requests);
    assert_eq!(sandbox.positions(demo::PARTNER_API_KEY).len(), 1);
}

fn a_lost_close_answer_resolves_as_closed(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    client.market(&market("0.01")).unwrap();
    let open = position(&*client, "BTC_USDT");
    let close = ClosePosition::new("BTC_USDT", open.position_id).unwrap();
    // Executed, then the connection dropped; then a 5xx after executing.
    for fault in [
        Fault::DropAfterProcessing,
        Fault::AnswerAfterProcessing {
            status: 503,
            content_type: String::new(),
            body: Vec::new(),
        },
    ] {
        if sandbox.positions(demo::PARTNER_API_KEY).is_empty() {
            client.market(&market("0.01")).unwrap();
        }
        let open = position(&*client, "BTC_USDT");
        let close = ClosePosition::new("BTC_USDT", open.position_id).unwrap();
        sandbox.inject_fault(Route::ClosePosition, fault, Some(1));
        let requests = sandbox.stats().requests;
        let error = client.close_position(&close).unwrap_err();
        assert!(error.outcome_unknown() && !error.is_retryable(), "{error}");
        assert_eq!(sandbox.stats().requests, requests + 1, "never resent");
        let pending = error.pending_close().unwrap();
        assert_eq!(pending.position_id(), open.position_id);
        assert_eq!(pending.attempts().len(), 1);
        let CloseResolution::Closed(last, proof) = client.resolve_close(pending).unwrap() else {
            panic!("not closed")
        };
        assert_eq!(proof.rounds.len(), 2);
        // Both found it closed (absent from the open positions), on the exchange's clock.
        assert!(
            proof
                .rounds
                .iter()
                .all(|r| r.verdict == RoundVerdict::Found && r.exchange_sent_at.is_some())
        );
        assert_eq!(last.amount.unwrap().as_str(), "0");
    }
    drop(close);
}

fn an_unprocessed_close_resolves_as_still_open(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let config = learning().unproven_acceptance_window(Duration::from_millis(200));
    let client = driver.risk(sandbox.base_url(), config);
    client.market(&market("0.01")).unwrap();
    let open = position(&*client, "BTC_USDT");
    let close = ClosePosition::new("BTC_USDT", open.position_id).unwrap();
    sandbox.inject_fault(Route::ClosePosition, Fault::Unavailable, Some(1));
    let error = client.close_position(&close).unwrap_err();
    assert!(matches!(error, Error::CloseUnknown(_)), "{error}");
    let pending = error.pending_close().unwrap().clone();
    let CloseResolution::StillOpen(still, proof) = client.resolve_close(&pending).unwrap() else {
        panic!("closed")
    };
    assert_eq!(still.position_id, open.position_id);
    // Both rounds that prove it came after every attempt had aged, by the exchange's Date.
    let settled = proof.attempts_settled_at.unwrap();
    let counted: Vec<_> = proof.rounds.iter().rev().take(2).collect();
    assert!(
        counted.iter().all(|r| r.verdict == RoundVerdict::Absent
            && r.exchange_sent_at.is_some_and(|t| t >= settled))
    );
    // Still open: closing it again is safe.
    client.close_position(&close).unwrap();
    assert!(sandbox.positions(demo::PARTNER_API_KEY).is_empty());
}

fn leverage_is_set_and_refused_while_positions_are_open(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    assert_eq!(
        client
            .set_leverage(&SetLeverage::new(5).unwrap())
            .unwrap()
            .leverage,
        5
    );
    assert_eq!(client.account_summary().unwrap().leverage, 5);
    // 650 at leverage 5: 130 of margin.
    client.market(&market("0.01")).unwrap();
    assert_eq!(client.account_summary().unwrap().margin.as_str(), "130");
    let (error, api) = common::api_error(client.set_leverage(&SetLeverage::new(10).unwrap()));
    assert_eq!(
        (api.code, api.class),
        (Some(113), ApiErrorClass::PositionsOpen)
    );
    assert!(!error.outcome_unknown());
    // A value the exchange does not accept never leaves the client.
    assert_eq!(SetLeverage::new(4).unwrap_err().field(), "leverage");
}

fn hedge_mode_switches_and_orders_are_checked_before_sending(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    assert!(!client.hedge_mode().unwrap().hedge_mode);
    client
        .set_hedge_mode(&SetHedgeMode::new(PositionMode::Hedge))
        .unwrap();
    assert!(client.hedge_mode().unwrap().hedge_mode);
    assert_eq!(client.known_position_mode(), Some(PositionMode::Hedge));
    // In hedge mode an order without a side is refused before sending: nothing is guessed.
    let requests = sandbox.stats().requests;
    let refused = client.market(&market("0.01")).unwrap_err();
    assert!(matches!(refused, Error::InvalidRequest(ref e) if e.field() == "positionSide"));
    assert!(refused.to_string().contains("hedge mode"), "{refused}");
    assert_eq!(sandbox.stats().requests, requests, "nothing was sent");
    let long = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .position_side(PositionSide::Long)
        .build()
        .unwrap();
    assert_eq!(
        client.market(&long).unwrap().position_side,
        Some(PositionSide::Long)
    );
    // Switching back with a position open would be refused (113): the client refuses first,
    // after looking the positions up; the switch itself is never sent.
    let before = sandbox.stats().requests;
    let refused = client
        .set_hedge_mode(&SetHedgeMode::new(PositionMode::OneWay))
        .unwrap_err();
    assert!(matches!(refused, Error::InvalidRequest(ref e) if e.field() == "hedgeMode"));
    assert_eq!(
        sandbox.stats().requests,
        before + 1,
        "one look-up, no switch"
    );
    assert!(client.hedge_mode().unwrap().hedge_mode);
}

fn the_mode_is_read_once_and_again_after_code_114(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let (key, secret) = (demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET);
    // Declared wrong: the client starts from one-way mode, the account is in hedge mode.
    let declared =
        config::key(key, secret).position_mode_check(ModeCheck::Declared(PositionMode::OneWay));
    let client = driver.risk(sandbox.base_url(), declared);
    assert_eq!(client.known_position_mode(), Some(PositionMode::OneWay));
    let (_, api) = common::api_error(client.market(&market("0.01")));
    assert_eq!(
        (api.code, api.class),
        (Some(114), ApiErrorClass::PositionSideMismatch)
    );
    // The refusal made the client forget the mode: the next order reads it, then is refused
    // before sending.
    assert_eq!(client.known_position_mode(), None);
    let requests = sandbox.stats().requests;
    let refused = client.market(&market("0.01")).unwrap_err();
    assert!(matches!(refused, Error::InvalidRequest(_)), "{refused}");
    assert_eq!(
        sandbox.stats().requests,
        requests + 1,
        "the mode read, nothing else"
    );
    assert_eq!(client.known_position_mode(), Some(PositionMode::Hedge));
    // Read once: a second client of the key knows it without a request.
    let other = driver.risk(
        sandbox.base_url(),
        config::key(key, secret).position_mode_check(ModeCheck::Learn),
    );
    let short = CollateralMarketOrder::builder("BTC_USDT", Side::Sell, "0.01")
        .position_side(PositionSide::Short)
        .build()
        .unwrap();
    let requests = sandbox.stats().requests;
    other.market(&short).unwrap();
    assert_eq!(sandbox.stats().requests, requests + 1, "the order alone");
}

fn without_the_check_the_exchange_decides(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let off = config::key(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET);
    let client = driver.risk(sandbox.base_url(), off);
    let (_, api) = common::api_error(client.market(&market("0.01")));
    assert_eq!(
        (api.code, api.class),
        (Some(114), ApiErrorClass::PositionSideMismatch)
    );
    assert_eq!(sandbox.stats().requests, 1);
}

fn cancel_all_and_bulk_cancel_act_on_what_they_name(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let btc = resting(&*client, "BTC_USDT", "70000");
    let eth = resting(&*client, "ETH_USDT", "4000");
    let perp = resting(&*client, "BTC_PERP", "70000");
    let open = |id: u64| {
        sandbox
            .orders()
            .into_iter()
            .any(|o| o.order_id == id && o.status == Some(OrderStatus::Open))
    };
    // One market: only its orders.
    let one = CancelAllOrders::builder()
        .market("BTC_USDT")
        .build()
        .unwrap();
    client.cancel_all_orders(&one).unwrap();
    assert!(!open(btc.order_id) && open(eth.order_id) && open(perp.order_id));
    // One kind: futures orders are the perpetual market's.
    let futures = CancelAllOrders::builder()
        .types([OrderClass::Futures])
        .build()
        .unwrap();
    client.cancel_all_orders(&futures).unwrap();
    assert!(open(eth.order_id) && !open(perp.order_id));
    // Bulk: each item answered on its own, in order.
    let again = resting(&*client, "BTC_USDT", "70000");
    let bulk = CancelOrders::new(vec![
        CancelOrder::by_order_id("ETH_USDT", eth.order_id).unwrap(),
        CancelOrder::by_client_order_id("BTC_USDT", again.client_order_id.clone().unwrap())
            .unwrap(),
        CancelOrder::by_order_id("BTC_USDT", btc.order_id).unwrap(),
    ])
    .unwrap();
    let items = client.cancel_orders(&bulk).unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].canceled().unwrap().order_id, Some(eth.order_id));
    assert_eq!(
        items[1].canceled().unwrap().client_order_id,
        again.client_order_id
    );
    let error = items[2].error.as_ref().unwrap();
    let class = txc_core::decode::classify(200, error.code, "", &error.field_errors());
    assert_eq!((error.code, class), (Some(404), ApiErrorClass::NotFound));
    assert!(!open(eth.order_id) && !open(again.order_id));
    // More than 100 never leave the client.
    let many = (0..101)
        .map(|i| CancelOrder::by_order_id("BTC_USDT", i).unwrap())
        .collect();
    assert!(matches!(
        CancelOrders::new(many),
        Err(ValidationError::InvalidField {
            field: "orders",
            ..
        })
    ));
}

fn an_ambiguous_cancel_all_is_never_resent(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let order = resting(&*client, "BTC_USDT", "70000");
    sandbox.inject_fault(Route::CancelAll, Fault::DropAfterProcessing, Some(1));
    let requests = sandbox.stats().requests;
    let error = client
        .cancel_all_orders(&CancelAllOrders::new())
        .unwrap_err();
    assert!(error.outcome_unknown() && !error.is_retryable(), "{error}");
    assert_eq!(sandbox.stats().requests, requests + 1, "never resent");
    // It was executed: the open orders show what is left.
    assert!(
        client
            .open_orders(&txc_types::lookups::OpenOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    assert!(
        sandbox
            .orders()
            .iter()
            .all(|o| o.order_id != order.order_id || o.status == Some(OrderStatus::Canceled))
    );
    // A 5xx after executing: the same.
    resting(&*client, "BTC_USDT", "70000");
    sandbox.inject_fault(
        Route::CancelAll,
        Fault::AnswerAfterProcessing {
            status: 500,
            content_type: "application/json".to_owned(),
            body: br#"{"code":0,"message":"Internal error.","errors":{}}"#.to_vec(),
        },
        Some(1),
    );
    let error = client
        .cancel_all_orders(&CancelAllOrders::new())
        .unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    assert_eq!(
        error.api().map(|a| a.class),
        Some(ApiErrorClass::Unavailable)
    );
}

fn kill_switch_timers_are_set_listed_and_deleted(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let arm = SetKillSwitch::arm("BTC_USDT", 60)
        .unwrap()
        .types([OrderClass::Margin])
        .unwrap();
    let KillSwitchAnswer::Armed(timer) = client.set_kill_switch(&arm).unwrap() else {
        panic!("not armed")
    };
    assert_eq!(timer.timeout(), Duration::from_secs(60));
    assert_eq!(timer.types, Some(vec![OrderClass::Margin]));
    let status = client
        .kill_switch_status(&KillSwitchStatusQuery::new())
        .unwrap();
    assert_eq!(status.len(), 1);
    assert_eq!(status[0].market, "BTC_USDT");
    let mine = KillSwitchStatusQuery::of_market("ETH_USDT").unwrap();
    assert!(client.kill_switch_status(&mine).unwrap().is_empty());
    let off = SetKillSwitch::disarm("BTC_USDT").unwrap();
    assert_eq!(
        client.set_kill_switch(&off).unwrap(),
        KillSwitchAnswer::Deleted
    );
    assert!(
        client
            .kill_switch_status(&KillSwitchStatusQuery::new())
            .unwrap()
            .is_empty()
    );
    // An unknown market is the exchange's 31; a timeout out of bounds never leaves the client.
    let unknown = SetKillSwitch::arm("DOGE_USDT", 60).unwrap();
    let (_, api) = common::api_error(client.set_kill_switch(&unknown));
    assert_eq!(api.code, Some(31));
    assert_eq!(
        SetKillSwitch::arm("BTC_USDT", 601).unwrap_err().field(),
        "timeout"
    );
}

/// The events a guard reported, as text.
type Seen = Arc<Mutex<Vec<String>>>;

/// Where a guard's events go, and what they were.
fn collect() -> (Seen, common::risk::Report) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let report: common::risk::Report = Box::new(move |event: KillSwitchEvent| {
        let kind = match event {
            KillSwitchEvent::RearmFailed { .. } => "rearm failed",
            KillSwitchEvent::Lapsed { .. } => "lapsed",
            KillSwitchEvent::Recovered { .. } => "recovered",
            KillSwitchEvent::DisarmFailed(_) => "disarm failed",
            _ => "other",
        };
        sink.lock().unwrap().push(kind.to_owned());
    });
    (seen, report)
}

/// What [`armed`] sets up.
struct Armed {
    sandbox: Sandbox,
    /// A resting trigger order on BTC_USDT.
    order: Order,
    /// The guard keeping BTC_USDT's timer armed.
    guard: Box<dyn common::risk::Guard>,
    /// What the guard reported.
    seen: Seen,
}

/// A sandbox whose kill-switch seconds last 100 ms (a timer of the minimum "5" runs out after
/// half a second), a resting trigger order on BTC_USDT, and a guard of the market's timer
/// re-arming it every `rearm`.
fn armed(driver: &dyn RiskDriver, rearm: Duration) -> Armed {
    let sandbox = Sandbox::builder()
        .kill_switch_second(Duration::from_millis(100))
        .start()
        .unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let order = resting(&*client, "BTC_USDT", "70000");
    let schedule = KillSwitchSchedule::new("BTC_USDT", 5)
        .unwrap()
        .rearm_every(rearm)
        .unwrap();
    let (seen, report) = collect();
    let guard = client.arm_kill_switch(schedule, report).unwrap();
    Armed {
        sandbox,
        order,
        guard,
        seen,
    }
}

fn a_guard_keeps_the_timer_armed_and_deletes_it_when_dropped(driver: &dyn RiskDriver) {
    let Armed {
        sandbox,
        order,
        guard,
        seen,
    } = armed(driver, Duration::from_millis(50));
    let first = sandbox.kill_switch_timers(demo::PARTNER_API_KEY)[0].armed_at;
    // Re-armed again and again, each time before the timer could run out.
    eventually("re-armed twice", || {
        let timers = sandbox.kill_switch_timers(demo::PARTNER_API_KEY);
        timers.first().is_some_and(|t| {
            t.armed_at.duration_since(first).unwrap_or_default() > Duration::from_millis(100)
        })
    });
    assert_eq!(sandbox.stats().kill_switches_fired, 0);
    assert!(
        sandbox
            .orders()
            .iter()
            .any(|o| o.order_id == order.order_id && o.status == Some(OrderStatus::Open))
    );
    guard.disarm().unwrap();
    assert!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).is_empty());
    assert_eq!(sandbox.stats().kill_switch_canceled_orders, 0);
    assert!(
        seen.lock().unwrap().is_empty(),
        "{:?}",
        seen.lock().unwrap()
    );
}

fn a_guard_reports_failed_rearms_and_the_lapse(driver: &dyn RiskDriver) {
    let Armed {
        sandbox,
        order,
        guard,
        seen,
    } = armed(driver, Duration::from_millis(100));
    // From now on every re-arm fails: reported each time, then the lapse, and the exchange
    // cancels the market's orders.
    sandbox.inject_fault(Route::KillSwitch, Fault::Unavailable, None);
    eventually("the lapse reported", || {
        seen.lock().unwrap().iter().any(|e| e == "lapsed")
    });
    assert!(
        seen.lock()
            .unwrap()
            .first()
            .is_some_and(|e| e == "rearm failed")
    );
    eventually("the order canceled by the timer", || {
        sandbox
            .orders()
            .iter()
            .any(|o| o.order_id == order.order_id && o.status == Some(OrderStatus::Canceled))
    });
    assert!(sandbox.stats().kill_switches_fired >= 1);
    // The exchange answers again: the guard recovers and sets a new timer.
    sandbox.clear_faults();
    eventually("recovered", || {
        seen.lock().unwrap().iter().any(|e| e == "recovered")
    });
    assert_eq!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).len(), 1);
    // A deletion that fails is reported too (dropping the guard).
    sandbox.inject_fault(Route::KillSwitch, Fault::Unavailable, None);
    drop(guard);
    eventually("the failed deletion reported", || {
        seen.lock().unwrap().iter().any(|e| e == "disarm failed")
    });
}

fn the_position_history_window_is_checked_before_sending(driver: &dyn RiskDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.risk(sandbox.base_url(), learning());
    let now = common::now_ms() / 1_000;
    let late = PositionHistoryQuery::builder()
        .end_date(now + 60)
        .build()
        .unwrap();
    let refused = client.position_history(&late).unwrap_err();
    assert!(matches!(refused, Error::InvalidRequest(ref e) if e.field() == "endDate"));
    assert!(
        PositionHistoryQuery::builder()
            .start_date(now)
            .end_date(now - 1)
            .build()
            .is_err()
    );
    assert_eq!(sandbox.stats().requests, 0);
    let window = PositionHistoryQuery::builder()
        .start_date(now - 60)
        .end_date(now)
        .limit(10)
        .build()
        .unwrap();
    assert!(client.position_history(&window).unwrap().is_empty());
}

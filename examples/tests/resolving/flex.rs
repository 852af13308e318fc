//! Flexible lending through both transports against the sandbox: every list read page by page,
//! investing within the plan's bounds, topping up, withdrawing, the auto-reinvestment and the
//! daily earnings, closing — and never twice: each kind of unknown outcome of an investment or
//! a withdrawal resolved from the flex history (lost answers, 5xx after and without processing,
//! a lagging history, strict nonces, another writer of the key), a restart on the journal
//! resolving first, and close and auto-invest resolved by the investment's state. One table of
//! cases, run once per transport.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

use std::sync::Arc;
use std::time::Duration;

use crate::common::config;
use crate::common::flex::{FlexApi, FlexDriver};
use crate::common::journal::MemoryJournal;
use txc_core::Error;
use txc_core::decode::ApiErrorClass;
use txc_core::resolve::{FlexDone, FlexResolution, InvestmentWriters, PendingRecord, StateReached};
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_sign::nonce::NonceSequence;
use txc_types::errors::{Bound, ValidationError};
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexAction, FlexHistoryQuery, FlexInvest, FlexInvestment,
    FlexInvestmentStatus, FlexInvestmentsQuery, FlexPaymentsQuery, FlexPlan, FlexPlansQuery,
    FlexWithdraw, SetFlexAutoInvest,
};
use txc_types::values::Decimal;

/// The spec's USDT plan: 10 to 100 000, 15 % a year.
const PLAN: &str = demo::FLEX_USDT_PLAN;

/// The partner as the key's only investor: one record of the plan and amount in the window is
/// its own (the other writers' case says otherwise).
fn sole() -> txc_core::ClientConfig {
    config::partner().investment_writers(InvestmentWriters::Sole)
}

fn plan(client: &dyn FlexApi) -> FlexPlan {
    let pages = client.plan_pages(FlexPlansQuery::builder().limit(1).build().unwrap());
    let plans: Vec<FlexPlan> = pages
        .into_iter()
        .map(Result::unwrap)
        .collect::<Vec<_>>()
        .concat();
    assert!(plans.len() >= 2, "read a plan a page: {plans:?}");
    plans.into_iter().find(|p| p.id == PLAN).unwrap()
}

fn investment(client: &dyn FlexApi) -> FlexInvestment {
    let query = FlexInvestmentsQuery::builder().plan(PLAN).build().unwrap();
    client.flex_investments(&query).unwrap().data.remove(0)
}

fn main_usdt(sandbox: &Sandbox) -> Decimal {
    let balance = sandbox.main_balance(demo::PARTNER_API_KEY, "USDT").unwrap();
    balance.parse().unwrap()
}

/// The main USDT balance and the total of the daily earnings paid so far, read together: both
/// reads accrue up to their moment, so the pair is retried until no earning fell between them.
fn main_usdt_and_paid(sandbox: &Sandbox) -> (Decimal, Decimal) {
    let paid = || -> Decimal {
        sandbox
            .flex_history_records()
            .iter()
            .filter(|r| r["actionType"] == FlexAction::DailyEarning.code())
            .map(|r| r["amount"].as_str().unwrap().parse::<Decimal>().unwrap())
            .sum()
    };
    loop {
        let first = paid();
        let balance = main_usdt(sandbox);
        if paid() == first {
            return (balance, first);
        }
    }
}

/// The history's records of an action, as the sandbox holds them.
fn recorded(sandbox: &Sandbox, action: FlexAction) -> usize {
    sandbox
        .flex_history_records()
        .iter()
        .filter(|r| r["actionType"] == action.code())
        .count()
}

fn investing_withdrawing_earning_and_closing(driver: &dyn FlexDriver) {
    // A flex day of 300 ms: earnings accrue while the test runs.
    let sandbox = Sandbox::builder()
        .flex_accrual_interval(Duration::from_millis(300))
        .start()
        .unwrap();
    let client = driver.flexer(sandbox.base_url(), sole());
    let plan = plan(client.as_ref());
    let invested = client
        .flex_invest(&FlexInvest::in_plan(&plan, "1000").unwrap())
        .unwrap();
    let first = investment(client.as_ref());
    assert_eq!(
        (first.invested.as_str(), first.status),
        ("1000", FlexInvestmentStatus::Active)
    );
    let top_up = FlexInvest::top_up(&plan, &first, "500")
        .unwrap()
        .with_reinvest(true);
    let topped = client.flex_invest_once(&top_up).unwrap();
    assert!(matches!(topped, FlexDone::Answered(_)));
    assert!(investment(client.as_ref()).with_auto_reinvest);
    // Earnings reinvested, then paid out only.
    std::thread::sleep(Duration::from_millis(700));
    let off = SetFlexAutoInvest::new(PLAN, false).unwrap();
    assert!(matches!(
        client.set_flex_auto_invest(&off).unwrap(),
        StateReached::Answered(_)
    ));
    std::thread::sleep(Duration::from_millis(400));
    let now = investment(client.as_ref());
    assert!(!now.with_auto_reinvest);
    let invested_now: Decimal = now.invested.to_decimal().unwrap();
    assert!(
        invested_now > Decimal::from(1500),
        "reinvested: {invested_now}"
    );
    // Withdraw within the bounds: the investment keeps at least the plan's minimum.
    // (A flex day may end meanwhile: its earning is paid to the main balance too.)
    let withdraw = FlexWithdraw::from_investment(&plan, &now, "400").unwrap();
    // Earnings keep being paid to the main balance while the withdrawal runs: the balance
    // moves by the 400 withdrawn plus exactly what was paid out meanwhile.
    let (before, paid_before) = main_usdt_and_paid(&sandbox);
    client.flex_withdraw_once(&withdraw).unwrap();
    let (after, paid_after) = main_usdt_and_paid(&sandbox);
    assert_eq!(
        after - before,
        Decimal::from(400) + (paid_after - paid_before)
    );
    // Closed: everything back; the investments list says so. A closed investment earns no
    // more, so the history read below cannot grow while it is paged.
    let before = main_usdt(&sandbox);
    let invested_before = investment(client.as_ref()).invested.to_decimal().unwrap();
    let closed = client
        .close_flex_investment(&CloseFlexInvestment::new(PLAN).unwrap())
        .unwrap();
    assert!(matches!(closed, StateReached::Answered(_)));
    assert!(main_usdt(&sandbox) - before >= invested_before);
    let all: Vec<FlexInvestment> = client
        .investment_pages(FlexInvestmentsQuery::new())
        .into_iter()
        .map(Result::unwrap)
        .collect::<Vec<_>>()
        .concat();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].status, FlexInvestmentStatus::Closed);
    // The whole history, page by page (a page of 2 records); each record once.
    let history = FlexHistoryQuery::builder()
        .plan(PLAN)
        .limit(2)
        .build()
        .unwrap();
    let records: Vec<_> = client
        .history_pages(history)
        .into_iter()
        .map(Result::unwrap)
        .collect::<Vec<_>>()
        .concat();
    assert_eq!(records.len(), sandbox.flex_history_records().len());
    let mut keys: Vec<_> = records.iter().map(|r| r.key()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), records.len(), "each record once");
    let transaction = |action: FlexAction| {
        records
            .iter()
            .find(|r| r.action_type == action)
            .map(|r| r.transaction_id.clone())
    };
    assert!(transaction(FlexAction::Invest).is_some(), "{records:?}");
    assert!(
        records
            .iter()
            .any(|r| r.transaction_id == invested.transaction_id())
    );
    assert!(transaction(FlexAction::Reinvest).is_some());
    assert!(transaction(FlexAction::Withdraw).is_some());
    // The earnings, page by page: the history's DAILY_EARNING records.
    let payments = FlexPaymentsQuery::builder()
        .plan(PLAN)
        .limit(3)
        .build()
        .unwrap();
    let paid = client
        .payment_pages(payments)
        .into_iter()
        .map(Result::unwrap)
        .collect::<Vec<_>>()
        .concat();
    assert!(paid.len() >= 2, "{paid:?}");
    assert!(
        paid.iter()
            .all(|r| r.action_type == FlexAction::DailyEarning)
    );
    assert_eq!(paid.len(), recorded(&sandbox, FlexAction::DailyEarning));
}

fn the_bounds_are_checked_before_any_request(driver: &dyn FlexDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.flexer(sandbox.base_url(), sole());
    let plan = plan(client.as_ref());
    client
        .flex_invest(&FlexInvest::in_plan(&plan, "100").unwrap())
        .unwrap();
    let held = investment(client.as_ref());
    let requests = sandbox.stats().requests;
    let bound = |refused: ValidationError| match refused {
        ValidationError::OutOfBounds { bound, limit, .. } => (bound, limit.to_string()),
        other => panic!("{other}"),
    };
    let refusals = [
        bound(FlexInvest::in_plan(&plan, "9.999999").unwrap_err()),
        bound(FlexInvest::in_plan(&plan, "100000.000001").unwrap_err()),
        bound(FlexInvest::top_up(&plan, &held, "99900.000001").unwrap_err()),
        bound(FlexWithdraw::from_investment(&plan, &held, "100.000001").unwrap_err()),
        bound(FlexWithdraw::from_investment(&plan, &held, "90.000001").unwrap_err()),
    ];
    let named: Vec<(Bound, &str)> = refusals.iter().map(|(b, l)| (*b, l.as_str())).collect();
    assert_eq!(
        named,
        [
            (Bound::MinInvestment, "10.0"),
            (Bound::MaxInvestment, "100000.0"),
            (Bound::InvestmentLimit, "99900"),
            (Bound::Invested, "100"),
            (Bound::MinAmountLeft, "90"),
        ]
    );
    assert!(
        FlexInvest::in_plan(&plan, "10.1234567").is_err(),
        "7 places"
    );
    assert_eq!(sandbox.stats().requests, requests, "nothing was sent");
    // Sent anyway, each refusal is its class.
    let class = |error: Error| error.api().map(|a| a.class);
    let above = client.flex_withdraw(&FlexWithdraw::new(PLAN, "500").unwrap());
    assert_eq!(class(above.unwrap_err()), Some(ApiErrorClass::AboveMaximum));
    let below = client.flex_invest(&FlexInvest::new(PLAN, "1").unwrap());
    assert_eq!(class(below.unwrap_err()), Some(ApiErrorClass::BelowMinimum));
    let paused = client.flex_invest(&FlexInvest::new(demo::FLEX_PAUSED_PLAN, "100").unwrap());
    assert_eq!(class(paused.unwrap_err()), Some(ApiErrorClass::PlanPaused));
    let none =
        client.set_flex_auto_invest(&SetFlexAutoInvest::new(demo::FLEX_BTC_PLAN, true).unwrap());
    assert_eq!(
        class(none.unwrap_err()),
        Some(ApiErrorClass::InvestmentNotFound)
    );
}

/// What a row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Invest,
    Withdraw,
}

/// What a row expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The plain call is unknown; resolving finds it.
    UnknownThenDone,
    /// The plain call is unknown; resolving proves it was not done (absence twice).
    UnknownThenNotDone,
    /// Exactly once: found by resolving.
    Found,
    /// Exactly once: not done, so sent again and answered.
    Answered,
    /// Exactly once, another writer of the key possible: cannot tell, not sent again.
    CannotTell,
}

struct Row {
    name: &'static str,
    op: Op,
    fault: Fault,
    /// A fault on the flex history, the list resolving reads.
    history: Option<Fault>,
    strict: bool,
    shared: bool,
    expect: Expect,
}

fn answer_500() -> Fault {
    Fault::AnswerAfterProcessing {
        status: 500,
        content_type: "application/json".into(),
        body: br#"{"message":"Server error"}"#.to_vec(),
    }
}

fn rows() -> Vec<Row> {
    let row = |name, op, fault, expect| Row {
        name,
        op,
        fault,
        history: None,
        strict: false,
        shared: false,
        expect,
    };
    vec![
        row(
            "invest: lost answer",
            Op::Invest,
            Fault::DropAfterProcessing,
            Expect::UnknownThenDone,
        ),
        row(
            "invest: 5xx after investing",
            Op::Invest,
            answer_500(),
            Expect::UnknownThenDone,
        ),
        row(
            "invest: 5xx without investing",
            Op::Invest,
            Fault::Unavailable,
            Expect::UnknownThenNotDone,
        ),
        row(
            "invest once: lost answer",
            Op::Invest,
            Fault::DropAfterProcessing,
            Expect::Found,
        ),
        row(
            "invest once: 5xx without investing",
            Op::Invest,
            Fault::HtmlBadGateway,
            Expect::Answered,
        ),
        Row {
            history: Some(Fault::Lagging(Duration::from_millis(400))),
            ..row(
                "invest once: lost answer, lagging history",
                Op::Invest,
                Fault::ResetMidBody,
                Expect::Found,
            )
        },
        Row {
            strict: true,
            ..row(
                "invest once, strict nonces: lost answer",
                Op::Invest,
                Fault::DropAfterProcessing,
                Expect::Found,
            )
        },
        Row {
            shared: true,
            ..row(
                "invest once, other writers: lost answer",
                Op::Invest,
                Fault::DropAfterProcessing,
                Expect::CannotTell,
            )
        },
        row(
            "withdraw: lost answer",
            Op::Withdraw,
            Fault::DropAfterProcessing,
            Expect::UnknownThenDone,
        ),
        row(
            "withdraw: 5xx without withdrawing",
            Op::Withdraw,
            Fault::Unavailable,
            Expect::UnknownThenNotDone,
        ),
        row(
            "withdraw once: 5xx after withdrawing",
            Op::Withdraw,
            answer_500(),
            Expect::Found,
        ),
        Row {
            history: Some(Fault::Lagging(Duration::from_millis(400))),
            strict: true,
            ..row(
                "withdraw once, strict nonces: 5xx without, lagging history",
                Op::Withdraw,
                Fault::Unavailable,
                Expect::Answered,
            )
        },
    ]
}

/// Each kind of unknown outcome of a flex investment or withdrawal, resolved from the flex
/// history — never done twice, never a wrong "done". The rows run at once (each on its own
/// sandbox): resolving waits out the nonce window and the creation allowance, and the waits
/// overlap.
fn unknown_outcomes_are_resolved_never_twice(driver: &dyn FlexDriver) {
    let rows = rows();
    let clients: Vec<(Sandbox, Box<dyn FlexApi>)> = rows
        .iter()
        .map(|row| {
            let sandbox = Sandbox::start().unwrap();
            let mut config = sole();
            if row.strict {
                // Its own sequence: strict nonces must grow at each sandbox.
                config = config
                    .nonce_window(false)
                    .nonce_sequence(NonceSequence::new());
            }
            if row.shared {
                config = config.investment_writers(InvestmentWriters::Shared);
            }
            let client = driver.flexer(sandbox.base_url(), config);
            (sandbox, client)
        })
        .collect();
    std::thread::scope(|scope| {
        for (row, (sandbox, client)) in rows.iter().zip(&clients) {
            scope.spawn(move || run_row(row, sandbox, client.as_ref()));
        }
    });
}

fn run_row(row: &Row, sandbox: &Sandbox, client: &dyn FlexApi) {
    let name = row.name;
    let (route, action) = match row.op {
        Op::Invest => (Route::FlexInvest, FlexAction::Invest),
        Op::Withdraw => {
            // Something to withdraw from.
            client
                .flex_invest(&FlexInvest::new(PLAN, "300").unwrap())
                .unwrap();
            (Route::FlexWithdraw, FlexAction::Withdraw)
        }
    };
    let before = recorded(sandbox, action);
    if let Some(history) = &row.history {
        sandbox.inject_fault(Route::FlexHistory, history.clone(), None);
    }
    sandbox.inject_fault(route, row.fault.clone(), Some(1));
    let (invest, withdraw) = (
        FlexInvest::new(PLAN, "250").unwrap(),
        FlexWithdraw::new(PLAN, "250").unwrap(),
    );
    let made = || recorded(sandbox, action) - before;
    let requests = sandbox.stats().requests;
    if matches!(
        row.expect,
        Expect::UnknownThenDone | Expect::UnknownThenNotDone
    ) {
        let (error, resolution) = match row.op {
            Op::Invest => {
                let error = client.flex_invest(&invest).unwrap_err();
                let pending = error.pending_flex_invest().unwrap().clone();
                assert_eq!(
                    client.pending_flex_investments(),
                    vec![pending.clone()],
                    "{name}"
                );
                (error, client.resolve_flex_invest(&pending).unwrap())
            }
            Op::Withdraw => {
                let error = client.flex_withdraw(&withdraw).unwrap_err();
                let pending = error.pending_flex_withdraw().unwrap().clone();
                (error, client.resolve_flex_withdraw(&pending).unwrap())
            }
        };
        assert!(
            error.outcome_unknown() && !error.is_retryable(),
            "{name}: {error}"
        );
        match (row.expect, &resolution) {
            (Expect::UnknownThenDone, FlexResolution::Done { record, evidence }) => {
                assert_eq!(made(), 1, "{name}");
                let window = evidence.window.as_ref().unwrap();
                let (_, seen) = evidence.found().unwrap();
                assert_eq!(seen.id, record.transaction_id, "{name}");
                assert!(window.admits(seen), "{name}");
            }
            (Expect::UnknownThenNotDone, FlexResolution::NotDone { evidence }) => {
                assert_eq!(made(), 0, "{name}");
                assert_eq!(evidence.rounds.len(), 2, "{name}: absence proven twice");
            }
            (expect, other) => panic!("{name}: expected {expect:?}, got {other:?}"),
        }
        assert!(
            client.pending_flex_investments().is_empty(),
            "{name}: settled"
        );
        assert!(
            client.pending_flex_withdrawals().is_empty(),
            "{name}: settled"
        );
        return;
    }
    let done = match row.op {
        Op::Invest => client.flex_invest_once(&invest),
        Op::Withdraw => client.flex_withdraw_once(&withdraw),
    };
    match (row.expect, done) {
        (Expect::Found, Ok(FlexDone::Found { record, evidence })) => {
            assert_eq!(made(), 1, "{name}: exactly one");
            assert_eq!(
                evidence.window.as_ref().unwrap().fence().is_some(),
                row.strict,
                "{name}"
            );
            let history = sandbox.flex_history_records();
            assert!(
                history
                    .iter()
                    .any(|r| r["transaction_id"] == record.transaction_id.as_str()),
                "{name}"
            );
        }
        (Expect::Answered, Ok(FlexDone::Answered(answer))) => {
            assert_eq!(made(), 1, "{name}: exactly one");
            assert!(
                sandbox.stats().requests > requests + 2,
                "{name}: resolved, then sent"
            );
            assert!(!answer.transaction_id().is_empty());
        }
        (Expect::CannotTell, Err(Error::FlexInvestUnknown(unknown))) => {
            assert_eq!(made(), 1, "{name}: never invested twice");
            assert_eq!(unknown.candidates.len(), 1, "{name}");
            let kept = client.pending_flex_investments();
            assert!(kept[0].reason().unwrap().contains("cannot tell"), "{name}");
            // Settled by hand: discarded.
            assert!(
                client
                    .discard_pending(PendingRecord::from(kept[0].clone()))
                    .unwrap()
            );
            assert!(client.pending_flex_investments().is_empty());
        }
        (expect, other) => panic!("{name}: expected {expect:?}, got {other:?}"),
    }
}

/// Closing and switching the auto-reinvestment are resolved by the investment's state: a lost
/// answer read back, a change not processed sent again, a late one refused as done.
fn close_and_auto_invest_are_resolved_by_state(driver: &dyn FlexDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.flexer(sandbox.base_url(), sole());
    let invest = FlexInvest::new(PLAN, "100").unwrap();
    let close = CloseFlexInvestment::new(PLAN).unwrap();
    client.flex_invest(&invest).unwrap();
    // A lost answer, the investment read back closed: one close.
    sandbox.inject_fault(Route::FlexClose, Fault::DropAfterProcessing, Some(1));
    let StateReached::Read(closed) = client.close_flex_investment(&close).unwrap() else {
        panic!("read back")
    };
    assert_eq!(closed.status, FlexInvestmentStatus::Closed);
    assert_eq!(recorded(&sandbox, FlexAction::Close), 1);
    // Not processed (a 503): still active, so closed again — once.
    client.flex_invest(&invest).unwrap();
    sandbox.inject_fault(Route::FlexClose, Fault::Unavailable, Some(1));
    assert!(matches!(
        client.close_flex_investment(&close).unwrap(),
        StateReached::Answered(_)
    ));
    assert_eq!(recorded(&sandbox, FlexAction::Close), 2);
    // Processed and lost while the investments list lags behind (an hour: it cannot show the
    // close, however slow this host): not shown closed, sent again, refused as closed — done,
    // one close.
    client.flex_invest(&invest).unwrap();
    sandbox.inject_fault(
        Route::FlexInvestments,
        Fault::Lagging(Duration::from_secs(3_600)),
        None,
    );
    sandbox.inject_fault(Route::FlexClose, Fault::DropAfterProcessing, Some(1));
    let StateReached::RefusedAsDone(api) = client.close_flex_investment(&close).unwrap() else {
        panic!("refused as closed")
    };
    assert_eq!(api.class, ApiErrorClass::InvestmentClosed);
    assert_eq!(recorded(&sandbox, FlexAction::Close), 3);
    sandbox.clear_faults();
    // Auto-invest: every answer lost (the call resends it itself: it sets a state), read back.
    client.flex_invest(&invest).unwrap();
    sandbox.inject_fault(Route::FlexAutoInvest, Fault::DropAfterProcessing, Some(20));
    let on = SetFlexAutoInvest::new(PLAN, true).unwrap();
    let StateReached::Read(investment) = client.set_flex_auto_invest(&on).unwrap() else {
        panic!("read back")
    };
    assert!(investment.with_auto_reinvest);
    sandbox.clear_faults();
    assert!(self::investment(client.as_ref()).with_auto_reinvest);
}

/// A flex operation whose answer was lost, then the process restarts on the same journal: the
/// plain call is refused before any I/O, naming the record; the exactly-once call resolves it
/// first and finds it — one record, the journal empty. An investment and a withdrawal, their
/// resolutions side by side.
fn a_restart_resolves_a_journaled_flex_operation_first(driver: &dyn FlexDriver) {
    let restarted: Vec<Restarted> = [FlexAction::Invest, FlexAction::Withdraw]
        .into_iter()
        .map(|action| lose_and_restart(driver, action))
        .collect();
    std::thread::scope(|scope| {
        for case in &restarted {
            scope.spawn(move || case.resolve_first());
        }
    });
}

/// A process restarted after a lost answer: its sandbox, journal and new client.
struct Restarted {
    action: FlexAction,
    sandbox: Sandbox,
    journal: Arc<MemoryJournal>,
    client: Box<dyn FlexApi>,
    /// The action's records before the lost one.
    before: usize,
}

fn lose_and_restart(driver: &dyn FlexDriver, action: FlexAction) -> Restarted {
    let sandbox = Sandbox::start().unwrap();
    let journal = Arc::new(MemoryJournal::default());
    let process = || {
        sole()
            .journal(journal.clone())
            .nonce_sequence(NonceSequence::new())
    };
    let first = driver.flexer(sandbox.base_url(), process());
    let route = if action == FlexAction::Invest {
        Route::FlexInvest
    } else {
        first
            .flex_invest(&FlexInvest::new(PLAN, "400").unwrap())
            .unwrap();
        Route::FlexWithdraw
    };
    let before = recorded(&sandbox, action);
    sandbox.inject_fault(route, Fault::DropAfterProcessing, Some(1));
    let lost = match action {
        FlexAction::Invest => first.flex_invest(&invest_250()).map(drop),
        _ => first.flex_withdraw(&withdraw_250()).map(drop),
    };
    assert!(lost.unwrap_err().outcome_unknown());
    drop(first);
    assert_eq!(
        journal.records().len(),
        1,
        "journaled before the first byte"
    );
    let client = driver.flexer(sandbox.base_url(), process());
    Restarted {
        action,
        sandbox,
        journal,
        client,
        before,
    }
}

fn invest_250() -> FlexInvest {
    FlexInvest::new(PLAN, "250").unwrap()
}

fn withdraw_250() -> FlexWithdraw {
    FlexWithdraw::new(PLAN, "250").unwrap()
}

impl Restarted {
    fn resolve_first(&self) {
        let (client, sandbox) = (self.client.as_ref(), &self.sandbox);
        let requests = sandbox.stats().requests;
        let plain = match self.action {
            FlexAction::Invest => client.flex_invest(&invest_250()).map(drop),
            _ => client.flex_withdraw(&withdraw_250()).map(drop),
        };
        let refused = plain.unwrap_err();
        assert!(matches!(refused, Error::ResolveFirst(_)), "{refused:?}");
        assert_eq!(sandbox.stats().requests, requests, "nothing sent");
        let done = match self.action {
            FlexAction::Invest => client.flex_invest_once(&invest_250()),
            _ => client.flex_withdraw_once(&withdraw_250()),
        };
        assert!(matches!(done.unwrap(), FlexDone::Found { .. }));
        assert_eq!(
            recorded(sandbox, self.action) - self.before,
            1,
            "exactly one"
        );
        assert!(self.journal.records().is_empty());
    }
}

scenarios!(
    investing_withdrawing_earning_and_closing,
    the_bounds_are_checked_before_any_request,
    unknown_outcomes_are_resolved_never_twice,
    close_and_auto_invest_are_resolved_by_state,
    a_restart_resolves_a_journaled_flex_operation_first,
);

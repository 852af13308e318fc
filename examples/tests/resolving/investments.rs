//! Smart investments through both transports against the sandbox: investing within a plan's
//! bounds, the list, closing with interest, every documented refusal as its class, the shared
//! main-account rate limit — and never investing twice: each kind of unknown outcome resolved
//! from the investments list, and a run of many investments interrupted by a restart that ends
//! with nothing unknown, doubled or lost.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

use std::time::Duration;

use crate::common::config;
use crate::common::invest::{InvestApi, InvestDriver};
use txc_core::Error;
use txc_core::decode::ApiErrorClass;
use txc_core::pacing::{RateLimits, RatePolicy};
use txc_core::resolve::{InvestResolution, Invested, InvestmentWriters};
use txc_sandbox::{AccountConfig, Fault, PlanConfig, Route, Sandbox, demo};
use txc_sign::nonce::NonceSequence;
use txc_types::endpoint::{MAIN_ACCOUNT_SCOPE, RateLimit};
use txc_types::errors::{Bound, ValidationError};
use txc_types::investments::{
    CloseInvestment, InterestPaymentsQuery, Invest, InvestmentPlan, InvestmentStatus,
    InvestmentsQuery, PlanStatus, SmartPlansQuery,
};
use txc_types::values::Decimal;

/// The docs' example plan (the sandbox's first): USDT, 10 %, min 100, max 10 000, 3 000 left.
const PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";
const INACTIVE: &str = "b7c4e9a1-2d3f-4e5a-8b6c-7d8e9f0a1b2c";
const PAUSED: &str = "d2e5f8a3-6b9c-4d0e-a1f2-3b4c5d6e7f80";
const NO_COINS: &str = "3f1d2c7e-5a8b-4c6d-9e0f-1a2b3c4d5e6f";

fn partner(driver: &dyn InvestDriver, sandbox: &Sandbox) -> Box<dyn InvestApi> {
    driver.investor(sandbox.base_url(), sole())
}

/// The partner's configuration as the key's only investor: these cases have no other writer,
/// so one record of the plan and amount in the window is the investment's own (the other
/// writers' cases are in `restarts.rs`).
fn sole() -> txc_core::ClientConfig {
    config::partner().investment_writers(InvestmentWriters::Sole)
}

fn plan(client: &dyn InvestApi, id: &str) -> InvestmentPlan {
    let usdt = SmartPlansQuery::builder().ticker("USDT").build().unwrap();
    let plans = client.plans(&usdt).unwrap();
    plans.into_iter().find(|p| p.id == id).unwrap()
}

fn class(result: Result<impl std::fmt::Debug, Error>) -> ApiErrorClass {
    let error = result.unwrap_err();
    assert!(!error.outcome_unknown(), "a refusal, not unknown: {error}");
    error.api().unwrap_or_else(|| panic!("{error:?}")).class
}

fn investing_closing_and_interest(driver: &dyn InvestDriver) {
    // A plan minute of 1 ms: the 14 400-minute term lasts 14.4 s, so closing pays interest.
    let sandbox = Sandbox::builder()
        .investment_minute(Duration::from_millis(1))
        .start()
        .unwrap();
    let client = partner(driver, &sandbox);
    let before = plan(client.as_ref(), PLAN);
    assert_eq!(before.status, PlanStatus::Active);
    let invest = Invest::in_plan(&before, "250").unwrap();
    let new = client.invest(&invest).unwrap();

    // The plan has 250 less to take; the partner's main balance paid for it.
    let after = plan(client.as_ref(), PLAN);
    assert_eq!(after.max_possible_investment.as_str(), "2750");
    assert_eq!(
        sandbox.main_balance(demo::PARTNER_API_KEY, "USDT").unwrap(),
        "9750"
    );

    let mine = InvestmentsQuery::builder().id(&new.id).build().unwrap();
    let page = client.investments(&mine).unwrap();
    let listed = &page.records[0];
    assert_eq!(
        (page.records.len(), listed.id.as_str()),
        (1, new.id.as_str())
    );
    assert_eq!(
        (listed.status, listed.amount.as_str()),
        (InvestmentStatus::Active, "250")
    );
    assert_eq!(listed.plan.id, PLAN);
    assert_eq!(listed.interest_paid.as_str(), "0");
    let term = listed.payment_time.unix_seconds() - listed.created.unix_seconds();
    assert!(term <= 15, "a 14.4 s term: {term}");

    std::thread::sleep(Duration::from_millis(200));
    client
        .close_investment(&CloseInvestment::new(&new.id).unwrap())
        .unwrap();
    let closed = client.investments(&mine).unwrap().records.remove(0);
    assert_eq!(closed.status, InvestmentStatus::Closed);
    let interest = closed.interest_paid.to_decimal().unwrap();
    assert!(
        interest > rust_decimal_zero() && interest <= "25".parse().unwrap(),
        "{interest}"
    );
    let payments = client
        .interest_payments(
            &InterestPaymentsQuery::builder()
                .plan_id(PLAN)
                .build()
                .unwrap(),
        )
        .unwrap();
    assert_eq!(payments.records.len(), 1);
    let paid = &payments.records[0];
    assert_eq!(
        (paid.investment_id.as_str(), paid.ticker.as_str()),
        (new.id.as_str(), "USDT")
    );
    assert_eq!(paid.amount, closed.interest_paid);
    // Principal and interest back in the main balance; the plan's capacity back.
    let balance: Decimal = sandbox
        .main_balance(demo::PARTNER_API_KEY, "USDT")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(balance, "10000".parse::<Decimal>().unwrap() + interest);
    assert_eq!(
        plan(client.as_ref(), PLAN).max_possible_investment.as_str(),
        "3000"
    );
    // Closing twice is its own refusal.
    let again = client.close_investment(&CloseInvestment::new(&new.id).unwrap());
    assert_eq!(class(again), ApiErrorClass::InvestmentClosed);
    assert_eq!(sandbox.stats().investments_closed, 1);
}

fn rust_decimal_zero() -> Decimal {
    Decimal::ZERO
}

fn a_plan_with_nothing_left_says_so(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = partner(driver, &sandbox);
    let first = client.invest(&Invest::new(PLAN, "3000").unwrap()).unwrap();
    let empty = plan(client.as_ref(), PLAN);
    assert_eq!(empty.status, PlanStatus::NoCoinsLeft);
    assert_eq!(empty.max_possible_investment.as_str(), "0");
    // Checked against the plan, refused before any I/O.
    let requests = sandbox.stats().requests;
    let refused = Invest::in_plan(&empty, "100").unwrap_err();
    assert_eq!(refused.field(), "planId");
    assert_eq!(sandbox.stats().requests, requests);
    // Sent anyway, the exchange's answer.
    let sent = client.invest(&Invest::new(PLAN, "100").unwrap());
    assert_eq!(class(sent), ApiErrorClass::NoCoinsLeft);
    // Closing gives the capacity back.
    client
        .close_investment(&CloseInvestment::new(&first.id).unwrap())
        .unwrap();
    assert_eq!(plan(client.as_ref(), PLAN).status, PlanStatus::Active);
}

fn the_bounds_are_checked_before_any_request(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = partner(driver, &sandbox);
    let plan = plan(client.as_ref(), PLAN);
    let requests = sandbox.stats().requests;
    for (amount, bound, limit) in [
        ("99.999999", Bound::MinInvestment, "100"),
        ("3000.000001", Bound::MaxPossibleInvestment, "3000"),
    ] {
        let Err(ValidationError::OutOfBounds {
            bound: named,
            limit: value,
            ..
        }) = Invest::in_plan(&plan, amount)
        else {
            panic!("{amount} is out of bounds")
        };
        assert_eq!((named, value.as_str()), (bound, limit));
    }
    assert!(
        Invest::in_plan(&plan, "100.1234567").is_err(),
        "7 decimal places"
    );
    assert!(Invest::in_plan(&plan, "0").is_err());
    assert_eq!(sandbox.stats().requests, requests, "nothing was sent");
    assert!(Invest::in_plan(&plan, "3000").is_ok());
}

/// Every refusal the spec documents, each as its class.
fn every_refusal_has_its_class(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::builder()
        .account(
            AccountConfig::new("one-per-plan", "one-per-plan-secret")
                .partner(true)
                .one_investment_per_plan(true)
                .main_balance("USDT", "1000"),
        )
        .start()
        .unwrap();
    let client = partner(driver, &sandbox);
    let invest = |plan: &str, amount: &str| client.invest(&Invest::new(plan, amount).unwrap());
    let rows: [(&str, Result<_, Error>, ApiErrorClass); 6] = [
        (
            "inactive",
            invest(INACTIVE, "100"),
            ApiErrorClass::PlanInactive,
        ),
        ("paused", invest(PAUSED, "1000"), ApiErrorClass::PlanPaused),
        (
            "no coins",
            invest(NO_COINS, "500"),
            ApiErrorClass::NoCoinsLeft,
        ),
        ("below min", invest(PLAN, "50"), ApiErrorClass::BelowMinimum),
        (
            "above max",
            invest(PLAN, "20000"),
            ApiErrorClass::AboveMaximum,
        ),
        (
            "above what is left",
            invest(PLAN, "5000"),
            ApiErrorClass::AboveMaximum,
        ),
    ];
    for (name, result, expected) in rows {
        assert_eq!(class(result), expected, "{name}");
    }
    sandbox
        .set_main_balance(demo::PARTNER_API_KEY, "USDT", "150")
        .unwrap();
    assert_eq!(
        class(invest(PLAN, "200")),
        ApiErrorClass::InsufficientBalance
    );
    let one = config::key("one-per-plan", "one-per-plan-secret");
    let one = driver.investor(sandbox.base_url(), one);
    one.invest(&Invest::new(PLAN, "100").unwrap()).unwrap();
    assert_eq!(
        class(one.invest(&Invest::new(PLAN, "100").unwrap())),
        ApiErrorClass::InvestmentExists
    );
    let unknown = client.close_investment(&CloseInvestment::new("no-such-id").unwrap());
    assert_eq!(class(unknown), ApiErrorClass::InvestmentNotFound);
    // The regular demo key is no partner: every investment endpoint answers 403.
    let regular = config::key(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET);
    let regular = driver.investor(sandbox.base_url(), regular);
    assert_eq!(
        class(regular.invest(&Invest::new(PLAN, "100").unwrap())),
        ApiErrorClass::Permission
    );
    assert_eq!(
        class(regular.investments(&InvestmentsQuery::new())),
        ApiErrorClass::Permission
    );
    assert_eq!(
        class(regular.interest_payments(&InterestPaymentsQuery::new())),
        ApiErrorClass::Permission
    );
    assert_eq!(
        class(regular.close_investment(&CloseInvestment::new("x").unwrap())),
        ApiErrorClass::Permission
    );
}

/// The five main-account endpoints share one allowance, on the client and at the exchange.
fn the_main_account_limit_is_shared(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::builder().rate_limits(10_000, 4).start().unwrap();
    let unpaced = driver.investor(sandbox.base_url(), config::partner().no_rate_limit());
    unpaced.plans(&SmartPlansQuery::new()).unwrap();
    unpaced.investments(&InvestmentsQuery::new()).unwrap();
    unpaced
        .interest_payments(&InterestPaymentsQuery::new())
        .unwrap();
    unpaced.plans(&SmartPlansQuery::new()).unwrap();
    let refused = unpaced.investments(&InvestmentsQuery::new()).unwrap_err();
    assert_eq!(refused.status(), Some(429), "{refused}");
    // A client told the limit paces the endpoints together: nothing reaches the exchange
    // beyond it.
    let limits =
        RateLimits::documented().with_limit(MAIN_ACCOUNT_SCOPE, Some(RateLimit::new(2, 10)));
    let paced = config::partner()
        .rate_limits(limits)
        .rate_policy(RatePolicy::FailFast);
    let paced = driver.investor(sandbox.base_url(), paced);
    let requests = sandbox.stats().requests;
    paced.plans(&SmartPlansQuery::new()).ok();
    let throttled = paced.investments(&InvestmentsQuery::new()).unwrap_err();
    assert!(matches!(throttled, Error::Throttled(_)), "{throttled}");
    assert_eq!(sandbox.stats().requests, requests + 1);
}

/// One row: a fault on the investment route, how the client invests, and what it must end as.
struct Row {
    name: &'static str,
    fault: Option<Fault>,
    once: bool,
    /// Nonces without `nonceWindow`: the window is fenced by the resolver's first look-up.
    strict: bool,
    /// For `invest`: whether resolving finds it. For `invest_once`: how it ends.
    expect: Expect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// `invest` fails unknown; resolving finds it.
    UnknownThenInvested,
    /// `invest` fails unknown; resolving proves nothing was invested.
    UnknownThenNotInvested,
    /// `invest_once` ends with the investment found in the list.
    Found,
    /// `invest_once` ends with the answer of a second send.
    Answered,
}

fn answer_503() -> Fault {
    Fault::AnswerAfterProcessing {
        status: 503,
        content_type: "text/html".into(),
        body: b"<html>503 Service Temporarily Unavailable</html>".to_vec(),
    }
}

/// Each kind of unknown outcome, resolved from the list — never invested twice. The rows run
/// at once (each on its own sandbox): resolving waits out the nonce window and the creation
/// allowance (about 11 s), and the waits overlap.
fn unknown_outcomes_are_resolved_never_doubled(driver: &dyn InvestDriver) {
    let rows = [
        Row {
            name: "lost answer",
            fault: Some(Fault::DropAfterProcessing),
            once: false,
            strict: false,
            expect: Expect::UnknownThenInvested,
        },
        Row {
            name: "5xx after investing",
            fault: Some(answer_503()),
            once: false,
            strict: false,
            expect: Expect::UnknownThenInvested,
        },
        Row {
            name: "reset mid-answer",
            fault: Some(Fault::ResetMidBody),
            once: false,
            strict: false,
            expect: Expect::UnknownThenInvested,
        },
        Row {
            name: "5xx without investing",
            fault: Some(Fault::Unavailable),
            once: false,
            strict: false,
            expect: Expect::UnknownThenNotInvested,
        },
        Row {
            name: "once: lost answer",
            fault: Some(Fault::DropAfterProcessing),
            once: true,
            strict: false,
            expect: Expect::Found,
        },
        Row {
            name: "once: 5xx without investing",
            fault: Some(Fault::HtmlBadGateway),
            once: true,
            strict: false,
            expect: Expect::Answered,
        },
        Row {
            name: "strict nonces: lost answer",
            fault: Some(Fault::ResetMidBody),
            once: false,
            strict: true,
            expect: Expect::UnknownThenInvested,
        },
        Row {
            name: "strict nonces, once: 5xx without investing",
            fault: Some(Fault::Unavailable),
            once: true,
            strict: true,
            expect: Expect::Answered,
        },
    ];
    let clients: Vec<(Sandbox, Box<dyn InvestApi>)> = rows
        .iter()
        .map(|row| {
            let sandbox = Sandbox::start().unwrap();
            let config = match row.strict {
                // Its own sequence: strict nonces must grow at each sandbox.
                true => sole()
                    .nonce_window(false)
                    .nonce_sequence(NonceSequence::new()),
                false => sole(),
            };
            let client = driver.investor(sandbox.base_url(), config);
            (sandbox, client)
        })
        .collect();
    std::thread::scope(|scope| {
        for (row, (sandbox, client)) in rows.iter().zip(&clients) {
            scope.spawn(move || run_row(row, sandbox, client.as_ref()));
        }
    });
}

fn run_row(row: &Row, sandbox: &Sandbox, client: &dyn InvestApi) {
    let name = row.name;
    if let Some(fault) = &row.fault {
        sandbox.inject_fault(Route::Invest, fault.clone(), Some(1));
    }
    let invest = Invest::new(PLAN, "250").unwrap();
    if row.once {
        let invested = client.invest_once(&invest).unwrap();
        match (row.expect, &invested) {
            (Expect::Found, Invested::Found { evidence, .. }) => {
                assert_eq!(evidence.rounds.len(), 1, "{name}");
            }
            (Expect::Answered, Invested::Answered(_)) => {}
            (expect, other) => panic!("{name}: expected {expect:?}, got {other:?}"),
        }
        let records = sandbox.investment_records();
        assert_eq!(records.len(), 1, "{name}: exactly one investment");
        assert_eq!(records[0]["id"], invested.id(), "{name}");
        return;
    }
    let error = client.invest(&invest).unwrap_err();
    assert!(
        error.outcome_unknown() && !error.is_retryable(),
        "{name}: {error}"
    );
    assert_eq!(sandbox.stats().requests, 1, "{name}: never resent");
    let pending = error.pending_investment().unwrap();
    assert_eq!(pending.attempts().len(), 1, "{name}");
    let resolution = client.resolve_investment(pending).unwrap();
    match (row.expect, &resolution) {
        (
            Expect::UnknownThenInvested,
            InvestResolution::Invested {
                investment,
                evidence,
            },
        ) => {
            let window = evidence.window.as_ref().unwrap();
            let fenced = window.fence().is_some();
            assert_eq!(fenced, row.strict, "{name}");
            assert_eq!(
                sandbox.investment_records()[0]["id"],
                investment.id.as_str(),
                "{name}"
            );
            let (_, seen) = evidence.found().unwrap();
            assert_eq!(seen.id, investment.id, "{name}");
            assert!(window.admits(seen), "{name}");
        }
        (Expect::UnknownThenNotInvested, InvestResolution::NotInvested { evidence }) => {
            assert!(sandbox.investment_records().is_empty(), "{name}");
            assert_eq!(evidence.rounds.len(), 2, "{name}: absence proven twice");
        }
        (expect, other) => panic!("{name}: expected {expect:?}, got {other:?}"),
    }
}

/// A closing whose answer is lost is not resent; the list says whether it closed.
fn a_lost_close_is_looked_up_not_resent(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = partner(driver, &sandbox);
    let new = client.invest(&Invest::new(PLAN, "100").unwrap()).unwrap();
    sandbox.inject_fault(Route::CloseInvestment, Fault::DropAfterProcessing, Some(1));
    let requests = sandbox.stats().requests;
    let error = client
        .close_investment(&CloseInvestment::new(&new.id).unwrap())
        .unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    assert_eq!(sandbox.stats().requests, requests + 1, "never resent");
    let mine = InvestmentsQuery::builder().id(&new.id).build().unwrap();
    let listed = client.investments(&mine).unwrap().records.remove(0);
    assert_eq!(listed.status, InvestmentStatus::Closed);
}

/// Many investments, each a distinct amount; faults on some, the server gone for a while and
/// the client process "restarting" mid-run: what it journaled as unknown is resolved by a new
/// client, what was not invested is invested again — and the exchange ends with every
/// investment exactly once.
fn a_restart_mid_run_ends_with_nothing_unknown_doubled_or_lost(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::builder()
        .plan(
            PlanConfig::new("batch-plan", "USDT")
                .percent("5")
                .duration_minutes(43_200)
                .investment("1", "1000", "100000"),
        )
        .start()
        .unwrap();
    sandbox
        .set_main_balance(demo::PARTNER_API_KEY, "USDT", "100000")
        .unwrap();
    // 16 investments, or 300 with TXC_FULL_LOAD=1.
    let n = if std::env::var_os("TXC_FULL_LOAD").is_some() {
        300
    } else {
        16
    };
    let amounts: Vec<String> = (0..n).map(|i| format!("{}.5", 100 + i)).collect();
    let invest = |i: usize| Invest::new("batch-plan", amounts[i].as_str()).unwrap();
    let faults = [
        None,
        Some(Fault::DropAfterProcessing),
        Some(answer_503()),
        Some(Fault::Unavailable),
        Some(Fault::ResetMidBody),
        Some(Fault::HtmlBadGateway),
    ];
    // The first process: plain invests, its journal of what is unknown or unsent.
    let first = partner(driver, &sandbox);
    let mut journal = Vec::new();
    let mut unsent = Vec::new();
    for i in 0..n {
        if i == n / 2 {
            sandbox.stop_listener();
        }
        if i == n / 2 + 2 {
            sandbox.restart_listener().unwrap();
        }
        if let Some(fault) = &faults[i % faults.len()] {
            sandbox.inject_fault(Route::Invest, fault.clone(), Some(1));
        }
        match first.invest(&invest(i)) {
            Ok(_) => {}
            Err(e) if e.outcome_unknown() => {
                journal.push((i, e.pending_investment().unwrap().clone()))
            }
            Err(e) if e.is_retryable() => unsent.push(i),
            Err(e) => panic!("investment {i}: {e}"),
        }
        sandbox.clear_faults();
    }
    assert!(
        journal.len() >= 4 && !unsent.is_empty(),
        "{} unknown, {} unsent",
        journal.len(),
        unsent.len()
    );
    drop(first);

    // The second process: a fresh client (its own nonces, as after a restart).
    let second = driver.investor(
        sandbox.base_url(),
        sole().nonce_sequence(NonceSequence::new()),
    );
    let unsent_count = unsent.len();
    let mut again = unsent;
    let (mut unknown, mut found) = (0, 0);
    for (i, pending) in &journal {
        match second.resolve_investment(pending) {
            Ok(InvestResolution::Invested { .. }) => found += 1,
            Ok(InvestResolution::NotInvested { .. }) => again.push(*i),
            other => {
                unknown += 1;
                eprintln!("investment {i} still unknown: {other:?}");
            }
        }
    }
    assert_eq!(unknown, 0, "unknown after resolving");
    let redone = second.run_invest_once(again.iter().map(|i| invest(*i)).collect(), 4);
    assert!(redone.iter().all(Result::is_ok), "{redone:?}");

    let records = sandbox.investment_records();
    let mut made: Vec<&str> = records
        .iter()
        .filter_map(|r| r["amount"].as_str())
        .collect();
    made.sort_unstable();
    let mut wanted: Vec<&str> = amounts.iter().map(String::as_str).collect();
    wanted.sort_unstable();
    assert_eq!(
        made, wanted,
        "each investment exactly once: none doubled, none lost"
    );
    assert!(records.iter().all(|r| r["plan"]["id"] == "batch-plan"));
    eprintln!(
        "{}: {n} investments: {} answered, {} unknown ({found} found invested, {} not \
         invested), {unsent_count} not sent; after resolving 0 unknown, {} invested again; \
         {} on the exchange, 0 doubled, 0 lost",
        driver.name(),
        n - journal.len() - unsent_count,
        journal.len(),
        journal.len() - found,
        again.len(),
        records.len(),
    );
}

scenarios!(
    investing_closing_and_interest,
    a_plan_with_nothing_left_says_so,
    the_bounds_are_checked_before_any_request,
    every_refusal_has_its_class,
    the_main_account_limit_is_shared,
    unknown_outcomes_are_resolved_never_doubled,
    a_lost_close_is_looked_up_not_resent,
    a_restart_mid_run_ends_with_nothing_unknown_doubled_or_lost,
);

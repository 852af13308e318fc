//! Issue 35's three ways exactly-once broke across a restart and for investments, each
//! reproduced against the sandbox through both transports with a real restart — the client
//! dropped, a new one (with a nonce sequence of its own) built on the same journal — and each
//! ending with one order or investment on the sandbox and a true answer:
//!
//! 1. an order's answer lost, the process restarted, the same `clientOrderId` placed again;
//! 2. an investment's answer lost, the process restarted, the same plan and amount invested
//!    again;
//! 3. an investment refused with a 503 (never made) while another writer of the key invests the
//!    same amount in the same plan 0.7 s later.
//!
//! And, async only, a dropped `place_once` or `invest_once` future leaves a journal record
//! that a restarted client resolves.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

use std::sync::Arc;
use std::time::Duration;

use crate::common::invest::InvestDriver;
use crate::common::journal::MemoryJournal;
use crate::common::*;
use txc_core::Error;
use txc_core::resolve::{
    InvestResolution, Invested, InvestmentWriters, PendingRecord, PlacedOrder, Resolution,
};
use txc_core::risk::ModeCheck;
use txc_sandbox::{Fault, Route, Sandbox};
use txc_sign::nonce::NonceSequence;
use txc_types::investments::Invest;

/// The docs' example plan (the sandbox's first).
const PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";

/// The partner's configuration for a process on `journal`: a nonce sequence of its own, as a
/// new process has.
fn process(journal: &Arc<MemoryJournal>) -> ClientConfig {
    config::partner()
        .journal(journal.clone())
        .nonce_sequence(NonceSequence::new())
}

/// 1. An order's answer is lost and the process dies; a new process, built on the same
///    journal, places the same order again. Its plain placement is refused before any I/O
///    (the position-mode read included), naming the record; `place_once` resolves the record
///    first and finds the order: one order, the journal empty.
fn a_restart_does_not_double_a_journaled_order(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::start().unwrap();
    let journal = Arc::new(MemoryJournal::default());
    let first = driver.client(sandbox.base_url(), process(&journal));
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    let order = market_with_id("restart-1");
    let lost = first.market(&order).unwrap_err();
    assert!(lost.outcome_unknown(), "{lost}");
    drop(first);
    assert_eq!(
        journal.records().len(),
        1,
        "journaled before the first byte"
    );

    // The restarted process learns the position mode unless something stops it first.
    let second = driver.client(
        sandbox.base_url(),
        process(&journal).position_mode_check(ModeCheck::Learn),
    );
    let pending = second.pending_orders();
    assert_eq!(pending.len(), 1, "read back when built");
    assert_eq!(pending[0].client_order_id().as_str(), "restart-1");
    let requests = sandbox.stats().requests;
    let refused = second.market(&order).unwrap_err();
    let Error::ResolveFirst(record) = &refused else {
        panic!("{refused:?}")
    };
    assert_eq!(record.order(), Some(&pending[0]));
    assert!(refused.to_string().contains("resolve"), "{refused}");
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");

    let placed = second.place_once(&order).unwrap();
    assert!(
        !matches!(placed.record, PlacedOrder::Answered(_)),
        "found, not placed again: {placed:?}"
    );
    assert_eq!(
        held(&sandbox, "restart-1"),
        [placed.order_id()],
        "one order"
    );
    assert!(
        journal.records().is_empty(),
        "its definite answer cleared it"
    );
    assert!(second.pending_orders().is_empty());
}

/// 2. An investment's answer is lost and the process dies; a new process invests the same
///    amount in the same plan again. The plain investment is refused before any I/O;
///    `invest_once` resolves the record first — with `Sole`, the investment found ...
fn a_restart_does_not_double_an_investment_of_the_sole_investor(driver: &dyn InvestDriver) {
    restart_after_a_lost_investment(driver, InvestmentWriters::Sole);
}

/// ... with `Shared` (the default), "cannot tell" with it as the candidate, never invested
/// again, the record kept until discarded.
fn a_restart_does_not_double_an_investment_of_a_shared_key(driver: &dyn InvestDriver) {
    restart_after_a_lost_investment(driver, InvestmentWriters::Shared);
}

fn restart_after_a_lost_investment(driver: &dyn InvestDriver, writers: InvestmentWriters) {
    let sandbox = Sandbox::start().unwrap();
    let journal = &Arc::new(MemoryJournal::default());
    let investor = |config: ClientConfig| driver.investor(sandbox.base_url(), config);
    let invest = Invest::new(PLAN, "250").unwrap();
    let first = investor(process(journal).investment_writers(writers));
    sandbox.inject_fault(Route::Invest, Fault::DropAfterProcessing, Some(1));
    let lost = first.invest(&invest).unwrap_err();
    assert!(lost.outcome_unknown(), "{lost}");
    drop(first);
    assert_eq!(
        journal.records().len(),
        1,
        "journaled before the first byte"
    );

    let second = investor(process(journal).investment_writers(writers));
    assert_eq!(
        second.pending_investments().len(),
        1,
        "read back when built"
    );
    let requests = sandbox.stats().requests;
    let refused = second.invest(&invest).unwrap_err();
    assert!(matches!(refused, Error::ResolveFirst(_)), "{refused:?}");
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");

    let made = sandbox.investment_records();
    assert_eq!(made.len(), 1);
    match (writers, second.invest_once(&invest)) {
        (InvestmentWriters::Sole, Ok(Invested::Found { investment, .. })) => {
            assert_eq!(made[0]["id"], investment.id.as_str());
            assert!(journal.records().is_empty());
        }
        (InvestmentWriters::Shared, Err(Error::InvestmentUnknown(unknown))) => {
            let ids: Vec<&str> = unknown.candidates.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids, [made[0]["id"].as_str().unwrap()], "the candidate");
            let kept = second.pending_investments();
            assert_eq!(kept.len(), 1, "kept until discarded");
            assert!(
                kept[0].reason().unwrap().contains("cannot tell"),
                "{kept:?}"
            );
            // Checked by hand: it is ours. Discarded, it is gone from the journal too.
            let record = PendingRecord::Investment(kept[0].clone());
            assert!(second.discard_pending(record).unwrap());
            assert!(journal.records().is_empty());
        }
        (writers, other) => panic!("{writers:?}: {other:?}"),
    }
    assert_eq!(
        sandbox.investment_records().len(),
        1,
        "never invested twice"
    );
}

/// 3. This client's investment is refused with a 503 and never made; 0.7 s later another
///    writer of the key invests the same amount in the same plan. Resolving answers "cannot
///    tell" with the other's investment as the candidate — never "invested" — and a restarted
///    `invest_once` does not invest again: the caller under-invests, never believes money is
///    invested that is not.
fn another_writer_s_identical_investment_is_not_taken_for_ours(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::start().unwrap();
    let journal = Arc::new(MemoryJournal::default());
    let invest = Invest::new(PLAN, "250").unwrap();
    let ours = driver.investor(sandbox.base_url(), process(&journal));
    sandbox.inject_fault(Route::Invest, Fault::Unavailable, Some(1));
    let unknown = ours.invest(&invest).unwrap_err();
    assert!(unknown.outcome_unknown(), "{unknown}");
    std::thread::sleep(Duration::from_millis(700));
    let other = driver.investor(sandbox.base_url(), config::partner());
    let theirs = other.invest(&invest).unwrap();

    let pending = unknown.pending_investment().unwrap().clone();
    match ours.resolve_investment(&pending).unwrap() {
        InvestResolution::CannotTell { candidates, .. } => {
            let ids: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids, [theirs.id.as_str()]);
        }
        other => panic!("someone else's investment taken for ours: {other:?}"),
    }
    drop(ours);
    let restarted = driver.investor(sandbox.base_url(), process(&journal));
    let Err(Error::InvestmentUnknown(again)) = restarted.invest_once(&invest) else {
        panic!("resolved again, it still cannot tell")
    };
    assert_eq!(again.candidates.len(), 1);
    let made = sandbox.investment_records();
    assert_eq!(made.len(), 1, "only the other writer's: not invested again");
    assert_eq!(made[0]["id"], theirs.id.as_str());
}

scenarios![
    a_restart_does_not_double_a_journaled_order,
    a_restart_does_not_double_an_investment_of_the_sole_investor,
    a_restart_does_not_double_an_investment_of_a_shared_key,
    another_writer_s_identical_investment_is_not_taken_for_ours,
];

/// The async client of `config` for `sandbox`, on `runtime`.
fn async_client(sandbox: &Sandbox, config: ClientConfig) -> txc_async::Client {
    txc_async::ClientBuilder::from(config.base_url(sandbox.base_url()))
        .build()
        .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A `place_once` future dropped while its order is in flight (the answer held back 2 s)
/// leaves the order's record in the journal; a client built on it after a restart lists it and
/// resolves it: placed, the journal empty.
#[test]
fn a_dropped_place_once_future_leaves_a_journal_record_that_resolves() {
    let runtime = runtime();
    let sandbox = Sandbox::start().unwrap();
    let journal = Arc::new(MemoryJournal::default());
    let client = async_client(&sandbox, process(&journal));
    sandbox.inject_fault(
        Route::CollateralMarket,
        Fault::Delay(Duration::from_secs(2)),
        Some(1),
    );
    let order = market_with_id("dropped-1");
    let given_up = runtime.block_on(async {
        tokio::time::timeout(Duration::from_millis(300), client.place_once(&order)).await
    });
    assert!(given_up.is_err(), "answered within 300 ms: {given_up:?}");
    assert_eq!(client.pending_orders().len(), 1, "left unresolved");
    drop(client);
    assert_eq!(journal.records().len(), 1);
    eventually("the delayed order placed", || {
        held(&sandbox, "dropped-1").len() == 1
    });

    let restarted = async_client(&sandbox, process(&journal));
    let pending = restarted.pending_orders();
    assert_eq!(pending.len(), 1);
    let resolution = runtime.block_on(restarted.resolve(&pending[0])).unwrap();
    let Resolution::Placed(placed) = resolution else {
        panic!("{resolution:?}")
    };
    assert_eq!(held(&sandbox, "dropped-1"), [placed.order_id()]);
    assert!(journal.records().is_empty());
}

/// An `invest_once` future dropped while its investment is in flight leaves its record (plan,
/// amount, nonce) in the journal; a restarted client resolves it: invested, once.
#[test]
fn a_dropped_invest_once_future_leaves_a_journal_record_that_resolves() {
    let runtime = runtime();
    let sandbox = Sandbox::start().unwrap();
    let journal = Arc::new(MemoryJournal::default());
    let sole = || process(&journal).investment_writers(InvestmentWriters::Sole);
    let client = async_client(&sandbox, sole());
    sandbox.inject_fault(Route::Invest, Fault::Delay(Duration::from_secs(2)), Some(1));
    let invest = Invest::new(PLAN, "250").unwrap();
    let given_up = runtime.block_on(async {
        tokio::time::timeout(Duration::from_millis(300), client.invest_once(&invest)).await
    });
    assert!(given_up.is_err(), "answered within 300 ms: {given_up:?}");
    assert_eq!(client.pending_investments().len(), 1, "left unresolved");
    drop(client);
    assert_eq!(journal.records().len(), 1);
    eventually("the delayed investment made", || {
        sandbox.investment_records().len() == 1
    });

    let restarted = async_client(&sandbox, sole());
    let pending = restarted.pending_investments();
    assert_eq!(pending.len(), 1);
    let resolution = runtime
        .block_on(restarted.resolve_investment(&pending[0]))
        .unwrap();
    let InvestResolution::Invested { investment, .. } = resolution else {
        panic!("{resolution:?}")
    };
    assert_eq!(
        sandbox.investment_records()[0]["id"],
        investment.id.as_str()
    );
    assert!(journal.records().is_empty());
}

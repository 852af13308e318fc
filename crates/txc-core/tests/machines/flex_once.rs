//! Investing in and withdrawing from a flex plan exactly once, as sans-IO machines driven
//! against the lending model (`lending.rs`) with the flex history as its list: the same
//! properties as a fixed plan's investment — never twice, never a wrong "done", "cannot tell"
//! only where the cases are indistinguishable, the journal kept exactly while unknown, across
//! restarts and other writers — and the cases that are the history's own: an investment that
//! reopened a closed one, another writer's operation of another kind and the same amount, a
//! history read across pages.

use std::time::Duration;

use proptest::prelude::*;
use txc_core::resolve::{FlexDone, InvestmentWriters, MoveResolution};
use txc_core::{Error, Machine, Step};
use txc_sign::nonce::NonceMode;
use txc_types::investments::flex::{FlexAction, FlexInvest, FlexWithdraw};

use crate::lending::{
    DAILY_EARNING, Exchange, FLEX_PLAN, Fate, Kind, Lending, OPEN, Record, check_run, check_script,
    config, core, drive, ms, run, script, start,
};

fn invest(amount: &str) -> FlexInvest {
    FlexInvest::new(FLEX_PLAN, amount).unwrap()
}

fn withdraw(amount: &str) -> FlexWithdraw {
    FlexWithdraw::new(FLEX_PLAN, amount).unwrap()
}

proptest! {
    /// Whatever the exchange does with each request (see `lending::Fate`), with its clock
    /// ahead or behind, records created late and shown late, and look-ups failing:
    /// `flex_invest_once` never invests twice, says "invested" only of its own record and
    /// "not invested" only when there is none.
    #[test]
    fn flex_investing_once_never_doubles(script in script()) {
        check_script::<FlexInvest>(&script)?;
    }

    /// The same for `flex_withdraw_once`.
    #[test]
    fn flex_withdrawing_once_never_doubles(script in script()) {
        check_script::<FlexWithdraw>(&script)?;
    }

    /// `flex_invest_once` across process restarts at any step, on one journal, with other
    /// writers of the key investing or withdrawing — the same amount or another — and the
    /// client `Shared` or `Sole`.
    #[test]
    fn flex_investing_once_across_restarts_and_other_writers(run in run()) {
        check_run::<FlexInvest>(&run)?;
    }

    /// The same for `flex_withdraw_once`.
    #[test]
    fn flex_withdrawing_once_across_restarts_and_other_writers(run in run()) {
        check_run::<FlexWithdraw>(&run)?;
    }
}

#[test]
fn a_lost_investment_is_found_in_the_history_never_sent_again() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::FlexInvest, vec![Fate::LoseAnswer]);
    let (result, took) = drive(core.flex_invest_once(&invest("250")), &mut exchange);
    let FlexDone::Found { record, evidence } = result.unwrap() else {
        panic!("found, not answered")
    };
    assert_eq!(
        (record.transaction_id.as_str(), record.action_type),
        ("tx-1", FlexAction::Invest)
    );
    assert_eq!(exchange.ours().len(), 1, "never sent again");
    assert_eq!(evidence.rounds.len(), 1, "found in the first settled round");
    assert_eq!(evidence.rounds[0].looks[0].operation, "flex_history");
    // Found once the exchange's clock passed nonce + 5 s + the creation allowance.
    assert!(took >= Duration::from_secs(10), "{took:?}");
    assert!(core.pending_flex_investments().is_empty(), "settled");
}

#[test]
fn a_reopened_investment_shows_as_open_investment_and_counts() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::FlexInvest, vec![Fate::Process503]);
    exchange.reopens = true;
    let (result, _) = drive(core.flex_invest_once(&invest("40")), &mut exchange);
    let FlexDone::Found { record, .. } = result.unwrap() else {
        panic!()
    };
    assert_eq!(record.action_type, FlexAction::Open);
    assert_eq!(exchange.records[0].action, OPEN);
    assert_eq!(exchange.ours().len(), 1);
}

#[test]
fn another_kind_of_operation_of_the_same_amount_is_never_taken_for_this_one() {
    // While this withdrawal's answer is lost, someone invests 250 in the plan and the day's
    // earning happens to be 250 too: neither is a withdrawal, so "not withdrawn" (it was
    // refused without processing) and it is sent again — once.
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::FlexWithdraw, vec![Fate::Refuse503]);
    exchange.theirs("250", ms(start()) + 100, false);
    exchange.records.push(Record {
        id: "earning".into(),
        amount: "250".into(),
        created_ms: ms(start()) + 200,
        visible_ms: 0,
        action: DAILY_EARNING,
        ours: false,
    });
    let (result, _) = drive(core.flex_withdraw_once(&withdraw("250")), &mut exchange);
    let FlexDone::Answered(answer) = result.unwrap() else {
        panic!("sent again after \"not withdrawn\"")
    };
    assert_eq!(answer.transaction_id(), exchange.ours()[0].id);
    assert_eq!(exchange.ours().len(), 1);
    // With other writers, the one withdrawal of the amount in the window cannot tell; the
    // investment beside it is no candidate.
    let shared = config(NonceMode::Window)
        .investment_writers(InvestmentWriters::Shared)
        .build()
        .unwrap();
    let mut exchange = Exchange::new(Kind::FlexWithdraw, vec![Fate::LoseAnswer]);
    exchange.theirs("250", ms(start()) + 100, false);
    let (result, _) = drive(shared.flex_withdraw_once(&withdraw("250")), &mut exchange);
    let error = result.unwrap_err();
    let Error::FlexWithdrawUnknown(unknown) = &error else {
        panic!("{error:?}")
    };
    let ids: Vec<&str> = unknown
        .candidates
        .iter()
        .map(|c| c.transaction_id.as_str())
        .collect();
    assert_eq!(ids, [exchange.ours()[0].id.as_str()]);
    assert!(error.to_string().contains("withdrawal"), "{error}");
    assert_eq!(shared.pending_flex_withdrawals().len(), 1, "kept, with why");
}

#[test]
fn the_history_is_read_across_pages_through_the_page_cursor() {
    // 130 records of the plan and action, other amounts, in the window: three pages of 50 (the
    // history's default), each after the first re-reading one record.
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::FlexInvest, vec![Fate::LoseAnswer]);
    for n in 0..130 {
        exchange.theirs(&format!("{}", 1_000 + n), ms(start()) + 2_000, true);
    }
    let (result, _) = drive(core.flex_invest_once(&invest("250")), &mut exchange);
    let FlexDone::Found { record, evidence } = result.unwrap() else {
        panic!()
    };
    assert_eq!(record.amount.as_str(), "250");
    let look = &evidence.rounds[0].looks[0];
    assert_eq!(look.requests, 3, "{look:?}");
    assert_eq!(
        look.seen.len(),
        1,
        "only the plan's investments of 250 are candidates"
    );
}

#[test]
fn a_plain_call_is_never_resent_and_a_restart_resolves_it_first() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::FlexInvest, vec![Fate::LoseAnswer]);
    let (result, _) = drive(core.flex_invest(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::FlexInvestUnknown(_)), "{error:?}");
    assert!(error.outcome_unknown() && !error.is_retryable());
    let pending = error.pending_flex_invest().unwrap().clone();
    assert_eq!(pending.request().plan(), FLEX_PLAN);
    assert_eq!(core.pending_flex_investments(), vec![pending.clone()]);
    // The same plan and amount again: refused before anything is sent.
    let served = exchange.served;
    let (again, _) = drive(core.flex_invest(&invest("250.0")), &mut exchange);
    let again = again.unwrap_err();
    assert!(matches!(again, Error::ResolveFirst(_)), "{again:?}");
    assert!(again.to_string().contains("flex_invest_once"), "{again}");
    assert_eq!(exchange.served, served, "nothing sent");
    // A withdrawal of the same amount is another operation: it would be sent.
    let withdrawal = withdraw("250");
    let mut other = core.flex_withdraw(&withdrawal);
    assert!(matches!(other.next(start()), Step::Send(_)));
    drop(other);
    assert_eq!(
        core.pending_flex_withdrawals().len(),
        1,
        "dropped mid-call: kept"
    );
    // Resolved by hand: the investment, found; the record settled.
    let (resolution, _) = drive(core.resolve_flex_invest(pending), &mut exchange);
    let Ok(MoveResolution::Done { record, .. }) = resolution else {
        panic!("{resolution:?}")
    };
    assert_eq!(record.transaction_id, exchange.ours()[0].id);
    assert!(core.pending_flex_investments().is_empty());
}

#[test]
fn refused_every_time_is_not_done_after_the_client_s_maximum() {
    let core = core(NonceMode::Window);
    let fates = vec![Fate::Refuse503, Fate::Refuse503, Fate::Refuse503];
    let mut exchange = Exchange::new(Kind::FlexWithdraw, fates);
    let (result, _) = drive(core.flex_withdraw_once(&withdraw("10")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::FlexNotWithdrawn(_)), "{error:?}");
    assert!(error.is_retryable() && !error.outcome_unknown());
    assert_eq!(error.pending_flex_withdraw().unwrap().attempts().len(), 3);
    assert!(exchange.ours().is_empty());
}

#[test]
fn a_failing_history_leaves_it_unknown_with_what_resolving_needs() {
    let core = core(NonceMode::Strict);
    let mut exchange = Exchange::new(Kind::FlexInvest, vec![Fate::Process503]);
    exchange.failing_lookups = 20;
    let (result, _) = drive(core.flex_invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    let Error::FlexInvestUnknown(unknown) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(unknown.pending.nonce_mode(), NonceMode::Strict);
    assert_eq!(unknown.operation, "flex_invest");
    assert_eq!(error.status(), Some(503));
    assert_eq!(core.pending_flex_investments().len(), 1);
    assert!(
        core.pending_flex_investments()[0].reason().is_some(),
        "noted with why"
    );
}

/// Every kind through one generic call: the properties hold for each.
#[test]
fn one_lost_answer_of_each_kind_is_done_once() {
    fn once<R: Lending>() {
        let core = core(NonceMode::Window);
        let mut exchange = Exchange::new(R::MODEL, vec![Fate::LoseAnswer]);
        let (result, _) = drive(R::once(&core, &R::of("250")), &mut exchange);
        let (id, found) = R::done(&result.unwrap());
        assert!(found);
        assert_eq!(id, exchange.ours()[0].id);
    }
    once::<txc_types::investments::Invest>();
    once::<FlexInvest>();
    once::<FlexWithdraw>();
}

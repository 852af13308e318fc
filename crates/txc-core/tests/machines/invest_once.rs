//! Investing exactly once, as sans-IO state machines driven against a scripted model of the
//! exchange on a simulated clock: the exchange's clock runs apart from the client's, requests
//! arrive late or never, answers are lost, the investments list lags and look-ups fail — and
//! the exchange accepts a nonce only as its rules say (±5 s with `nonceWindow`, increasing
//! without). Whatever happens, one `invest_once` never creates two investments, and every
//! answer it gives is true.

use std::time::Duration;

use proptest::prelude::*;
use txc_core::Error;
use txc_core::machine::AttemptRecord;
use txc_core::resolve::{InvestResolution, Invested, InvestmentWriters, PendingInvestment};
use txc_sign::nonce::NonceMode;
use txc_types::investments::Invest;

use crate::exchange::{Crash, Restart};
use crate::lending::{
    Exchange, FIXED_PLAN as PLAN, Fate, Kind, Record, Run, SETTLE, Script, check_run, check_script,
    config, core, drive, ms, run, script, start,
};

fn invest(amount: &str) -> Invest {
    Invest::new(PLAN, amount).unwrap()
}

#[test]
fn an_answered_investment_is_not_looked_up() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Answer]);
    let (result, took) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Answered(new) = result.unwrap() else {
        panic!()
    };
    assert_eq!(new.id, "inv-1");
    assert_eq!(exchange.lookups, 0);
    assert!(took < Duration::from_secs(1));
}

#[test]
fn a_lost_answer_is_found_after_the_window_and_the_creation_allowance() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::LoseAnswer, Fate::Answer]);
    let (result, took) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Found {
        investment,
        evidence,
    } = result.unwrap()
    else {
        panic!()
    };
    assert_eq!(investment.id, "inv-1");
    assert_eq!(exchange.ours().len(), 1, "never sent again");
    let window = evidence.window.as_ref().unwrap();
    assert_eq!(window.fence(), None, "the nonce window bounds it");
    assert_eq!(evidence.rounds.len(), 1, "found in the first round");
    // Round 1 waited for the exchange's clock to pass nonce + 5 s + 5 s.
    let nonce = ms(window.spans()[0].to) - 10_000;
    assert!(ms(evidence.rounds[0].exchange_sent_at.unwrap()) >= nonce + 10_000);
    assert!(took >= Duration::from_secs(10));
    assert!(evidence.to_string().contains("round 1"), "{evidence}");
}

#[test]
fn a_request_arriving_late_is_never_missed() {
    // The client times out after 1 s; the request arrives 4.9 s after it was signed and is
    // accepted (its nonce is within 5 s), so the investment exists long after the client gave
    // up. Resolving must find it, never invest again.
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Late(4_900), Fate::Answer]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    assert!(matches!(result.unwrap(), Invested::Found { .. }));
    assert_eq!(exchange.ours().len(), 1);
    // Arriving after its window, the same request is refused: not invested, sent again.
    let core = self::core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Late(7_000), Fate::Answer]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    assert!(matches!(result.unwrap(), Invested::Answered(_)));
    assert_eq!(exchange.ours().len(), 1);
}

#[test]
fn a_lagging_list_is_covered_by_the_second_round() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Process503]);
    exchange.lag_ms = 1_500;
    exchange.creation_delay_ms = 4_000;
    exchange.skew_ms = -2_500;
    let pending = match drive(core.invest(&invest("250")), &mut exchange).0 {
        Err(e) => e.pending_investment().unwrap().clone(),
        Ok(_) => panic!("503 is not an answer"),
    };
    let (resolution, _) = drive(core.resolve_investment(pending), &mut exchange);
    let InvestResolution::Invested { evidence, .. } = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(exchange.ours().len(), 1);
    assert!(!evidence.rounds.is_empty());
}

#[test]
fn nothing_found_twice_is_not_invested_and_says_so() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Refuse503, Fate::Answer]);
    // Someone else's investment of the same plan and amount, long before: not ours.
    exchange.records.push(Record {
        id: "older".into(),
        amount: "250".into(),
        created_ms: ms(start()) - 3_600_000,
        visible_ms: 0,
        action: 0,
        ours: false,
    });
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Answered(new) = result.unwrap() else {
        panic!()
    };
    assert_eq!(new.id, "inv-2");
    assert_eq!(exchange.ours().len(), 1);
    // Resolving the refused attempt alone: two rounds, the excluded record counted.
    let pending = PendingInvestment::new(
        invest("250"),
        NonceMode::Window,
        vec![AttemptRecord {
            nonce: txc_sign::nonce::Nonce(ms(start()) - 60_000),
            signed_at: start() - Duration::from_secs(60),
        }],
    );
    let mut quiet = Exchange::new(Kind::Fixed, vec![]);
    quiet.records = exchange
        .records
        .iter()
        .filter(|r| !r.ours)
        .cloned()
        .collect();
    let (resolution, _) = drive(core.resolve_investment(pending), &mut quiet);
    let InvestResolution::NotInvested { evidence } = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(evidence.rounds.len(), 2);
    // Each round: the one of the plan and amount seen outside the window, none inside.
    let seen = |r: &txc_core::resolve::Round| -> Vec<bool> {
        r.looks
            .iter()
            .flat_map(|l| &l.seen)
            .map(|s| s.ours)
            .collect()
    };
    assert!(evidence.rounds.iter().all(|r| seen(r) == [false]));
    let gap = evidence.rounds[1]
        .exchange_sent_at
        .unwrap()
        .duration_since(evidence.rounds[0].exchange_sent_at.unwrap());
    assert!(gap.unwrap() + Duration::from_secs(1) >= SETTLE);
}

#[test]
fn two_identical_investments_in_the_window_cannot_be_told_apart() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::LoseAnswer]);
    // Another writer invests the same amount in the same plan at the same moment.
    exchange.records.push(Record {
        id: "theirs".into(),
        amount: "250".into(),
        created_ms: ms(start()),
        visible_ms: 0,
        action: 0,
        ours: false,
    });
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    let Error::InvestmentUnknown(unknown) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(unknown.candidates.len(), 2);
    assert!(error.outcome_unknown() && !error.is_retryable());
    assert!(error.to_string().contains("cannot tell"), "{error}");
    assert_eq!(exchange.ours().len(), 1, "not invested again");
}

#[test]
fn a_failing_look_up_leaves_it_unknown() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Process503]);
    exchange.failing_lookups = 10;
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::InvestmentUnknown(_)), "{error:?}");
    assert_eq!(error.status(), Some(503));
    let pending = error.pending_investment().unwrap();
    assert_eq!(pending.attempts().len(), 1);
    assert_eq!(pending.invest().plan_id(), PLAN);
    // It carries the plan, the amount and the window the attempt could be accepted in (and
    // its record created, the creation allowance later).
    let window = pending.acceptance_window().unwrap();
    let nonce = pending.attempts()[0].nonce.get();
    let span = window.spans()[0];
    assert_eq!(
        (
            ms(span.from),
            ms(span.to - txc_core::resolve::CREATION_ALLOWANCE)
        ),
        (nonce - 5_000, nonce + 5_000)
    );
}

#[test]
fn strict_nonces_are_fenced_by_the_first_accepted_look_up() {
    let core = core(NonceMode::Strict);
    // Arrives 30 s late: with strict nonces no window stops it, but the resolver's look-up (a
    // later nonce) is accepted first, so the straggler is refused.
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Late(30_000), Fate::Answer]);
    exchange.skew_ms = 1_200;
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    assert!(matches!(result.unwrap(), Invested::Answered(_)));
    assert_eq!(exchange.ours().len(), 1);
    // Lost after processing: found, inside a window fenced by the look-up.
    let core = self::core(NonceMode::Strict);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::LoseAnswer]);
    exchange.skew_ms = -1_700;
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Found { evidence, .. } = result.unwrap() else {
        panic!()
    };
    assert!(evidence.window.unwrap().fence().is_some());
    assert_eq!(exchange.ours().len(), 1);
}

#[test]
fn refused_every_time_is_not_invested_after_the_client_s_maximum() {
    let core = core(NonceMode::Window);
    // A refused connection is retried within the send (certainly not sent); each 503 leaves
    // the send unknown, resolved as not invested; the third send is the last.
    let fates = vec![
        Fate::Refuse503,
        Fate::NotSent,
        Fate::Refuse503,
        Fate::Refuse503,
    ];
    let mut exchange = Exchange::new(Kind::Fixed, fates);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::NotInvested(_)), "{error:?}");
    assert!(exchange.ours().is_empty());
    assert!(error.is_retryable() && !error.outcome_unknown());
    assert_eq!(error.pending_investment().unwrap().attempts().len(), 4);
}

#[test]
fn a_refusal_after_an_unknown_attempt_stays_unknown() {
    // The first send's 503 is resolved as not invested; the second is refused ("not enough
    // balance"), which the first could have caused after all: unknown, every attempt kept.
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Refuse503, Fate::Reject]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::InvestmentUnknown(_)), "{error:?}");
    assert_eq!(error.pending_investment().unwrap().attempts().len(), 2);
    assert_eq!(
        error.api().map(|a| a.class),
        Some(txc_core::decode::ApiErrorClass::InsufficientBalance)
    );
    // Refused at the first send (another client: this one holds the unknown record above,
    // which it would resolve first): a plain refusal, nothing to resolve.
    let core = self::core(NonceMode::Window);
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Reject]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(
        matches!(error, Error::Api(_)) && !error.outcome_unknown(),
        "{error:?}"
    );
}

proptest! {
    /// Whatever the exchange does with each request — answer, lose the answer, let it arrive
    /// late (or too late), refuse with 503, process then 503, refuse the connection — with its
    /// clock ahead or behind, records created late and shown late (within the allowances),
    /// and look-ups failing: `invest_once` never creates two investments, says "invested" only
    /// of the one it created, and "not invested" only when none exists.
    #[test]
    fn investing_once_never_doubles(script in script()) {
        check_script::<Invest>(&script)?;
    }

    /// `invest_once` across process restarts at any step (before or after a request reached
    /// the exchange), on one journal, with other writers of the key investing — the same
    /// amount or another — and the client `Shared` or `Sole` (never the same amount then).
    #[test]
    fn investing_once_across_restarts_and_other_writers(run in run()) {
        check_run::<Invest>(&run)?;
    }
}

/// Issue 35's cases at the sans-IO level: a restart after a lost answer resolves the record
/// first (found with `Sole`, "cannot tell" with `Shared` — never invested again), and another
/// writer's identical investment made while this one failed is never taken for it.
#[test]
fn a_restart_resolves_first_and_another_writer_s_investment_is_never_taken() {
    let after_lost = |sole: bool| Run {
        script: Script {
            fates: vec![Fate::LoseAnswer],
            strict: false,
            skew_ms: 0,
            creation_delay_ms: 0,
            lag_ms: 0,
            failing_lookups: 0,
        },
        sole,
        others: Vec::new(),
        restarts: vec![Restart {
            crash: Crash {
                at_step: 0,
                reaches: true,
            },
            after_ms: 1_000,
            plain_first: true,
        }],
    };
    check_run::<Invest>(&after_lost(true)).unwrap();
    check_run::<Invest>(&after_lost(false)).unwrap();
    let mut another_writer = after_lost(false);
    another_writer.script.fates = vec![Fate::Refuse503];
    another_writer.others = vec![(700, true, true)];
    another_writer.restarts = Vec::new();
    check_run::<Invest>(&another_writer).unwrap();
    // The same, resolved by hand: "cannot tell", the other writer's record the candidate.
    let core = config(NonceMode::Window)
        .investment_writers(InvestmentWriters::Shared)
        .build()
        .unwrap();
    let mut exchange = Exchange::new(Kind::Fixed, vec![Fate::Refuse503]);
    exchange.others = vec![(ms(start()) + 700, "250".to_owned(), true)];
    let Err(error) = drive(core.invest(&invest("250")), &mut exchange).0 else {
        panic!("a 503 is not an answer")
    };
    let pending = error.pending_investment().unwrap().clone();
    let (resolution, _) = drive(core.resolve_investment(pending), &mut exchange);
    let Ok(InvestResolution::CannotTell { candidates, .. }) = resolution else {
        panic!("{resolution:?}")
    };
    assert_eq!(candidates.len(), 1);
    assert!(candidates[0].id.starts_with("theirs"), "{candidates:?}");
    assert!(exchange.ours().is_empty());
    assert_eq!(core.pending_investments().len(), 1, "kept, with why");
    assert!(
        core.pending_investments()[0]
            .reason()
            .unwrap()
            .contains("cannot tell")
    );
}

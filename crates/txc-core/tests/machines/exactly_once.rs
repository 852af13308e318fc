//! Exactly once under the exchange's real rules, as a property: `place_once` against a scripted
//! exchange (`exchange.rs`) whose look-ups lag 0–20 s each, whose clock is up to
//! ±120 s off this host's, where someone else's orders reused the `clientOrderId` before (one
//! filled, one still open) or use it after, a resend meets code 36, a B2B account's canceled
//! orders never reach the history, requests arrive late and answers are lost at every step.
//!
//! What holds, for every script:
//!
//! - the exchange never holds two orders from one `place_once` (with the B2B opt-in to resend,
//!   never two that were not canceled);
//! - an answer "placed" names the one order it holds; "not placed", or any definite refusal,
//!   only when it holds none;
//! - "unknown" only where the rule's documented limits say the cases cannot be told apart: a
//!   B2B account's absence, a look-up that kept failing, an attempt after the first that failed.
//!
//! The settling delay is 20 s: the longest lag the rule is documented to cover with it.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::exchange::{
    Driven, Exchange, Fate, Later, Restart, Reuse, config, drive, drive_until, start,
};
use crate::journal::MemoryJournal;
use proptest::prelude::*;
use txc_core::Error;
use txc_sign::nonce::ClockOffset;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder, Side};

const SETTLE: Duration = Duration::from_secs(20);

fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        4 => Just(Fate::Normal),
        1 => Just(Fate::LoseAnswer),
        1 => Just(Fate::Unavailable),
        1 => Just(Fate::AnswerThen503),
        1 => Just(Fate::NotSent),
        1 => (0..15_000u64).prop_map(Fate::Straggle),
    ]
}

fn later() -> impl Strategy<Value = Later> {
    prop_oneof![
        Just(Later::Rests),
        (0..40_000u64).prop_map(Later::Fills),
        (0..40_000u64).prop_map(Later::Canceled),
    ]
}

fn reuse() -> impl Strategy<Value = Reuse> {
    prop_oneof![
        2 => Just(Reuse::None),
        1 => Just(Reuse::FinishedBefore),
        1 => (0..30_000u64).prop_map(Reuse::OpenBefore),
        1 => Just(Reuse::Later),
    ]
}

/// One script.
#[derive(Debug, Clone)]
struct Script {
    offset_ms: i64,
    /// The nonce clock's error after syncing (ms); `None`: never synced.
    synced: Option<i64>,
    strict: bool,
    trigger: bool,
    oto: bool,
    oto_only_conditional: bool,
    b2b: bool,
    resend_invisible: bool,
    cancel_market: bool,
    later: Later,
    reuse: Reuse,
    fates: Vec<Fate>,
    lags: Vec<u64>,
    creation_delays: Vec<u64>,
}

fn script() -> impl Strategy<Value = Script> {
    (
        (
            -120_000..=120_000i64,
            prop::option::weighted(0.8, -400..=400i64),
            prop::bool::weighted(0.25),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            prop::bool::weighted(0.3),
            any::<bool>(),
        ),
        (
            prop::bool::weighted(0.2),
            later(),
            reuse(),
            prop::collection::vec(fate(), 0..14),
            prop::collection::vec(0..=20_000u64, 1..6),
            prop::collection::vec(0..=5_000u64, 1..4),
        ),
    )
        .prop_map(
            |(
                (
                    offset_ms,
                    synced,
                    strict,
                    trigger,
                    oto,
                    oto_only_conditional,
                    b2b,
                    resend_invisible,
                ),
                (cancel_market, later, reuse, fates, lags, creation_delays),
            )| Script {
                offset_ms,
                synced,
                strict,
                trigger,
                oto,
                oto_only_conditional,
                b2b,
                resend_invisible,
                cancel_market,
                later,
                reuse,
                fates,
                lags,
                creation_delays,
            },
        )
}

fn restart() -> impl Strategy<Value = Restart> {
    crate::exchange::restart(40, 40_000)
}

/// Runs `place_once` under `script`; checks the invariants.
fn check(script: &Script) -> Result<(), TestCaseError> {
    check_restarted(script, &[])
}

/// Runs `place_once` under `script`, the process dying and restarting as `restarts` say;
/// checks the invariants over the whole run: one intent, however many processes.
fn check_restarted(script: &Script, restarts: &[Restart]) -> Result<(), TestCaseError> {
    let journal = Arc::new(MemoryJournal::default());
    let build = || {
        let mut config = config()
            .settle_delay(SETTLE)
            .b2b_account(script.b2b)
            .resend_when_cancels_are_invisible(script.resend_invisible)
            .nonce_window(!script.strict)
            .journal(journal.clone());
        if let Some(error) = script.synced {
            config = config.clock_offset(ClockOffset::from_millis(script.offset_ms + error));
        }
        config.build().unwrap()
    };
    let mut exchange = Exchange {
        offset_ms: script.offset_ms,
        strict: script.strict,
        b2b: script.b2b,
        oto_only_conditional: script.oto_only_conditional,
        fates: script.fates.iter().copied().collect(),
        lags: script.lags.clone().into(),
        creation_delays: script.creation_delays.clone().into(),
        later: script.later,
        cancel_market: script.cancel_market,
        reuse: script.reuse,
        ..Exchange::default()
    };
    let cid = "txc-prop-1";
    exchange.seed(cid, exchange.exchange_ms(start()));
    let trigger = {
        let mut builder =
            CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
                .client_order_id(cid);
        if script.oto {
            builder = builder.stop_loss("50000");
        }
        builder.build().unwrap()
    };
    let market = {
        let mut builder =
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").client_order_id(cid);
        if script.oto {
            builder = builder.stop_loss("50000");
        }
        builder.build().unwrap()
    };
    let mut now = start();
    let mut crashes = restarts.iter().map(Some).chain(std::iter::repeat(None));
    // Whether a restarted process found a record of the order: its next placement is a resend.
    let mut adopted = false;
    let result = loop {
        let restart = crashes.next().flatten();
        adopted |= !journal.records().is_empty();
        let core = build();
        if restart.is_some_and(|r| r.plain_first) {
            // A plain placement first: refused before any I/O while a record is kept.
            let journaled = journal.records().iter().any(|r| {
                r.order()
                    .is_some_and(|o| o.client_order_id().as_str() == cid)
            });
            let requests = exchange.served;
            let plain = if script.trigger {
                drive_until(
                    core.preflight(&trigger, core.place(&trigger)),
                    &mut exchange,
                    now,
                    None,
                )
            } else {
                drive_until(
                    core.preflight(&market, core.place(&market)),
                    &mut exchange,
                    now,
                    None,
                )
            };
            let Driven::Done(plain, at) = plain else {
                unreachable!()
            };
            if journaled {
                prop_assert!(
                    matches!(plain, Err(Error::ResolveFirst(_))),
                    "a plain placement with a record kept: {:?}",
                    plain.map(|o| o.order_id)
                );
                prop_assert_eq!(exchange.served, requests, "nothing sent");
                continue_with(&mut now, at);
            } else {
                // Nothing kept: it is this run's placement (the intent), placed plainly.
                let placed = plain.map(|o| o.order_id);
                return check_outcome(script, &exchange, placed, Resent::Plain);
            }
        }
        let crash = restart.map(|r| r.crash);
        let driven = if script.trigger {
            drive_until(core.place_once(&trigger), &mut exchange, now, crash)
        } else {
            drive_until(core.place_once(&market), &mut exchange, now, crash)
        };
        match driven {
            Driven::Done(result, _) => break result,
            Driven::Crashed(at) => {
                let after = restart.map_or(0, |r| r.after_ms);
                now = at + Duration::from_millis(after);
            }
        }
    };
    // Whatever is still in flight arrives before the exchange is judged.
    exchange.flush(u64::MAX);
    if result.is_ok() || !result.as_ref().is_err_and(Error::outcome_unknown) {
        prop_assert!(
            journal.records().is_empty(),
            "a definite answer leaves no record: {:?}",
            journal.records()
        );
    } else {
        prop_assert!(
            !journal.records().is_empty(),
            "an unknown outcome keeps its record"
        );
    }
    let resent = if adopted { Resent::After } else { Resent::No };
    check_outcome(
        script,
        &exchange,
        result.map(|placed| placed.order_id()),
        resent,
    )
}

/// How the run's last placement came after earlier ones of the intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resent {
    /// In the one process that placed it.
    No,
    /// After a restarted process found a record of the order: a resend, even if it is the
    /// first request the exchange saw.
    After,
    /// A plain placement, which resolves nothing.
    Plain,
}

/// Moves the clock to `at`, if later.
fn continue_with(now: &mut SystemTime, at: SystemTime) {
    *now = (*now).max(at);
}

/// Checks what the run ended with against the exchange: `placed` is the order id it answered
/// with, and `resent` how that placement came after earlier ones of the intent.
fn check_outcome(
    script: &Script,
    exchange: &Exchange,
    placed: Result<u64, Error>,
    resent: Resent,
) -> Result<(), TestCaseError> {
    let mut ours = exchange.ours();
    if script.b2b && script.resend_invisible {
        // Opted in to resending what cannot be told from a canceled order: a canceled one may
        // be followed by another, never two that were not canceled.
        prop_assert!(
            ours.iter().filter(|o| !o.canceled()).count() <= 1,
            "doubled: {:?}",
            ours
        );
        // The answer is about the last placement.
        let last = ours.len().saturating_sub(1);
        ours.drain(..last);
    }
    prop_assert!(ours.len() <= 1, "doubled: {:?}", ours);
    match &placed {
        Ok(id) => {
            prop_assert_eq!(ours.len(), 1, "placed, says {:?}", id);
            prop_assert_eq!(*id, ours[0].id, "someone else's order taken");
        }
        Err(e) if !e.outcome_unknown() => {
            prop_assert!(
                ours.is_empty(),
                "placed, reported as {e}: {:?}",
                e.evidence()
            );
        }
        Err(e) => {
            let told_apart_impossible = resent == Resent::Plain
                || resent == Resent::After && exchange.order_trouble > 0
                || script.b2b
                || exchange.read_trouble > 0
                || exchange.later_order_trouble > 0;
            prop_assert!(
                told_apart_impossible,
                "unknown without a documented reason: {e} ({:?}); {:?}",
                std::error::Error::source(e).map(ToString::to_string),
                e.evidence()
            );
            prop_assert!(e.pending_order().is_some());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn place_once_never_doubles_loses_or_misreports(script in script()) {
        check(&script)?;
    }

    /// The same, the process dying at any step — before or after a request reached the
    /// exchange, its answer lost with it — and restarting (up to three times) with a client
    /// built on the same journal, which places the same order again: one order at most from
    /// the one intent, a plain placement refused before any I/O while a record is kept, a
    /// definite answer leaving no record and an unknown one keeping it.
    #[test]
    fn restarts_at_any_step_never_double_lose_or_misreport(
        script in script(),
        restarts in prop::collection::vec(restart(), 1..4),
    ) {
        check_restarted(&script, &restarts)?;
    }
}

/// A few scripts written out: the shapes of the six cases at the sans-IO level.
#[test]
fn written_out_scripts_hold_too() {
    let base = Script {
        offset_ms: 0,
        synced: Some(0),
        strict: false,
        trigger: false,
        oto: false,
        oto_only_conditional: false,
        b2b: false,
        resend_invisible: false,
        cancel_market: false,
        later: Later::Rests,
        reuse: Reuse::None,
        fates: Vec::new(),
        lags: vec![0],
        creation_delays: vec![0],
    };
    let scripts = [
        // 1. a lagging history: executed, answer lost, visible 15 s late.
        Script {
            fates: vec![Fate::LoseAnswer],
            lags: vec![15_000],
            ..base.clone()
        },
        // 2. a resting trigger order seen late; the resend meets code 36.
        Script {
            trigger: true,
            fates: vec![Fate::AnswerThen503],
            lags: vec![20_000, 20_000, 20_000, 20_000, 20_000, 0],
            ..base.clone()
        },
        // 3. the id filled 60 s earlier; the attempt refused with 503 before executing.
        Script {
            reuse: Reuse::FinishedBefore,
            fates: vec![Fate::Unavailable],
            ..base.clone()
        },
        // 4. the host 90 s ahead, nonces synced.
        Script {
            offset_ms: -90_000,
            synced: Some(300),
            fates: vec![Fate::LoseAnswer],
            ..base.clone()
        },
        // 6. a trigger order with a stop loss, listed only among the conditional orders.
        Script {
            trigger: true,
            oto: true,
            oto_only_conditional: true,
            fates: vec![Fate::LoseAnswer],
            ..base.clone()
        },
        // B2B: placed, canceled during the settling delay, invisible.
        Script {
            trigger: true,
            b2b: true,
            later: Later::Canceled(3_000),
            fates: vec![Fate::LoseAnswer],
            ..base.clone()
        },
        // Strict nonces, a straggler arriving after the first look-up.
        Script {
            strict: true,
            fates: vec![Fate::Straggle(2_000)],
            ..base
        },
    ];
    for script in &scripts {
        check(script).unwrap_or_else(|e| panic!("{script:?}: {e}"));
    }
}

/// The exchange's answers to what place_once did, for a case whose outcome must be definite.
#[test]
fn the_lagging_history_case_is_placed_once_and_found() {
    let core = config().settle_delay(SETTLE).build().unwrap();
    let mut exchange = Exchange {
        fates: [Fate::LoseAnswer].into(),
        lags: vec![15_000].into(),
        ..Exchange::default()
    };
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("lag-1")
        .build()
        .unwrap();
    let (placed, took) = drive(core.place_once(&order), &mut exchange, start());
    let placed = placed.unwrap();
    assert_eq!(exchange.ours().len(), 1);
    assert_eq!(placed.order_id(), exchange.ours()[0].id);
    let (look, seen) = placed.evidence.found().unwrap();
    assert!(seen.ours);
    assert_eq!(look.operation, "order_history");
    // The probe (at once) and the first proof round (window end + 20 s) lag 15 s; the first
    // round sees it: 10 s window end + 20 s, and a bit.
    assert!(took < Duration::from_secs(40), "{took:?}");
}

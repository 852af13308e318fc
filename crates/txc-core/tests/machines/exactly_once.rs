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

use std::time::Duration;

use crate::exchange::{Exchange, Fate, Later, Reuse, config, drive, start};
use proptest::prelude::*;
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

/// Runs `place_once` under `script`; checks the invariants.
fn check(script: &Script) -> Result<(), TestCaseError> {
    let mut config = config()
        .settle_delay(SETTLE)
        .b2b_account(script.b2b)
        .resend_when_cancels_are_invisible(script.resend_invisible)
        .nonce_window(!script.strict);
    if let Some(error) = script.synced {
        config = config.clock_offset(ClockOffset::from_millis(script.offset_ms + error));
    }
    let core = config.build().unwrap();
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
    let result = if script.trigger {
        let mut builder =
            CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
                .client_order_id(cid);
        if script.oto {
            builder = builder.stop_loss("50000");
        }
        drive(
            core.place_once(&builder.build().unwrap()),
            &mut exchange,
            start(),
        )
        .0
    } else {
        let mut builder =
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").client_order_id(cid);
        if script.oto {
            builder = builder.stop_loss("50000");
        }
        drive(
            core.place_once(&builder.build().unwrap()),
            &mut exchange,
            start(),
        )
        .0
    };
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
    match &result {
        Ok(placed) => {
            prop_assert_eq!(ours.len(), 1, "placed, says {:?}", placed);
            prop_assert_eq!(placed.order_id(), ours[0].id, "someone else's order taken");
        }
        Err(e) if !e.outcome_unknown() => {
            prop_assert!(
                ours.is_empty(),
                "placed, reported as {e}: {:?}",
                e.evidence()
            );
        }
        Err(e) => {
            let told_apart_impossible =
                script.b2b || exchange.read_trouble > 0 || exchange.later_order_trouble > 0;
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

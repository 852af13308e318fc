//! Reconciliation as sans-IO state machines, case by case, against the scripted exchange
//! (`exchange.rs`): what an unknown outcome carries, how resolving proves each answer
//! (and says so), where it cannot, the journal before the first byte, the reuse check, and
//! `place_once`'s resends. The property over all scripts is in `exactly_once.rs`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, UNIX_EPOCH};

use crate::exchange::{Exchange, Fate, Later, Reuse, config, drive, market_order, start};
use txc_core::machine::AttemptRecord;
use txc_core::resolve::{
    Flaw, Journal, PendingOrder, PendingRecord, PlacedOrder, Resolution, RoundVerdict,
};
use txc_core::{ClientCore, Error, Machine, Step};
use txc_sign::nonce::Nonce;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder, Side};

fn core() -> ClientCore {
    config().build().unwrap()
}

fn trigger_order(cid: &str) -> CollateralTriggerMarketOrder {
    CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
        .client_order_id(cid)
        .build()
        .unwrap()
}

fn exchange(fates: &[Fate]) -> Exchange {
    Exchange {
        fates: fates.iter().copied().collect(),
        ..Exchange::default()
    }
}

/// The pending record of an order whose only attempt was lost after it executed (or not).
fn lost(core: &ClientCore, order: &CollateralMarketOrder, ex: &mut Exchange) -> PendingOrder {
    let (result, _) = drive(core.place(order), ex, start());
    result.unwrap_err().pending_order().unwrap().clone()
}

#[test]
fn an_unknown_outcome_carries_what_resolving_needs() {
    let core = core();
    let order = trigger_order("carry-1");
    let mut ex = exchange(&[Fate::NotSent, Fate::AnswerThen503]);
    let (result, _) = drive(core.place(&order), &mut ex, start());
    let error = result.unwrap_err();
    assert!(error.outcome_unknown() && !error.is_retryable());
    assert_eq!(error.status(), Some(503), "the cause shows through");
    let Error::OutcomeUnknown(unknown) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(unknown.operation, "collateral_trigger_market_order");
    let pending = error.pending_order().unwrap();
    assert_eq!(pending.client_order_id().as_str(), "carry-1");
    assert!(pending.is_trigger());
    assert_eq!(
        pending.attempts().len(),
        2,
        "the refused connection and the 503"
    );
    // Still the client's: in flight when it failed, it stays among its pending orders.
    assert_eq!(core.pending_orders(), std::slice::from_ref(pending));
}

#[test]
fn resolving_finds_an_executed_order_at_once_and_says_what_proved_it() {
    let core = core();
    let mut ex = exchange(&[Fate::LoseAnswer]);
    let pending = lost(&core, &market_order("found-1"), &mut ex);
    ex.log.clear();
    let (resolution, took) = drive(core.resolve(pending), &mut ex, start());
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(placed.order_id(), ex.ours()[0].id);
    assert!(matches!(placed.record, PlacedOrder::Finished(_)));
    let (look, seen) = placed.evidence.found().unwrap();
    assert_eq!((look.operation, seen.ours), ("order_history", true));
    assert_eq!(placed.evidence.rounds[0].verdict, RoundVerdict::Found);
    assert!(
        took < Duration::from_secs(1),
        "found by the first look, at once: {took:?}"
    );
    assert_eq!(
        ex.log,
        ["/api/v4/orders", "/api/v4/trade-account/order/history"]
    );
    assert!(
        placed
            .evidence
            .to_string()
            .contains("order_history found record")
    );
}

#[test]
fn not_placed_takes_two_rounds_after_the_window_and_the_settling_delay() {
    let core = core();
    let mut ex = exchange(&[Fate::Unavailable]);
    let pending = lost(&core, &market_order("absent-1"), &mut ex);
    let nonce = UNIX_EPOCH + Duration::from_millis(pending.attempts()[0].nonce.get());
    let (resolution, took) = drive(core.resolve(pending), &mut ex, start());
    let Resolution::NotPlaced(evidence) = resolution.unwrap() else {
        panic!()
    };
    let verdicts: Vec<RoundVerdict> = evidence.rounds.iter().map(|r| r.verdict).collect();
    assert_eq!(
        verdicts,
        [
            RoundVerdict::Probe,
            RoundVerdict::Absent,
            RoundVerdict::Absent
        ]
    );
    // The first proof after the window's end (nonce + 10 s) plus the delay, by the exchange's
    // clock as measured (the `Date` resolution: up to a second more); the second 10 s later.
    let first = evidence.rounds[1].sent_at().unwrap();
    let second = evidence.rounds[2].sent_at().unwrap();
    assert!(first >= nonce + Duration::from_secs(20), "{first:?}");
    assert!(first <= nonce + Duration::from_secs(22), "{first:?}");
    assert!(second >= evidence.rounds[1].last_sent_at().unwrap() + Duration::from_secs(10));
    assert!(
        took >= Duration::from_secs(30) && took < Duration::from_secs(35),
        "{took:?}"
    );
    assert!(evidence.guaranteed);
    assert!(ex.ours().is_empty());
}

#[test]
fn a_failing_look_up_is_unknown_never_not_placed() {
    let core = config()
        .retry_policy(txc_core::pacing::RetryPolicy::disabled())
        .build()
        .unwrap();
    // The probe fails (allowed: it only looks for the order), then the first proof round.
    let mut ex = exchange(&[Fate::Unavailable, Fate::Unavailable, Fate::Unavailable]);
    let pending = lost(&core, &market_order("fail-1"), &mut ex);
    let (resolution, _) = drive(core.resolve(pending), &mut ex, start());
    let error = resolution.unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    assert_eq!(error.status(), Some(503));
    let rounds = &error.evidence().unwrap().rounds;
    assert_eq!(rounds.len(), 2);
    assert!(matches!(rounds[1].looks[0].flaw, Some(Flaw::Failed(_))));
}

#[test]
fn a_look_up_that_ignores_its_filter_proves_nothing() {
    let core = core();
    let mut ex = Exchange {
        ignore_filters: true,
        ..Exchange::default()
    };
    // Someone's other order rests on the market: the filtered answer lists it.
    let (_, _) = drive(core.place(&trigger_order("other-1")), &mut ex, start());
    ex.fates.push_back(Fate::Unavailable);
    let pending = lost(&core, &market_order("mine-1"), &mut ex);
    let (resolution, _) = drive(core.resolve(pending), &mut ex, start());
    let error = resolution.unwrap_err();
    assert!(error.outcome_unknown());
    let flaw = &error.evidence().unwrap().rounds[0].looks[0].flaw;
    assert!(matches!(flaw, Some(Flaw::FilterIgnored { .. })), "{flaw:?}");
    assert!(error.to_string().contains("outcome is unknown"));
    let cause = std::error::Error::source(&error).unwrap().to_string();
    assert!(cause.contains("filter was ignored"), "{cause}");
}

#[test]
fn someone_else_s_order_with_the_id_is_not_taken_and_the_history_is_read_in_full() {
    let core = core();
    let mut ex = Exchange {
        reuse: Reuse::FinishedBefore,
        ..exchange(&[Fate::Unavailable])
    };
    ex.seed("reused-1", ex.exchange_ms(start()));
    let pending = lost(&core, &market_order("reused-1"), &mut ex);
    let (resolution, _) = drive(core.resolve(pending), &mut ex, start());
    let Resolution::NotPlaced(evidence) = resolution.unwrap() else {
        panic!()
    };
    let history = &evidence.rounds[1].looks[1];
    assert_eq!(history.operation, "order_history");
    assert_eq!(history.seen.len(), 1);
    assert!(!history.seen[0].ours, "created a minute before the window");
    assert_eq!(evidence.rounds[1].looks[2].operation, "order_history_scan");
    assert!(ex.ours().is_empty());
}

#[test]
fn an_incomplete_conditional_list_proves_nothing() {
    let core = core();
    let mut ex = Exchange {
        total_lies: true,
        ..exchange(&[Fate::Unavailable])
    };
    let order = trigger_order("cond-1");
    let (result, _) = drive(core.place(&order), &mut ex, start());
    let pending = result.unwrap_err().pending_order().unwrap().clone();
    let (resolution, _) = drive(core.resolve(pending), &mut ex, start());
    let error = resolution.unwrap_err();
    assert!(error.outcome_unknown());
    let evidence = error.evidence().unwrap();
    assert!(
        evidence
            .rounds
            .iter()
            .all(|r| r.verdict != RoundVerdict::Absent)
    );
    let last = evidence.rounds.last().unwrap().looks.last().unwrap();
    assert_eq!(last.operation, "conditional_orders");
    assert!(
        matches!(last.flaw, Some(Flaw::Incomplete(_))),
        "{:?}",
        last.flaw
    );
}

#[test]
fn a_b2b_account_s_absence_cannot_tell_and_place_once_does_not_resend_unless_told() {
    // Placed, then canceled while it rested: invisible to every look-up of a B2B account.
    let script = |resend: bool| {
        let core = config()
            .b2b_account(true)
            .resend_when_cancels_are_invisible(resend)
            .build()
            .unwrap();
        let mut ex = Exchange {
            b2b: true,
            later: Later::Canceled(1_000),
            // The first look lags 2 s: it sees the order neither open nor canceled.
            lags: vec![2_000, 0].into(),
            ..exchange(&[Fate::LoseAnswer])
        };
        let (result, _) = drive(core.place_once(&trigger_order("b2b-1")), &mut ex, start());
        (result, ex)
    };
    let (result, ex) = script(false);
    let error = result.unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    let cause = std::error::Error::source(&error).unwrap().to_string();
    assert!(cause.contains("B2B"), "{cause}");
    assert_eq!(ex.ours().len(), 1, "not resent");
    let (result, ex) = script(true);
    assert!(matches!(result.unwrap().record, PlacedOrder::Answered(_)));
    assert_eq!(
        ex.ours().len(),
        2,
        "resent, knowingly: the first was canceled"
    );
    assert!(ex.ours()[0].canceled());
    // Resolving itself says so.
    let core = config().b2b_account(true).build().unwrap();
    let mut ex = Exchange {
        b2b: true,
        ..exchange(&[Fate::Unavailable])
    };
    let pending = lost(&core, &market_order("b2b-2"), &mut ex);
    let (resolution, _) = drive(core.resolve(pending), &mut ex, start());
    assert!(matches!(resolution.unwrap(), Resolution::CannotTell(e) if e.absences() == 2));
}

#[test]
fn code_36_on_a_resend_is_evidence_the_first_is_open() {
    // The trigger order rests, but the look-ups lag beyond the settling delay (the documented
    // limit): resolving proves it absent, the resend meets code 36, resolving again finds it.
    let core = config()
        .settle_delay(Duration::from_secs(5))
        .build()
        .unwrap();
    let mut ex = Exchange {
        lags: vec![30_000, 30_000, 30_000, 30_000, 30_000, 30_000, 0].into(),
        ..exchange(&[Fate::AnswerThen503])
    };
    let (result, _) = drive(core.place_once(&trigger_order("t36-1")), &mut ex, start());
    let placed = result.unwrap();
    assert_eq!(ex.ours().len(), 1);
    assert!(matches!(placed.record, PlacedOrder::Open(_)));
    assert_eq!(placed.order_id(), ex.ours()[0].id);
}

#[test]
fn every_failure_after_the_first_attempt_keeps_the_outcome_unknown() {
    // Not placed (a 503 before executing), resent, and the resend refused outright.
    let core = core();
    let order = market_order("later-1");
    let mut machine = core.place_once(&order);
    // Drive until the resend, then make the exchange refuse it with a 4xx.
    let mut now = start();
    let mut orders = 0;
    let result = loop {
        match machine.next(now) {
            Step::Wait(d) => now += d,
            Step::Send(request) => {
                let path = request.uri().path().to_owned();
                now += Duration::from_millis(30);
                if path.starts_with("/api/v4/order/") {
                    orders += 1;
                }
                if orders == 2 && path.starts_with("/api/v4/order/") {
                    let body = br#"{"code":10,"message":"Validation failed","errors":{"amount":["Not enough balance."]}}"#;
                    machine.receive(Ok(txc_core::decode::Response::new(422, body)));
                    continue;
                }
                let date = httpdate::fmt_http_date(now);
                let mut headers = http::HeaderMap::new();
                headers.insert(http::header::DATE, date.parse().unwrap());
                let (status, body): (u16, &[u8]) = if path.starts_with("/api/v4/order/") {
                    (503, b"")
                } else if path.ends_with("history") {
                    (422, br#"{"code":30,"message":"Validation failed","errors":{"orderHistory":["OrderHistory was not found."]}}"#)
                } else {
                    (200, b"[]")
                };
                machine.receive(Ok(
                    txc_core::decode::Response::new(status, body).with_headers(&headers)
                ));
            }
            Step::Done(out) => break out,
        }
    };
    let error = result.unwrap_err();
    assert!(error.outcome_unknown(), "not \"rejected\": {error}");
    assert_eq!(error.pending_order().unwrap().attempts().len(), 2);
    assert_eq!(error.api().map(|a| a.code), Some(Some(10)));
}

#[test]
fn strict_nonces_fence_the_window_with_the_first_look_up() {
    let core = config().nonce_window(false).build().unwrap();
    // The attempt straggles: it arrives 2 s late, after the first look-up — refused.
    let mut ex = Exchange {
        strict: true,
        ..exchange(&[Fate::Straggle(2_000)])
    };
    let (result, _) = drive(core.place_once(&market_order("strict-1")), &mut ex, start());
    assert!(matches!(result.unwrap().record, PlacedOrder::Answered(_)));
    assert_eq!(ex.ours().len(), 1, "the straggler was refused");
}

/// A journal that records what it is told, and can refuse.
#[derive(Debug, Default)]
struct Recorder {
    log: Mutex<Vec<(&'static str, usize)>>,
    refuse: bool,
}

impl Journal for Recorder {
    fn record(&self, record: &PendingRecord) -> std::io::Result<()> {
        if self.refuse {
            return Err(std::io::Error::other("disk full"));
        }
        self.log
            .lock()
            .unwrap()
            .push(("record", record.attempts().len()));
        Ok(())
    }

    fn clear(&self, record: &PendingRecord) -> std::io::Result<()> {
        self.log
            .lock()
            .unwrap()
            .push(("clear", record.attempts().len()));
        Ok(())
    }

    fn load(&self) -> std::io::Result<Vec<PendingRecord>> {
        Ok(Vec::new())
    }
}

#[test]
fn the_journal_holds_each_attempt_before_it_is_sent() {
    let journal = Arc::new(Recorder::default());
    let core = config().journal(journal.clone()).build().unwrap();
    // A refused connection, then a lost answer: recorded before each attempt, not cleared.
    let mut ex = exchange(&[Fate::NotSent, Fate::LoseAnswer]);
    let order = market_order("journal-1");
    let mut machine = core.place(&order);
    let Step::Send(_) = machine.next(start()) else {
        panic!()
    };
    assert_eq!(
        *journal.log.lock().unwrap(),
        [("record", 1)],
        "before the first byte"
    );
    drop(machine); // a dropped future: the record stays
    assert_eq!(core.pending_orders().len(), 1);
    assert_eq!(core.pending_orders()[0].attempts().len(), 1);
    let pending = core.pending_orders().remove(0);
    // Resolving it clears it.
    let (resolution, _) = drive(core.resolve(pending), &mut ex, start());
    assert!(matches!(resolution.unwrap(), Resolution::NotPlaced(_)));
    assert!(core.pending_orders().is_empty());
    assert_eq!(journal.log.lock().unwrap().last(), Some(&("clear", 1)));

    // A journal that cannot record: nothing is sent.
    let refusing = Arc::new(Recorder {
        refuse: true,
        ..Recorder::default()
    });
    let core = config()
        .retry_policy(txc_core::pacing::RetryPolicy::disabled())
        .journal(refusing)
        .build()
        .unwrap();
    let mut ex = Exchange::default();
    let (result, _) = drive(core.place(&market_order("journal-2")), &mut ex, start());
    let error = result.unwrap_err();
    assert!(error.is_retryable() && !error.outcome_unknown(), "{error}");
    let source = std::error::Error::source(&error).map(ToString::to_string);
    assert!(source.unwrap_or_default().contains("journal"), "{error}");
    assert!(ex.log.is_empty(), "nothing reached the exchange");
}

#[test]
fn reusing_an_id_inside_its_window_or_while_unresolved_is_refused_before_any_io() {
    let core = core();
    let mut ex = Exchange::default();
    let order = market_order("reuse-1");
    let (placed, _) = drive(core.place(&order), &mut ex, start());
    placed.unwrap();
    let requests = ex.log.len();
    let (again, _) = drive(
        core.place(&order),
        &mut ex,
        start() + Duration::from_secs(1),
    );
    let error = again.unwrap_err();
    assert!(matches!(error, Error::ClientOrderIdInUse { .. }), "{error}");
    assert!(!error.outcome_unknown() && !error.is_retryable());
    assert_eq!(ex.log.len(), requests, "nothing sent");
    // Past both windows it may be reused (the exchange allows it once the first is filled).
    let (later, _) = drive(
        core.place(&order),
        &mut ex,
        start() + Duration::from_secs(30),
    );
    later.unwrap();
    // An order the exchange refused left nothing: its id may go again at once.
    let mut off = Exchange {
        offset_ms: 60_000,
        ..Exchange::default()
    };
    let refused = market_order("reuse-3");
    let (first, _) = drive(core.place(&refused), &mut off, start());
    assert_eq!(
        first.unwrap_err().status(),
        Some(401),
        "the nonce, 60 s off"
    );
    let (again, _) = drive(core.place(&refused), &mut off, start());
    assert_eq!(again.unwrap_err().status(), Some(401), "sent again");
    // While an order with the id is unresolved: a plain placement is refused before any I/O,
    // naming the record; `place_once` resolves the record first and finds the order.
    let mut ex = exchange(&[Fate::LoseAnswer]);
    let order = market_order("reuse-2");
    let _ = drive(core.place(&order), &mut ex, start());
    let requests = ex.log.len();
    let later = start() + Duration::from_secs(60);
    let (again, _) = drive(core.preflight(&order, core.place(&order)), &mut ex, later);
    let error = again.unwrap_err();
    let Error::ResolveFirst(record) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(record.order(), core.pending_orders().first());
    assert!(error.to_string().contains("resolve"), "{error}");
    assert!(!error.outcome_unknown() && !error.is_retryable());
    assert_eq!(
        ex.log.len(),
        requests,
        "nothing sent, not even the mode read"
    );
    assert_eq!(core.pending_orders().len(), 1, "the unresolved one is kept");
    let (once, _) = drive(core.place_once(&order), &mut ex, later);
    assert_eq!(once.unwrap().order_id(), ex.ours()[0].id);
    assert_eq!(ex.ours().len(), 1, "never placed twice");
    assert!(core.pending_orders().is_empty());
}

#[test]
fn an_order_recorded_elsewhere_resolves_from_its_record() {
    // A pending record made by hand (a journal read back after a crash).
    let core = core();
    let mut ex = exchange(&[Fate::LoseAnswer]);
    let order = market_order("crash-1");
    let pending = lost(&core, &order, &mut ex);
    let attempt = pending.attempts()[0];
    let copy = PendingOrder::new(
        "BTC_USDT".parse().unwrap(),
        "crash-1".parse().unwrap(),
        vec![AttemptRecord {
            nonce: Nonce(attempt.nonce.get()),
            signed_at: attempt.signed_at,
        }],
    );
    let other = config().build().unwrap(); // another process: a client of its own
    let (resolution, _) = drive(
        other.resolve(copy),
        &mut ex,
        start() + Duration::from_secs(3600),
    );
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(placed.order_id(), ex.ours()[0].id);
}

//! Closing a position and resolving a close whose outcome is unknown, as sans-IO machines
//! driven against a scripted exchange whose clock is off from the client's: whatever becomes
//! of the close — executed and answered, executed with the answer lost, refused, or executed
//! late (arriving within the nonce window) — resolving never answers "still open" for a
//! position that is or will be closed, nor "closed" for one that stays open.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::HeaderMap;
use proptest::prelude::*;
use txc_core::decode::{Response, TransportError, TransportErrorKind};
use txc_core::resolve::{CloseResolution, Evidence, RoundVerdict};
use txc_core::risk::ModeCheck;
use txc_core::{ClientConfig, ClientCore, Error, Machine, Step};
use txc_sign::Credentials;
use txc_sign::nonce::{NonceMode, NonceSequence};
use txc_types::positions::ClosePosition;

const POSITION: u64 = 7;

fn core(mode: NonceMode, settle: Duration) -> ClientCore {
    ClientConfig::new(Credentials::new("k", "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .nonce_sequence(NonceSequence::new())
        .nonce_window(mode == NonceMode::Window)
        .unproven_settle_delay(settle)
        .position_mode_check(ModeCheck::Learn)
        // Simulated time restarts with each case; the key's shared limiter would not.
        .no_rate_limit()
        .build()
        .unwrap()
}

fn start() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_700_000_000) + Duration::from_millis(123)
}

/// What the exchange does with the close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Executes it and answers (no body).
    Answer,
    /// Executes it; the connection drops before the answer.
    ExecuteThenDrop,
    /// Executes it and answers 503.
    ExecuteThen503,
    /// Does not execute it; answers 503.
    Refuse503,
    /// Does not execute it; the answer is lost in a timeout.
    LostUnexecuted,
    /// Executes it this many ms after the client sent it (it was held up on the way, within
    /// the nonce window); the client's wait for an answer times out.
    Late(u64),
}

fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        Just(Fate::Answer),
        Just(Fate::ExecuteThenDrop),
        Just(Fate::ExecuteThen503),
        Just(Fate::Refuse503),
        Just(Fate::LostUnexecuted),
        (0u64..=4_900).prop_map(Fate::Late),
    ]
}

/// The scripted exchange: one open position, a clock `skew_ms` off from the client's.
struct Exchange {
    open: bool,
    skew_ms: i64,
    /// When (the exchange's time) a late close executes.
    closes_at: Option<SystemTime>,
    requests: Vec<String>,
}

impl Exchange {
    fn time(&self, local: SystemTime) -> SystemTime {
        let shift = Duration::from_millis(self.skew_ms.unsigned_abs());
        if self.skew_ms >= 0 {
            local + shift
        } else {
            local - shift
        }
    }

    /// Executes a late close whose time has come.
    fn catch_up(&mut self, now: SystemTime) {
        if self.closes_at.is_some_and(|t| t <= now) {
            self.open = false;
            self.closes_at = None;
        }
    }

    /// The answer to a request sent at local `now`.
    fn answer(&mut self, path: &str, fate: Fate, now: SystemTime) -> Result<(u16, String), ()> {
        let exchange_now = self.time(now);
        self.catch_up(exchange_now);
        self.requests.push(path.to_owned());
        let position = r#"{"positionId":7,"market":"BTC_USDT","amount":"0.01","basePrice":"65000",
            "positionSide":"BOTH","openDate":1700000000.5,"modifyDate":1700000000.5}"#;
        match path {
            "/api/v4/collateral-account/hedge-mode" => Ok((200, r#"{"hedgeMode":false}"#.into())),
            "/api/v4/collateral-account/positions/open" => {
                let list = if self.open {
                    format!("[{position}]")
                } else {
                    "[]".into()
                };
                Ok((200, list))
            }
            "/api/v4/collateral-account/positions/history" => {
                let event = r#"{"positionId":7,"market":"BTC_USDT","amount":"0",
                    "modifyDate":1700000001.5,"orderDetail":{"id":9,"tradeAmount":"0.01"}}"#;
                Ok((
                    200,
                    if self.open {
                        "[]".into()
                    } else {
                        format!("[{event}]")
                    },
                ))
            }
            "/api/v4/collateral-account/position/close" => match fate {
                Fate::Answer => {
                    self.open = false;
                    Ok((200, String::new()))
                }
                Fate::ExecuteThenDrop => {
                    self.open = false;
                    Err(())
                }
                Fate::ExecuteThen503 => {
                    self.open = false;
                    Ok((503, String::new()))
                }
                Fate::Refuse503 => Ok((503, String::new())),
                Fate::LostUnexecuted => Err(()),
                Fate::Late(ms) => {
                    self.closes_at = Some(exchange_now + Duration::from_millis(ms));
                    Err(())
                }
            },
            other => panic!("unexpected request {other}"),
        }
    }
}

/// Drives `machine` against `exchange` from local time `now`; the time it ended at.
fn drive<M: Machine>(
    machine: &mut M,
    exchange: &mut Exchange,
    fate: Fate,
    now: &mut SystemTime,
) -> M::Output {
    for _ in 0..1_000 {
        match machine.next(*now) {
            Step::Wait(d) => *now += d,
            Step::Send(request) => {
                *now += Duration::from_millis(3);
                let path = request.uri().path().to_owned();
                match exchange.answer(&path, fate, *now) {
                    Ok((status, body)) => {
                        let mut headers = HeaderMap::new();
                        let date = httpdate::fmt_http_date(exchange.time(*now));
                        headers.insert(http::header::DATE, date.parse().unwrap());
                        machine.receive(Ok(
                            Response::new(status, body.as_bytes()).with_headers(&headers)
                        ));
                    }
                    Err(()) => machine.receive(Err(TransportError::maybe_sent(
                        TransportErrorKind::Timeout,
                        "no answer",
                    ))),
                }
            }
            Step::Done(output) => return output,
        }
    }
    panic!("the machine never finished")
}

fn close() -> ClosePosition {
    ClosePosition::new("BTC_USDT", POSITION).unwrap()
}

/// Each round of `evidence`: when the exchange processed it at the earliest (its clock, from
/// the answers' `Date`), and whether it found the position open (the close absent).
fn rounds(evidence: &Evidence) -> Vec<(Option<SystemTime>, bool)> {
    evidence
        .rounds
        .iter()
        .map(|r| (r.exchange_sent_at, r.verdict != RoundVerdict::Found))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever became of the close and however far the clocks are apart (within the ±1 s a
    /// `Date` header can tell), a close that executed (or will) is never "still open", one
    /// that did not is never "closed", and a definite answer is never resent.
    #[test]
    fn resolving_a_close_never_contradicts_the_exchange(
        fate in fate(),
        skew_ms in -900i64..=900,
        strict in any::<bool>(),
        settle_ms in 50u64..2_000,
    ) {
        let mode = if strict { NonceMode::Strict } else { NonceMode::Window };
        let core = core(mode, Duration::from_millis(settle_ms));
        let mut exchange = Exchange { open: true, skew_ms, closes_at: None, requests: Vec::new() };
        let mut now = start();
        let request = close();
        let outcome = drive(&mut core.close(&request), &mut exchange, fate, &mut now);
        let closes = exchange.requests.iter().filter(|p| p.ends_with("/close")).count();
        prop_assert_eq!(closes, 1, "a close is sent once");
        let pending = match (fate, outcome) {
            (Fate::Answer, Ok(_)) => return Ok(()),
            (_, Err(Error::CloseUnknown(unknown))) => unknown.close,
            (fate, other) => panic!("{fate:?}: {other:?}"),
        };
        let executes = !matches!(fate, Fate::Refuse503 | Fate::LostUnexecuted);
        let resolution = drive(&mut core.resolve_close(pending), &mut exchange, fate, &mut now);
        match resolution {
            Ok(CloseResolution::Closed(_, proof)) => {
                prop_assert!(executes, "{:?}: closed, but it never executed", fate);
                prop_assert!(rounds(&proof).iter().rev().take(2).all(|(at, open)| !open && at.is_some()));
            }
            Ok(CloseResolution::StillOpen(position, proof)) => {
                prop_assert!(!executes, "{:?}: still open, but it executes", fate);
                prop_assert_eq!(position.position_id, POSITION);
                let settled = proof.attempts_settled_at.unwrap();
                prop_assert!(rounds(&proof).iter().rev().take(2).all(|(at, open)| *open && at.unwrap() >= settled));
            }
            Ok(other) => panic!("{other:?}"),
            Err(e) => panic!("{fate:?}: unresolved: {e}"),
        }
        let closes = exchange.requests.iter().filter(|p| p.ends_with("/close")).count();
        prop_assert_eq!(closes, 1, "resolving never closes");
    }
}

#[test]
fn still_open_waits_for_every_attempt_to_age_by_the_exchange_s_clock() {
    // The exchange's clock runs 800 ms behind: the documented 10 s after the nonce are reached
    // on its clock later than on the client's, and the resolver waits for its clock (its
    // answers' Date), not the client's.
    let core = core(NonceMode::Window, Duration::from_millis(100));
    let mut exchange = Exchange {
        open: true,
        skew_ms: -800,
        closes_at: None,
        requests: Vec::new(),
    };
    let mut now = start();
    let request = close();
    let Err(error) = drive(
        &mut core.close(&request),
        &mut exchange,
        Fate::Refuse503,
        &mut now,
    ) else {
        panic!("answered")
    };
    let pending = error.pending_close().unwrap().clone();
    let sent = pending.attempts()[0].signed_at;
    let resolved = drive(
        &mut core.resolve_close(pending),
        &mut exchange,
        Fate::Refuse503,
        &mut now,
    )
    .unwrap();
    let CloseResolution::StillOpen(_, proof) = resolved else {
        panic!("{resolved:?}")
    };
    let settled = proof.attempts_settled_at.unwrap();
    assert!(settled >= sent + Duration::from_secs(10));
    let answered: Vec<SystemTime> = rounds(&proof).iter().map(|r| r.0.unwrap()).collect();
    assert!(answered.iter().rev().take(2).all(|t| *t >= settled));
    // The first round came early, was dated before the attempts aged, and did not count.
    assert!(answered[0] < settled, "{answered:?}");
    assert!(
        now >= sent + Duration::from_millis(10_800),
        "waited by the exchange's clock"
    );
}

#[test]
fn a_failed_look_up_or_an_ignored_filter_leaves_it_unknown() {
    let core = core(NonceMode::Window, Duration::from_millis(10));
    let pending =
        txc_core::resolve::PendingClose::new("BTC_USDT".parse().unwrap(), POSITION, None, vec![]);
    // The open positions answer lists another market: the filter was ignored.
    let mut resolve = core.resolve_close(pending.clone());
    let now = start();
    let Step::Send(_) = resolve.next(now) else {
        panic!()
    };
    resolve.receive(Ok(Response::new(
        200,
        br#"[{"positionId":8,"market":"ETH_USDT"}]"#,
    )));
    let Step::Done(Err(error)) = resolve.next(now) else {
        panic!()
    };
    assert!(
        error.to_string().contains("may have been closed"),
        "{error}"
    );
    assert!(std::error::Error::source(&error).is_some());
    // A look-up that fails, after its retries: unknown, carrying the close.
    let mut resolve = core.resolve_close(pending);
    let mut now = start();
    let error = loop {
        match resolve.next(now) {
            Step::Wait(d) => now += d,
            Step::Send(_) => resolve.receive(Ok(Response::new(503, b""))),
            Step::Done(result) => break result.unwrap_err(),
        }
    };
    assert_eq!(error.pending_close().unwrap().position_id(), POSITION);
    assert!(error.outcome_unknown() && !error.is_retryable());
}

#[test]
fn a_close_refused_by_the_exchange_is_definite() {
    let core = core(NonceMode::Window, Duration::from_millis(10));
    let request = close();
    let mut closing = core.close(&request);
    let mut now = start();
    let error = loop {
        match closing.next(now) {
            Step::Wait(d) => now += d,
            Step::Send(request) if request.uri().path().ends_with("hedge-mode") => {
                closing.receive(Ok(Response::new(200, br#"{"hedgeMode":false}"#)));
            }
            Step::Send(_) => closing.receive(Ok(Response::new(
                400,
                br#"{"code":104,"message":"Inner validation failed","errors":{"positionId":["Position not found."]}}"#,
            ))),
            Step::Done(result) => break result.unwrap_err(),
        }
    };
    let api = error.api().unwrap();
    assert_eq!(
        (api.code, api.class),
        (Some(104), txc_core::decode::ApiErrorClass::NotFound)
    );
    assert!(!error.outcome_unknown() && error.pending_close().is_none());
}

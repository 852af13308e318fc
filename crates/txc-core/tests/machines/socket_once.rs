//! Placing exactly once over the WebSocket, sans-IO: [`SocketPlaceOnce`] driving calls through
//! a [`SocketSession`] whose socket is scripted here (frames in, answers out, on a simulated
//! clock), its resolutions driven against the scripted exchange — the journal written before
//! every frame, a lost answer resolved before any resend, a resend only after "not placed",
//! `43` on a resend as evidence, and the most placements the client allows.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::Value;
use txc_core::ClientCore;
use txc_core::resolve::PendingRecord;
use txc_core::socket::{
    OnceStep, SessionConfig, SessionIo, Settled, SocketCallState, SocketOrdersConfig,
    SocketPlaceOnce, SocketPlaced, SocketSession,
};
use txc_core::stream::{OrderSightings, StreamInput};
use txc_core::{Error, socket::SocketError};
use txc_types::events::WebSocketToken;
use txc_types::socket::ToSocket;

use crate::exchange::{Exchange, config, drive, market_order, start};
use crate::journal::MemoryJournal;

/// What the scripted socket does with an order method's frame.
enum Reply {
    /// Answers this text (the request id filled in by [`answer`]).
    Answer(String),
    /// Never answers (the call times out).
    Nothing,
}

/// The answer `{"id", "result" | "error"}` to request `id`.
fn answer(id: u64, body: &str) -> String {
    format!(r#"{{"id":{id},{body}}}"#)
}

/// A session with an answer time-out of 1 s.
fn session() -> SocketSession {
    let orders = SocketOrdersConfig::default().with_answer_timeout(Duration::from_secs(1));
    SocketSession::new(
        "ws://127.0.0.1:1/ws".to_owned(),
        OrderSightings::new(),
        SessionConfig::default().with_orders(orders),
    )
    .unwrap()
}

/// Drives `call` through `session` on the simulated clock `now`; `script` sees each order
/// frame (with the clock) and says what the socket does.
fn run(
    session: &mut SocketSession,
    core: &ClientCore,
    call: &mut SocketCallState,
    now: &mut SystemTime,
    script: &mut dyn FnMut(&Value, SystemTime) -> Reply,
) -> Result<Settled, Error> {
    for _ in 0..10_000 {
        match session.step(core, call, *now) {
            SessionIo::Connect => session.handle(*now, StreamInput::Connected),
            SessionIo::NeedToken => session.handle(
                *now,
                StreamInput::Token(WebSocketToken::new("t".to_owned())),
            ),
            SessionIo::Write(text, id) => {
                let frame: Value = serde_json::from_str(&text).unwrap();
                let rid = frame["id"].as_u64().unwrap();
                match (frame["method"].as_str().unwrap(), id) {
                    ("authorize", _) => session.handle(
                        *now,
                        StreamInput::Text(answer(
                            rid,
                            r#""result":{"status":"success"},"error":null"#,
                        )),
                    ),
                    ("ping", _) => session.handle(
                        *now,
                        StreamInput::Text(answer(rid, r#""result":"pong","error":null"#)),
                    ),
                    (_, Some(id)) => {
                        session.written(id, *now);
                        if let Reply::Answer(body) = script(&frame, *now) {
                            *now += Duration::from_millis(5);
                            session.handle(*now, StreamInput::Text(answer(rid, &body)));
                        }
                    }
                    (other, None) => panic!("unexpected frame {other}"),
                }
            }
            SessionIo::Close => {}
            SessionIo::Wait(delay) => *now += delay.max(Duration::from_millis(1)),
            SessionIo::Done(result) => return result,
            _ => panic!("a step this test does not know"),
        }
    }
    panic!("the call never ended")
}

/// Places `cid`'s market order exactly once: the socket by `script`, resolutions against `ex`.
/// The result, and how many order frames were written.
fn place_once(
    core: &ClientCore,
    ex: &mut Exchange,
    cid: &str,
    script: &mut dyn FnMut(&Value, SystemTime) -> Reply,
) -> Result<txc_core::resolve::Found<SocketPlaced>, Error> {
    let mut session = session();
    let mut now = start();
    let order = market_order(cid).to_socket().unwrap();
    let mut once = SocketPlaceOnce::new(core, order).unwrap();
    loop {
        match once.step() {
            OnceStep::Send(mut call) => {
                let result = run(&mut session, core, &mut call, &mut now, script);
                once.sent(call, result);
            }
            OnceStep::Resolve(resolver) => {
                let (resolution, took) = drive(*resolver, ex, now);
                now += took;
                once.resolved(resolution);
            }
            OnceStep::Done(result) => return result,
            _ => panic!("a step this test does not know"),
        }
    }
}

const FILLED: &str = r#""result":{"id":7,"market":"BTC_USDT","side":2,"type":8,"status":"FILLED","client_order_id":"CID"},"error":null"#;

#[test]
fn a_timed_out_order_found_by_resolving_is_not_sent_again() {
    let journal = Arc::new(MemoryJournal::default());
    let core = config().journal(journal.clone()).build().unwrap();
    let mut ex = Exchange::default();
    let mut frames = 0;
    let mut seen_journaled = Vec::new();
    let result = {
        let ex_orders = &mut ex;
        let placed = std::cell::RefCell::new(Vec::new());
        let mut script = |frame: &Value, now: SystemTime| {
            frames += 1;
            // The record is journaled before the frame reaches the socket.
            seen_journaled.push(journal.records().len());
            let cid = frame["params"][0]["client_order_id"].as_str().unwrap();
            placed.borrow_mut().push((cid.to_owned(), now));
            Reply::Nothing
        };
        let mut session = session();
        let mut now = start();
        let order = market_order("once-1").to_socket().unwrap();
        let mut once = SocketPlaceOnce::new(&core, order).unwrap();
        loop {
            match once.step() {
                OnceStep::Send(mut call) => {
                    let result = run(&mut session, &core, &mut call, &mut now, &mut script);
                    // Processed by the exchange just after the frame, its answer lost.
                    for (cid, at) in placed.borrow_mut().drain(..) {
                        let created = ex_orders.exchange_ms(at) + 2;
                        ex_orders.add_socket_order(&cid, created);
                    }
                    once.sent(call, result);
                }
                OnceStep::Resolve(resolver) => {
                    let (resolution, took) = drive(*resolver, ex_orders, now);
                    now += took;
                    once.resolved(resolution);
                }
                OnceStep::Done(result) => break result,
                _ => panic!("unknown step"),
            }
        }
    };
    let found = result.unwrap();
    assert!(matches!(found.record, SocketPlaced::Order(_)), "{found:?}");
    assert_eq!(frames, 1, "never sent again");
    assert_eq!(seen_journaled, vec![1]);
    assert!(journal.records().is_empty(), "settled: forgotten");
    assert!(core.pending_orders().is_empty());
}

#[test]
fn a_frame_never_processed_is_sent_again_only_after_not_placed() {
    let core = config().build().unwrap();
    let mut ex = Exchange::default();
    let mut frames = 0;
    let result = place_once(&core, &mut ex, "once-2", &mut |_, _| {
        frames += 1;
        if frames == 1 {
            Reply::Nothing
        } else {
            Reply::Answer(FILLED.replace("CID", "once-2"))
        }
    });
    let found = result.unwrap();
    assert!(
        matches!(found.record, SocketPlaced::Answered(_)),
        "{found:?}"
    );
    assert_eq!(frames, 2);
    assert!(core.pending_orders().is_empty());
}

#[test]
fn a_43_on_a_resend_ends_unknown_never_placed_twice() {
    let core = config().build().unwrap();
    let mut ex = Exchange::default();
    let mut frames = 0;
    let result = place_once(&core, &mut ex, "once-3", &mut |_, _| {
        frames += 1;
        if frames == 1 {
            Reply::Nothing
        } else {
            Reply::Answer(
                r#""result":null,"error":{"code":43,"message":"client order id already exists"}"#
                    .to_owned(),
            )
        }
    });
    let err = result.unwrap_err();
    let Error::OutcomeUnknown(unresolved) = &err else {
        panic!("{err:?}")
    };
    assert!(
        matches!(
            unresolved.cause,
            Error::Socket(SocketError::Duplicate { .. })
        ),
        "{err:?}"
    );
    assert_eq!(frames, 2, "resolved again after the 43, nothing sent");
    assert_eq!(unresolved.order.socket_attempts().len(), 2);
    let pending = core.pending_orders();
    assert_eq!(pending.len(), 1, "kept unresolved");
    assert!(pending[0].reason().is_some());
}

#[test]
fn every_placement_proven_not_placed_ends_not_placed_at_the_most_placements() {
    let core = config().build().unwrap();
    let mut ex = Exchange::default();
    let mut frames = 0;
    let result = place_once(&core, &mut ex, "once-4", &mut |_, _| {
        frames += 1;
        Reply::Nothing
    });
    let err = result.unwrap_err();
    assert!(matches!(err, Error::NotPlaced(_)), "{err:?}");
    assert_eq!(frames, core.max_placements());
    assert!(err.is_retryable() && !err.outcome_unknown());
}

#[test]
fn a_refused_first_send_is_the_refusal_and_leaves_no_record() {
    let journal = Arc::new(MemoryJournal::default());
    let core = config().journal(journal.clone()).build().unwrap();
    let mut ex = Exchange::default();
    let result = place_once(&core, &mut ex, "once-5", &mut |_, _| {
        Reply::Answer(
            r#""result":null,"error":{"code":11,"message":"amount too small"}"#.to_owned(),
        )
    });
    let err = result.unwrap_err();
    assert!(
        matches!(err, Error::Socket(SocketError::Refused { .. })),
        "{err:?}"
    );
    assert!(journal.records().is_empty());
    assert!(core.pending_orders().is_empty());
}

#[test]
fn a_journaled_socket_record_keeps_its_attempts() {
    let journal = Arc::new(MemoryJournal::default());
    let core = config().journal(journal.clone()).build().unwrap();
    let mut session = session();
    let mut now = start();
    let mut call = SocketCallState::new(market_order("once-6").to_socket().unwrap());
    let result = run(&mut session, &core, &mut call, &mut now, &mut |_, _| {
        Reply::Nothing
    });
    let settled = result.unwrap();
    let err = txc_core::socket::finish_call(&core, &call, Ok(settled)).unwrap_err();
    assert!(err.outcome_unknown());
    let records = journal.records();
    let Some(PendingRecord::Order(order)) = records.first() else {
        panic!("{records:?}")
    };
    assert_eq!(order.socket_attempts().len(), 1);
    let attempt = order.socket_attempts()[0];
    assert!(
        attempt.settled_at > attempt.written_at,
        "the real time-out kept"
    );
    assert!(order.key().is_some());
    assert_eq!(err.pending_order(), Some(order));
    let line = records[0].to_string();
    assert!(
        line.starts_with("order once-6 on BTC_USDT (WebSocket frames written at "),
        "{line}"
    );
}

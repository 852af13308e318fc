//! The order methods' machine on the WebSocket ([`SocketOrders`]) with scripted frames: ids
//! and correlation while pushes interleave, the journal before the frame, time-outs and lost
//! connections as unknown outcomes (late answers as evidence), the socket's numbering read by
//! fate (`43` on a resend is the first send's evidence), pacing by the documented limits, and
//! the docs' answers of every method.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use serde_json::{Value, json};
use txc_core::resolve::{AbsenceRule, AcceptanceWindow};
use txc_core::socket::{
    FIRST_ORDER_REQUEST_ID, Received, Settled, SocketLimits, SocketOrderError, SocketOrders,
    SocketOrdersConfig, SocketOutcome, UnknownCause,
};
use txc_types::endpoint::RateLimit;
use txc_types::orders::{CancelOrder, CollateralLimitOrder, CollateralMarketOrder, Side};
use txc_types::socket::{SocketAnswer, SocketMethod, SocketRefusal, SocketRequest, ToSocket};

fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_786_452_691)
}

fn limit(id: &str) -> SocketRequest {
    CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "63385.9")
        .client_order_id(id)
        .build()
        .unwrap()
        .to_socket()
        .unwrap()
}

fn machine() -> SocketOrders {
    let mut m = SocketOrders::new(SocketOrdersConfig::default());
    m.connected(t0()).unwrap();
    m
}

/// Submits, releases and writes `call` at `now`: its id and frame.
fn send(m: &mut SocketOrders, call: SocketRequest, resend: bool, now: SystemTime) -> (u64, Value) {
    let submitted = m.submit(call, resend, now).unwrap();
    let frame = m.release(submitted.id).unwrap();
    m.written(submitted.id, now).unwrap();
    (submitted.id, serde_json::from_str(&frame).unwrap())
}

fn answer(id: u64, result: Value) -> String {
    json!({"id": id, "result": result, "error": null}).to_string()
}

fn error(id: u64, code: i64, message: &str) -> String {
    json!({"id": id, "result": null, "error": {"code": code, "message": message}}).to_string()
}

fn settled(received: Received) -> Settled {
    match received {
        Received::Answer(s) => *s,
        other => panic!("not an answer: {other:?}"),
    }
}

#[test]
fn answers_are_correlated_by_id_while_pushes_and_the_streams_answers_interleave() {
    let mut m = machine();
    let (a, frame_a) = send(&mut m, limit("a"), false, t0());
    let (b, _) = send(&mut m, limit("b"), false, t0());
    assert_eq!(a, FIRST_ORDER_REQUEST_ID);
    assert_eq!(b, a + 1);
    assert_eq!(frame_a["id"], a);
    assert_eq!(frame_a["params"][0]["client_order_id"], "a");
    // A push, the stream's own answer (small ids) and junk are not the machine's.
    for other in [
        r#"{"id":null,"method":"ordersPending_update","params":[1,{}]}"#.to_owned(),
        answer(3, json!({"status": "success"})),
        "not json".to_owned(),
    ] {
        assert_eq!(m.receive(&other, t0()), Received::NotOurs);
    }
    // Answered out of order.
    let second = settled(m.receive(
        &answer(
            b,
            json!({"id": 2, "side": 2, "client_order_id": "b", "status": "OPEN"}),
        ),
        t0(),
    ));
    assert_eq!(second.id, b);
    assert_eq!(second.call.client_order_id().unwrap().as_str(), "b");
    let SocketOutcome::Done(done) = &second.outcome else {
        panic!("{second:?}")
    };
    let SocketAnswer::Order(order) = &**done else {
        panic!("{done:?}")
    };
    assert_eq!(order.side, Some(Side::Buy));
    let first = settled(m.receive(&answer(a, json!({"id": 1, "side": 2})), t0()));
    assert_eq!(first.id, a);
    assert_eq!(m.in_flight(), 0);
    // An answer twice is not taken twice.
    assert_eq!(
        m.receive(&answer(a, json!({"id": 1})), t0()),
        Received::NotOurs
    );
}

#[test]
fn the_frame_is_handed_out_only_after_the_record_and_an_unjournaled_call_is_not_sent() {
    let mut m = machine();
    let submitted = m.submit(limit("j-1"), false, t0()).unwrap();
    let record = submitted.record.clone().unwrap();
    assert_eq!(record.market, "BTC_PERP");
    assert_eq!(record.client_order_id, "j-1");
    assert_eq!(record.method, "collateral_order_limit_place");
    // Not written before it is released.
    assert_eq!(
        m.written(submitted.id, t0()),
        Err(SocketOrderError::UnknownCall { id: submitted.id })
    );
    // The journal failed: the call settles as never sent, its frame never handed out.
    let abandoned = m.abandon(submitted.id).unwrap();
    assert_eq!(abandoned.outcome, SocketOutcome::NotSent);
    assert_eq!(abandoned.attempt, None);
    assert!(m.release(submitted.id).is_err());
    // A cancel carries no record.
    let cancel = CancelOrder::by_order_id("BTC_PERP", 9)
        .unwrap()
        .to_socket()
        .unwrap();
    assert_eq!(m.submit(cancel, false, t0()).unwrap().record, None);
    // Nothing is taken without a connection.
    let mut closed = SocketOrders::new(SocketOrdersConfig::default());
    assert_eq!(
        closed.submit(limit("x"), false, t0()),
        Err(SocketOrderError::NotConnected)
    );
}

#[test]
fn a_time_out_is_an_unknown_outcome_and_a_late_answer_is_evidence() {
    let timeout = Duration::from_secs(3);
    let mut m = SocketOrders::new(SocketOrdersConfig::default().with_answer_timeout(timeout));
    m.connected(t0()).unwrap();
    let (id, _) = send(&mut m, limit("slow"), false, t0());
    assert_eq!(m.next_deadline(), Some(t0() + timeout));
    assert!(m.tick(t0() + Duration::from_secs(2)).is_empty());
    let at = t0() + timeout;
    let timed_out = m.tick(at);
    assert_eq!(timed_out.len(), 1);
    assert_eq!(
        timed_out[0].outcome,
        SocketOutcome::Unknown(UnknownCause::TimedOut)
    );
    let attempt = timed_out[0].attempt.unwrap();
    assert_eq!((attempt.written_at, attempt.settled_at), (t0(), at));
    // The resolver's window covers the attempt, and the grace after it.
    let window = AcceptanceWindow::of_socket(&[attempt], None);
    assert!(window.contains(t0()) && window.contains(at + Duration::from_secs(15)));
    assert!(!window.contains(t0() - Duration::from_secs(1)));
    // The answer after all: evidence for resolving, not a fresh answer.
    let late = m.receive(&answer(id, json!({"id": 5, "client_order_id": "slow"})), at);
    let Received::Late(late) = late else {
        panic!("{late:?}")
    };
    assert!(matches!(late.outcome, SocketOutcome::Done(_)));
}

/// The documented timing waits out the processing grace and the creation allowance after
/// the last frame's outcome was settled; a caller's acceptance window (a sandbox's) replaces
/// both, counted from that settling — never from the window's end.
#[test]
fn a_socket_window_settles_by_the_rule_or_the_callers_window() {
    let attempts = [
        txc_core::socket::SocketAttempt {
            written_at: t0(),
            settled_at: t0() + Duration::from_secs(1),
        },
        txc_core::socket::SocketAttempt {
            written_at: t0() + Duration::from_secs(3),
            settled_at: t0() + Duration::from_secs(4),
        },
    ];
    let window = AcceptanceWindow::of_socket(&attempts, None);
    let rule = AbsenceRule::proven(Duration::from_secs(1));
    assert_eq!(
        rule.settled_at(&window),
        Some(t0() + Duration::from_secs(19))
    );
    let short = AbsenceRule::unproven(Duration::from_millis(10))
        .with_acceptance_window(Duration::from_secs(1));
    assert_eq!(
        short.settled_at(&window),
        Some(t0() + Duration::from_secs(5))
    );
    // Which record is the attempts' is still judged by the documented window.
    assert!(window.contains(t0() + Duration::from_secs(19)));
}

#[test]
fn a_connection_lost_after_the_frame_is_unknown_and_before_it_not_sent() {
    let mut m = machine();
    let (written, _) = send(&mut m, limit("w"), false, t0());
    let released = m.submit(limit("r"), false, t0()).unwrap().id;
    m.release(released).unwrap();
    let held = m.submit(limit("h"), false, t0()).unwrap().id;
    let lost = m.disconnected(t0() + Duration::from_secs(1));
    let by_id = |id| lost.iter().find(|s| s.id == id).unwrap();
    assert_eq!(
        by_id(written).outcome,
        SocketOutcome::Unknown(UnknownCause::ConnectionLost)
    );
    // Handed out but not confirmed written: it may have gone.
    assert_eq!(
        by_id(released).outcome,
        SocketOutcome::Unknown(UnknownCause::ConnectionLost)
    );
    assert_eq!(by_id(held).outcome, SocketOutcome::NotSent);
    assert_eq!(m.in_flight(), 0);
    assert_eq!(
        m.submit(limit("z"), false, t0()),
        Err(SocketOrderError::NotConnected)
    );
    // The next connection numbers on: no id is reused.
    m.connected(t0() + Duration::from_secs(2)).unwrap();
    let next = m.submit(limit("n"), false, t0()).unwrap().id;
    assert!(next > held);
}

#[test]
fn error_43_is_evidence_on_a_resend_and_a_refusal_on_a_first_send() {
    let mut m = machine();
    let (first, _) = send(&mut m, limit("dup"), false, t0());
    let refused = settled(m.receive(&error(first, 43, "client order id already exists"), t0()));
    assert_eq!(
        refused.outcome,
        SocketOutcome::Refused {
            refusal: SocketRefusal::ClientOrderIdExists,
            message: "client order id already exists".to_owned()
        }
    );
    let (resend, _) = send(&mut m, limit("dup"), true, t0());
    let evidence = settled(m.receive(&error(resend, 43, "client order id already exists"), t0()));
    assert!(evidence.resend);
    assert!(matches!(evidence.outcome, SocketOutcome::Duplicate { .. }));
}

#[test]
fn the_socket_numbering_is_read_by_fate_in_the_calls_context() {
    let mut m = machine();
    type Expect = fn(&SocketOutcome) -> bool;
    let cases: [(i64, Expect); 9] = [
        (2, |o| {
            matches!(
                o,
                SocketOutcome::Unknown(UnknownCause::ExchangeUnsure { .. })
            )
        }),
        (3, |o| {
            matches!(
                o,
                SocketOutcome::Unknown(UnknownCause::ExchangeUnsure { .. })
            )
        }),
        (5, |o| {
            matches!(
                o,
                SocketOutcome::Unknown(UnknownCause::ExchangeUnsure { .. })
            )
        }),
        (999, |o| {
            matches!(
                o,
                SocketOutcome::Unknown(UnknownCause::UnlistedCode { code: 999, .. })
            )
        }),
        (7, |o| {
            matches!(
                o,
                SocketOutcome::RateLimited {
                    refusal: SocketRefusal::TooManyRequests,
                    ..
                }
            )
        }),
        (10001, |o| {
            matches!(
                o,
                SocketOutcome::RateLimited {
                    refusal: SocketRefusal::NewOrderRateLimit,
                    ..
                }
            )
        }),
        (6, |o| {
            matches!(
                o,
                SocketOutcome::Refused {
                    refusal: SocketRefusal::AuthenticationRequired,
                    ..
                }
            )
        }),
        (10007, |o| {
            matches!(
                o,
                SocketOutcome::Refused {
                    refusal: SocketRefusal::RegionNoFutures,
                    ..
                }
            )
        }),
        (17, |o| {
            matches!(
                o,
                SocketOutcome::Refused {
                    refusal: SocketRefusal::MarginBalanceNotEnough,
                    ..
                }
            )
        }),
    ];
    for (code, expected) in cases {
        let (id, _) = send(&mut m, limit("e"), false, t0());
        let s = settled(m.receive(&error(id, code, "text"), t0()));
        assert!(expected(&s.outcome), "{code}: {:?}", s.outcome);
    }
    // 6 answering a cancel is "order not found".
    let cancel = CancelOrder::by_client_order_id("BTC_PERP", "gone")
        .unwrap()
        .to_socket()
        .unwrap();
    let (id, frame) = send(&mut m, cancel, false, t0());
    assert_eq!(frame["method"], "order_cancel");
    let s = settled(m.receive(&error(id, 6, "order not found"), t0()));
    assert!(matches!(
        s.outcome,
        SocketOutcome::Refused {
            refusal: SocketRefusal::OrderNotFound,
            ..
        }
    ));
    // A result that is not the method's object, or no result and no error: unknown.
    let (id, _) = send(&mut m, limit("u"), false, t0());
    let s = settled(m.receive(&answer(id, json!("pong")), t0()));
    assert!(matches!(
        s.outcome,
        SocketOutcome::Unknown(UnknownCause::Unreadable(_))
    ));
    let (id, _) = send(&mut m, limit("v"), false, t0());
    let s = settled(m.receive(
        &json!({"id": id, "result": null, "error": null}).to_string(),
        t0(),
    ));
    assert!(matches!(
        s.outcome,
        SocketOutcome::Unknown(UnknownCause::Unreadable(_))
    ));
}

#[test]
fn calls_and_connections_are_paced_by_the_configured_limits() {
    let limits = SocketLimits::documented()
        .with_placements(RateLimit::new(100, 10))
        .with_requests(RateLimit::new(50, 10))
        .with_connections(RateLimit::new(100, 60));
    let mut m = SocketOrders::new(SocketOrdersConfig::default().with_limits(limits));
    m.connected(t0()).unwrap();
    // A burst of 2 % of the placements at once, then the wait.
    assert!(m.submit(limit("p1"), false, t0()).is_ok());
    assert!(m.submit(limit("p2"), false, t0()).is_ok());
    let Err(SocketOrderError::Paced { what, wait }) = m.submit(limit("p3"), false, t0()) else {
        panic!()
    };
    assert_eq!(what, "placements");
    assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1));
    // Other requests have their own budget.
    let cancel = || {
        CancelOrder::by_order_id("BTC_PERP", 1)
            .unwrap()
            .to_socket()
            .unwrap()
    };
    assert!(m.submit(cancel(), false, t0()).is_ok());
    assert!(matches!(
        m.submit(cancel(), false, t0()),
        Err(SocketOrderError::Paced {
            what: "requests",
            ..
        })
    ));
    // After the wait, a slot.
    assert!(m.submit(limit("p3"), false, t0() + wait).is_ok());
    // A new connection starts fresh per-connection budgets; connections have their own (a
    // burst of 2 of 100 per minute).
    m.disconnected(t0());
    m.connected(t0()).unwrap();
    assert!(m.submit(limit("q1"), false, t0()).is_ok());
    assert!(matches!(
        m.connected(t0()),
        Err(SocketOrderError::Paced {
            what: "connections",
            ..
        })
    ));
}

/// The docs' answer example of every method, fed as the answer of its call.
#[test]
fn the_docs_answer_of_every_method_settles_its_call() {
    let fixtures = [
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_limit_place.json"),
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_market_place.json"),
        include_str!(
            "../../txc-types/tests/fixtures/socket/collateral_order_stop_limit_place.json"
        ),
        include_str!(
            "../../txc-types/tests/fixtures/socket/collateral_order_stop_market_place.json"
        ),
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_bbo_place.json"),
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_stop_bbo_place.json"),
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_oco_place.json"),
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_oto_place.json"),
        include_str!("../../txc-types/tests/fixtures/socket/collateral_order_tpsl_place.json"),
        include_str!("../../txc-types/tests/fixtures/socket/order_modify.json"),
        include_str!("../../txc-types/tests/fixtures/socket/order_cancel.json"),
        include_str!("../../txc-types/tests/fixtures/socket/order_cancel_conditional.json"),
        include_str!("../../txc-types/tests/fixtures/socket/order_cancel_all.json"),
    ];
    let mut m = machine();
    for text in fixtures {
        let fixture: Value = serde_json::from_str(text).unwrap();
        let method =
            SocketMethod::from_name(fixture["request"]["method"].as_str().unwrap()).unwrap();
        // A call of the method, as the docs sent it (the machine does not care what it holds).
        let call = call_of(method);
        let (id, frame) = send(&mut m, call, false, t0());
        assert_eq!(frame["method"], method.name());
        let mut response = fixture["response"].clone();
        response["id"] = id.into();
        let s = settled(m.receive(&response.to_string(), t0()));
        let SocketOutcome::Done(answer) = &s.outcome else {
            panic!("{method}: {:?}", s.outcome)
        };
        if method == SocketMethod::CancelAll {
            assert_eq!(**answer, SocketAnswer::Done);
        } else {
            assert!(!answer.orders().is_empty(), "{method}");
        }
    }
}

fn call_of(method: SocketMethod) -> SocketRequest {
    use txc_types::orders::{
        BboRole, CancelAllOrders, CancelConditionalOrder, CollateralBboOrder, CollateralOcoOrder,
        CollateralStopBboOrder, CollateralStopLimitOrder, CollateralTriggerMarketOrder,
        ModifyOrder,
    };
    use txc_types::socket::CollateralTpslOrder;
    let (m, s) = ("BTC_PERP", Side::Buy);
    match method {
        SocketMethod::LimitPlace => Ok(limit("l")),
        SocketMethod::MarketPlace => CollateralMarketOrder::builder(m, s, "1")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::StopLimitPlace => CollateralStopLimitOrder::builder(m, s, "1", "2", "3")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::StopMarketPlace => CollateralTriggerMarketOrder::builder(m, s, "1", "2")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::BboPlace => CollateralBboOrder::builder(m, s, "1", BboRole::Maker)
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::StopBboPlace => {
            CollateralStopBboOrder::builder(m, s, "1", "2", BboRole::Taker)
                .build()
                .unwrap()
                .to_socket()
        }
        SocketMethod::OcoPlace => CollateralOcoOrder::builder(m, s, "1", "2", "3", "4")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::OtoPlace => CollateralMarketOrder::builder(m, s, "1")
            .stop_loss("2")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::TpslPlace => CollateralTpslOrder::builder(m)
            .stop_loss("2")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::Modify => ModifyOrder::by_order_id(m, 1)
            .price("2")
            .build()
            .unwrap()
            .to_socket(),
        SocketMethod::Cancel => CancelOrder::by_order_id(m, 1).unwrap().to_socket(),
        SocketMethod::CancelConditional => CancelConditionalOrder::new(m, 1).unwrap().to_socket(),
        SocketMethod::CancelAll => CancelAllOrders::builder()
            .market(m)
            .build()
            .unwrap()
            .to_socket(),
        other => panic!("{other}"),
    }
    .inspect(|call| assert_eq!(call.method(), method))
    .unwrap()
}

#[derive(Debug, Clone)]
enum Step {
    Send { resend: bool },
    Answer(usize),
    Push,
    Advance(u64),
    Drop,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        any::<bool>().prop_map(|resend| Step::Send { resend }),
        (0usize..8).prop_map(Step::Answer),
        Just(Step::Push),
        (0u64..8).prop_map(Step::Advance),
        Just(Step::Drop),
    ]
}

proptest! {
    /// Whatever interleaving of sends, answers, pushes, time and dropped connections: every
    /// call written settles exactly once as an answer or an unknown outcome (a late answer
    /// after a time-out is marked late, never a second answer), and nothing is in flight once
    /// the connection is dropped.
    #[test]
    fn every_call_settles_exactly_once(steps in proptest::collection::vec(step(), 1..60)) {
        let timeout = Duration::from_secs(5);
        let limits = SocketLimits::documented().with_connections(RateLimit::new(1_000_000, 1));
        let mut m = SocketOrders::new(
            SocketOrdersConfig::default().with_answer_timeout(timeout).with_limits(limits),
        );
        let mut now = t0();
        m.connected(now).unwrap();
        let mut sent: Vec<u64> = Vec::new();
        let mut settled_ids: Vec<u64> = Vec::new();
        for step in steps {
            match step {
                Step::Send { resend } => {
                    if m.submit(limit("p"), resend, now).is_err() {
                        m.connected(now).unwrap();
                        continue;
                    }
                    let id = sent.last().map_or(FIRST_ORDER_REQUEST_ID, |l| l + 1);
                    m.release(id).unwrap();
                    m.written(id, now).unwrap();
                    sent.push(id);
                }
                Step::Answer(back) => {
                    if let Some(id) = sent.iter().rev().nth(back) {
                        match m.receive(&answer(*id, json!({"id": 1})), now) {
                            Received::Answer(s) => settled_ids.push(s.id),
                            Received::Late(s) => prop_assert!(settled_ids.contains(&s.id)),
                            Received::NotOurs => prop_assert!(settled_ids.contains(id)),
                            other => panic!("{other:?}"),
                        }
                    }
                }
                Step::Push => {
                    prop_assert_eq!(m.receive(r#"{"id":null,"method":"deals_update","params":[]}"#, now), Received::NotOurs);
                }
                Step::Advance(secs) => {
                    now += Duration::from_secs(secs);
                    settled_ids.extend(m.tick(now).into_iter().map(|s| s.id));
                }
                Step::Drop => {
                    settled_ids.extend(m.disconnected(now).into_iter().map(|s| s.id));
                    prop_assert_eq!(m.in_flight(), 0);
                    m.connected(now).unwrap();
                }
            }
        }
        settled_ids.extend(m.disconnected(now).into_iter().map(|s| s.id));
        let mut unique = settled_ids.clone();
        unique.sort_unstable();
        unique.dedup();
        prop_assert_eq!(unique.len(), settled_ids.len(), "settled twice: {:?}", settled_ids);
        prop_assert_eq!(unique, sent);
    }
}

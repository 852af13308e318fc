//! Properties of the WebSocket stream machine under arbitrary runs — frames (junk included),
//! answers, refusals, disconnects, token failures, subscription changes and clock steps —
//! checked on everything it asked and said: it never panics, never sends more than its
//! budget in a minute, never lets a ping interval pass without sending, re-authorizes with a
//! fresh token and resubscribes every channel before a connection's updates, says every
//! disconnect once, and never reconnects before the delay it announced.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime};

use crate::driver::{Driver, Socket, What};
use proptest::prelude::*;
use txc_core::decode::{Response, TransportError, TransportErrorKind, decode};
use txc_core::stream::{
    Backoff, ExecutedFilter, StreamConfig, StreamError, StreamEvent, StreamInput, StreamMachine,
    Subscription,
};
use txc_types::events::WebSocketTokenQuery;

const UPDATES: [&str; 8] = [
    include_str!("../fixtures/ws/orders_pending/update.json"),
    include_str!("../fixtures/ws/orders_executed/update.json"),
    include_str!("../fixtures/ws/deals/update.json"),
    include_str!("../fixtures/ws/balance_margin/update.json"),
    include_str!("../fixtures/ws/positions/update.json"),
    include_str!("../fixtures/ws/margin_positions_events/update.json"),
    include_str!("../fixtures/ws/quickstart/lastprice_update.json"),
    include_str!("../fixtures/ws/quickstart/balance_spot_update.json"),
];

fn subscription(index: usize) -> Subscription {
    match index % 6 {
        0 => Subscription::orders_pending(["BTC_USDT", "ETH_BTC"]),
        1 => Subscription::orders_executed(["BTC_USDT"], ExecutedFilter::Limit),
        2 => Subscription::deals(["ETH_BTC"]),
        3 => Subscription::balance_margin(["USDT"]),
        4 => Ok(Subscription::positions()),
        _ => Ok(Subscription::position_events()),
    }
    .unwrap()
}

/// One thing that happens to a stream.
#[derive(Debug, Clone)]
enum Op {
    Advance(u64),
    ConnectOk,
    ConnectFail,
    TokenOk,
    TokenLost,
    TokenRefused,
    AnswerAll,
    RefuseNext,
    Close,
    Update(usize),
    Frame(String),
    Binary(Vec<u8>),
    StrayAnswer(u64),
    Subscribe(usize),
    Unsubscribe(usize),
    ClockBack(u64),
    Stop,
}

fn frame() -> impl Strategy<Value = String> {
    let methods = prop_oneof![
        Just("deals_update".to_owned()),
        Just("ordersPending_update".to_owned()),
        Just("positionsMargin_update".to_owned()),
        Just("ping".to_owned()),
        "[a-zA-Z_]{0,12}",
    ];
    let ids = prop_oneof![
        Just("null".to_owned()),
        (0u64..40).prop_map(|i| i.to_string()),
        Just("\"7\"".to_owned()),
        Just("-1".to_owned()),
        Just("1.5".to_owned()),
    ];
    prop_oneof![
        ".{0,40}",
        (ids.clone(), methods)
            .prop_map(|(id, m)| format!(r#"{{"id":{id},"method":"{m}","params":[1,"2"]}}"#)),
        ids.clone().prop_map(|id| format!(
            r#"{{"id":{id},"result":{{"status":"success"}},"error":null}}"#
        )),
        ids.clone()
            .prop_map(|id| format!(r#"{{"id":{id},"result":"pong","error":null}}"#)),
        ids.prop_map(|id| format!(
            r#"{{"id":{id},"result":null,"error":{{"code":2,"message":"x"}}}}"#
        )),
        Just("{}".to_owned()),
        Just("[]".to_owned()),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0u64..90_000).prop_map(Op::Advance),
        4 => Just(Op::ConnectOk),
        1 => Just(Op::ConnectFail),
        4 => Just(Op::TokenOk),
        1 => Just(Op::TokenLost),
        1 => Just(Op::TokenRefused),
        6 => Just(Op::AnswerAll),
        1 => Just(Op::RefuseNext),
        2 => Just(Op::Close),
        4 => (0usize..UPDATES.len()).prop_map(Op::Update),
        3 => frame().prop_map(Op::Frame),
        1 => proptest::collection::vec(any::<u8>(), 0..16).prop_map(Op::Binary),
        1 => (0u64..64).prop_map(Op::StrayAnswer),
        2 => (0usize..6).prop_map(Op::Subscribe),
        1 => (0usize..6).prop_map(Op::Unsubscribe),
        1 => (0u64..600_000).prop_map(Op::ClockBack),
        1 => Just(Op::Stop),
    ]
}

/// A valid configuration: a ping interval and a budget large enough for it.
fn config() -> impl Strategy<Value = StreamConfig> {
    (
        prop_oneof![Just(10u64), Just(30), Just(49)],
        prop_oneof![Just(14u32), Just(40), Just(190)],
        prop_oneof![Just(1u64), Just(10)],
        1u32..4,
        1usize..6,
    )
        .prop_map(|(ping, budget, answer, refusals, held)| {
            StreamConfig::default()
                .with_ping_interval(Duration::from_secs(ping))
                .with_requests_per_minute(budget)
                .with_answer_timeout(Duration::from_secs(answer))
                .with_max_authorize_refusals(refusals)
                .with_max_held_events(held)
        })
}

fn apply(d: &mut Driver, op: Op) {
    match op {
        Op::Advance(ms) => d.advance(Duration::from_millis(ms)),
        Op::ConnectOk => {
            d.connect_ok();
        }
        Op::ConnectFail => {
            d.connect_fail();
        }
        Op::TokenOk => {
            d.give_token();
        }
        Op::TokenLost => {
            d.fail_token(TransportError::not_sent(TransportErrorKind::Timeout, "timed out").into());
        }
        Op::TokenRefused => {
            let body = br#"{"code":30,"message":"Validation failed","errors":{"user":["user not found"]}}"#;
            d.fail_token(decode::<WebSocketTokenQuery>(&Response::new(422, body)).unwrap_err());
        }
        Op::AnswerAll => d.answer_all(),
        Op::RefuseNext => {
            d.refuse_next();
        }
        Op::Close => {
            d.close();
        }
        Op::Update(i) => {
            if d.socket == Socket::Open {
                d.receive(UPDATES[i]);
            }
        }
        Op::Frame(text) => {
            if d.socket == Socket::Open {
                d.receive(text);
            }
        }
        Op::Binary(bytes) => {
            if d.socket == Socket::Open {
                d.handle(StreamInput::Binary(bytes));
            }
        }
        Op::StrayAnswer(id) => {
            if d.socket == Socket::Open {
                d.receive(format!(
                    r#"{{"id":{id},"result":{{"status":"success"}},"error":null}}"#
                ));
            }
        }
        Op::Subscribe(i) => {
            d.machine.subscribe(subscription(i));
            d.run();
        }
        Op::Unsubscribe(i) => {
            d.machine.unsubscribe(subscription(i).channel());
            d.run();
        }
        Op::ClockBack(ms) => {
            d.now -= Duration::from_millis(ms);
            d.run();
        }
        Op::Stop => {
            d.machine.stop();
            d.run();
        }
    }
}

/// Checks everything logged.
fn check(d: &Driver, config: &StreamConfig) -> Result<(), TestCaseError> {
    prop_assert_eq!(d.zero_waits, 0, "a wait of no time");
    prop_assert!(!d.sent_while_shut, "a frame sent with no socket open");
    let times: Vec<SystemTime> = d.log.iter().map(|e| e.at).collect();
    let minute = Duration::from_secs(60);

    // Per connection: sends, budget, ping gaps, authorize with the latest token.
    let mut sends: BTreeMap<u64, Vec<(SystemTime, &'static str)>> = BTreeMap::new();
    for (entry, at) in d.log.iter().zip(&times) {
        if let What::Send(frame) = &entry.what {
            sends
                .entry(entry.connection)
                .or_default()
                .push((*at, frame.method()));
        }
    }
    for (connection, sent) in &sends {
        for (i, (t, ..)) in sent.iter().enumerate() {
            let in_minute = sent[..=i]
                .iter()
                .filter(|(s, ..)| t.duration_since(*s).unwrap_or_default() < minute)
                .count();
            prop_assert!(
                in_minute <= config.requests_per_minute() as usize,
                "connection {}: {} in a minute",
                connection,
                in_minute
            );
        }
        prop_assert!(times.windows(2).all(|w| w[0] <= w[1]));
        for pair in sent.windows(2) {
            let gap = pair[1].0.duration_since(pair[0].0).unwrap_or_default();
            prop_assert!(
                gap <= config.ping_interval(),
                "connection {}: {:?} without sending",
                connection,
                gap
            );
        }
        prop_assert!(sent.iter().filter(|(_, m)| *m == "authorize").count() <= 1);
    }

    // In log order: tokens, authorize, subscriptions, resyncs, updates, disconnects, connects.
    let mut connected_at: BTreeMap<u64, usize> = BTreeMap::new();
    let mut token: BTreeMap<u64, String> = BTreeMap::new();
    let mut authorized: BTreeSet<u64> = BTreeSet::new();
    let mut subscribed_on: BTreeMap<u64, BTreeSet<&str>> = BTreeMap::new();
    let mut resynced: BTreeSet<u64> = BTreeSet::new();
    let mut disconnects: BTreeMap<u64, usize> = BTreeMap::new();
    let mut not_before: Option<SystemTime> = None;
    let mut delays_since_resync: Vec<Duration> = Vec::new();
    let mut stopped = false;
    let mut tokens_used = BTreeSet::new();
    for (entry, at) in d.log.iter().zip(&times) {
        let c = entry.connection;
        match &entry.what {
            What::Connect => {
                prop_assert!(!stopped, "connect after stop");
                if let Some(t) = not_before {
                    prop_assert!(*at >= t, "reconnected before the announced delay");
                }
                connected_at.insert(c, 0);
            }
            What::NeedToken | What::Close => prop_assert!(!stopped),
            What::Token(t) => {
                prop_assert!(connected_at.contains_key(&c), "a token before connecting");
                prop_assert!(tokens_used.insert(t.clone()), "the same token twice");
                token.insert(c, t.clone());
            }
            What::Send(frame) => {
                prop_assert!(!stopped, "sent after stop");
                match frame.method() {
                    "authorize" => {
                        let expected = format!(
                            r#"["{}","public"]"#,
                            token.get(&c).map_or("", String::as_str)
                        );
                        prop_assert!(
                            frame.text().contains(&expected),
                            "authorize without the connection's fresh token"
                        );
                        authorized.insert(c);
                    }
                    "ping" => {}
                    method if method.ends_with("_subscribe") => {
                        prop_assert!(authorized.contains(&c), "subscribed before authorize");
                        subscribed_on.entry(c).or_default().insert(method);
                    }
                    _ => prop_assert!(authorized.contains(&c), "a request before authorize"),
                }
            }
            What::Event(event) => match event {
                StreamEvent::Resync(resync) => {
                    prop_assert_eq!(resync.connection, c);
                    prop_assert!(authorized.contains(&c));
                    for channel in resync.channels() {
                        prop_assert!(
                            subscribed_on
                                .get(&c)
                                .is_some_and(|s| s.contains(channel.subscribe_method())),
                            "{} in the resync of connection {} but not subscribed on it",
                            channel,
                            c
                        );
                    }
                    resynced.insert(c);
                    delays_since_resync.clear();
                }
                StreamEvent::Account(_) | StreamEvent::Update(_) | StreamEvent::Unknown(_) => {
                    prop_assert!(
                        resynced.contains(&c),
                        "an update of connection {} before its resync",
                        c
                    );
                }
                StreamEvent::Disconnected(gone) => {
                    prop_assert_eq!(gone.connection, c);
                    *disconnects.entry(c).or_default() += 1;
                    not_before = gone.reconnect_in.map(|delay| *at + delay);
                    if let Some(delay) = gone.reconnect_in {
                        prop_assert!(delay <= config.backoff().max());
                        if let Some(last) = delays_since_resync.last() {
                            prop_assert!(
                                delay >= *last,
                                "delays shrank without a stable connection: {:?} after {:?}",
                                delay,
                                last
                            );
                        }
                        delays_since_resync.push(delay);
                    }
                }
                StreamEvent::Stopped(_) => stopped = true,
                StreamEvent::Error(error) => {
                    if let StreamError::TokenFailed { fatal, .. }
                    | StreamError::AuthorizationRefused { fatal, .. } = error
                    {
                        prop_assert_eq!(*fatal, error.is_fatal());
                    }
                }
                _ => {}
            },
        }
    }
    for (connection, count) in &disconnects {
        prop_assert!(
            *count <= 1,
            "connection {} ended {} times",
            connection,
            count
        );
    }
    for connection in connected_at.keys() {
        if *connection < d.machine.connection() {
            prop_assert_eq!(
                disconnects.get(connection),
                Some(&1),
                "connection {} ended silently",
                connection
            );
        }
    }
    prop_assert_eq!(stopped, d.machine.is_stopped());

    // Once settled, every subscription the machine keeps was confirmed on this connection.
    if d.machine.is_established() && d.unanswered.is_empty() {
        let c = d.machine.connection();
        let mut confirmed = BTreeSet::new();
        for entry in d.log.iter().filter(|e| e.connection == c) {
            match &entry.what {
                What::Event(StreamEvent::Resync(resync)) => confirmed.extend(resync.channels()),
                What::Event(StreamEvent::Subscribed(channel)) => {
                    confirmed.insert(*channel);
                }
                _ => {}
            }
        }
        for subscription in d.machine.subscriptions() {
            prop_assert!(
                confirmed.contains(&subscription.channel()),
                "{} kept but not confirmed",
                subscription.channel()
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_machine_keeps_its_promises_under_any_run(
        config in config(),
        initial in proptest::collection::vec(0usize..6, 0..6),
        ops in proptest::collection::vec(op(), 1..120),
        seed in any::<u64>(),
    ) {
        let subscriptions: Vec<Subscription> = initial.into_iter().map(subscription).collect();
        let machine = StreamMachine::new(config.clone(), subscriptions, seed).unwrap();
        let mut d = Driver::new(machine);
        for op in ops {
            apply(&mut d, op);
        }
        // Settle: whatever is in flight is answered.
        for _ in 0..3 {
            d.answer_all();
        }
        check(&d, &config)?;
    }

    #[test]
    fn a_stream_that_keeps_failing_never_gives_up_and_backs_off_as_announced(
        fails in proptest::collection::vec(0u8..4, 1..40),
        seed in any::<u64>(),
    ) {
        let config = StreamConfig::default();
        let mut d = Driver::new(StreamMachine::new(config.clone(), [subscription(0), subscription(4)], seed).unwrap());
        for fail in fails {
            prop_assert!(d.await_connect(), "no reconnect");
            match fail {
                0 => { d.connect_fail(); }
                1 => { d.connect_ok(); d.fail_token(TransportError::not_sent(TransportErrorKind::Connect, "down").into()); }
                2 => { d.connect_ok(); d.give_token(); d.answer_all(); d.close(); }
                _ => { d.connect_ok(); d.give_token(); d.answer_all(); d.answer_all(); d.close(); }
            }
        }
        prop_assert!(!d.machine.is_stopped());
        check(&d, &config)?;
    }

    #[test]
    fn backoff_delays_never_shrink_and_stay_within_their_jitter(
        initial_ms in 1u64..5_000,
        extra_ms in 0u64..120_000,
        jitter in 0.0f64..=1.0,
        draws in proptest::collection::vec(0.0f64..1.0, 1..40),
    ) {
        let (initial, max) = (Duration::from_millis(initial_ms), Duration::from_millis(initial_ms + extra_ms));
        let backoff = Backoff::new(initial, max).with_jitter(jitter);
        let mut last = Duration::ZERO;
        for (attempt, unit) in draws.into_iter().enumerate() {
            let attempt = u32::try_from(attempt).unwrap();
            let delay = backoff.delay(attempt, unit);
            let base = initial.saturating_mul(2u32.saturating_pow(attempt)).min(max);
            prop_assert!(delay >= base, "{:?} below {:?}", delay, base);
            prop_assert!(delay <= max);
            prop_assert!(delay <= base + base.mul_f64(jitter) + Duration::from_nanos(1));
            prop_assert!(delay >= last, "{:?} after {:?}", delay, last);
            last = delay;
        }
        prop_assert_eq!(backoff.delay(u32::MAX, 0.99), max);
    }
}

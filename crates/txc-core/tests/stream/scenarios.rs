//! The WebSocket stream machine, scenario by scenario, against the exchange's own example
//! messages (`fixtures/ws/`, see its README): what it sends, how it reads answers, updates and
//! junk, how it pings, budgets, reconnects, resubscribes, and when it gives up.

use std::time::Duration;

use crate::driver::{Driver, Socket, What, success, t0};
use serde_json::Value;
use txc_core::decode::{Response, TransportError, TransportErrorKind, decode};
use txc_core::stream::{
    Backoff, Channel, DisconnectReason, ExecutedFilter, StopReason, StreamConfig,
    StreamConfigError, StreamError, StreamEvent, StreamInput, StreamMachine, Subscription,
};
use txc_types::events::{
    AccountEvent, DealRole, LiquidationStage, OrderEventKind, PositionEventKind,
    WebSocketTokenQuery,
};

/// (channel, subscribe request, its success answer, an update, unsubscribe, its answer).
const CHANNEL_FIXTURES: [(Channel, &str, &str, &str, &str, &str); 6] = [
    (
        Channel::OrdersPending,
        include_str!("../fixtures/ws/orders_pending/subscribe.json"),
        include_str!("../fixtures/ws/orders_pending/subscribe_success.json"),
        include_str!("../fixtures/ws/orders_pending/update.json"),
        include_str!("../fixtures/ws/orders_pending/unsubscribe.json"),
        include_str!("../fixtures/ws/orders_pending/unsubscribe_success.json"),
    ),
    (
        Channel::OrdersExecuted,
        include_str!("../fixtures/ws/orders_executed/subscribe.json"),
        include_str!("../fixtures/ws/orders_executed/subscribe_success.json"),
        include_str!("../fixtures/ws/orders_executed/update.json"),
        include_str!("../fixtures/ws/orders_executed/unsubscribe.json"),
        include_str!("../fixtures/ws/orders_executed/unsubscribe_success.json"),
    ),
    (
        Channel::Deals,
        include_str!("../fixtures/ws/deals/subscribe.json"),
        include_str!("../fixtures/ws/deals/subscribe_success.json"),
        include_str!("../fixtures/ws/deals/update.json"),
        include_str!("../fixtures/ws/deals/unsubscribe.json"),
        include_str!("../fixtures/ws/deals/unsubscribe_success.json"),
    ),
    (
        Channel::BalanceMargin,
        include_str!("../fixtures/ws/balance_margin/subscribe.json"),
        include_str!("../fixtures/ws/balance_margin/subscribe_success.json"),
        include_str!("../fixtures/ws/balance_margin/update.json"),
        include_str!("../fixtures/ws/balance_margin/unsubscribe.json"),
        include_str!("../fixtures/ws/balance_margin/unsubscribe_success.json"),
    ),
    (
        Channel::Positions,
        include_str!("../fixtures/ws/positions/subscribe.json"),
        include_str!("../fixtures/ws/positions/subscribe_success.json"),
        include_str!("../fixtures/ws/positions/update.json"),
        include_str!("../fixtures/ws/positions/unsubscribe.json"),
        include_str!("../fixtures/ws/positions/unsubscribe_success.json"),
    ),
    (
        Channel::PositionEvents,
        include_str!("../fixtures/ws/margin_positions_events/subscribe.json"),
        include_str!("../fixtures/ws/margin_positions_events/subscribe_success.json"),
        include_str!("../fixtures/ws/margin_positions_events/update.json"),
        include_str!("../fixtures/ws/margin_positions_events/unsubscribe.json"),
        include_str!("../fixtures/ws/margin_positions_events/unsubscribe_success.json"),
    ),
];

const AUTHORIZE: &str = include_str!("../fixtures/ws/authorize/authorize.json");
const AUTHORIZE_SUCCESS: &str = include_str!("../fixtures/ws/authorize/authorize_success.json");
const GUIDE_AUTHORIZE: &str = include_str!("../fixtures/ws/quickstart/authorize.json");
const PING: &str = include_str!("../fixtures/ws/quickstart/ping.json");
const PONG: &str = include_str!("../fixtures/ws/quickstart/pong.json");
const ERROR: &str = include_str!("../fixtures/ws/quickstart/error_invalid_argument.json");
const TOKEN: &str = include_str!("../fixtures/ws/rest/websocket_token.json");
const TOKEN_REFUSED: &str = include_str!("../fixtures/ws/rest/websocket_token_user_not_found.json");
/// Updates of public channels and of the spot balance: methods no private channel of the
/// machine updates with.
const FOREIGN_UPDATES: [&str; 3] = [
    include_str!("../fixtures/ws/quickstart/lastprice_update.json"),
    include_str!("../fixtures/ws/quickstart/depth_update.json"),
    include_str!("../fixtures/ws/quickstart/balance_spot_update.json"),
];

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// A fixture with its id replaced, as compact JSON text.
fn with_id(text: &str, id: u64) -> String {
    let mut value = json(text);
    value["id"] = id.into();
    value.to_string()
}

/// The subscription the fixture of `channel` asks for.
fn subscription_of(channel: Channel) -> Subscription {
    match channel {
        Channel::OrdersPending => Subscription::orders_pending(["BTC_USDT", "ETH_BTC"]),
        Channel::OrdersExecuted => {
            Subscription::orders_executed(["BTC_USDT", "ETH_BTC"], ExecutedFilter::LimitAndMarket)
        }
        Channel::Deals => Subscription::deals(["BTC_USDT", "ETH_BTC"]),
        Channel::BalanceMargin => Subscription::balance_margin(["BTC", "USDT"]),
        Channel::Positions => Ok(Subscription::positions()),
        Channel::PositionEvents => Ok(Subscription::position_events()),
        other => panic!("no fixture for {other}"),
    }
    .unwrap()
}

/// The channels of the AsyncAPI files' fixtures (`CHANNEL_FIXTURES`), in the machine's order.
fn fixture_channels() -> Vec<Channel> {
    CHANNEL_FIXTURES
        .iter()
        .map(|(channel, ..)| *channel)
        .collect()
}

fn every_channel() -> Vec<Subscription> {
    fixture_channels()
        .into_iter()
        .map(subscription_of)
        .collect()
}

fn driver(config: StreamConfig, subscriptions: Vec<Subscription>) -> Driver {
    Driver::new(StreamMachine::new(config, subscriptions, 7).unwrap())
}

/// The frames sent since `from` in the log: (id, method, text).
fn frames_from(driver: &Driver, from: usize) -> Vec<(u64, &'static str, String)> {
    driver
        .frames_from(from)
        .into_iter()
        .map(|f| (f.id(), f.method(), f.text().to_owned()))
        .collect()
}

#[test]
fn authorizes_and_subscribes_every_channel_as_the_spec_shows_then_resyncs() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.run();
    assert_eq!(d.socket, Socket::Connecting);
    assert!(d.connect_ok());
    assert!(d.token_wanted, "a token is fetched only once connected");
    d.machine.handle(
        d.now,
        StreamInput::Token(txc_types::events::WebSocketToken::new("<WEB_SOCKET_TOKEN>")),
    );
    d.token_wanted = false;
    d.run();

    let frames = frames_from(&d, 0);
    let (id, method, text) = &frames[0];
    assert_eq!(*method, "authorize");
    let (mut sent, mut spec) = (json(text), json(AUTHORIZE));
    assert_eq!(sent["id"], 1);
    sent["id"] = Value::Null;
    spec["id"] = Value::Null;
    assert_eq!(sent, spec, "the authorize request of authorize.yaml");
    let guide = json(GUIDE_AUTHORIZE);
    assert_eq!(guide["params"][1], sent["params"][1], "the guide's scope");
    assert_eq!(
        frames.len(),
        1,
        "nothing is subscribed before authorize is answered"
    );

    d.receive(with_id(AUTHORIZE_SUCCESS, *id));
    let frames = frames_from(&d, 0);
    assert_eq!(frames.len(), 7);
    for ((channel, subscribe, ..), (_, method, text)) in CHANNEL_FIXTURES.iter().zip(&frames[1..]) {
        let (sent, spec) = (json(text), json(subscribe));
        assert_eq!(*method, channel.subscribe_method());
        assert_eq!(sent["method"], spec["method"], "{channel}");
        assert_eq!(
            sent["params"], spec["params"],
            "{channel}: the params of its AsyncAPI example"
        );
    }
    // Answered in reverse order, with the AsyncAPI files' own success answers.
    for ((_, _, answer, ..), (id, ..)) in CHANNEL_FIXTURES.iter().zip(&frames[1..]).rev() {
        d.receive(with_id(answer, *id));
    }
    let events = d.take_events();
    let subscribed: Vec<Channel> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Subscribed(c) => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!(subscribed.len(), 6);
    let Some(StreamEvent::Resync(resync)) = events.last() else {
        panic!("{events:?}")
    };
    assert!(resync.is_initial());
    assert_eq!(resync.connection, 1);
    assert_eq!(resync.channels().collect::<Vec<_>>(), fixture_channels());
    assert!(d.machine.is_established());
}

#[test]
fn frames_the_machine_sends() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.run();
    d.connect_ok();
    d.machine.handle(
        d.now,
        StreamInput::Token(txc_types::events::WebSocketToken::new("<WEB_SOCKET_TOKEN>")),
    );
    d.token_wanted = false;
    d.run();
    d.answer_all();
    d.answer_all();
    d.advance(Duration::from_secs(30));
    d.machine.unsubscribe(Channel::Deals);
    d.machine
        .subscribe(Subscription::orders_pending(["BTC_PERP"]).unwrap());
    d.run();
    let lines: Vec<&str> = d.sent().into_iter().map(|(_, text)| text).collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn channel_updates_of_every_example_decode_into_their_records() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    for (channel, _, _, update, ..) in CHANNEL_FIXTURES {
        d.receive(update);
        let events = d.take_events();
        let [StreamEvent::Account(event)] = &events[..] else {
            panic!("{channel}: {events:?}")
        };
        // Each channel's update decodes into its own record, which serializes back to the
        // parameters as sent (numbers with every digit; no field dropped).
        let expected = json(update)["params"].clone();
        let record = serde_json::to_value(event).unwrap();
        assert_eq!(record["channel"], channel.to_string(), "{channel}");
        let update_value = &record["update"];
        match event {
            AccountEvent::Order(e) => {
                assert_eq!(e.kind, OrderEventKind::New);
                assert_eq!(e.order.id, 1212904480922);
                assert_eq!(e.order.ctime.as_str(), "1738250982.28914");
                assert_eq!(update_value["order"], expected[1]);
            }
            AccountEvent::Executed(e) => {
                assert_eq!(
                    e.orders[0].mtime.as_ref().unwrap().as_str(),
                    "1738251048.4428461"
                );
                assert!(e.orders[0].is_finished());
                assert_eq!(update_value, &expected);
            }
            AccountEvent::Deal(deal) => {
                assert_eq!(deal.time.as_str(), "1738251095.345432");
                assert_eq!(deal.fee_asset.as_deref(), Some("ETH"));
                assert!(deal.extra.is_empty());
            }
            AccountEvent::Balances(b) => {
                assert_eq!(b.balances.len(), 2);
                assert_eq!(update_value, &expected);
            }
            AccountEvent::Positions(p) => {
                assert_eq!(p.records[0].amount.as_str(), "-0.01");
                assert_eq!(p.records[0].ctime.as_ref().unwrap().as_str(), "1704067200");
                // `liq_stage: null` is absent: the rest comes back as sent.
                let mut sent = expected["records"][0].clone();
                sent.as_object_mut().unwrap().remove("liq_stage");
                assert_eq!(update_value["records"][0], sent);
            }
            AccountEvent::PositionEvent(e) => {
                assert_eq!(e.kind, PositionEventKind::MarginCall);
                assert_eq!(e.position.liq_stage, Some(LiquidationStage::MarginCall));
                assert_eq!(update_value["position"], expected[1]);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn updates_that_do_not_decode_are_kept_with_their_error_and_the_stream_goes_on() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    let broken = [
        (
            Channel::OrdersPending,
            r#"{"id":null,"method":"ordersPending_update","params":[1]}"#,
        ),
        (
            Channel::OrdersPending,
            r#"{"id":null,"method":"ordersPending_update","params":[1,{"market":"BTC_USDT"}]}"#,
        ),
        (
            Channel::Deals,
            r#"{"id":null,"method":"deals_update","params":["x",1738251095.3,"ETH_BTC",1,"1","1"]}"#,
        ),
        (
            Channel::Deals,
            r#"{"id":null,"method":"deals_update","params":{"id":1}}"#,
        ),
        (
            Channel::BalanceMargin,
            r#"{"id":null,"method":"balanceMargin_update"}"#,
        ),
        (
            Channel::Positions,
            r#"{"id":null,"method":"positionsMargin_update","params":[7]}"#,
        ),
    ];
    for (channel, text) in broken {
        d.receive(text);
        let events = d.take_events();
        let [StreamEvent::Update(update)] = &events[..] else {
            panic!("{text}: {events:?}")
        };
        assert_eq!(update.channel(), channel);
        assert_eq!(update.error().method, channel.update_method());
        assert_eq!(
            json(update.params().get()),
            json(text)
                .get("params")
                .cloned()
                .unwrap_or(serde_json::Value::Null)
        );
    }
    // A deal with a value of an unexpected type where it can do without one keeps it, and
    // elements past the eleventh, by position.
    d.receive(r#"{"id":null,"method":"deals_update","params":[1,2,"ETH_BTC",3,"4","5","6","",9,7,"ETH","new"]}"#);
    let events = d.take_events();
    let [StreamEvent::Account(AccountEvent::Deal(deal))] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(deal.side, None);
    assert_eq!(deal.role, Some(DealRole::Other(7)));
    assert_eq!(deal.extra["8"], 9);
    assert_eq!(deal.extra["11"], "new");
    d.receive(CHANNEL_FIXTURES[0].3);
    assert!(matches!(&d.take_events()[..], [StreamEvent::Account(_)]));
    assert!(d.machine.is_established());
}

#[test]
fn unknown_methods_are_kept_whole_and_the_stream_goes_on() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    for text in FOREIGN_UPDATES {
        d.receive(text);
        let events = d.take_events();
        let [StreamEvent::Unknown(unknown)] = &events[..] else {
            panic!("{events:?}")
        };
        assert_eq!(unknown.raw().get(), text.trim_end());
        assert_eq!(
            Some(json(text)["method"].as_str().unwrap()),
            unknown.method()
        );
    }
    // A JSON-RPC object that is neither an answer nor an update.
    d.receive(r#"{"id":77,"method":"server_request","params":[]}"#);
    let events = d.take_events();
    assert!(
        matches!(&events[..], [StreamEvent::Unknown(u)] if u.method() == Some("server_request"))
    );
    d.receive(CHANNEL_FIXTURES[0].3);
    assert!(matches!(&d.take_events()[..], [StreamEvent::Account(_)]));
}

#[test]
fn malformed_frames_are_typed_errors_and_the_stream_goes_on() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    let junk = [
        "",
        "not json",
        "[1,2]",
        "{\"id\":",
        r#"{"id":"1","result":{}}"#,
        r#"{"id":-3,"result":{}}"#,
    ];
    for text in junk {
        d.receive(text);
    }
    d.handle(StreamInput::Binary(vec![0xff, 0xfe, b'{']));
    let events = d.take_events();
    assert_eq!(events.len(), junk.len() + 1);
    for (event, text) in events.iter().zip(junk) {
        match event {
            StreamEvent::Error(StreamError::MalformedFrame { text: kept, .. }) => {
                assert_eq!(kept, text)
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // Binary frames holding text are read like text frames.
    d.handle(StreamInput::Binary(
        CHANNEL_FIXTURES[1].3.as_bytes().to_vec(),
    ));
    assert!(matches!(
        &d.take_events()[..],
        [StreamEvent::Account(AccountEvent::Executed(_))]
    ));
    assert!(d.machine.is_established());
}

#[test]
fn an_answer_to_no_request_in_flight_is_an_event() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    // The guide's pong answers id 0, which the machine never uses.
    d.receive(PONG);
    let events = d.take_events();
    assert!(
        matches!(&events[..], [StreamEvent::Error(StreamError::UnmatchedAnswer { id: 0, raw })] if raw.get() == PONG.trim_end()),
        "{events:?}"
    );
    // An answer to a request already answered.
    d.receive(success(1, "authorize"));
    assert!(matches!(
        &d.take_events()[..],
        [StreamEvent::Error(StreamError::UnmatchedAnswer {
            id: 1,
            ..
        })]
    ));
    assert!(d.machine.is_established());
}

#[test]
fn pings_when_idle_and_takes_a_silent_server_for_dead() {
    let config = StreamConfig::default();
    let mut d = driver(config.clone(), vec![Subscription::positions()]);
    d.establish();
    let before = d.sent().len();
    d.advance(Duration::from_secs(29));
    assert_eq!(d.sent().len(), before, "no ping before the interval");
    d.advance(Duration::from_secs(1));
    let frames = d.sent();
    assert_eq!(frames.len(), before + 1);
    let (method, text) = frames[before];
    assert_eq!(method, "ping");
    let (sent, spec) = (json(text), json(PING));
    assert_eq!(
        (sent["method"].clone(), sent["params"].clone()),
        (spec["method"].clone(), spec["params"].clone())
    );
    // Answered with the guide's pong: nothing to tell.
    let id = sent["id"].as_u64().unwrap();
    d.take_events();
    d.receive(with_id(PONG, id));
    assert!(d.take_events().is_empty());

    // The next ping goes unanswered: the connection is dead after the answer timeout.
    d.advance(config.ping_interval());
    assert_eq!(d.sent().last().unwrap().0, "ping");
    d.advance(config.answer_timeout() - Duration::from_millis(1));
    assert_eq!(d.socket, Socket::Open);
    d.advance(Duration::from_millis(1));
    assert_eq!(d.socket, Socket::Shut, "the machine closed it");
    let events = d.take_events();
    let [StreamEvent::Disconnected(gone)] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(
        gone.reason,
        DisconnectReason::AnswerTimeout { method: "ping" }
    );
    assert!(gone.was_established);
    assert!(gone.reconnect_in.is_some());
}

#[test]
fn a_refused_subscription_drops_its_channel_and_the_rest_goes_on() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.run();
    d.connect_ok();
    d.give_token();
    d.answer_all(); // authorize
    let frames = frames_from(&d, 0);
    let (deals_id, ..) = frames
        .iter()
        .find(|(_, m, _)| *m == "deals_subscribe")
        .unwrap();
    d.receive(with_id(ERROR, *deals_id));
    d.unanswered.retain(|(id, _)| id != deals_id);
    d.answer_all();
    let events = d.take_events();
    let refused = events.iter().find_map(|e| match e {
        StreamEvent::Error(StreamError::SubscriptionRefused { channel, error }) => {
            Some((channel, error))
        }
        _ => None,
    });
    let (channel, error) = refused.unwrap();
    assert_eq!(*channel, Channel::Deals);
    assert_eq!(
        (error.code, error.message.as_str()),
        (Some(1), "invalid argument")
    );
    let Some(StreamEvent::Resync(resync)) = events.last() else {
        panic!("{events:?}")
    };
    assert!(!resync.channels().any(|c| c == Channel::Deals));
    assert_eq!(resync.subscriptions.len(), 5);

    // Not subscribed again after a reconnect.
    let from = d.log.len();
    d.close();
    d.establish();
    assert!(
        !frames_from(&d, from)
            .iter()
            .any(|(_, m, _)| *m == "deals_subscribe")
    );
}

#[test]
fn reconnects_with_a_fresh_token_resubscribes_everything_and_resyncs_the_gap() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    d.advance(Duration::from_secs(5));
    let dropped_at = d.now;
    let from = d.log.len();
    assert!(d.close());
    let events = d.take_events();
    let [StreamEvent::Disconnected(gone)] = &events[..] else {
        panic!("{events:?}")
    };
    assert!(gone.was_established);
    assert_eq!(gone.connection, 1);
    assert!(matches!(
        gone.reason,
        DisconnectReason::Closed {
            code: Some(1006),
            ..
        }
    ));
    let delay = gone.reconnect_in.unwrap();
    assert!(
        (Duration::from_secs(1)..=Duration::from_millis(1_500)).contains(&delay),
        "{delay:?}"
    );

    // Updates sent while away never arrive; the machine connects again only after the delay.
    d.advance(delay - Duration::from_millis(1));
    assert_eq!(d.socket, Socket::Shut);
    d.advance(Duration::from_millis(1));
    assert_eq!(d.socket, Socket::Connecting);
    d.connect_ok();
    let token = d.give_token().unwrap();
    assert_eq!(token, "tok-2", "a fresh token for the new connection");
    let frames = frames_from(&d, from);
    assert_eq!(frames[0].1, "authorize");
    assert!(frames[0].2.contains("tok-2"));
    // An update that arrives while subscribing is held until the resync.
    d.answer_all();
    d.receive(CHANNEL_FIXTURES[0].3);
    assert!(
        d.take_events()
            .iter()
            .all(|e| !matches!(e, StreamEvent::Account(_)))
    );
    d.answer_all();
    let frames = frames_from(&d, from);
    let resubscribed: Vec<&str> = frames
        .iter()
        .map(|(_, m, _)| *m)
        .filter(|m| m.ends_with("_subscribe"))
        .collect();
    assert_eq!(
        resubscribed,
        fixture_channels()
            .into_iter()
            .map(Channel::subscribe_method)
            .collect::<Vec<_>>()
    );
    let events = d.take_events();
    let resync_at = events
        .iter()
        .position(|e| matches!(e, StreamEvent::Resync(_)))
        .unwrap();
    let StreamEvent::Resync(resync) = &events[resync_at] else {
        unreachable!()
    };
    assert_eq!(resync.gap_since, Some(dropped_at));
    assert_eq!(resync.connection, 2);
    assert!(
        matches!(&events[resync_at + 1..], [StreamEvent::Account(_)]),
        "{events:?}"
    );
}

#[test]
fn a_connection_that_ends_while_subscribing_discards_what_it_held_and_says_so() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.run();
    d.connect_ok();
    d.give_token();
    d.answer_all(); // authorize; the subscriptions stay unanswered
    d.receive(CHANNEL_FIXTURES[3].3);
    d.receive(FOREIGN_UPDATES[0]);
    d.close();
    let events = d.take_events();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, StreamEvent::Account(_) | StreamEvent::Unknown(_)))
    );
    let Some(StreamEvent::Disconnected(gone)) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(gone.discarded_events, 2);
    assert!(!gone.was_established);
    d.establish();
    let events = d.take_events();
    let resync = events.iter().find_map(|e| match e {
        StreamEvent::Resync(r) => Some(r),
        _ => None,
    });
    assert!(
        resync.unwrap().is_initial(),
        "nothing was established before: the first resync"
    );
}

#[test]
fn too_many_events_while_subscribing_replace_the_connection() {
    let config = StreamConfig::default().with_max_held_events(2);
    let mut d = driver(config, vec![Subscription::positions()]);
    d.run();
    d.connect_ok();
    d.give_token();
    d.answer_all();
    for _ in 0..3 {
        d.receive(CHANNEL_FIXTURES[4].3);
    }
    let events = d.take_events();
    let Some(StreamEvent::Disconnected(gone)) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(gone.reason, DisconnectReason::TooManyHeldEvents);
    assert_eq!(gone.discarded_events, 3);
    assert_eq!(d.socket, Socket::Shut);
}

#[test]
fn refused_authorization_retries_with_fresh_tokens_then_stops() {
    let config = StreamConfig::default().with_max_authorize_refusals(3);
    let mut d = driver(config, every_channel());
    let mut tokens = Vec::new();
    for attempt in 1..=3u32 {
        assert!(d.await_connect());
        d.connect_ok();
        tokens.push(d.give_token().unwrap());
        assert_eq!(d.refuse_next(), Some("authorize"));
        let events = d.take_events();
        let refusals = events.iter().find_map(|e| match e {
            StreamEvent::Error(StreamError::AuthorizationRefused {
                refusals,
                fatal,
                error,
            }) => {
                assert_eq!(error.code, Some(1));
                Some((*refusals, *fatal))
            }
            _ => None,
        });
        assert_eq!(refusals, Some((attempt, attempt == 3)));
        let gone = events.iter().find_map(|e| match e {
            StreamEvent::Disconnected(g) => Some(g),
            _ => None,
        });
        assert_eq!(gone.unwrap().reason, DisconnectReason::AuthorizationRefused);
        assert_eq!(gone.unwrap().reconnect_in.is_none(), attempt == 3);
        assert_eq!(d.socket, Socket::Shut);
        if attempt == 3 {
            assert!(matches!(
                events.last(),
                Some(StreamEvent::Stopped(StopReason::AuthorizationRefused))
            ));
        }
    }
    assert_eq!(tokens, ["tok-1", "tok-2", "tok-3"]);
    assert!(d.machine.is_stopped());
    assert_eq!(d.run(), None, "finished");
}

#[test]
fn a_refused_key_stops_the_stream_and_a_failed_transport_is_retried() {
    // The token endpoint's documented error (HTTP 422, code 30): the key's user is unknown.
    let refused =
        decode::<WebSocketTokenQuery>(&Response::new(422, TOKEN_REFUSED.as_bytes())).unwrap_err();
    let lost = TransportError::not_sent(TransportErrorKind::Connect, "connection refused").into();

    let mut d = driver(StreamConfig::default(), every_channel());
    d.run();
    d.connect_ok();
    assert!(d.fail_token(lost));
    let events = d.take_events();
    assert!(matches!(
        &events[0],
        StreamEvent::Error(StreamError::TokenFailed { fatal: false, .. })
    ));
    let StreamEvent::Disconnected(gone) = &events[1] else {
        panic!("{events:?}")
    };
    assert_eq!(gone.reason, DisconnectReason::TokenFailed);
    assert!(gone.reconnect_in.is_some());
    assert_eq!(
        d.socket,
        Socket::Shut,
        "the connection waiting for the token is closed"
    );

    d.advance(Duration::from_secs(2));
    d.connect_ok();
    assert!(d.fail_token(refused));
    let events = d.take_events();
    let StreamEvent::Error(error @ StreamError::TokenFailed { error: cause, .. }) = &events[0]
    else {
        panic!("{events:?}")
    };
    assert!(error.is_fatal());
    assert_eq!(cause.api().unwrap().code, Some(30));
    assert!(matches!(
        events.last(),
        Some(StreamEvent::Stopped(StopReason::TokenRefused))
    ));
    assert_eq!(d.run(), None);
}

#[test]
fn the_token_answer_of_the_spec_authorizes() {
    let token = decode::<WebSocketTokenQuery>(&Response::new(200, TOKEN.as_bytes())).unwrap();
    let mut d = driver(StreamConfig::default(), vec![Subscription::positions()]);
    d.run();
    d.connect_ok();
    d.token_wanted = false;
    d.handle(StreamInput::Token(token));
    assert!(d.sent()[0].1.contains(r#"["your_current_token","public"]"#));
}

#[test]
fn the_budget_queues_requests_past_the_limit_per_minute_and_keeps_slots_for_pings() {
    // 6 a minute, of which 3 are kept for pings (at most 3 a minute at 30 s).
    let config = StreamConfig::default().with_requests_per_minute(6);
    let mut d = driver(config, vec![Subscription::positions()]);
    d.establish(); // authorize + 1 subscription
    let channels = [
        Channel::Deals,
        Channel::OrdersPending,
        Channel::BalanceMargin,
        Channel::OrdersExecuted,
        Channel::PositionEvents,
    ];
    for channel in channels {
        d.machine.subscribe(subscription_of(channel));
    }
    d.run();
    assert_eq!(d.sent().len(), 3, "one more fits beside the ping reserve");
    d.answer_all();
    assert_eq!(
        d.run(),
        Some(Duration::from_secs(30)),
        "the ping is due before a slot frees up"
    );
    d.idle(Duration::from_secs(300));

    let subscribed: Vec<&str> = d
        .sent()
        .iter()
        .map(|(m, _)| *m)
        .filter(|m| m.ends_with("_subscribe"))
        .skip(1)
        .collect();
    assert_eq!(
        subscribed,
        channels.map(Channel::subscribe_method),
        "all sent, in order"
    );
    let times: Vec<_> = d
        .log
        .iter()
        .filter(|e| matches!(e.what, What::Send(_)))
        .map(|e| e.at)
        .collect();
    for (i, t) in times.iter().enumerate() {
        let in_window = times[..=i]
            .iter()
            .filter(|s| t.duration_since(**s).unwrap() < Duration::from_secs(60))
            .count();
        assert!(
            in_window <= 5,
            "{in_window} requests in the minute before {t:?}"
        );
    }
    for pair in times.windows(2) {
        assert!(
            pair[1].duration_since(pair[0]).unwrap() <= Duration::from_secs(30),
            "a ping is never held back"
        );
    }
    assert!(d.machine.is_established());
}

#[test]
fn unsubscribing_sends_the_spec_request_and_reports_the_answer() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    for (channel, _, _, _, unsubscribe, answer) in CHANNEL_FIXTURES {
        let from = d.log.len();
        d.machine.unsubscribe(channel);
        d.run();
        let frames = frames_from(&d, from);
        let [(id, method, text)] = &frames[..] else {
            panic!("{frames:?}")
        };
        assert_eq!(*method, channel.unsubscribe_method());
        let (sent, spec) = (json(text), json(unsubscribe));
        assert_eq!(
            (&sent["method"], &sent["params"]),
            (&spec["method"], &spec["params"])
        );
        d.unanswered.clear();
        d.receive(with_id(answer, *id));
        assert!(matches!(&d.take_events()[..], [StreamEvent::Unsubscribed(c)] if *c == channel));
    }
    assert_eq!(d.machine.subscriptions().count(), 0);
}

#[test]
fn backoff_grows_to_its_cap_and_starts_over_after_a_stable_connection() {
    let mut d = driver(StreamConfig::default(), every_channel());
    let mut delays = Vec::new();
    for _ in 0..8 {
        d.run();
        assert!(d.connect_fail());
        let events = d.take_events();
        let [StreamEvent::Disconnected(gone)] = &events[..] else {
            panic!("{events:?}")
        };
        assert!(matches!(gone.reason, DisconnectReason::ConnectFailed(_)));
        let delay = gone.reconnect_in.unwrap();
        delays.push(delay);
        d.advance(delay);
    }
    assert!(delays.windows(2).all(|w| w[0] <= w[1]), "{delays:?}");
    assert_eq!(delays.last(), Some(&Duration::from_secs(30)));
    for (n, delay) in delays.iter().enumerate().take(4) {
        let base = Duration::from_secs(1 << n);
        assert!(
            *delay >= base && *delay <= base.mul_f64(1.5),
            "{n}: {delay:?}"
        );
    }

    // A connection that stays up for the stable period resets the delays.
    d.establish();
    d.idle(Duration::from_secs(59));
    d.close();
    let gone = d.take_events().into_iter().find_map(|e| match e {
        StreamEvent::Disconnected(g) => Some(g),
        _ => None,
    });
    assert_eq!(
        gone.unwrap().reconnect_in,
        Some(Duration::from_secs(30)),
        "59 s is not stable yet"
    );
    d.establish();
    d.idle(Duration::from_secs(60));
    d.close();
    let gone = d.take_events().into_iter().find_map(|e| match e {
        StreamEvent::Disconnected(g) => Some(g),
        _ => None,
    });
    assert!(gone.unwrap().reconnect_in.unwrap() <= Duration::from_millis(1_500));
}

#[test]
fn a_refused_connection_to_the_deprecated_host_says_so_and_others_do_not() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.run();
    assert!(d.connect_fail_to("wss://api.whitebit.com/ws"));
    let events = d.take_events();
    let [StreamEvent::Disconnected(gone)] = &events[..] else {
        panic!("{events:?}")
    };
    let DisconnectReason::ConnectFailed(reason) = &gone.reason else {
        panic!("{gone:?}")
    };
    assert!(reason.starts_with("connection refused"), "{reason}");
    assert!(
        reason.contains("deprecated") && reason.contains("2027-03-01"),
        "{reason}"
    );
    assert!(reason.contains("wss://wss.whitebit.com/ws"), "{reason}");
    assert!(gone.reconnect_in.is_some(), "the stream still retries");

    d.advance(gone.reconnect_in.unwrap());
    d.run();
    assert!(d.connect_fail_to("wss://wss.whitebit.com/ws"));
    let events = d.take_events();
    let [StreamEvent::Disconnected(gone)] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(
        gone.reason,
        DisconnectReason::ConnectFailed("connection refused".to_owned())
    );
}

#[test]
fn a_connect_that_takes_too_long_is_given_up() {
    let mut d = driver(
        StreamConfig::default().with_connect_timeout(Duration::from_secs(5)),
        every_channel(),
    );
    d.run();
    d.advance(Duration::from_secs(5));
    let closes = d
        .log
        .iter()
        .filter(|e| matches!(e.what, What::Close))
        .count();
    assert_eq!(closes, 1, "the driver is told to give up");
    let events = d.take_events();
    assert!(
        matches!(&events[..], [StreamEvent::Disconnected(g)] if g.reason == DisconnectReason::ConnectTimeout)
    );
    // A late success of the given-up attempt is out of order.
    d.machine.handle(d.now, StreamInput::Connected);
    d.run();
    assert!(matches!(
        &d.take_events()[..],
        [StreamEvent::Error(StreamError::OutOfOrder {
            input: "Connected",
            ..
        })]
    ));
}

#[test]
fn stop_closes_the_connection_and_finishes() {
    let mut d = driver(StreamConfig::default(), every_channel());
    d.establish();
    d.take_events();
    d.machine.stop();
    assert_eq!(d.run(), None);
    assert_eq!(d.socket, Socket::Shut);
    let events = d.take_events();
    assert!(
        matches!(&events[0], StreamEvent::Disconnected(g) if g.reason == DisconnectReason::Stopped && g.reconnect_in.is_none())
    );
    assert!(matches!(
        &events[1],
        StreamEvent::Stopped(StopReason::Requested)
    ));
    d.receive(CHANNEL_FIXTURES[0].3);
    d.machine.subscribe(Subscription::positions());
    assert_eq!(d.run(), None);
}

#[test]
fn time_that_goes_backwards_counts_as_none_passing() {
    let mut d = driver(StreamConfig::default(), vec![Subscription::positions()]);
    d.establish();
    let sent = d.sent().len();
    d.now -= Duration::from_secs(3_600);
    let wait = d.run().unwrap();
    assert_eq!(
        wait,
        Duration::from_secs(30),
        "the ping is still 30 s after the last request"
    );
    assert_eq!(d.sent().len(), sent);
}

#[test]
fn settings_and_subscriptions_are_checked_before_anything_is_sent() {
    let bad = [
        StreamConfig::default().with_ping_interval(Duration::from_secs(50)),
        StreamConfig::default().with_ping_interval(Duration::ZERO),
        StreamConfig::default().with_answer_timeout(Duration::ZERO),
        StreamConfig::default().with_connect_timeout(Duration::ZERO),
        StreamConfig::default().with_requests_per_minute(201),
        StreamConfig::default().with_requests_per_minute(0),
        StreamConfig::default().with_requests_per_minute(5),
        StreamConfig::default()
            .with_ping_interval(Duration::from_secs(1))
            .with_requests_per_minute(121),
        StreamConfig::default().with_max_authorize_refusals(0),
        StreamConfig::default().with_max_held_events(0),
        StreamConfig::default().with_backoff(Backoff::new(Duration::ZERO, Duration::from_secs(1))),
        StreamConfig::default()
            .with_backoff(Backoff::new(Duration::from_secs(2), Duration::from_secs(1))),
        StreamConfig::default().with_backoff(Backoff::default().with_jitter(1.5)),
        StreamConfig::default().with_backoff(Backoff::default().with_jitter(f64::NAN)),
    ];
    for config in bad {
        let err = StreamMachine::new(config.clone(), [], 0).unwrap_err();
        assert!(
            matches!(err, StreamConfigError::Setting { .. }),
            "{config:?}"
        );
    }
    assert!(
        StreamMachine::new(StreamConfig::default().with_requests_per_minute(200), [], 0).is_ok()
    );
    assert!(matches!(
        Subscription::orders_pending(Vec::<&str>::new()),
        Err(StreamConfigError::Empty { what: "markets" })
    ));
    assert!(matches!(
        Subscription::balance_margin(["usdt"]),
        Err(StreamConfigError::Invalid(_))
    ));
    let twice = Subscription::deals(["BTC_USDT", "BTC_USDT", "ETH_BTC"]).unwrap();
    assert_eq!(twice.params().to_string(), r#"[["BTC_USDT","ETH_BTC"]]"#);
    // A later subscription of the same channel replaces the earlier.
    let m = StreamMachine::new(
        StreamConfig::default(),
        [Subscription::deals(["BTC_USDT"]).unwrap(), twice.clone()],
        0,
    )
    .unwrap();
    assert_eq!(m.subscriptions().collect::<Vec<_>>(), [&twice]);
}

#[test]
fn answers_of_unexpected_shapes_are_reported_and_taken_as_success() {
    let mut d = driver(StreamConfig::default(), vec![Subscription::positions()]);
    d.run();
    d.connect_ok();
    d.give_token();
    d.unanswered.clear();
    d.receive(r#"{"id":1,"result":true,"error":null}"#);
    d.receive(r#"{"id":2,"result":{"status":"success"},"error":null}"#);
    let events = d.take_events();
    assert!(
        matches!(
            &events[0],
            StreamEvent::Error(StreamError::UnexpectedAnswer {
                method: "authorize",
                ..
            })
        ),
        "{events:?}"
    );
    assert!(d.machine.is_established());
    d.advance(Duration::from_secs(30));
    d.unanswered.clear();
    d.receive(r#"{"id":3,"result":"ping?","error":null}"#);
    d.receive(r#"{"id":99,"result":"pong","error":null}"#);
    let events = d.take_events();
    assert!(
        matches!(
            &events[..],
            [
                StreamEvent::Error(StreamError::UnexpectedAnswer { method: "ping", .. }),
                StreamEvent::Error(StreamError::UnmatchedAnswer { id: 99, .. })
            ]
        ),
        "{events:?}"
    );
}

#[test]
fn errors_say_what_happened_without_the_token() {
    let mut d = driver(StreamConfig::default(), vec![Subscription::positions()]);
    d.run();
    d.connect_ok();
    d.machine.handle(
        d.now,
        StreamInput::Token(txc_types::events::WebSocketToken::new("very-secret-token")),
    );
    d.token_wanted = false;
    d.run();
    d.refuse_next();
    let rendered: Vec<String> = d.log.iter().map(|e| format!("{e:?}")).collect();
    assert!(
        rendered.iter().all(|r| !r.contains("very-secret-token")),
        "{rendered:?}"
    );
    assert!(!format!("{:?}", d.machine).contains("very-secret-token"));
    let messages: Vec<String> = d
        .events()
        .filter_map(|e| match e {
            StreamEvent::Error(error) => Some(error.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(
        messages,
        ["authorization refused (1 in a row): code 1: invalid argument"]
    );
}

#[test]
fn a_frame_with_no_connection_open_is_out_of_order() {
    let mut d = driver(StreamConfig::default(), vec![Subscription::positions()]);
    d.run();
    d.machine.handle(d.now, StreamInput::Text(PONG.to_owned()));
    d.run();
    assert!(matches!(
        &d.take_events()[..],
        [StreamEvent::Error(StreamError::OutOfOrder {
            input: "a frame",
            state: "connecting"
        })]
    ));
    // A close the driver reports after the machine's own close is not news.
    d.connect_fail();
    d.take_events();
    d.machine.handle(
        d.now,
        StreamInput::Closed {
            code: None,
            reason: "done".into(),
        },
    );
    d.run();
    assert!(d.take_events().is_empty());
    assert!(t0() <= d.now);
}

#[test]
fn the_token_request_is_a_signed_post_of_request_and_nonce_as_the_guide_shows() {
    use txc_sign::nonce::{Nonce, NonceMode};
    use txc_sign::{Credentials, Signer};
    let signer = Signer::new(
        Credentials::new("demo-key", "test-secret").unwrap(),
        "https://whitebit.com",
    )
    .unwrap();
    let signed = signer
        .sign(
            &WebSocketTokenQuery,
            Nonce(1_594_297_865_000),
            NonceMode::Strict,
        )
        .unwrap();
    let http = signed.into_http();
    assert_eq!(http.method(), http::Method::POST);
    assert_eq!(
        http.uri().to_string(),
        "https://whitebit.com/api/v4/profile/websocket_token"
    );
    // The guide's body is {"request": path, "nonce": …}; the signer adds its nonce mode, as
    // for every private request.
    let body = json(std::str::from_utf8(http.body()).unwrap());
    assert_eq!(body["request"], "/api/v4/profile/websocket_token");
    assert_eq!(body["nonce"], 1_594_297_865_000u64);
    assert_eq!(body.as_object().unwrap().len(), 3, "{body}");
    for header in ["x-txc-apikey", "x-txc-payload", "x-txc-signature"] {
        assert!(http.headers().contains_key(header), "{header}");
    }
}

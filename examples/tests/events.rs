//! The private event stream against the sandbox, once per transport: a consumer that applies
//! every event in order ends with the exchange's state (open orders, finished orders,
//! positions) as the REST look-ups show it, across forced disconnects in the middle of a run
//! — orders placed, fired, filled and canceled while it was away included; an idle connection
//! is closed and the stream reconnects; hostile frames are typed errors and the stream goes
//! on; a refused `authorize` and a refused token are typed errors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use txc_async::events::{
    AccountEvent, Backoff, Channel, OrderEventKind, OrderSightings, ResyncChange, StreamConfig,
    StreamError, StreamEvent, Subscription, WebSocketTokenQuery,
};
use txc_blocking::Client;
use txc_blocking::lookups::{OpenOrdersQuery, OrderHistoryQuery};
use txc_blocking::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, Side,
};
use txc_blocking::positions::{ClosePosition, OpenPositionsQuery};
use txc_sandbox::{AccountConfig, Fault, Route, Sandbox, WsFault, demo};

use common::stream::{AsyncEvents, BlockingEvents, Events};
use common::{Blocking, Make, config};
use txc_blocking::endpoint::Endpoint;
use txc_blocking::settings::RateLimits;

/// How long a test waits for any one event.
const EVENT_WAIT: Duration = Duration::from_secs(10);

/// The transports under test.
#[derive(Debug, Clone, Copy)]
enum Transport {
    Blocking,
    Async,
}

const TRANSPORTS: [Transport; 2] = [Transport::Blocking, Transport::Async];

/// Runs `test` once per transport, each on a sandbox of its own.
fn on_each_transport(test: impl Fn(Transport, &Sandbox)) {
    for transport in TRANSPORTS {
        test(transport, &Sandbox::start().unwrap());
    }
}

/// The runtime an async stream runs on in these tests: one worker.
fn one_worker_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// The stream's settings in the tests: reconnect after 20 ms to 200 ms, not 1 s to 30 s.
fn stream_config() -> StreamConfig {
    StreamConfig::default().with_backoff(
        Backoff::new(Duration::from_millis(20), Duration::from_millis(200))
            .with_stable_after(Duration::from_millis(500)),
    )
}

fn open(
    transport: Transport,
    sandbox: &Sandbox,
    key: (&str, &str),
    subscriptions: Vec<Subscription>,
    config: StreamConfig,
) -> Box<dyn Events> {
    open_with(
        transport,
        sandbox,
        key,
        subscriptions,
        config,
        OrderSightings::new(),
    )
}

fn open_with(
    transport: Transport,
    sandbox: &Sandbox,
    key: (&str, &str),
    subscriptions: Vec<Subscription>,
    config: StreamConfig,
    sightings: OrderSightings,
) -> Box<dyn Events> {
    // The client paces token requests by the documented 10 a minute (one every 7.5 s after
    // the first); the tests reconnect every few milliseconds.
    let client_config = config::key(key.0, key.1)
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None));
    match transport {
        Transport::Blocking => {
            let client = txc_blocking::ClientBuilder::from(client_config)
                .build()
                .unwrap();
            let iter = client
                .events(subscriptions)
                .config(config)
                .sightings(sightings)
                .start()
                .unwrap();
            Box::new(BlockingEvents::spawn(iter))
        }
        Transport::Async => {
            let runtime = one_worker_runtime();
            let stream = runtime.block_on(async {
                let client = txc_async::ClientBuilder::from(client_config)
                    .build()
                    .unwrap();
                client
                    .events(subscriptions)
                    .config(config)
                    .sightings(sightings)
                    .start()
                    .unwrap()
            });
            let runtime = std::sync::Arc::new(runtime);
            Box::new(AsyncEvents { runtime, stream })
        }
    }
}

fn every_channel(markets: &[&str]) -> Vec<Subscription> {
    vec![
        Subscription::orders_pending(markets.iter().copied()).unwrap(),
        Subscription::orders_executed(markets.iter().copied(), Default::default()).unwrap(),
        Subscription::deals(markets.iter().copied()).unwrap(),
        Subscription::balance_margin(["USDT"]).unwrap(),
        Subscription::positions(),
        Subscription::position_events(),
    ]
}

/// What a consumer knows from the events alone.
#[derive(Debug, Default)]
struct Book {
    /// Open orders: id → status.
    open: BTreeMap<u64, String>,
    /// Finished orders: id → status (`GONE` when a resync found it gone).
    finished: BTreeMap<u64, String>,
    /// The latest positions snapshot, live or read by a resync: (market, side) → amount.
    positions: BTreeMap<(String, String), String>,
    /// Resyncs that reported the positions.
    positions_resynced: usize,
    /// The latest balance of each asset.
    balances: BTreeMap<String, String>,
    connections: BTreeSet<u64>,
    /// Counts by kind of event.
    live_order_events: usize,
    deals: usize,
    executed: usize,
    resynced: usize,
    resyncs_done: BTreeSet<u64>,
    disconnects: usize,
    /// Disconnections of established connections.
    drops_seen: usize,
    errors: Vec<String>,
    /// Every disconnection, as shown.
    errors_seen: Vec<String>,
    /// Whether the latest connection is established.
    established: bool,
}

impl Book {
    /// Whether the latest connection is established and its resync done.
    fn settled(&self) -> bool {
        self.established
            && self
                .connections
                .last()
                .is_some_and(|c| self.resyncs_done.contains(c))
    }
}

impl Book {
    fn apply(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::Account(AccountEvent::Order(e)) => {
                self.live_order_events += 1;
                let status = e
                    .order
                    .status
                    .as_ref()
                    .map_or("?", |s| s.as_str())
                    .to_owned();
                if e.kind == OrderEventKind::Finished || e.order.is_finished() {
                    self.open.remove(&e.order.id);
                    self.finished.insert(e.order.id, status);
                } else if !self.finished.contains_key(&e.order.id) {
                    self.open.insert(e.order.id, status);
                }
            }
            StreamEvent::Account(AccountEvent::Executed(e)) => self.executed += e.orders.len(),
            StreamEvent::Account(AccountEvent::Deal(_)) => self.deals += 1,
            StreamEvent::Account(AccountEvent::Positions(p)) => {
                self.positions = p
                    .records
                    .iter()
                    .map(|r| {
                        let side = r.position_side.map_or("?", |s| s.as_str()).to_owned();
                        (
                            (r.market.as_str().to_owned(), side),
                            r.amount.as_str().to_owned(),
                        )
                    })
                    .collect();
            }
            StreamEvent::Account(AccountEvent::Balances(b)) => {
                for balance in &b.balances {
                    self.balances.insert(
                        balance.asset.as_str().to_owned(),
                        balance.balance.as_str().to_owned(),
                    );
                }
            }
            StreamEvent::Resynced(change) => {
                self.resynced += 1;
                let id = change.order_id();
                match change {
                    ResyncChange::Opened(o) | ResyncChange::Updated(o) => {
                        let status = o.status.as_ref().map_or("?", |s| s.as_str());
                        self.open.insert(id, status.to_owned());
                    }
                    ResyncChange::Finished(h) => {
                        self.open.remove(&id);
                        self.finished.insert(id, h.status.as_str().to_owned());
                    }
                    _ => {
                        self.open.remove(&id);
                        self.finished.insert(id, "GONE".to_owned());
                    }
                }
            }
            StreamEvent::ResyncedPositions(positions) => {
                self.positions_resynced += 1;
                self.positions = positions
                    .iter()
                    .map(|p| {
                        let side = p.position_side.map_or("?", |s| s.as_str()).to_owned();
                        let amount = p.amount.as_ref().map_or("?", |a| a.as_str()).to_owned();
                        ((p.market.as_str().to_owned(), side), amount)
                    })
                    .collect();
            }
            StreamEvent::Resync(r) => {
                self.connections.insert(r.connection);
                self.established = true;
            }
            StreamEvent::ResyncDone(report) => {
                self.resyncs_done.insert(report.connection);
            }
            StreamEvent::Disconnected(d) => {
                self.established = false;
                self.disconnects += 1;
                self.errors_seen.push(format!("{d:?}"));
                if d.was_established {
                    self.drops_seen += 1;
                }
            }
            StreamEvent::Error(e) => self.errors.push(format!("{e:?}")),
            _ => {}
        }
    }
}

/// Reads events into `book` until the latest connection is established and resynced (at once
/// if it is).
fn settle(events: &mut dyn Events, book: &mut Book) {
    if !book.settled() {
        read_until(events, book, |b, _| b.settled());
    }
}

/// Reads events into `book` until `done` holds; panics after [`EVENT_WAIT`] without one.
fn read_until(
    events: &mut dyn Events,
    book: &mut Book,
    mut done: impl FnMut(&Book, &StreamEvent) -> bool,
) {
    loop {
        let event = events
            .next_event(EVENT_WAIT)
            .unwrap_or_else(|| panic!("no event for {EVENT_WAIT:?}; book: {book:#?}"));
        book.apply(&event);
        if done(book, &event) {
            return;
        }
    }
}

/// The exchange's state, from the REST look-ups: open orders and finished orders (id →
/// status) of `markets`.
fn rest_state(client: &Client, markets: &[&str]) -> (BTreeMap<u64, String>, BTreeMap<u64, String>) {
    let mut open = BTreeMap::new();
    let mut finished = BTreeMap::new();
    for market in markets {
        let query = OpenOrdersQuery::builder()
            .market(*market)
            .limit(100)
            .build()
            .unwrap();
        for order in client.open_orders(&query).unwrap() {
            open.insert(
                order.order_id,
                order
                    .status
                    .map_or("?".to_owned(), |s| s.as_str().to_owned()),
            );
        }
        let query = OrderHistoryQuery::builder()
            .market(*market)
            .limit(500)
            .build()
            .unwrap();
        for order in client.order_history(&query).unwrap().into_orders() {
            finished.insert(order.id, order.status.as_str().to_owned());
        }
    }
    (open, finished)
}

fn trigger(
    market: &str,
    side: Side,
    amount: &str,
    activation: &str,
    id: &str,
) -> CollateralTriggerMarketOrder {
    CollateralTriggerMarketOrder::builder(market, side, amount, activation)
        .client_order_id(id)
        .build()
        .unwrap()
}

fn market_order(market: &str, side: Side, amount: &str, id: &str) -> CollateralMarketOrder {
    CollateralMarketOrder::builder(market, side, amount)
        .client_order_id(id)
        .build()
        .unwrap()
}

/// The open positions of `key` on the sandbox: (market, side) → amount.
fn sandbox_positions(sandbox: &Sandbox, key: &str) -> BTreeMap<(String, String), String> {
    sandbox
        .positions(key)
        .into_iter()
        .map(|p| ((p.market, p.position_side), p.amount))
        .collect()
}

/// Runs the scenario: orders placed, fired, filled and canceled and positions closed, with the
/// connection dropped every few steps and once more at the end; the consumer's book must equal
/// the exchange's state. Without the positions snapshot channel (`positions_channel` false)
/// the consumer knows the positions only from the resyncs' REST look-ups.
fn run_with_disconnects(transport: Transport, canceled_in_history: bool, positions_channel: bool) {
    const MARKETS: [&str; 2] = ["BTC_USDT", "ETH_USDT"];
    // A key of its own: a key's token requests are paced (10 a minute) across the process.
    let api_key = format!("events-{transport:?}-{canceled_in_history}-{positions_channel}");
    let key = (api_key.as_str(), "events-secret");
    let sandbox = Sandbox::builder()
        .account(
            AccountConfig::new(key.0, key.1)
                .partner(true)
                .balance("USDT", "1000000")
                .canceled_orders_in_history(canceled_in_history),
        )
        .start()
        .unwrap();
    let rest = Blocking.make(sandbox.base_url(), config::key(key.0, key.1));
    // An order open before the stream starts: the first resync reports it.
    let early = rest
        .collateral_trigger_market_order(&trigger("ETH_USDT", Side::Buy, "0.1", "4000", "early"))
        .unwrap();
    let subscriptions = every_channel(&MARKETS)
        .into_iter()
        .filter(|s| positions_channel || s.channel() != Channel::Positions)
        .collect();
    let mut events = open(transport, &sandbox, key, subscriptions, stream_config());
    let mut book = Book::default();
    read_until(&mut *events, &mut book, |b, _| !b.resyncs_done.is_empty());
    assert_eq!(
        book.open.keys().copied().collect::<Vec<_>>(),
        vec![early.order_id],
        "{book:#?}"
    );

    let mut resting: Vec<(String, String)> = Vec::new();
    let mut canceled: BTreeSet<u64> = BTreeSet::new();
    let mut drops = 0;
    let mut closed = 0;
    for step in 0..24u32 {
        let market = MARKETS[(step % 2) as usize];
        let id = format!("s{step}");
        match step % 6 {
            0 | 3 => {
                rest.collateral_market_order(&market_order(
                    market,
                    Side::Buy,
                    if market == "BTC_USDT" { "0.01" } else { "0.1" },
                    &id,
                ))
                .unwrap();
            }
            1 | 4 => {
                // A sell trigger far below the price rests until the price falls.
                let (amount, activation) = if market == "BTC_USDT" {
                    ("0.01", "60000")
                } else {
                    ("0.1", "3000")
                };
                rest.collateral_trigger_market_order(&trigger(
                    market,
                    Side::Sell,
                    amount,
                    activation,
                    &id,
                ))
                .unwrap();
                resting.push((market.to_owned(), id));
            }
            2 => {
                if let Some((market, id)) = resting.pop() {
                    let cancel =
                        CancelOrder::by_client_order_id(market.as_str(), id.as_str()).unwrap();
                    if let Cancellation::Canceled(order) = rest.cancel_order(&cancel).unwrap() {
                        canceled.insert(order.order_id);
                    }
                }
            }
            _ => {
                // Fire the resting triggers of one market, then put the price back.
                let (low, back) = if market == "BTC_USDT" {
                    ("59000", "65000")
                } else {
                    ("2900", "3500")
                };
                sandbox.set_price(market, low).unwrap();
                sandbox.set_price(market, back).unwrap();
                resting.retain(|(m, _)| m != market);
                // And close the market's position: a closing market order, a position gone.
                let query = OpenPositionsQuery::of_market(market).unwrap();
                for position in rest.open_positions(&query).unwrap() {
                    let close = ClosePosition::new(market, position.position_id).unwrap();
                    rest.close_position(&close).unwrap();
                    closed += 1;
                }
            }
        }
        if step % 5 == 2 {
            // Drop the connection once it is established, then keep trading while the stream
            // is away.
            settle(&mut *events, &mut book);
            sandbox.ws_fault(WsFault::Drop);
            drops += 1;
        }
        if step % 5 == 4 {
            // Let the stream come back: the next steps are reported live.
            settle(&mut *events, &mut book);
        }
        // Read what has arrived so far.
        while let Some(event) = events.next_event(Duration::from_millis(5)) {
            book.apply(&event);
        }
    }
    // A last drop after the last step: once the resync of the last connection has been seen,
    // every change up to it has been reported, live or by the resync — the positions too,
    // read over REST after the last change.
    settle(&mut *events, &mut book);
    sandbox.ws_fault(WsFault::Drop);
    drops += 1;
    read_until(&mut *events, &mut book, |b, _| {
        b.drops_seen == drops && b.settled()
    });
    assert!(closed > 0);
    assert_eq!(
        book.positions,
        sandbox_positions(&sandbox, key.0),
        "{transport:?}: positions after the last resync"
    );
    if !positions_channel {
        // Every resync read them (with the channel, a live snapshot may supersede them).
        assert_eq!(book.positions_resynced, book.connections.len(), "{book:#?}");
    }
    // A last order on that connection brings the balance (which no resync reads) up to date.
    let last = rest
        .collateral_market_order(&market_order("BTC_USDT", Side::Buy, "0.01", "last"))
        .unwrap();
    read_until(&mut *events, &mut book, |b, _| {
        b.finished.contains_key(&last.order_id)
    });
    let (open_rest, finished_rest) = rest_state(&rest, &MARKETS);
    let missed_open: Vec<_> = open_rest
        .keys()
        .filter(|id| !book.open.contains_key(id))
        .collect();
    let missed_finished: Vec<_> = finished_rest
        .keys()
        .filter(|id| !book.finished.contains_key(id))
        .collect();
    assert_eq!(
        (missed_open.len(), missed_finished.len()),
        (0, 0),
        "missed after resync: {book:#?}"
    );
    assert_eq!(book.open, open_rest, "{transport:?}: open orders");
    if canceled_in_history {
        assert_eq!(
            book.finished, finished_rest,
            "{transport:?}: finished orders"
        );
    } else {
        // Canceled orders are in no look-up: the stream reported them (live, or gone).
        let (shown, hidden): (BTreeMap<u64, String>, BTreeMap<u64, String>) = book
            .finished
            .clone()
            .into_iter()
            .partition(|(id, _)| finished_rest.contains_key(id));
        assert_eq!(shown, finished_rest);
        // (An order placed and canceled while away leaves no trace to report: the consumer
        // never knew it, and does not hold it open.)
        assert!(
            hidden.keys().all(|id| canceled.contains(id)),
            "{hidden:?} {canceled:?}"
        );
        assert!(canceled.iter().all(|id| !book.open.contains_key(id)));
    }
    if positions_channel {
        // Positions: the latest snapshot is the exchange's.
        assert_eq!(book.positions, sandbox_positions(&sandbox, key.0));
    }
    assert_eq!(
        book.balances.get("USDT"),
        sandbox.balance(key.0, "USDT").as_ref()
    );
    assert!(
        book.disconnects >= drops,
        "{} disconnects for {drops} drops",
        book.disconnects
    );
    assert!(book.connections.len() > drops, "{book:#?}");
    assert!(book.errors.is_empty(), "{:?}", book.errors);
    eprintln!(
        "{transport:?}: {} connections, {} disconnects, {} live order events, {} executed, {} deals, {} resynced changes, {} positions resynced, {closed} closed; missed 0",
        book.connections.len(),
        book.disconnects,
        book.live_order_events,
        book.executed,
        book.deals,
        book.resynced,
        book.positions_resynced,
    );
    events.stop();
    read_until(&mut *events, &mut book, |_, e| {
        matches!(e, StreamEvent::Stopped(_))
    });
}

#[test]
fn a_consumer_ends_with_the_exchanges_state_across_disconnects() {
    for transport in TRANSPORTS {
        run_with_disconnects(transport, true, true);
    }
}

#[test]
fn orders_canceled_while_away_in_an_account_whose_history_hides_them_are_reported_gone() {
    for transport in TRANSPORTS {
        run_with_disconnects(transport, false, true);
    }
}

#[test]
fn without_the_positions_channel_the_resyncs_bring_the_positions_over_rest() {
    for transport in TRANSPORTS {
        run_with_disconnects(transport, true, false);
    }
}

/// The partner's stream of every channel of BTC_USDT on `sandbox`, publishing to
/// `sightings`, not yet read.
fn partner_stream(
    transport: Transport,
    sandbox: &Sandbox,
    config: StreamConfig,
    sightings: OrderSightings,
) -> Box<dyn Events> {
    let key = (demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET);
    let subscriptions = every_channel(&["BTC_USDT"]);
    open_with(transport, sandbox, key, subscriptions, config, sightings)
}

/// The partner's stream, read until it is established and settled.
fn established(
    transport: Transport,
    sandbox: &Sandbox,
    config: StreamConfig,
) -> (Box<dyn Events>, Book) {
    let mut events = partner_stream(transport, sandbox, config, OrderSightings::new());
    let mut book = Book::default();
    settle(&mut *events, &mut book);
    (events, book)
}

/// The partner's stream, read until it stops: what it reported.
fn until_stopped(transport: Transport, sandbox: &Sandbox) -> Book {
    let sightings = OrderSightings::new();
    let mut events = partner_stream(transport, sandbox, stream_config(), sightings);
    let mut book = Book::default();
    read_until(&mut *events, &mut book, |_, e| {
        matches!(e, StreamEvent::Stopped(_))
    });
    book
}

#[test]
fn an_idle_connection_is_closed_by_the_server_and_the_stream_comes_back() {
    // The transports side by side: each waits out idle times and a 3 s watch of its own.
    std::thread::scope(|scope| {
        for transport in TRANSPORTS {
            scope.spawn(move || idles_out_and_comes_back(transport));
        }
    });
}

fn idles_out_and_comes_back(transport: Transport) {
    let sandbox = Sandbox::builder()
        .ws_idle_timeout(Duration::from_millis(300))
        .start()
        .unwrap();
    // Pings every 30 s: the connection idles out first.
    let (mut events, mut book) = established(transport, &sandbox, stream_config());
    read_until(&mut *events, &mut book, |_, e| {
        matches!(e, StreamEvent::Disconnected(_))
    });
    assert!(
        book.errors_seen.last().unwrap().contains("idle"),
        "{transport:?}: {:?}",
        book.errors_seen
    );
    settle(&mut *events, &mut book);
    assert!(book.connections.len() >= 2);
    // With pings more often than the server's timeout, the connection stays.
    let sandbox = Sandbox::builder()
        .ws_idle_timeout(Duration::from_millis(1_500))
        .start()
        .unwrap();
    let config = stream_config().with_ping_interval(Duration::from_secs(1));
    let (mut events, mut book) = established(transport, &sandbox, config);
    let until = std::time::Instant::now() + Duration::from_secs(3);
    while let Some(event) =
        events.next_event(until.saturating_duration_since(std::time::Instant::now()))
    {
        book.apply(&event);
    }
    assert_eq!(book.disconnects, 0, "{transport:?}: {:?}", book.errors_seen);
    assert_eq!(sandbox.ws_connections(), 1);
}

#[test]
fn hostile_frames_are_typed_errors_and_the_stream_goes_on() {
    on_each_transport(|transport, sandbox| {
        let (mut events, mut book) = established(transport, sandbox, stream_config());
        sandbox.ws_fault(WsFault::MalformedFrames);
        sandbox.ws_fault(WsFault::UnknownEvent);
        let mut malformed = 0;
        let mut undecodable = 0;
        let mut unknown = 0;
        read_until(&mut *events, &mut book, |_, event| {
            match event {
                StreamEvent::Error(StreamError::MalformedFrame { .. }) => malformed += 1,
                StreamEvent::Update(update) => {
                    assert_eq!(update.error().method, "deals_update");
                    undecodable += 1;
                }
                StreamEvent::Unknown(message) => {
                    assert_eq!(message.method(), Some("sandbox_unknown_update"));
                    unknown += 1;
                }
                StreamEvent::Account(_) => {}
                other => panic!("{transport:?}: {other:?}"),
            }
            malformed + undecodable + unknown == 6
        });
        assert_eq!(
            (malformed, undecodable, unknown),
            (4, 1, 1),
            "{transport:?}"
        );
        // The stream goes on: an order is reported.
        let rest = Blocking.make(sandbox.base_url(), config::partner());
        let order = rest
            .collateral_market_order(&common::market("0.01"))
            .unwrap();
        read_until(&mut *events, &mut book, |b, _| {
            b.finished.contains_key(&order.order_id)
        });
        assert_eq!(book.disconnects, 0, "{transport:?}");
    });
}

#[test]
fn a_refused_authorize_is_a_typed_error_and_a_fresh_token_is_tried() {
    on_each_transport(|transport, sandbox| {
        sandbox.ws_fault(WsFault::RefuseAuthorize(2));
        let (_events, book) = established(transport, sandbox, stream_config());
        let refused: Vec<&String> = book
            .errors
            .iter()
            .filter(|e| e.contains("AuthorizationRefused"))
            .collect();
        assert_eq!(refused.len(), 2, "{transport:?}: {:?}", book.errors);
        assert!(
            refused
                .iter()
                .all(|e| e.contains("authorization failed") && e.contains("fatal: false"))
        );
        // Three refusals in a row stop the stream.
        let sandbox = Sandbox::start().unwrap();
        sandbox.ws_fault(WsFault::RefuseAuthorize(3));
        let book = until_stopped(transport, &sandbox);
        assert!(
            book.errors.last().unwrap().contains("fatal: true"),
            "{:?}",
            book.errors
        );
    });
}

#[test]
fn a_refused_token_stops_the_stream_with_a_typed_error() {
    on_each_transport(|transport, sandbox| {
        sandbox.inject_fault(
            Route::WebSocketToken,
            Fault::Answer {
                status: 422,
                content_type: "application/json".to_owned(),
                body: br#"{"code":30,"message":"Validation failed","errors":{"user":["user not found"]}}"#.to_vec(),
            },
            None,
        );
        let book = until_stopped(transport, sandbox);
        assert_eq!(book.errors.len(), 1, "{transport:?}: {:?}", book.errors);
        assert!(book.errors[0].contains("TokenFailed") && book.errors[0].contains("fatal: true"));
        assert!(book.connections.is_empty());
    });
}

#[test]
fn a_stalled_server_is_taken_for_dead_and_the_stream_reconnects_and_resyncs() {
    on_each_transport(|transport, sandbox| {
        let config = stream_config()
            .with_ping_interval(Duration::from_secs(1))
            .with_answer_timeout(Duration::from_millis(300));
        let (mut events, mut book) = established(transport, sandbox, config);
        sandbox.ws_fault(WsFault::Stall(Duration::from_secs(2)));
        let rest = Blocking.make(sandbox.base_url(), config::partner());
        // Placed while the connection is stalled: the resync after the reconnection reports it.
        let order = rest
            .collateral_market_order(&common::market("0.01"))
            .unwrap();
        read_until(&mut *events, &mut book, |b, _| {
            b.drops_seen == 1 && b.settled() && b.finished.contains_key(&order.order_id)
        });
        assert!(
            book.errors_seen[0].contains("AnswerTimeout"),
            "{transport:?}: {:?}",
            book.errors_seen
        );
    });
}

#[test]
fn a_waiter_sees_the_order_carrying_its_client_order_id_live_or_by_a_resync() {
    on_each_transport(|transport, sandbox| {
        let sightings = OrderSightings::new();
        let mut events = partner_stream(transport, sandbox, stream_config(), sightings.clone());
        let mut book = Book::default();
        settle(&mut *events, &mut book);
        assert!(sightings.covers("BTC_USDT") && !sightings.covers("ETH_USDT"));
        let rest = Blocking.make(sandbox.base_url(), config::partner());
        // Live: expected before it is sent, seen when its event arrives.
        let watch = sightings.expect("BTC_USDT", "watched-live");
        let placed = rest
            .collateral_market_order(&market_order("BTC_USDT", Side::Buy, "0.01", "watched-live"))
            .unwrap();
        // The stream's reader runs on: read events meanwhile.
        let seen = loop {
            if let Some(seen) = watch.get() {
                break seen;
            }
            book.apply(&events.next_event(EVENT_WAIT).expect("an event"));
        };
        assert_eq!(
            (seen.order_id, seen.finished),
            (placed.order_id, true),
            "{transport:?}"
        );
        // While away: the resync's finding carries it.
        settle(&mut *events, &mut book);
        let watch = sightings.expect("BTC_USDT", "watched-away");
        sandbox.ws_fault(WsFault::Drop);
        let placed = rest
            .collateral_market_order(&market_order("BTC_USDT", Side::Buy, "0.01", "watched-away"))
            .unwrap();
        read_until(&mut *events, &mut book, |_, _| watch.get().is_some());
        assert_eq!(watch.get().unwrap().order_id, placed.order_id);
        drop(watch);
        events.stop();
    });
}

/// Makes the sandbox's look-ups lag 30 s behind its orders, so that only an event can show an
/// order placed now, and loses the answer of the next market order (it is placed).
fn lose_the_answer_and_lag_the_look_ups(sandbox: &Sandbox) {
    for route in [Route::OpenOrders, Route::OrderHistory] {
        sandbox.inject_fault(route, Fault::Lagging(Duration::from_secs(30)), None);
    }
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
}

/// The clients' settings: the rule's timing (a 10 s settling delay), so that the look-ups —
/// 30 s behind — could only answer after 20 s, and then wrongly ("not placed"); no token
/// pacing.
fn proven(sandbox: &Sandbox) -> txc_blocking::settings::ClientConfig {
    config::partner()
        .base_url(sandbox.base_url())
        .settle_delay(Duration::from_secs(10))
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
}

/// How many orders of the sandbox carry `client_order_id`.
fn orders_with(sandbox: &Sandbox, client_order_id: &str) -> usize {
    sandbox
        .order_records()
        .iter()
        .filter(|o| o["clientOrderId"] == client_order_id)
        .count()
}

#[test]
fn place_once_settles_a_lost_answer_at_the_orders_event_on_the_clients_own_stream() {
    on_each_transport(|transport, sandbox| {
        let cid = format!("lost-{transport:?}");
        let order = market_order("BTC_USDT", Side::Buy, "0.01", &cid);
        // The client's own stream: `events` publishes to the client's registry.
        let placed = match transport {
            Transport::Blocking => {
                let client = txc_blocking::ClientBuilder::from(proven(sandbox))
                    .build()
                    .unwrap();
                let iter = client
                    .events(every_channel(&["BTC_USDT"]))
                    .config(stream_config())
                    .start()
                    .unwrap();
                let mut events = BlockingEvents::spawn(iter);
                settle(&mut events, &mut Book::default());
                lose_the_answer_and_lag_the_look_ups(sandbox);
                let placed = client.place_once(&order).unwrap();
                events.stop();
                placed
            }
            Transport::Async => {
                let runtime = one_worker_runtime();
                runtime.block_on(async {
                    let client = txc_async::ClientBuilder::from(proven(sandbox))
                        .build()
                        .unwrap();
                    let mut events = client
                        .events(every_channel(&["BTC_USDT"]))
                        .config(stream_config())
                        .start()
                        .unwrap();
                    while let Some(event) = events.next().await {
                        if matches!(event, StreamEvent::ResyncDone(_)) {
                            break;
                        }
                    }
                    lose_the_answer_and_lag_the_look_ups(sandbox);
                    client.place_once(&order).await.unwrap()
                })
            }
        };
        assert!(
            placed.evidence.by_event(),
            "{transport:?}: {}",
            placed.evidence
        );
        assert!(matches!(
            &placed.record,
            txc_blocking::outcomes::PlacedOrder::Streamed(o) if o.id == placed.order_id()
        ));
        assert_eq!(orders_with(sandbox, &cid), 1, "{transport:?}: placed once");
    });
}

#[test]
fn resolve_settles_an_unknown_order_at_its_event_through_a_shared_registry() {
    on_each_transport(|transport, sandbox| {
        let shared = OrderSightings::new();
        // Another client's stream (the blocking one, whichever transport resolves).
        let config = stream_config();
        let mut events = partner_stream(Transport::Blocking, sandbox, config, shared.clone());
        settle(&mut *events, &mut Book::default());
        lose_the_answer_and_lag_the_look_ups(sandbox);
        let cid = format!("unknown-{transport:?}");
        let order = market_order("BTC_USDT", Side::Buy, "0.01", &cid);
        let config = proven(sandbox).order_sightings(shared.clone());
        let resolution = match transport {
            Transport::Blocking => {
                let client = txc_blocking::ClientBuilder::from(config).build().unwrap();
                let error = client.collateral_market_order(&order).unwrap_err();
                let pending = error.pending_order().unwrap().clone();
                client.resolve(&pending).unwrap()
            }
            Transport::Async => {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                runtime.block_on(async {
                    let client = txc_async::ClientBuilder::from(config).build().unwrap();
                    let error = client.collateral_market_order(&order).await.unwrap_err();
                    let pending = error.pending_order().unwrap().clone();
                    client.resolve(&pending).await.unwrap()
                })
            }
        };
        let txc_blocking::outcomes::Resolution::Placed(placed) = resolution else {
            panic!("{transport:?}: {resolution:?}")
        };
        assert!(placed.evidence.by_event(), "{}", placed.evidence);
        assert_eq!(orders_with(sandbox, &cid), 1);
        events.stop();
    });
}

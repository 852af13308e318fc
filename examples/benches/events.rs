//! Event latency: from the sandbox's execution of an order to the consumer of the event
//! stream, per transport, release build.
//!
//! A REST client places market orders one after another (each fills at once); the stream's
//! consumer takes, for each order's `ordersPending` event, the time it read the event less the
//! order's execution time as the event carries it (`ctime`, the sandbox's clock: this host's).
//! So a figure is the sandbox's own path (the order store's change, the feed, the
//! connection's task, the frame) plus the client's (the socket, the machine's parse and
//! routing, the record's decoding, the driver's hand-over). p50 and p99 over 2 000 orders.
//!
//! Then the recovery: the connection is dropped 20 times (a sandbox fault), one order placed
//! while the stream is away each time; from the drop to the stream's reconnection (its
//! `Resync`) and to the end of its resync (`ResyncDone`, with the missed order reported),
//! with reconnect delays of 10 ms to 100 ms and no token pacing (the figures of the
//! mechanism; with the defaults add the 1 s to 1.5 s first delay, and the client's token
//! pacing — 10 a minute — once the burst is spent). The drops are 1.1 s apart: the sandbox
//! allows 10 token requests per key per 10 s (closer, the 11th is answered 429, retried, and
//! the reconnection waits — as it would on the exchange).
//!
//! `cargo bench -p txc-examples --bench events`; the figures go to BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::indexing_slicing
)]

mod support;

use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_blocking::endpoint::Endpoint;
use txc_blocking::events::{
    AccountEvent, Backoff, ResyncChange, StreamConfig, StreamEvent, Subscription,
    WebSocketTokenQuery,
};
use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::settings::RateLimits;
use txc_blocking::{Client, Credentials};
use txc_sandbox::{Sandbox, WsFault, demo};

const ORDERS: usize = 2_000;

fn credentials() -> Credentials {
    Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap()
}

/// What the stream subscribes to: the partner's orders on BTC_USDT.
fn subscriptions() -> [Subscription; 1] {
    [Subscription::orders_pending(["BTC_USDT"]).unwrap()]
}

/// The latency of one order event: now less the order's `ctime`.
fn latency(event: &StreamEvent) -> Option<Duration> {
    let StreamEvent::Account(AccountEvent::Order(e)) = event else {
        return None;
    };
    let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
    now.checked_sub(e.order.ctime.since_epoch())
}

/// Places the orders from a thread of its own, once `start` says the stream is up.
fn place(sandbox: &Sandbox, start: mpsc::Receiver<()>) -> std::thread::JoinHandle<()> {
    let client = Client::builder(credentials())
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    std::thread::spawn(move || {
        start.recv().unwrap();
        let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
            .build()
            .unwrap();
        for _ in 0..ORDERS {
            client.collateral_market_order(&order).unwrap();
        }
    })
}

/// The latencies of the orders' events as the stream's consumer reads them, and the signal
/// that starts the placer once the stream is up.
struct Latencies {
    go: mpsc::Sender<()>,
    latencies: Vec<Duration>,
}

impl Latencies {
    fn new(go: mpsc::Sender<()>) -> Self {
        let latencies = Vec::with_capacity(ORDERS);
        Self { go, latencies }
    }

    /// Takes the stream's next `event`: whether every order's latency is in.
    fn take(&mut self, event: &StreamEvent) -> bool {
        if matches!(event, StreamEvent::ResyncDone(_)) {
            self.go.send(()).unwrap();
        }
        self.latencies.extend(latency(event));
        self.latencies.len() == ORDERS
    }
}

fn blocking() -> Vec<Duration> {
    let sandbox = support::partner_sandbox();
    let client = Client::builder(credentials())
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    let mut events = client.events(subscriptions()).start().unwrap();
    let (go, start) = mpsc::channel();
    let placer = place(&sandbox, start);
    let mut latencies = Latencies::new(go);
    for event in events.by_ref() {
        if latencies.take(&event) {
            break;
        }
    }
    placer.join().unwrap();
    latencies.latencies
}

fn asynchronous() -> Vec<Duration> {
    let sandbox = support::partner_sandbox();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (go, start) = mpsc::channel();
    let placer = place(&sandbox, start);
    let latencies = runtime.block_on(async {
        let client = txc_async::Client::builder(credentials())
            .base_url(sandbox.base_url())
            .build()
            .unwrap();
        let mut events = client.events(subscriptions()).start().unwrap();
        let mut latencies = Latencies::new(go);
        while let Some(event) = events.next().await {
            if latencies.take(&event) {
                break;
            }
        }
        latencies.latencies
    });
    placer.join().unwrap();
    latencies
}

fn report(name: &str, mut latencies: Vec<Duration>) {
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    println!(
        "{name:>9}: {} events, p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        at(0.50),
        at(0.99),
        latencies[latencies.len() - 1]
    );
}

/// Drops the blocking stream's connection `DROPS` times: (drop → `Resync`, drop →
/// `ResyncDone`) each time, and how many orders placed while away were not reported.
fn recovery() -> (Vec<Duration>, Vec<Duration>, usize) {
    const DROPS: usize = 20;
    let sandbox = support::partner_sandbox();
    let client = Client::builder(credentials())
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
        .build()
        .unwrap();
    let config = StreamConfig::default().with_backoff(
        Backoff::new(Duration::from_millis(10), Duration::from_millis(100))
            .with_stable_after(Duration::from_millis(50)),
    );
    let mut events = client
        .events(subscriptions())
        .config(config)
        .start()
        .unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap();
    let (mut reconnect, mut resynced, mut missed) = (Vec::new(), Vec::new(), 0);
    // Until established.
    for event in events.by_ref() {
        if matches!(event, StreamEvent::ResyncDone(_)) {
            break;
        }
    }
    for _ in 0..DROPS {
        // The sandbox allows 10 token requests per key per 10 s (the exchange: 10 a minute).
        std::thread::sleep(Duration::from_millis(1_100));
        let dropped = std::time::Instant::now();
        sandbox.ws_fault(WsFault::Drop);
        let placed = client.collateral_market_order(&order).unwrap().order_id;
        let mut reported = false;
        for event in events.by_ref() {
            match &event {
                StreamEvent::Resync(_) => reconnect.push(dropped.elapsed()),
                StreamEvent::Resynced(ResyncChange::Finished(h)) if h.id == placed => {
                    reported = true;
                }
                StreamEvent::Account(AccountEvent::Order(e)) if e.order.id == placed => {
                    reported = true;
                }
                StreamEvent::ResyncDone(_) => {
                    resynced.push(dropped.elapsed());
                    break;
                }
                _ => {}
            }
        }
        missed += usize::from(!reported);
    }
    (reconnect, resynced, missed)
}

fn main() {
    // `cargo test --benches` runs benches as tests: a token run then.
    if std::env::args().any(|a| a == "--bench") {
        report("blocking", blocking());
        report("async", asynchronous());
        let (reconnect, resynced, missed) = recovery();
        report("reconnect", reconnect);
        report("resynced", resynced);
        println!("   missed: {missed} of 20 orders placed while away");
    }
}

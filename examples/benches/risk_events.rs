//! Risk-event latency: from a state change in the sandbox to the consumer's `next()` on
//! loopback, per transport, release build.
//!
//! A long of 0.1 BTC_PERP at 65 000 on 1 000 USDT. Margin call: the price set to 57 900 (into
//! margin call; event 1 on `positionsAccountMargin`), timed from just before `set_price` to
//! the consumer's `next()` returning the event, then set back to 65 000 (out of it) — 300
//! times. Funding: `funding_tick()` (the payment moves the balance; `balanceMargin` sends
//! it), timed from just before the tick to the consumer's `next()` returning the balance —
//! 300 times. The consumer runs on a thread of its own (blocking `EventIter`) or a tokio task
//! (async `EventStream`), stamping the instant `next()` returned; so a figure is the sandbox's
//! change and feed, the frame, the socket, the machine's parse and decoding, and the driver's
//! hand-over. Median, p99 and max of each.
//!
//! `cargo bench -p txc-examples --bench risk_events`; the figures go to BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::indexing_slicing
)]

use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use txc_blocking::events::{AccountEvent, PositionEventKind, StreamEvent, Subscription};
use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::{Client, Credentials};
use txc_sandbox::{AccountConfig, Sandbox};

const KEY: (&str, &str) = ("latency", "latency-secret");
const SAMPLES: usize = 300;

/// What the consumer saw, and when its `next()` returned it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Ready,
    MarginCall,
    Balance,
}

fn subscriptions() -> Vec<Subscription> {
    vec![
        Subscription::position_events(),
        Subscription::balance_margin(["USDT"]).unwrap(),
    ]
}

fn classify(event: &StreamEvent) -> Option<Seen> {
    match event {
        StreamEvent::ResyncDone(_) => Some(Seen::Ready),
        StreamEvent::Account(AccountEvent::PositionEvent(e))
            if e.kind == PositionEventKind::MarginCall =>
        {
            Some(Seen::MarginCall)
        }
        StreamEvent::Account(AccountEvent::Balances(_)) => Some(Seen::Balance),
        _ => None,
    }
}

/// The blocking consumer: the iterator on a thread of its own.
fn blocking(sandbox: &Sandbox, tx: Sender<(Seen, Instant)>) {
    let client = Client::builder(Credentials::new(KEY.0, KEY.1).unwrap())
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    let events = client.events(subscriptions()).start().unwrap();
    std::thread::spawn(move || {
        for event in events {
            let at = Instant::now();
            if let Some(seen) = classify(&event)
                && tx.send((seen, at)).is_err()
            {
                return;
            }
        }
    });
}

/// The async consumer: the stream on a tokio task.
fn asynchronous(sandbox: &Sandbox, tx: Sender<(Seen, Instant)>) -> tokio::runtime::Runtime {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let base_url = sandbox.base_url().to_owned();
    runtime.spawn(async move {
        let client = txc_async::Client::builder(Credentials::new(KEY.0, KEY.1).unwrap())
            .base_url(&base_url)
            .build()
            .unwrap();
        let mut events = client.events(subscriptions()).start().unwrap();
        while let Some(event) = events.next().await {
            let at = Instant::now();
            if let Some(seen) = classify(&event)
                && tx.send((seen, at)).is_err()
            {
                return;
            }
        }
    });
    runtime
}

/// Waits for `wanted`, dropping what else arrives; when it came.
fn wait(rx: &Receiver<(Seen, Instant)>, wanted: Seen) -> Instant {
    loop {
        let (seen, at) = rx.recv_timeout(Duration::from_secs(10)).expect("an event");
        if seen == wanted {
            return at;
        }
    }
}

/// Drops what arrived so far (and whatever arrives in the next few milliseconds).
fn drain(rx: &Receiver<(Seen, Instant)>) {
    while rx.recv_timeout(Duration::from_millis(5)).is_ok() {}
}

fn summary(name: &str, samples: &mut [Duration]) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name:<32} median {:>9.1?}  p99 {:>9.1?}  max {:>9.1?}  (n = {})",
        at(0.5),
        at(0.99),
        samples[samples.len() - 1],
        samples.len()
    );
}

fn run(transport: &str) {
    let sandbox = Sandbox::builder()
        .account(AccountConfig::new(KEY.0, KEY.1).balance("USDT", "1000"))
        .start()
        .unwrap();
    let client = Client::builder(Credentials::new(KEY.0, KEY.1).unwrap())
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    let order = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "0.1")
        .build()
        .unwrap();
    client.collateral_market_order(&order).unwrap();
    let (tx, rx) = channel();
    let _runtime = match transport {
        "blocking" => {
            blocking(&sandbox, tx);
            None
        }
        _ => Some(asynchronous(&sandbox, tx)),
    };
    wait(&rx, Seen::Ready);

    let mut margin = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        drain(&rx);
        let start = Instant::now();
        sandbox.set_price("BTC_PERP", "57900").unwrap();
        margin.push(wait(&rx, Seen::MarginCall) - start);
        sandbox.set_price("BTC_PERP", "65000").unwrap();
    }
    let mut funding = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        drain(&rx);
        let start = Instant::now();
        assert_eq!(sandbox.funding_tick().len(), 1);
        funding.push(wait(&rx, Seen::Balance) - start);
    }
    summary(&format!("{transport}: price → margin call"), &mut margin);
    summary(&format!("{transport}: funding → balance"), &mut funding);
}

fn main() {
    for transport in ["blocking", "async"] {
        run(transport);
    }
}

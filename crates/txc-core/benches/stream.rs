//! Event throughput of the stream machine: one recorded update frame of each private channel
//! (the spec's examples, compacted as they arrive on the socket) handed to an established
//! [`StreamMachine`] and polled until its event is out — parse, routing and the record's
//! decoding — beside the floor of a bare `serde_json` parse of the same frame, into a `Value`
//! (what a client without txc would do first) and into nothing (`IgnoredAny`). Both sides get
//! the frame as an owned `String`, as a socket hands it over; `record` is the machine's share
//! spent decoding the record alone (the channel's `from_raw_params` — `from_params` for the
//! object records — on the `params` as read from the frame).
//!
//! A timed run, not divan: the sides take turns, a batch of 200 frames each, for 301 rounds,
//! so that the host's drift (it is shared) moves both alike; each side's figure is the median
//! of its rounds, each ratio the median of the rounds' ratios, and `fastest` the ratio of the
//! sides' fastest rounds (the least disturbed). Run:
//! `cargo bench -p txc-core --bench stream` (`TXC_BENCH_CHANNEL=deals` for one channel, e.g.
//! under a profiler); the figures go to BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs,
    unreachable_pub,
    clippy::print_stdout,
    clippy::cast_precision_loss
)]

#[path = "../tests/stream/driver.rs"]
mod driver;

use std::hint::black_box;

use serde_json::value::RawValue;
use std::time::Instant;

use txc_core::stream::{
    Channel, ExecutedFilter, StreamConfig, StreamEvent, StreamInput, StreamMachine, StreamStep,
    Subscription,
};

const ROUNDS: usize = 301;
const BATCH: u32 = 200;

/// The channels, by name, with their update frame.
const FRAMES: [(&str, &str); 6] = [
    (
        "ordersPending",
        include_str!("../tests/fixtures/ws/orders_pending/update.json"),
    ),
    (
        "ordersExecuted",
        include_str!("../tests/fixtures/ws/orders_executed/update.json"),
    ),
    (
        "deals",
        include_str!("../tests/fixtures/ws/deals/update.json"),
    ),
    (
        "balanceMargin",
        include_str!("../tests/fixtures/ws/balance_margin/update.json"),
    ),
    (
        "positionsMargin",
        include_str!("../tests/fixtures/ws/positions/update.json"),
    ),
    (
        "positionsAccountMargin",
        include_str!("../tests/fixtures/ws/margin_positions_events/update.json"),
    ),
];

const CHANNELS: [&str; 6] = [
    "ordersPending",
    "ordersExecuted",
    "deals",
    "balanceMargin",
    "positionsMargin",
    "positionsAccountMargin",
];

/// The channel's frame, compact as the socket delivers it.
fn frame(channel: &str) -> String {
    let (_, text) = FRAMES.iter().find(|(name, _)| *name == channel).unwrap();
    serde_json::from_str::<serde_json::Value>(text)
        .unwrap()
        .to_string()
}

/// A machine subscribed to every channel, established.
fn established() -> driver::Driver {
    let subscriptions = Channel::ALL.into_iter().map(|channel| match channel {
        Channel::OrdersPending => Subscription::orders_pending(["BTC_USDT", "ETH_BTC"]).unwrap(),
        Channel::OrdersExecuted => {
            Subscription::orders_executed(["BTC_USDT", "ETH_BTC"], ExecutedFilter::LimitAndMarket)
                .unwrap()
        }
        Channel::Deals => Subscription::deals(["BTC_USDT", "ETH_BTC"]).unwrap(),
        Channel::BalanceMargin => Subscription::balance_margin(["BTC", "USDT"]).unwrap(),
        Channel::Positions => Subscription::positions(),
        _ => Subscription::position_events(),
    });
    let machine = StreamMachine::new(StreamConfig::default(), subscriptions, 7).unwrap();
    let mut driver = driver::Driver::new(machine);
    driver.establish();
    driver
}

/// Hands `frame` to the machine and polls its event out.
fn through(machine: &mut StreamMachine, now: std::time::SystemTime, frame: String) -> StreamEvent {
    machine.handle(now, StreamInput::Text(frame));
    let mut out = None;
    loop {
        match machine.poll(now) {
            StreamStep::Event(event) => out = Some(event),
            _ => return out.expect("the update's event"),
        }
    }
}

/// The nanoseconds a frame took in a batch of `run`.
fn per_frame(mut run: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..BATCH {
        run();
    }
    start.elapsed().as_nanos() as f64 / f64::from(BATCH)
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The channel's record decoded from its `params`, as the machine does last (positional
/// records split from the frame's text as read, objects read from it).
fn record(channel: Channel, params: &RawValue) -> bool {
    use txc_types::events as e;
    let text = params.get();
    match channel {
        Channel::OrdersPending => e::OrderEvent::from_raw_params(params).is_ok(),
        Channel::OrdersExecuted => e::ExecutedOrders::from_params(text).is_ok(),
        Channel::Deals => e::Deal::from_raw_params(params).is_ok(),
        Channel::BalanceMargin => e::MarginBalances::from_params(text).is_ok(),
        Channel::Positions => e::Positions::from_params(text).is_ok(),
        _ => e::PositionEvent::from_raw_params(params).is_ok(),
    }
}

fn main() {
    println!(
        "{:<24} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "channel",
        "machine",
        "record",
        "value",
        "ignored",
        "÷ value",
        "÷ ignored",
        "fastest",
        "events/s"
    );
    let only = std::env::var("TXC_BENCH_CHANNEL").ok();
    for channel in CHANNELS
        .into_iter()
        .filter(|c| only.as_deref().is_none_or(|o| o == *c))
    {
        let frame = frame(channel);
        let parsed: serde_json::Value = serde_json::from_str(&frame).unwrap();
        let params = RawValue::from_string(parsed["params"].to_string()).unwrap();
        let which = Channel::from_update_method(parsed["method"].as_str().unwrap()).unwrap();
        let mut driver = established();
        let now = driver.now;
        assert!(matches!(
            through(&mut driver.machine, now, frame.clone()),
            StreamEvent::Account(_)
        ));
        assert!(record(which, &params));
        let (mut machine, mut decode, mut value, mut ignored) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut by_value, mut by_ignored) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let m = per_frame(|| {
                black_box(through(&mut driver.machine, now, black_box(frame.clone())));
            });
            let r = per_frame(|| {
                black_box(record(which, black_box(&params)));
            });
            let v = per_frame(|| {
                let owned = black_box(frame.clone());
                black_box(serde_json::from_str::<serde_json::Value>(&owned).unwrap());
            });
            let i = per_frame(|| {
                let owned = black_box(frame.clone());
                black_box(serde_json::from_str::<serde::de::IgnoredAny>(&owned).unwrap());
            });
            by_value.push(m / v);
            by_ignored.push(m / i);
            machine.push(m);
            decode.push(r);
            value.push(v);
            ignored.push(i);
        }
        let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let least = fastest(&machine) / fastest(&value);
        let m = median(&mut machine);
        println!(
            "{:<24} {:>8.0}ns {:>8.0}ns {:>8.0}ns {:>8.0}ns {:>9.2}× {:>9.2}× {:>9.2}× {:>12.0}",
            channel,
            m,
            median(&mut decode),
            median(&mut value),
            median(&mut ignored),
            median(&mut by_value),
            median(&mut by_ignored),
            least,
            1e9 / m,
        );
    }
}

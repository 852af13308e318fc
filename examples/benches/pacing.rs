//! The client's rate limiter against the sandbox, one key, blocking client, release build:
//!
//! 1. **Saturation** — 8 threads placing orders as fast as they can for 12 s (more than one
//!    10 s window), with the limiter and without it: orders per second accepted (overall and
//!    over the last 10 s, past the burst), and the sandbox's 429 answers.
//! 2. **Added latency** — the same open-loop schedule (400 orders per second, well within the
//!    limit) with and without the limiter: p50 and p99 of each call, so the difference is
//!    what the limiter costs when it does not have to wait.
//!
//! `cargo bench -p txc-examples --bench pacing`; the figures go to BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod support;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::{Client, Credentials};
use txc_sandbox::{Sandbox, demo};

const THREADS: usize = 8;
const SATURATION: Duration = Duration::from_secs(12);
const OPEN_LOOP_RATE: u32 = 400;
const OPEN_LOOP: Duration = Duration::from_secs(5);

fn client(sandbox: &Sandbox, limited: bool) -> Client {
    let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap();
    let builder = Client::builder(credentials).base_url(sandbox.base_url());
    // Without the limiter, a 429 would be retried; count it instead.
    let builder = builder.retry_policy(txc_blocking::settings::RetryPolicy::disabled());
    let builder = if limited {
        // A limiter of its own, so the runs do not share an allowance.
        builder.rate_limits(txc_blocking::settings::RateLimits::documented())
    } else {
        builder.no_rate_limit()
    };
    builder.build().unwrap()
}

/// An order of its own (its own `clientOrderId`): one client refuses an id it used moments ago.
fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn saturation(limited: bool) {
    let sandbox = support::partner_sandbox();
    let client = client(&sandbox, limited);
    let start = Instant::now();
    let accepted_at = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                let mut mine = Vec::new();
                while start.elapsed() < SATURATION {
                    if client.collateral_market_order(&order()).is_ok() {
                        mine.push(start.elapsed());
                    }
                }
                accepted_at.lock().unwrap().extend(mine);
            });
        }
    });
    let accepted = accepted_at.into_inner().unwrap();
    let window_start = SATURATION - Duration::from_secs(10);
    let last_window = accepted.iter().filter(|t| **t >= window_start).count();
    let stats = sandbox.stats();
    println!(
        "saturation, limiter {:<3}: {:>6} accepted in {} s = {:>6.0}/s; last 10 s {:>6} = {:>6.0}/s; sandbox 429s {}",
        if limited { "on" } else { "off" },
        accepted.len(),
        SATURATION.as_secs(),
        accepted.len() as f64 / SATURATION.as_secs_f64(),
        last_window,
        last_window as f64 / 10.0,
        stats.rate_limited,
    );
}

fn open_loop(limited: bool) {
    let sandbox = support::partner_sandbox();
    let client = client(&sandbox, limited);
    // Warm the connection pool.
    for _ in 0..20 {
        client.collateral_market_order(&order()).unwrap();
    }
    std::thread::sleep(Duration::from_secs(1));
    let interval = Duration::from_secs(1) / OPEN_LOOP_RATE;
    let calls = OPEN_LOOP.as_secs() as u32 * OPEN_LOOP_RATE;
    let start = Instant::now();
    let mut latencies = Vec::with_capacity(calls as usize);
    for i in 0..calls {
        let due = start + interval * i;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let t = Instant::now();
        client.collateral_market_order(&order()).unwrap();
        latencies.push(t.elapsed());
    }
    latencies.sort();
    println!(
        "open loop {OPEN_LOOP_RATE}/s, limiter {:<3}: p50 {:>7.1} µs, p99 {:>7.1} µs ({} calls)",
        if limited { "on" } else { "off" },
        percentile(&latencies, 0.50).as_secs_f64() * 1e6,
        percentile(&latencies, 0.99).as_secs_f64() * 1e6,
        latencies.len(),
    );
}

fn main() {
    // `cargo test --benches` runs benches with `--test`: keep that quick.
    if std::env::args().any(|a| a == "--test") {
        return;
    }
    open_loop(false);
    open_loop(true);
    saturation(true);
    saturation(false);
}

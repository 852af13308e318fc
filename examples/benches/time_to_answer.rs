//! Time to a definite answer, measured from the last attempt, against the floor the rule allows
//! — per transport and through the `txc` binary, against the sandbox with the rule's own
//! timing (no unproven setting: the 10 s settling delay, the documented acceptance window).
//!
//! Each sample sends an order (or an investment) whose answer the sandbox loses after placing
//! it (`Fault::DropAfterProcessing`), or refuses with a 503 without placing it
//! (`Fault::Unavailable`, "a request that never arrived" as far as the client can tell), then
//! resolves it; the figure is the time from the last attempt's signing to the answer:
//!
//! - **placed, by look-up**: the first look (open orders, then the history) finds it; the
//!   floor is that look's round trips;
//! - **placed, by event**: the private stream open and the look-ups lagging 2 s, its
//!   `ordersPending` event proves it; the floor is zero (the event comes before the lost answer
//!   is reported);
//! - **not placed** / **not invested**: two rounds prove absence; the floor is the rule's:
//!   the acceptance window's end (last nonce + 5 s nonce window + 5 s creation allowance), on
//!   the exchange's clock as measured — its lower bound, so the clock uncertainty the answers'
//!   `Date` leave — then the settling delay before the first round and again before the
//!   second. `floor` = `settled_at + delay − lo` (local) `+ delay`, from each answer's own
//!   evidence; the margin is the measured time less it;
//! - **CLI not placed**: `txc market` refused with the 503 (exit 4), then `txc resolve` from
//!   the journal in a new process, from the attempt's nonce to the process's exit. Needs the
//!   binary: `cargo build --release -p txc-cli` (or `TXC_BIN=path`); skipped without it.
//!
//! `cargo bench -p txc-examples --bench time_to_answer`; the figures go to BENCHMARKS.md.
//! Under `cargo test --benches` only the quick cases run, once.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use txc_blocking::endpoint::Endpoint;
use txc_blocking::events::WebSocketTokenQuery;
use txc_blocking::investments::Invest;
use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::outcomes::{
    Evidence, InvestResolution, InvestmentWriters, PendingInvestment, PendingOrder, Resolution,
};
use txc_blocking::settings::{ClientConfig, RateLimits};
use txc_blocking::{Credentials, Error};
use txc_sandbox::{Fault, Route, Sandbox, demo};

/// The docs' example plan (the sandbox's first).
const PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";

/// The partner's key on `sandbox`, the rule's timing, no token pacing.
fn config(sandbox: &Sandbox) -> ClientConfig {
    ClientConfig::new(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap())
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
        .investment_writers(InvestmentWriters::Sole)
}

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap()
}

/// A call of one transport's client, shared by the threads of the long cases.
type CallOf<T, R> = Box<dyn Fn(&T) -> Result<R, Error> + Send + Sync>;

/// One transport's calls.
struct Calls {
    place: CallOf<CollateralMarketOrder, ()>,
    resolve: CallOf<PendingOrder, Resolution>,
    invest: CallOf<Invest, ()>,
    resolve_investment: CallOf<PendingInvestment, InvestResolution>,
}

/// A sample: the time from the last attempt to the answer, and the floor the rule allows.
#[derive(Debug, Clone, Copy)]
struct Sample {
    took: Duration,
    floor: Duration,
    /// How much later than its lower bound the exchange's clock may have been (the wait the
    /// clock's uncertainty adds): `−lo`, when measured.
    uncertainty: Duration,
}

/// The floor of a "not placed" answer proven by `evidence`, from `last` (the last attempt's
/// signing): the first round may go once the exchange's clock is certainly past the attempts'
/// settling time plus the delay, the second the delay after.
fn absence_floor(evidence: &Evidence, last: SystemTime) -> (Duration, Duration) {
    let clock = evidence.clock.expect("measured");
    let settled = evidence.attempts_settled_at.expect("known");
    let first = clock.local_when_reached(settled + evidence.settle_delay);
    let floor = (first + evidence.settle_delay)
        .duration_since(last)
        .unwrap_or_default();
    let lo = clock.lo().as_millis();
    (floor, Duration::from_millis(lo.unsigned_abs()))
}

fn last_signed(attempts: &[txc_blocking::outcomes::AttemptRecord]) -> SystemTime {
    attempts.iter().map(|a| a.signed_at).max().unwrap()
}

/// An order answered with `fault`, resolved: the sample.
fn order_sample(sandbox: &Sandbox, calls: &Calls, fault: Fault) -> Sample {
    sandbox.inject_fault(Route::CollateralMarket, fault, Some(1));
    let error = (calls.place)(&order()).unwrap_err();
    let pending = error.pending_order().expect("outcome unknown").clone();
    let last = last_signed(pending.attempts());
    let resolution = (calls.resolve)(&pending).unwrap();
    let took = SystemTime::now().duration_since(last).unwrap();
    match resolution {
        Resolution::Placed(placed) if placed.evidence.by_event() => Sample {
            took,
            floor: Duration::ZERO,
            uncertainty: Duration::ZERO,
        },
        Resolution::Placed(placed) => {
            let look = &placed.evidence.rounds[0];
            let first = look.looks.first().unwrap().sent_at;
            let answered = look.looks.last().unwrap().answered_at;
            let floor = answered.duration_since(first).unwrap_or_default();
            Sample {
                took,
                floor,
                uncertainty: Duration::ZERO,
            }
        }
        Resolution::NotPlaced(evidence) => {
            let (floor, uncertainty) = absence_floor(&evidence, last);
            Sample {
                took,
                floor,
                uncertainty,
            }
        }
        other => panic!("{other:?}"),
    }
}

/// An investment refused with a 503 (never made), resolved: the sample.
fn investment_sample(sandbox: &Sandbox, calls: &Calls) -> Sample {
    sandbox.inject_fault(Route::Invest, Fault::Unavailable, Some(1));
    let error = (calls.invest)(&Invest::new(PLAN, "250").unwrap()).unwrap_err();
    let pending = error.pending_investment().expect("outcome unknown").clone();
    let last = last_signed(pending.attempts());
    let resolution = (calls.resolve_investment)(&pending).unwrap();
    let took = SystemTime::now().duration_since(last).unwrap();
    let InvestResolution::NotInvested { evidence } = resolution else {
        panic!("{resolution:?}")
    };
    let (floor, uncertainty) = absence_floor(&evidence, last);
    Sample {
        took,
        floor,
        uncertainty,
    }
}

fn blocking(config: ClientConfig, stream: bool) -> Calls {
    let client = support::blocking_with_stream(config, stream);
    let (a, b, c) = (client.clone(), client.clone(), client.clone());
    Calls {
        place: Box::new(move |o| a.collateral_market_order(o).map(drop)),
        resolve: Box::new(move |p| b.resolve(p)),
        invest: Box::new(move |i| c.invest(i).map(drop)),
        resolve_investment: Box::new(move |p| client.resolve_investment(p)),
    }
}

fn asynchronous(config: ClientConfig, stream: bool) -> Calls {
    let (runtime, client) = support::async_with_stream(config, stream);
    let (a, b, c) = (client.clone(), client.clone(), client.clone());
    let (ra, rb, rc) = (runtime.clone(), runtime.clone(), runtime.clone());
    Calls {
        place: Box::new(move |o| ra.block_on(a.collateral_market_order(o)).map(drop)),
        resolve: Box::new(move |p| rb.block_on(b.resolve(p))),
        invest: Box::new(move |i| rc.block_on(c.invest(i)).map(drop)),
        resolve_investment: Box::new(move |p| runtime.block_on(client.resolve_investment(p))),
    }
}

/// `n` samples of `sample`, each on a sandbox and client of its own, all at once (the long
/// cases wait, side by side).
fn at_once(n: usize, sample: impl Fn() -> Sample + Sync) -> Vec<Sample> {
    std::thread::scope(|scope| {
        let running: Vec<_> = (0..n).map(|_| scope.spawn(&sample)).collect();
        running.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

fn report(name: &str, mut samples: Vec<Sample>) {
    samples.sort_by_key(|s| s.took);
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
    let s = |d: Duration| format!("{:.2} s", d.as_secs_f64());
    let show = |d: Duration| {
        if d < Duration::from_secs(1) {
            ms(d)
        } else {
            s(d)
        }
    };
    let median = samples[samples.len() / 2];
    let worst = samples
        .iter()
        .map(|x| x.took.saturating_sub(x.floor))
        .max()
        .unwrap();
    println!(
        "{name:>44}: {:>2} samples; took p50 {}, max {}; floor p50 {} (clock uncertainty {}); \
         over the floor: p50 {}, max {}",
        samples.len(),
        show(median.took),
        show(samples[samples.len() - 1].took),
        show(median.floor),
        ms(median.uncertainty),
        show(median.took.saturating_sub(median.floor)),
        show(worst),
    );
}

/// The `txc` binary: `TXC_BIN`, else the workspace's release (or debug) build.
fn txc_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TXC_BIN") {
        return Some(PathBuf::from(path));
    }
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target");
    ["release", "debug"]
        .iter()
        .map(|profile| target.join(profile).join("txc"))
        .find(|path| path.exists())
}

/// `txc market` refused with a 503 (exit 4), then `txc resolve` from the journal in a new
/// process: from the attempt's nonce to that process's exit, and the floor its answer states.
fn cli_sample(txc: &PathBuf) -> Sample {
    let sandbox = support::partner_sandbox();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let state = std::env::temp_dir().join(format!(
        "txc-time-to-answer-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let run = |args: &[&str]| {
        Command::new(txc)
            .env_clear()
            .env("TXC_BASE_URL", sandbox.base_url())
            .env("TXC_API_KEY", demo::PARTNER_API_KEY)
            .env("TXC_API_SECRET", demo::PARTNER_API_SECRET)
            .env("TXC_STATE_DIR", &state)
            .env("HOME", &state)
            .args(args)
            .output()
            .unwrap()
    };
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, Some(1));
    let placed = run(&["--json", "market", "BTC_USDT", "buy", "0.001"]);
    assert_eq!(placed.status.code(), Some(4));
    let error: serde_json::Value = serde_json::from_slice(&placed.stdout).unwrap();
    let pending = &error["error"]["pending"];
    let nonce = pending["nonces"][0].as_u64().unwrap();
    let id = pending["client_order_id"].as_str().unwrap();
    let resolved = run(&["--json", "resolve", "BTC_USDT", id]);
    let took = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH + Duration::from_millis(nonce))
        .unwrap();
    assert_eq!(resolved.status.code(), Some(0), "{resolved:?}");
    let _ = std::fs::remove_dir_all(&state);
    let answer: serde_json::Value = serde_json::from_slice(&resolved.stdout).unwrap();
    assert_eq!(answer["result"]["placed"], false);
    // The floor from what proved it, as `proved_by` states it: the window's end, the clock's
    // lower bound and the settling delay.
    let proved_by = answer["result"]["proved_by"].as_str().unwrap();
    let after = |text: &str, start: &str, end: char| -> f64 {
        let rest = text.split(start).nth(1).unwrap();
        rest.split(end).next().unwrap().trim().parse().unwrap()
    };
    let window_end = after(proved_by.split("; window ").nth(1).unwrap(), "–", ';');
    let lo_ms = after(proved_by, "local clock in [", ',');
    let delay_ms = after(proved_by, "settling delay ", ' ');
    let floor_ms = window_end * 1e3 + delay_ms - lo_ms + delay_ms - nonce as f64;
    Sample {
        took,
        floor: Duration::from_secs_f64(floor_ms / 1e3),
        uncertainty: Duration::from_secs_f64(-lo_ms.min(0.0) / 1e3),
    }
}

fn main() {
    // `cargo test --benches` runs benches as tests: the quick cases once, then.
    let quick = !std::env::args().any(|a| a == "--bench");
    let (placed, absent) = if quick { (1, 0) } else { (20, 3) };
    type Transport = fn(ClientConfig, bool) -> Calls;
    let transports: [(&str, Transport); 2] = [("blocking", blocking), ("async", asynchronous)];
    for (name, transport) in transports {
        let sandbox = support::partner_sandbox();
        let calls = transport(config(&sandbox), false);
        let samples = (0..placed)
            .map(|_| order_sample(&sandbox, &calls, Fault::DropAfterProcessing))
            .collect();
        report(&format!("{name}: placed, by look-up"), samples);
        // The look-ups lagging 2 s (as the exchange's may): the event is the proof.
        let sandbox = support::partner_sandbox();
        for route in [Route::OpenOrders, Route::OrderHistory] {
            sandbox.inject_fault(route, Fault::Lagging(Duration::from_secs(2)), None);
        }
        let calls = transport(config(&sandbox), true);
        let samples = (0..placed)
            .map(|_| order_sample(&sandbox, &calls, Fault::DropAfterProcessing))
            .collect();
        report(&format!("{name}: placed, by event"), samples);
        if absent == 0 {
            continue;
        }
        let samples = at_once(absent, || {
            let sandbox = support::partner_sandbox();
            order_sample(
                &sandbox,
                &transport(config(&sandbox), false),
                Fault::Unavailable,
            )
        });
        report(&format!("{name}: not placed"), samples);
        let samples = at_once(absent, || {
            let sandbox = support::partner_sandbox();
            investment_sample(&sandbox, &transport(config(&sandbox), false))
        });
        report(&format!("{name}: not invested"), samples);
    }
    if absent == 0 {
        return;
    }
    match txc_binary() {
        Some(txc) => report(
            "txc (CLI): not placed, resolved in a new process",
            at_once(absent, || cli_sample(&txc)),
        ),
        None => println!(
            "txc (CLI): skipped — build it first: cargo build --release -p txc-cli (or TXC_BIN)"
        ),
    }
}

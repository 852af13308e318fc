//! Time to resolve an order whose answer is lost, with the private event stream open and with
//! the look-ups only, per transport, against the sandbox, release build.
//!
//! Each sample places a market order (`collateral_market_order`) whose answer the sandbox
//! loses after placing it (`Fault::DropAfterProcessing`): the call ends "outcome unknown", and
//! the figure is the time `resolve(pending)` then takes to answer "placed". Cases:
//!
//! - **stream open** (the client's own `events`, publishing to its `OrderSightings`), the
//!   look-ups lagging 2 s behind the orders (`Fault::Lagging`, as the exchange's look-ups may):
//!   the order's event proves it — usually it arrived before the lost answer was reported, so
//!   resolving makes no request;
//! - **look-ups only, no lag**: the first look (open orders, then history) finds it;
//! - **look-ups only, lagging 2 s, `unproven_settle_delay(2.5 s)`**: the first look misses it,
//!   the next round — once the acceptance window has closed (nonce + 5 s + 5 s allowance),
//!   plus the caller's 2.5 s — finds it (about 12.5 s: a shorter settling delay does not move
//!   the window);
//! - **look-ups only, lagging 2 s, default settings** (the rule's timing, 10 s settling
//!   delay): the first look misses it, the first round that may prove anything — once the
//!   exchange's clock is past the window (nonce + 5 s + 5 s allowance) plus 10 s — finds it;
//! - **not placed, stream open, default settings** (`Fault::Unavailable`: nothing placed):
//!   events never prove absence, so the two rounds of the rule decide, as without a stream.
//!
//! `cargo bench -p txc-examples --bench resolve_events`; the figures go to BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::time::{Duration, Instant};

use txc_blocking::endpoint::Endpoint;
use txc_blocking::errors::ValidationError;
use txc_blocking::events::WebSocketTokenQuery;
use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::outcomes::{PendingOrder, Resolution};
use txc_blocking::settings::{ClientConfig, RateLimits};
use txc_blocking::{Credentials, Error};
use txc_sandbox::{Fault, Route, Sandbox, demo};

/// How far the look-ups lag behind the orders in the lagging cases.
const LAG: Duration = Duration::from_secs(2);

fn sandbox(lagging: bool) -> Sandbox {
    let sandbox = support::partner_sandbox();
    if lagging {
        for route in [Route::OpenOrders, Route::OrderHistory] {
            sandbox.inject_fault(route, Fault::Lagging(LAG), None);
        }
    }
    sandbox
}

/// The partner's key on `sandbox`, default settings but no token pacing.
fn config(sandbox: &Sandbox) -> ClientConfig {
    ClientConfig::new(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap())
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
}

fn order() -> Result<CollateralMarketOrder, ValidationError> {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001").build()
}

/// Places an order (its answer lost).
type PlaceCall = Box<dyn Fn(&CollateralMarketOrder) -> Result<(), Error>>;
/// Resolves a pending order.
type ResolveCall = Box<dyn Fn(&PendingOrder) -> Result<Resolution, Error>>;

/// One transport's calls: place (the answer lost), resolve.
struct Calls {
    place: PlaceCall,
    resolve: ResolveCall,
}

/// `samples` resolutions of orders the sandbox answers with `fault` (after placing them, or
/// not): each resolution's time, and how many an event proved.
fn run(sandbox: &Sandbox, calls: &Calls, fault: &Fault, samples: usize) -> (Vec<Duration>, usize) {
    let mut times = Vec::with_capacity(samples);
    let mut by_event = 0;
    for _ in 0..samples {
        sandbox.inject_fault(Route::CollateralMarket, fault.clone(), Some(1));
        let error = (calls.place)(&order().unwrap()).unwrap_err();
        let pending = error.pending_order().expect("outcome unknown").clone();
        let started = Instant::now();
        let resolution = (calls.resolve)(&pending).unwrap();
        times.push(started.elapsed());
        match (&resolution, fault) {
            (Resolution::Placed(placed), Fault::DropAfterProcessing) => {
                by_event += usize::from(placed.evidence.by_event());
            }
            (Resolution::NotPlaced(_), Fault::Unavailable) => {}
            other => panic!("{other:?}"),
        }
    }
    (times, by_event)
}

/// The blocking client of `config`, with its own stream read on a thread when `stream`.
fn blocking(config: ClientConfig, stream: bool) -> Calls {
    let client = support::blocking_with_stream(config, stream);
    let placer = client.clone();
    Calls {
        place: Box::new(move |o| placer.collateral_market_order(o).map(drop)),
        resolve: Box::new(move |p| client.resolve(p)),
    }
}

/// The async client of `config` on a runtime of its own (one worker: the stream's task), with
/// its own stream when `stream`; each call is `block_on`.
fn asynchronous(config: ClientConfig, stream: bool) -> Calls {
    let (runtime, client) = support::async_with_stream(config, stream);
    let (placer, rt) = (client.clone(), runtime.clone());
    Calls {
        place: Box::new(move |o| rt.block_on(placer.collateral_market_order(o)).map(drop)),
        resolve: Box::new(move |p| runtime.block_on(client.resolve(p))),
    }
}

fn report(name: &str, (mut times, by_event): (Vec<Duration>, usize)) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{name:>52}: {:>3} resolved, {:>3} by an event; p50 {:?}, p99 {:?}, max {:?}",
        times.len(),
        by_event,
        at(0.50),
        at(0.99),
        times[times.len() - 1]
    );
}

fn main() {
    // `cargo test --benches` runs benches as tests: a token run then.
    let quick = !std::env::args().any(|a| a == "--bench");
    let (many, few) = if quick { (2, 0) } else { (200, 3) };
    // The last case's one sample, in a full run only.
    let once = few.min(1);
    type Transport = fn(ClientConfig, bool) -> Calls;
    let transports: [(&str, Transport); 2] = [("blocking", blocking), ("async", asynchronous)];
    let unproven = |s: &Sandbox| config(s).unproven_settle_delay(LAG + Duration::from_millis(500));
    let lost = Fault::DropAfterProcessing;
    // (case, look-ups lagging, settings, stream open, the order's fault, samples).
    type Settings<'a> = &'a dyn Fn(&Sandbox) -> ClientConfig;
    let cases: [(&str, bool, Settings<'_>, bool, &Fault, usize); 5] = [
        (
            "stream open, look-ups lagging 2 s",
            true,
            &config,
            true,
            &lost,
            many,
        ),
        ("look-ups only, no lag", false, &config, false, &lost, many),
        (
            "look-ups only, lagging 2 s, unproven 2.5 s",
            true,
            &unproven,
            false,
            &lost,
            few,
        ),
        (
            "look-ups only, lagging 2 s, default settings",
            true,
            &config,
            false,
            &lost,
            few,
        ),
        (
            "not placed, stream open, default settings",
            false,
            &config,
            true,
            &Fault::Unavailable,
            once,
        ),
    ];
    for (name, transport) in transports {
        for &(case, lagging, settings, stream, fault, samples) in &cases {
            if samples == 0 {
                continue;
            }
            let s = sandbox(lagging);
            report(
                &format!("{name}: {case}"),
                run(&s, &transport(settings(&s), stream), fault, samples),
            );
        }
    }
}

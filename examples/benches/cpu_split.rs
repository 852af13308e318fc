//! Where an async order's CPU goes, beside the same-work baseline (`support/raw.rs`): 64 in
//! flight against the embedded sandbox, limiter off, as in `e2e_paired`.
//!
//! - `cpu_split txc` or `cpu_split same`: warm-up rounds, then `ROUNDS` rounds (default 300)
//!   of 128 orders, and per order the wall time and the process's CPU time split between the
//!   sandbox's threads (named `txc-sandbox…`) and the rest (the client, its runtime and the
//!   HTTP stack). Linux only: it reads `/proc/self/task`.
//! - `cpu_split alt`: txc and the baseline taking turns round by round; each side's median
//!   and the throughput ratio.
//!
//! Under `valgrind --tool=callgrind --cache-sim=yes`, one side at a time, it gives the
//! deterministic instruction and cache-miss counts per order in BENCHMARKS.md ("The async
//! call's footprint"): `ROUNDS=20 valgrind --tool=callgrind --cache-sim=yes
//! target/release/deps/cpu_split-… txc` (the binary `cargo bench -p txc-examples --bench
//! cpu_split --no-run` names).

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::print_stdout)]

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::*;
use txc_async::reqwest;

/// Rounds before the measured ones.
const WARM_ROUNDS: usize = 20;
/// Orders per round.
const ROUND: usize = IN_FLIGHT * PER_TASK;

/// CPU seconds so far of the sandbox's threads and of the others, from `/proc/self/task`.
fn thread_cpu() -> Option<(f64, f64)> {
    let (mut sandbox, mut other) = (0.0, 0.0);
    for entry in std::fs::read_dir("/proc/self/task").ok()? {
        let path = entry.ok()?.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
        // After the command's closing parenthesis: utime and stime are fields 12 and 13.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
        let seconds = (ticks(11)? + ticks(12)?) / 100.0;
        if comm.starts_with("txc-sandbox") {
            sandbox += seconds;
        } else {
            other += seconds;
        }
    }
    Some((sandbox, other))
}

fn main() {
    let side = std::env::args().nth(1).unwrap_or_else(|| "alt".to_owned());
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let sandbox = sandbox();
    let rt = runtime();
    let http = reqwest::Client::new();
    let clients = async_keys("client").map(|key| async_client(&sandbox, &key, &http, false));
    let url = reqwest::Url::parse(&order_url(sandbox.base_url())).unwrap();
    let same_work = async_keys("same-work").map(|key| Arc::new(raw::Client::new(&key, true)));
    let txc = |i: usize| txc_round(&rt, &clients[i % ASYNC_KEYS]);
    let same = |i: usize| same_work_round(&rt, &http, &url, &same_work[i % ASYNC_KEYS]);
    match side.as_str() {
        "alt" => alternate(rounds, txc, same),
        "txc" => split("txc", rounds, txc),
        "same" => split("same", rounds, same),
        other => println!("cpu_split: unknown side {other:?}; use txc, same or alt"),
    }
}

/// Both sides taking turns, round by round, which goes first rotating ([`take_turns`], as in
/// `e2e_paired`).
fn alternate(rounds: usize, run_txc: impl Fn(usize), run_same: impl Fn(usize)) {
    let (mut a, mut b) = (0usize, 0usize);
    let mut txc = || {
        a += 1;
        timed(|| run_txc(a))
    };
    let mut same = || {
        b += 1;
        timed(|| run_same(b))
    };
    let sides: &mut [&mut dyn FnMut() -> Duration; 2] = &mut [&mut txc, &mut same];
    take_turns(WARM_ROUNDS, sides);
    let [mt, ms] = take_turns(rounds, sides);
    println!(
        "alt, {rounds} rounds of {ROUND} orders each: txc {mt:.2?}, same-work {ms:.2?} per round \
         (medians); throughput txc / same-work {:.3}x",
        ms.as_secs_f64() / mt.as_secs_f64()
    );
}

/// One side: wall and CPU per order over `rounds` rounds, after the warm-up.
fn split(name: &str, rounds: usize, run: impl Fn(usize)) {
    for i in 0..WARM_ROUNDS {
        run(i);
    }
    let Some((sandbox_0, other_0)) = thread_cpu() else {
        println!("cpu_split: /proc/self/task is not readable here (Linux only)");
        return;
    };
    let wall = timed(|| (0..rounds).for_each(&run)).as_secs_f64();
    let (sandbox_1, other_1) = thread_cpu().unwrap_or((sandbox_0, other_0));
    let per_order = |seconds: f64| seconds / (rounds * ROUND) as f64 * 1e6;
    println!(
        "{name}, {rounds} rounds of {ROUND} orders: per order {:.2} µs wall, CPU {:.2} µs in the \
         sandbox and {:.2} µs in the client (its runtime and HTTP stack included)",
        per_order(wall),
        per_order(sandbox_1 - sandbox_0),
        per_order(other_1 - other_0),
    );
}

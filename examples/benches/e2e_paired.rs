//! The end-to-end comparison of `e2e`, with the sides taking turns: txc (limiter off), the
//! same-work baseline and the pre-signed floor send one order each (blocking) or one round of
//! 64 × 2 orders each (async), in a rotating order, against one sandbox. Whatever the shared
//! host does — another process's build, a core's frequency, which core the sandbox runs on —
//! hits every side alike, so the ratios hold still where `e2e`'s benchmarks, run one after
//! another, drift by ±30 %. Prints each side's median and the ratios of the medians.
//!
//! One sandbox for all sides of a transport. Its look-ups are indexed (issue 27), so its cost
//! per order stays flat as the run fills it; txc and the same-work baseline send a
//! `clientOrderId` with every order, the floor sends none.
//!
//! `cargo bench -p txc-examples --bench e2e_paired`; the figures go to BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    missing_docs
)]

mod support;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use support::*;
use txc_async::reqwest;
use txc_sign::Signer;
use txc_sign::nonce::NonceSequence;

/// Blocking calls per side.
const BLOCKING_CALLS: usize = 3_000;
/// Async rounds (64 × 2 orders) per side.
const ASYNC_ROUNDS: usize = 100;

fn main() {
    println!("e2e_paired: each side's median; ratio = txc's time over the baseline's");
    // A fresh sandbox for each transport: the async run starts without the blocking run's
    // orders.
    blocking(&sandbox());
    concurrent(&sandbox());
}

/// The three sides: txc, the same-work baseline, the pre-signed floor; each call times one.
type Sides<'a, 'b> = &'a mut [&'b mut dyn FnMut() -> Duration; 3];

/// Takes `warm` turns untimed (connections opened, code paths warm), then `n` timed
/// [`take_turns`], and reports the medians.
fn compare(what: &str, unit: &str, warm: usize, n: usize, sides: Sides<'_, '_>) {
    take_turns(warm, sides);
    report(what, unit, take_turns(n, sides));
}

fn report(what: &str, unit: &str, [txc, same_work, floor]: [Duration; 3]) {
    let ratio = |base: Duration| txc.as_secs_f64() / base.as_secs_f64();
    println!(
        "{what}: txc {txc:.1?}, same-work {same_work:.1?}, pre-signed floor {floor:.1?} {unit}; \
         txc / same-work {:.3}x, txc / floor {:.3}x (throughput {:.2}x and {:.2}x)",
        ratio(same_work),
        ratio(floor),
        1.0 / ratio(same_work),
        1.0 / ratio(floor),
    );
}

fn blocking(sandbox: &txc_sandbox::Sandbox) {
    let client = blocking_client(sandbox, BLOCKING_CLIENT_KEY, false);
    let agent = plain_agent();
    let uri: http::Uri = order_url(sandbox.base_url()).parse().unwrap();
    let same_work = raw::Client::new(BLOCKING_SAME_WORK_KEY, false);
    let floor_agent = plain_agent();
    let signer = Signer::new(credentials(BLOCKING_RAW_KEY), sandbox.base_url()).unwrap();
    let nonces = NonceSequence::new();
    let (mut a, mut b, mut c) = (0usize, 0usize, 0usize);
    let mut txc = || {
        a += 1;
        timed(|| {
            black_box(client.collateral_market_order(&next_order(a)).unwrap());
        })
    };
    let mut raw_same_work = || {
        b += 1;
        timed(|| {
            black_box(raw_ureq_same_work(
                &agent,
                &uri,
                &same_work,
                raw::SIDES[b % 2],
            ));
        })
    };
    let mut floor = || {
        c += 1;
        let request = presign(&signer, &nonces, false, 1)
            .pop()
            .unwrap()
            .into_http();
        timed(|| {
            black_box(raw_ureq_presigned(&floor_agent, request));
        })
    };
    let what = format!("blocking, {BLOCKING_CALLS} calls each");
    let sides: Sides<'_, '_> = &mut [&mut txc, &mut raw_same_work, &mut floor];
    compare(&what, "per round trip", 50, BLOCKING_CALLS, sides);
}

fn concurrent(sandbox: &txc_sandbox::Sandbox) {
    let rt = runtime();
    // One connection pool for every side's keys.
    let http = reqwest::Client::new();
    let clients = async_keys("client").map(|key| async_client(sandbox, &key, &http, false));
    let url = reqwest::Url::parse(&order_url(sandbox.base_url())).unwrap();
    let same_work = async_keys("same-work").map(|key| Arc::new(raw::Client::new(&key, true)));
    let floor_keys = async_keys("raw").map(|key| {
        let signer = Signer::new(credentials(&key), sandbox.base_url()).unwrap();
        (signer, NonceSequence::new())
    });
    let (mut a, mut b, mut c) = (0usize, 0usize, 0usize);
    let mut txc = || {
        a += 1;
        timed(|| txc_round(&rt, &clients[a % ASYNC_KEYS]))
    };
    let mut raw_same_work = || {
        b += 1;
        timed(|| same_work_round(&rt, &http, &url, &same_work[b % ASYNC_KEYS]))
    };
    let mut floor = || {
        c += 1;
        let (signer, nonces) = &floor_keys[c % ASYNC_KEYS];
        let batches = presigned_batches(signer, nonces);
        timed(|| send_all(&rt, &http, batches))
    };
    let what = format!("async, 64 in flight, {ASYNC_ROUNDS} rounds of 128 orders each");
    let sides: Sides<'_, '_> = &mut [&mut txc, &mut raw_same_work, &mut floor];
    compare(&what, "per round", 3, ASYNC_ROUNDS, sides);
}

//! What one request costs the sandbox as its history grows: the same request against a
//! sandbox holding 1 000, 15 000 and 100 000 orders, in one run.
//!
//! Measured over loopback HTTP/1.1 with keep-alive (ureq, one connection), so each figure is a
//! whole round trip: the client builds the body, signs it by the docs' recipe (base64, HMAC-SHA512,
//! hex: about 1–2 µs, the same at every size) and reads the answer. What changes with the
//! size is the sandbox's own work. The stored orders are filled market orders, each with a
//! `clientOrderId`, as txc places them.
//!
//! - `place_with_client_order_id`: a market order with a fresh `clientOrderId` — the id is
//!   checked against the account's open orders on the market, the order stored.
//! - `history_by_client_order_id`: the order history looked up by one stored order's
//!   `clientOrderId`.
//!
//! Each sample adds its orders to the sandbox (at most 500 per size), so "1 000" ends near
//! 1 500. Run: `cargo bench -p txc-sandbox --bench stored_orders`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use divan::Bencher;
use txc_sandbox::{AccountConfig, Sandbox};

/// The tests' helpers: the paths, the agent, the docs' signing recipe.
#[path = "../tests/common/mod.rs"]
mod common;

use common::{HISTORY_PATH, MARKET_PATH, recipe};

fn main() {
    divan::main();
}

const KEY: &str = "bench-key";
const SECRET: &str = "bench-secret-0123456789";
const SIZES: [usize; 3] = [1_000, 15_000, 100_000];

/// A sandbox holding a number of orders, and a client of it.
struct Filled {
    sandbox: Sandbox,
    agent: ureq::Agent,
    /// Strict nonces (no window): a fill runs far ahead of the clock.
    nonce: AtomicU64,
    /// Client order ids handed out so far.
    ids: AtomicU64,
}

impl Filled {
    fn start(orders: usize) -> Self {
        let sandbox = Sandbox::builder()
            .clear_defaults()
            .account(
                AccountConfig::new(KEY, SECRET)
                    .partner(true)
                    .balance("USDT", "1000000000"),
            )
            .market(txc_sandbox::MarketConfig::new("BTC_USDT", "65000"))
            .rate_limits(u32::MAX, u32::MAX)
            .lookup_rate_limits(u32::MAX, u32::MAX)
            .start()
            .unwrap();
        let filled = Self {
            sandbox,
            agent: common::agent(),
            nonce: AtomicU64::new(common::now_ms()),
            ids: AtomicU64::new(0),
        };
        for _ in 0..orders {
            assert_eq!(filled.place(), 200);
        }
        assert_eq!(filled.sandbox.stats().accepted_orders, orders as u64);
        filled
    }

    /// Sends `fields` to `path`, signed; the answer's status.
    fn send(&self, path: &str, fields: &str) -> u16 {
        let nonce = self.nonce.fetch_add(1, Ordering::Relaxed) + 1;
        let body = format!(r#"{{"request":"{path}","nonce":{nonce},{fields}}}"#);
        let (payload, signature) = recipe::sign(SECRET, body.as_bytes());
        let mut response = self
            .agent
            .post(format!("{}{path}", self.sandbox.base_url()))
            .header("content-type", "application/json")
            .header("x-txc-apikey", KEY)
            .header("x-txc-payload", payload.as_str())
            .header("x-txc-signature", signature.as_str())
            .send(body.as_str())
            .unwrap();
        black_box(response.body_mut().read_to_vec().unwrap());
        response.status().as_u16()
    }

    /// Places a market order with a fresh `clientOrderId`, alternately buying and selling.
    fn place(&self) -> u16 {
        let n = self.ids.fetch_add(1, Ordering::Relaxed);
        let side = if n.is_multiple_of(2) { "buy" } else { "sell" };
        self.send(
            MARKET_PATH,
            &format!(
                r#""market":"BTC_USDT","side":"{side}","amount":"0.001","clientOrderId":"bench-{n}""#
            ),
        )
    }
}

/// One filled sandbox per size, shared by the benchmarks.
static SANDBOXES: LazyLock<Mutex<HashMap<usize, Arc<Filled>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn filled(orders: usize) -> Arc<Filled> {
    let mut sandboxes = SANDBOXES.lock().unwrap();
    Arc::clone(
        sandboxes
            .entry(orders)
            .or_insert_with(|| Arc::new(Filled::start(orders))),
    )
}

#[divan::bench(args = SIZES, sample_count = 100, sample_size = 5)]
fn place_with_client_order_id(bencher: Bencher<'_, '_>, stored: usize) {
    let filled = filled(stored);
    bencher.bench_local(|| assert_eq!(filled.place(), 200));
}

#[divan::bench(args = SIZES, sample_count = 100, sample_size = 5)]
fn history_by_client_order_id(bencher: Bencher<'_, '_>, stored: usize) {
    let filled = filled(stored);
    // An order from the middle of the fill.
    let fields = format!(
        r#""market":"BTC_USDT","clientOrderId":"bench-{}""#,
        stored / 2
    );
    bencher.bench_local(|| assert_eq!(filled.send(HISTORY_PATH, &fields), 200));
}

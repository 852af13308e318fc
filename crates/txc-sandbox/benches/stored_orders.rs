//! What one request costs the sandbox as its history and its book grow: the same request
//! against a sandbox holding 1 000, 15 000 and 100 000 orders, and the same order placement
//! and price move against a book of 1 000 and 100 000 resting orders, in one run.
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
//! 1 500.
//!
//! The book (issue 37): a market whose book rests 1 000 or 100 000 limit orders, bids from
//! 30 000 to 60 000 and asks from 70 000 to 100 000 around a price of 65 000, placed by bulk
//! requests of 20.
//!
//! - `place_resting_limit_order`: a limit order that rests (over HTTP, as above): filed in the
//!   book by price and time.
//! - `price_move_crossing_three`: `Sandbox::set_price` (no HTTP: the state change under the
//!   lock) moving the price through three bids just placed below it, which execute as makers;
//!   placing them and moving the price back are not timed.
//!
//! Run: `cargo bench -p txc-sandbox --bench stored_orders`.

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

use common::{BULK_PATH, HISTORY_PATH, LIMIT_PATH, MARKET_PATH, recipe};

fn main() {
    divan::main();
}

const KEY: &str = "bench-key";
const SECRET: &str = "bench-secret-0123456789";
const SIZES: [usize; 3] = [1_000, 15_000, 100_000];
const BOOK_SIZES: [usize; 2] = [1_000, 100_000];
/// The book's market price.
const BOOK_PRICE: u64 = 65_000;

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
    /// A sandbox of one rich key and `BTC_USDT`, no orders yet.
    fn empty() -> Self {
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
        Self {
            sandbox,
            agent: common::agent(),
            nonce: AtomicU64::new(common::now_ms()),
            ids: AtomicU64::new(0),
        }
    }

    /// Holding `orders` filled market orders.
    fn start(orders: usize) -> Self {
        let filled = Self::empty();
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

    /// Resting `orders` limit orders: alternately a bid between 30 000 and 60 000 and an ask
    /// between 70 000 and 100 000, in bulk requests of 20.
    fn book(orders: usize) -> Self {
        let book = Self::empty();
        let order = |i: usize| {
            let step = u64::try_from(i % 30_000).unwrap();
            let (side, price) = if i.is_multiple_of(2) {
                ("buy", 30_000 + step)
            } else {
                ("sell", 70_000 + step)
            };
            format!(r#"{{"market":"BTC_USDT","side":"{side}","amount":"0.001","price":"{price}"}}"#)
        };
        for chunk in (0..orders).collect::<Vec<_>>().chunks(20) {
            let items: Vec<String> = chunk.iter().map(|i| order(*i)).collect();
            assert_eq!(
                book.send(BULK_PATH, &format!(r#""orders":[{}]"#, items.join(","))),
                200
            );
        }
        let resting = book
            .sandbox
            .order_records()
            .iter()
            .filter(|o| o["status"] == "OPEN")
            .count();
        assert_eq!(resting, orders);
        book
    }

    /// A resting limit order, alternately a bid below and an ask above the market.
    fn rest(&self) -> u16 {
        let n = self.ids.fetch_add(1, Ordering::Relaxed);
        let (side, price) = if n.is_multiple_of(2) {
            ("buy", 60_500 + n % 1_000)
        } else {
            ("sell", 69_000 + n % 1_000)
        };
        self.send(
            LIMIT_PATH,
            &format!(r#""market":"BTC_USDT","side":"{side}","amount":"0.001","price":"{price}""#),
        )
    }

    /// Three bids at 64 999, just below the market, for a move to cross.
    fn three_bids(&self) {
        self.sandbox
            .set_price("BTC_USDT", &BOOK_PRICE.to_string())
            .unwrap();
        for _ in 0..3 {
            let fields = r#""market":"BTC_USDT","side":"buy","amount":"0.001","price":"64999""#;
            assert_eq!(self.send(LIMIT_PATH, fields), 200);
        }
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

/// One sandbox per book size, shared by the book's benchmarks.
static BOOKS: LazyLock<Mutex<HashMap<usize, Arc<Filled>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn book(orders: usize) -> Arc<Filled> {
    let mut books = BOOKS.lock().unwrap();
    Arc::clone(
        books
            .entry(orders)
            .or_insert_with(|| Arc::new(Filled::book(orders))),
    )
}

#[divan::bench(args = BOOK_SIZES, sample_count = 100, sample_size = 5)]
fn place_resting_limit_order(bencher: Bencher<'_, '_>, resting: usize) {
    let book = book(resting);
    bencher.bench_local(|| assert_eq!(book.rest(), 200));
}

#[divan::bench(args = BOOK_SIZES, sample_count = 100, sample_size = 1)]
fn price_move_crossing_three(bencher: Bencher<'_, '_>, resting: usize) {
    let book = book(resting);
    bencher
        .with_inputs(|| book.three_bids())
        .bench_local_values(|()| book.sandbox.set_price("BTC_USDT", "64998").unwrap());
}

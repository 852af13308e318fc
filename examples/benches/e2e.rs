//! End-to-end benchmarks on loopback against the embedded sandbox, with keep-alive. Each txc
//! client stands beside two raw baselines in the same run:
//!
//! - **same work**: raw ureq / raw reqwest doing inside the timed region what txc does — a
//!   fresh nonce, a `clientOrderId`, the body, base64, HMAC-SHA512, hex, and the answer
//!   decoded into a typed value — written the way a user would without txc (serde, `hmac`,
//!   `sha2`, `base64`, `const-hex`; the MAC keyed once, as txc does);
//! - **pre-signed floor**: the same raw clients sending requests signed before the clock
//!   starts, with no `clientOrderId`, reading the answer's bytes and decoding nothing.
//!
//! The txc clients run with their rate limiter off (`no_rate_limit()`): the benchmarks measure
//! what txc adds, not the exchange's limits. The `*_paced` variants keep the limiter on with
//! the documented limits, to show what pacing does to a client sending faster than the
//! exchange allows — they measure the limit, not txc.
//!
//! `client_cpu` measures the client's CPU per order without a round trip: the sans-IO call
//! (nonce, `clientOrderId`, signing, the request value, decoding a canned answer) and its
//! parts, beside the same-work baseline's signing and decoding.
//!
//! All sides hit the same sandbox, which shares the two cores with the client. The `canned`
//! benchmarks send the pre-signed requests to a bare axum server that answers a fixed order
//! without looking at the request, to show how much of a round trip is the HTTP stack: see
//! BENCHMARKS.md. Run: `cargo bench -p txc-examples --bench e2e`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use divan::Bencher;
use txc_sandbox::{AccountConfig, Sandbox};
use txc_sign::NonceMode;
use txc_sign::{Credentials, NonceSequence, SignedRequest, Signer, unix_millis};
use txc_types::{CollateralMarketOrder, Endpoint, Side};

fn main() {
    divan::main();
}

// One account per benchmark, so that no two share a key's nonces.
const BLOCKING_CLIENT_KEY: &str = "bench-blocking-client";
const BLOCKING_PACED_KEY: &str = "bench-blocking-paced";
const BLOCKING_SAME_WORK_KEY: &str = "bench-blocking-same-work";
const BLOCKING_RAW_KEY: &str = "bench-blocking-raw";
const ASYNC_PACED_KEY: &str = "bench-async-paced";
const SECRET: &str = "bench-secret-0123456789";
/// Requests per async iteration: 64 in flight, two rounds each.
const IN_FLIGHT: usize = 64;
/// The async benchmarks' keys per side, used in turn, one per sample.
///
/// A burst of window-mode nonces of one key runs ahead of the clock (one per millisecond):
/// 100 samples x 128 requests on one key would be 12.8 s ahead, past the client's 3 s pacing
/// lead (it would sleep) and the exchange's 5 s window (divan makes the pre-signed baseline's
/// inputs up front, so it would sign nonces the sandbox rejects). Ten keys in turn keep each
/// about 1.3 s ahead.
const ASYNC_KEYS: usize = 10;
const ASYNC_SAMPLES: u32 = 100;
/// The paced async variant sends at the key's documented rate: 30 samples of 128 orders
/// (about 4 s) are enough to see it.
const PACED_SAMPLES: u32 = 30;
const PER_TASK: usize = 2;

/// The keys of one side of the async benchmarks: `bench-async-{side}-{i}`.
fn async_keys(side: &str) -> [String; ASYNC_KEYS] {
    std::array::from_fn(|i| format!("bench-async-{side}-{i}"))
}

/// A fresh sandbox with every benchmark's account and no rate limit of its own, one per
/// benchmark: the sandbox's look-ups by `clientOrderId` walk every order it holds (issue 27),
/// so benchmarks sharing one would pay for the orders of the benchmarks that ran before them.
/// Each side starts empty and stores the same number of orders as it runs.
fn sandbox() -> Sandbox {
    let account = |key: &str| {
        AccountConfig::new(key, SECRET)
            .balance("USDT", "1000000000")
            .leverage(10)
    };
    let keys = [
        BLOCKING_CLIENT_KEY,
        BLOCKING_PACED_KEY,
        BLOCKING_SAME_WORK_KEY,
        BLOCKING_RAW_KEY,
        ASYNC_PACED_KEY,
    ]
    .map(str::to_owned)
    .into_iter()
    .chain(
        ["client", "same-work", "raw"]
            .into_iter()
            .flat_map(async_keys),
    );
    keys.fold(Sandbox::builder(), |b, key| b.account(account(&key)))
        .rate_limits(u32::MAX, u32::MAX)
        .start()
        .unwrap()
}

/// Buy then sell the minimum, so positions stay flat however many iterations run.
fn orders() -> [CollateralMarketOrder; 2] {
    [Side::Buy, Side::Sell].map(|side| {
        CollateralMarketOrder::builder("BTC_USDT", side, "0.001")
            .build()
            .unwrap()
    })
}

fn credentials(key: &str) -> Credentials {
    Credentials::new(key, SECRET).unwrap()
}

fn mode(window: bool) -> NonceMode {
    if window {
        NonceMode::Window
    } else {
        NonceMode::Strict
    }
}

/// Pre-signs `n` alternating orders for the floor, outside the timed region.
fn presign(signer: &Signer, nonces: &NonceSequence, window: bool, n: usize) -> Vec<SignedRequest> {
    let orders = orders();
    (0..n)
        .map(|i| {
            let nonce = nonces.next(unix_millis(SystemTime::now()));
            signer.sign(&orders[i % 2], nonce, mode(window)).unwrap()
        })
        .collect()
}

/// The same-work baseline: a client written without txc, with the crates a user would pick.
mod raw {
    use super::*;
    use base64::Engine as _;
    use hmac::{Hmac, KeyInit, Mac};
    use serde::{Deserialize, Serialize};
    use sha2::Sha512;

    /// The order's body, as serde writes it.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Body<'a> {
        request: &'static str,
        nonce: u64,
        nonce_window: bool,
        market: &'a str,
        side: &'a str,
        amount: &'a str,
        client_order_id: &'a str,
    }

    /// The answer, decoded into a typed value (text kept as `String`, the usual way).
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    // Read by the decoder (its work is the point); the benchmark only keeps the value.
    #[allow(dead_code)]
    pub(crate) struct Placed {
        pub(crate) order_id: u64,
        pub(crate) client_order_id: String,
        pub(crate) market: String,
        pub(crate) side: String,
        #[serde(rename = "type")]
        pub(crate) kind: String,
        pub(crate) timestamp: f64,
        pub(crate) deal_money: String,
        pub(crate) deal_stock: String,
        pub(crate) amount: String,
        pub(crate) left: String,
        pub(crate) deal_fee: String,
        pub(crate) status: String,
    }

    /// A signed request: the body and the three authentication header values.
    pub(crate) struct Signed {
        pub(crate) body: Vec<u8>,
        pub(crate) payload: String,
        pub(crate) signature: String,
    }

    /// A hand-written signer: key, pre-keyed MAC, nonces, `clientOrderId`s.
    pub(crate) struct Client {
        pub(crate) api_key: String,
        mac: Hmac<Sha512>,
        window: bool,
        last_nonce: AtomicU64,
        serial: AtomicU64,
    }

    impl Client {
        pub(crate) fn new(api_key: &str, window: bool) -> Self {
            Self {
                api_key: api_key.to_owned(),
                mac: <Hmac<Sha512> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap(),
                window,
                last_nonce: AtomicU64::new(0),
                serial: AtomicU64::new(0),
            }
        }

        /// Unix milliseconds, one above the last nonce if the clock has not moved on.
        fn nonce(&self) -> u64 {
            let now = unix_millis(SystemTime::now());
            let last = self
                .last_nonce
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
                    Some(now.max(last + 1))
                })
                .unwrap();
            now.max(last + 1)
        }

        /// Signs a market order of `side` with a fresh nonce and a new `clientOrderId`.
        pub(crate) fn sign(&self, side: &str) -> Signed {
            let serial = self.serial.fetch_add(1, Ordering::Relaxed) + 1;
            let client_order_id = format!("raw-0000000000001-{serial}");
            let body = serde_json::to_vec(&Body {
                request: CollateralMarketOrder::PATH,
                nonce: self.nonce(),
                nonce_window: self.window,
                market: "BTC_USDT",
                side,
                amount: "0.001",
                client_order_id: &client_order_id,
            })
            .unwrap();
            let payload = base64::engine::general_purpose::STANDARD.encode(&body);
            let mut mac = self.mac.clone();
            mac.update(payload.as_bytes());
            let signature = const_hex::encode(mac.finalize().into_bytes());
            Signed {
                body,
                payload,
                signature,
            }
        }
    }

    /// Checks the status and decodes the answer.
    pub(crate) fn decode(status: u16, body: &[u8]) -> Placed {
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(body));
        serde_json::from_slice(body).unwrap()
    }

    pub(crate) const SIDES: [&str; 2] = ["buy", "sell"];
}

mod blocking {
    use super::*;
    use txc_blocking::ureq;

    fn client(sandbox: &Sandbox, key: &str, paced: bool) -> txc_blocking::Client {
        let builder = txc_blocking::Client::builder(credentials(key))
            .base_url(sandbox.base_url())
            .nonce_window(false);
        let builder = if paced {
            builder
        } else {
            builder.no_rate_limit()
        };
        builder.build().unwrap()
    }

    fn round_trips(b: Bencher<'_, '_>, client: &txc_blocking::Client) {
        let orders = orders();
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            black_box(client.collateral_market_order(&orders[i % 2]).unwrap())
        });
    }

    /// The blocking client, limiter off: nonce, `clientOrderId`, sign, send, read, decode.
    /// Strict nonces (sequential calls).
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        round_trips(b, &client(&sandbox, BLOCKING_CLIENT_KEY, false));
    }

    /// The same with the raw baselines' plain agent (no timeouts, ureq's `User-Agent`)
    /// instead of the one the builder makes: what txc itself adds, apart from its agent's
    /// settings.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip_plain_agent(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        let client = txc_blocking::Client::builder(credentials(BLOCKING_CLIENT_KEY))
            .base_url(sandbox.base_url())
            .nonce_window(false)
            .no_rate_limit()
            .http(plain_agent())
            .build()
            .unwrap();
        round_trips(b, &client);
    }

    /// A ureq agent that hands error statuses over, as txc needs; nothing else set.
    fn plain_agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into()
    }

    /// The same, limiter on (documented limits): sending as fast as it can, the client is held
    /// to the key's sustained 960 orders/s once its burst is spent. Measures the limit.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip_paced(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        round_trips(b, &client(&sandbox, BLOCKING_PACED_KEY, true));
    }

    /// Same work, raw ureq: nonce, `clientOrderId`, sign, send, read, decode, all timed.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn raw_ureq_same_work(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        let agent = plain_agent();
        let uri: http::Uri = format!("{}{}", sandbox.base_url(), CollateralMarketOrder::PATH)
            .parse()
            .unwrap();
        let client = raw::Client::new(BLOCKING_SAME_WORK_KEY, false);
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            let signed = client.sign(raw::SIDES[i % 2]);
            let mut response = agent
                .post(uri.clone())
                .header("content-type", "application/json")
                .header("x-txc-apikey", client.api_key.as_str())
                .header("x-txc-payload", signed.payload.as_str())
                .header("x-txc-signature", signed.signature.as_str())
                .send(signed.body)
                .unwrap();
            let status = response.status().as_u16();
            let body = response.body_mut().read_to_vec().unwrap();
            black_box(raw::decode(status, &body))
        });
    }

    /// The floor: raw ureq sending pre-signed bytes and reading the body.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn raw_ureq_presigned(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        raw_ureq(b, sandbox.base_url());
    }

    /// Raw ureq sending pre-signed orders to `base_url` one at a time, reading each body.
    pub(super) fn raw_ureq(b: Bencher<'_, '_>, base_url: &str) {
        let agent = plain_agent();
        let signer = Signer::new(credentials(BLOCKING_RAW_KEY), base_url).unwrap();
        let nonces = NonceSequence::new();
        b.with_inputs(|| {
            presign(&signer, &nonces, false, 1)
                .pop()
                .unwrap()
                .into_http()
        })
        .bench_local_values(|request| {
            let response = agent.run(request).unwrap();
            assert_eq!(response.status(), 200);
            black_box(response.into_body().read_to_vec().unwrap())
        });
    }
}

mod concurrent {
    use super::*;
    use txc_async::reqwest;

    pub(super) fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    /// 64 tasks on clones of `client`, 2 orders each.
    fn round(rt: &tokio::runtime::Runtime, client: &txc_async::Client) {
        rt.block_on(async {
            let mut tasks = tokio::task::JoinSet::new();
            for t in 0..IN_FLIGHT {
                let client = client.clone();
                tasks.spawn(async move {
                    let orders = orders();
                    for i in 0..PER_TASK {
                        client
                            .collateral_market_order(&orders[(t + i) % 2])
                            .await
                            .unwrap();
                    }
                });
            }
            while let Some(done) = tasks.join_next().await {
                done.unwrap();
            }
        });
    }

    fn client(
        sandbox: &Sandbox,
        key: &str,
        http: &reqwest::Client,
        paced: bool,
    ) -> txc_async::Client {
        let builder = txc_async::Client::builder(credentials(key))
            .base_url(sandbox.base_url())
            .http(http.clone());
        let builder = if paced {
            builder
        } else {
            builder.no_rate_limit()
        };
        builder.build().unwrap()
    }

    /// The async client, limiter off: 64 tasks on clones of one client, 2 orders each, per
    /// iteration. Divide the time by 128 for the time per order; window-mode nonces; one
    /// client per key, in turn.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn txc_client_64_in_flight(b: Bencher<'_, '_>) {
        let rt = runtime();
        // One connection pool for every key, as in the raw baselines (and as an application
        // with several keys would share one).
        let http = reqwest::Client::new();
        let sandbox = sandbox();
        let clients = async_keys("client").map(|key| client(&sandbox, &key, &http, false));
        // Open the pool's 64 connections before timing, as the baselines do.
        round(&rt, &clients[0]);
        let mut turn = 0usize;
        b.bench_local(|| {
            turn += 1;
            round(&rt, &clients[turn % ASYNC_KEYS]);
        });
    }

    /// The same on one key with the limiter on (documented limits): once the burst is spent,
    /// 960 orders/s — about 133 ms per 128 orders. Measures the limit.
    #[divan::bench(sample_count = PACED_SAMPLES, sample_size = 1)]
    fn txc_client_64_in_flight_paced(b: Bencher<'_, '_>) {
        let rt = runtime();
        let sandbox = sandbox();
        let client = client(&sandbox, ASYNC_PACED_KEY, &reqwest::Client::new(), true);
        round(&rt, &client);
        b.bench_local(|| round(&rt, &client));
    }

    /// Same work, raw reqwest: each of 64 tasks signs (fresh nonce, `clientOrderId`), sends,
    /// reads and decodes 2 orders, all timed.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn raw_reqwest_same_work_64_in_flight(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        let rt = runtime();
        let http = reqwest::Client::new();
        let url = reqwest::Url::parse(&format!(
            "{}{}",
            sandbox.base_url(),
            CollateralMarketOrder::PATH
        ))
        .unwrap();
        let clients =
            async_keys("same-work").map(|key| std::sync::Arc::new(raw::Client::new(&key, true)));
        let round = |client: &std::sync::Arc<raw::Client>| {
            rt.block_on(async {
                let mut tasks = tokio::task::JoinSet::new();
                for t in 0..IN_FLIGHT {
                    let (client, http, url) = (client.clone(), http.clone(), url.clone());
                    tasks.spawn(async move {
                        for i in 0..PER_TASK {
                            let signed = client.sign(raw::SIDES[(t + i) % 2]);
                            let response = http
                                .post(url.clone())
                                .header("content-type", "application/json")
                                .header("x-txc-apikey", client.api_key.as_str())
                                .header("x-txc-payload", signed.payload)
                                .header("x-txc-signature", signed.signature)
                                .body(signed.body)
                                .send()
                                .await
                                .unwrap();
                            let status = response.status().as_u16();
                            let body = response.bytes().await.unwrap();
                            black_box(raw::decode(status, &body));
                        }
                    });
                }
                while let Some(done) = tasks.join_next().await {
                    done.unwrap();
                }
            });
        };
        round(&clients[0]);
        let mut turn = 0usize;
        b.bench_local(|| {
            turn += 1;
            round(&clients[turn % ASYNC_KEYS]);
        });
    }

    /// The floor: raw reqwest, the same 64 × 2 orders pre-signed outside the timed region.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn raw_reqwest_presigned_64_in_flight(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        raw_reqwest(b, sandbox.base_url());
    }

    /// Raw reqwest sending 64 × 2 pre-signed orders to `base_url`, 64 in flight.
    pub(super) fn raw_reqwest(b: Bencher<'_, '_>, base_url: &str) {
        let rt = runtime();
        let http = reqwest::Client::new();
        let keys = async_keys("raw").map(|key| {
            let signer = Signer::new(credentials(&key), base_url).unwrap();
            (signer, NonceSequence::new())
        });
        let batches = |(signer, nonces): &(Signer, NonceSequence)| {
            let mut signed = presign(signer, nonces, true, IN_FLIGHT * PER_TASK)
                .into_iter()
                .map(|s| reqwest::Request::try_from(s.into_http()).unwrap());
            (0..IN_FLIGHT)
                .map(|_| signed.by_ref().take(PER_TASK).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        // Open the pool's 64 connections before timing.
        send_all(&rt, &http, batches(&keys[0]));
        let mut turn = 0usize;
        b.with_inputs(|| {
            turn += 1;
            batches(&keys[turn % ASYNC_KEYS])
        })
        .bench_local_values(|batches| send_all(&rt, &http, batches));
    }

    /// Sends each batch on its own task (64 in flight), reading every body.
    fn send_all(
        rt: &tokio::runtime::Runtime,
        http: &reqwest::Client,
        batches: Vec<Vec<reqwest::Request>>,
    ) {
        rt.block_on(async {
            let mut tasks = tokio::task::JoinSet::new();
            for batch in batches {
                let http = http.clone();
                tasks.spawn(async move {
                    for request in batch {
                        let response = http.execute(request).await.unwrap();
                        assert_eq!(response.status(), 200);
                        black_box(response.bytes().await.unwrap());
                    }
                });
            }
            while let Some(done) = tasks.join_next().await {
                done.unwrap();
            }
        });
    }
}

/// The client's CPU per order, no round trip: what it spends between having an order and
/// having its typed answer, beside the same-work baseline's signing and decoding.
mod client_cpu {
    use super::*;
    use txc_sign::{ClientCore, Machine, Response, Step, decode};

    /// An order answer as the sandbox writes it, with a generated `clientOrderId`.
    const ANSWER: &[u8] = br#"{"orderId":1,"clientOrderId":"txc-0000000000016-1","market":"BTC_USDT","side":"buy","type":"margin market","timestamp":1700000000.123456,"dealMoney":"60.000000","dealStock":"0.001","amount":"0.001","left":"0","dealFee":"0.060000","status":"FILLED","stp":"no","positionSide":"BOTH","reduceOnly":false}"#;

    /// A core as the clients make it, limiter off. Strict nonces: millions of iterations
    /// would run window-mode nonces seconds ahead, and the call would wait.
    fn core() -> ClientCore {
        let signer = Signer::new(credentials("bench-cpu"), "http://127.0.0.1:9").unwrap();
        ClientCore::new(signer)
            .with_rate_limiter(None)
            .with_nonce_mode(NonceMode::Strict)
            .with_nonce_sequence(NonceSequence::new())
    }

    /// One order through the sans-IO call the transports drive: `place` (a generated
    /// `clientOrderId`), the nonce, signing, `into_http` (what the blocking transport sends),
    /// then the answer decoded into an `Order`.
    #[divan::bench]
    fn txc_call_without_round_trip(b: Bencher<'_, '_>) {
        let core = core();
        let orders = orders();
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            let mut call = core.place(&orders[i % 2]);
            let Step::Send(request) = call.next(SystemTime::now()) else {
                panic!("not sent")
            };
            black_box(request.into_http());
            call.receive(Ok(Response::new(200, black_box(ANSWER))));
            let Step::Done(answer) = call.next(SystemTime::now()) else {
                panic!("not done")
            };
            black_box(answer.unwrap())
        });
    }

    /// The call's first step: `place` (the order cloned with a generated `clientOrderId`),
    /// the nonce, signing, the attempt's record.
    #[divan::bench]
    fn txc_step_place_and_sign(b: Bencher<'_, '_>) {
        let core = core();
        let orders = orders();
        let mut i = 0usize;
        b.with_inputs(|| {
            i += 1;
            core.place(&orders[i % 2])
        })
        .bench_local_refs(|call| {
            let Step::Send(request) = call.next(SystemTime::now()) else {
                panic!("not sent")
            };
            black_box(request)
        });
    }

    /// The request value the blocking transport sends (`into_http`).
    #[divan::bench]
    fn txc_step_into_http(b: Bencher<'_, '_>) {
        let core = core();
        let orders = orders();
        let mut i = 0usize;
        b.with_inputs(|| {
            i += 1;
            core.prepare(&orders[i % 2], SystemTime::now()).unwrap()
        })
        .bench_local_values(|request| black_box(request.into_http()));
    }

    /// The call's last step: the answer received, decoded and judged.
    #[divan::bench]
    fn txc_step_receive_and_decode(b: Bencher<'_, '_>) {
        let core = core();
        let orders = orders();
        let mut i = 0usize;
        b.with_inputs(|| {
            i += 1;
            let mut call = core.place(&orders[i % 2]);
            let Step::Send(_) = call.next(SystemTime::now()) else {
                panic!("not sent")
            };
            call
        })
        .bench_local_refs(|call| {
            call.receive(Ok(Response::new(200, black_box(ANSWER))));
            let Step::Done(answer) = call.next(SystemTime::now()) else {
                panic!("not done")
            };
            black_box(answer.unwrap())
        });
    }

    /// Its signing part: nonce, body, base64, HMAC, hex (`ClientCore::prepare`).
    #[divan::bench]
    fn txc_sign(b: Bencher<'_, '_>) {
        let core = core();
        let orders = orders();
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            black_box(core.prepare(&orders[i % 2], SystemTime::now()).unwrap())
        });
    }

    /// Its decoding part: the answer into an `Order`.
    #[divan::bench]
    fn txc_decode(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(
                decode::<CollateralMarketOrder>(&Response::new(200, black_box(ANSWER))).unwrap(),
            )
        });
    }

    /// The same-work baseline's signing: nonce, `clientOrderId`, serde body, base64, HMAC, hex.
    #[divan::bench]
    fn raw_sign(b: Bencher<'_, '_>) {
        let client = raw::Client::new("bench-cpu-raw", false);
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            black_box(client.sign(raw::SIDES[i % 2]))
        });
    }

    /// The same-work baseline's decoding: serde into a struct of `String`s.
    #[divan::bench]
    fn raw_decode(b: Bencher<'_, '_>) {
        b.bench_local(|| black_box(raw::decode(200, black_box(ANSWER))));
    }
}

/// The same raw requests against a server that does no work: the HTTP floor on this machine.
mod canned {
    use super::*;
    use std::net::SocketAddr;
    use std::sync::LazyLock;

    /// An order answer as the sandbox writes it.
    const ANSWER: &str = r#"{"orderId":1,"clientOrderId":"","market":"BTC_USDT","side":"buy","type":"margin market","timestamp":1700000000.123456,"dealMoney":"60.000000","dealStock":"0.001","amount":"0.001","left":"0","dealFee":"0.060000","status":"FILLED","stp":"no","positionSide":"BOTH","reduceOnly":false}"#;

    /// A bare axum server (2 worker threads, like the sandbox) answering [`ANSWER`].
    static SERVER: LazyLock<SocketAddr> = LazyLock::new(|| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        listener.set_nonblocking(true).unwrap();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                let app = axum::Router::new().route(
                    CollateralMarketOrder::PATH,
                    axum::routing::post(|_body: axum::body::Bytes| async {
                        ([("content-type", "application/json")], ANSWER)
                    }),
                );
                axum::serve(listener, app).await.unwrap();
            });
        });
        addr
    });

    fn base_url() -> String {
        format!("http://{}", *SERVER)
    }

    /// Raw ureq, pre-signed bytes, one at a time, against the canned server.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn raw_ureq_canned(b: Bencher<'_, '_>) {
        blocking::raw_ureq(b, &base_url());
    }

    /// Raw reqwest, 64 × 2 pre-signed requests in flight, against the canned server.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn raw_reqwest_canned_64_in_flight(b: Bencher<'_, '_>) {
        concurrent::raw_reqwest(b, &base_url());
    }
}

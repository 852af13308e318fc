//! End-to-end benchmarks on loopback against the embedded sandbox, with keep-alive:
//!
//! - the blocking client's round trip beside raw ureq sending pre-signed bytes;
//! - the async client with 64 requests in flight beside raw reqwest sending pre-signed bytes.
//!
//! The raw baselines are signed outside the timed region, so the ratio is what txc adds
//! (signing, decoding, the send loop). Both sides hit the same sandbox, which shares the two
//! cores with the client. To show how much of a round trip is the sandbox itself (it
//! verifies the signature, checks nonces, margin and position, and writes the order), the
//! `canned` benchmarks send the same raw requests to a bare axum server on the same runtime
//! shape that answers a fixed order without looking at the request: see BENCHMARKS.md.
//! Run: `cargo bench -p txc-examples --bench e2e`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    missing_docs
)]

use std::hint::black_box;
use std::sync::LazyLock;

use divan::Bencher;
use txc_sandbox::{AccountConfig, Sandbox};
use txc_sign::NonceMode;
use txc_sign::{Credentials, NonceSequence, SignedRequest, Signer, unix_millis};
use txc_types::orders::{CollateralMarketOrder, Side};

fn main() {
    divan::main();
}

// One account per benchmark, so that no two share a key's nonces.
const BLOCKING_CLIENT_KEY: &str = "bench-blocking-client";
const BLOCKING_RAW_KEY: &str = "bench-blocking-raw";
const ASYNC_CLIENT_KEYS: [&str; ASYNC_KEYS] = [
    "bench-async-client-0",
    "bench-async-client-1",
    "bench-async-client-2",
    "bench-async-client-3",
    "bench-async-client-4",
    "bench-async-client-5",
    "bench-async-client-6",
    "bench-async-client-7",
    "bench-async-client-8",
    "bench-async-client-9",
];
const ASYNC_RAW_KEYS: [&str; ASYNC_KEYS] = [
    "bench-async-raw-0",
    "bench-async-raw-1",
    "bench-async-raw-2",
    "bench-async-raw-3",
    "bench-async-raw-4",
    "bench-async-raw-5",
    "bench-async-raw-6",
    "bench-async-raw-7",
    "bench-async-raw-8",
    "bench-async-raw-9",
];
const SECRET: &str = "bench-secret-0123456789";
/// Requests per async iteration: 64 in flight, two rounds each.
const IN_FLIGHT: usize = 64;
/// The async benchmarks' keys, used in turn, one per sample.
///
/// A burst of window-mode nonces of one key runs ahead of the clock (one per millisecond):
/// 100 samples x 128 requests on one key would be 12.8 s ahead, past the client's 3 s pacing
/// lead (it would sleep) and the exchange's 5 s window (divan makes the raw baseline's
/// inputs up front, so it would sign nonces the sandbox rejects). Ten keys in turn keep each
/// about 1.3 s ahead.
const ASYNC_KEYS: usize = 10;
const ASYNC_SAMPLES: u32 = 100;
const PER_TASK: usize = 2;

/// One sandbox for every benchmark.
static SANDBOX: LazyLock<Sandbox> = LazyLock::new(|| {
    let account = |key| {
        AccountConfig::new(key, SECRET)
            .balance("USDT", "1000000000")
            .leverage(10)
    };
    let builder = Sandbox::builder()
        .account(account(BLOCKING_CLIENT_KEY))
        .account(account(BLOCKING_RAW_KEY));
    ASYNC_CLIENT_KEYS
        .into_iter()
        .chain(ASYNC_RAW_KEYS)
        .fold(builder, |b, key| b.account(account(key)))
        .rate_limits(u32::MAX, u32::MAX)
        .start()
        .unwrap()
});

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

/// Pre-signs `n` alternating orders for the raw baselines, outside the timed region.
fn presign(signer: &Signer, nonces: &NonceSequence, window: bool, n: usize) -> Vec<SignedRequest> {
    let orders = orders();
    (0..n)
        .map(|i| {
            let nonce = nonces.next(unix_millis(std::time::SystemTime::now()));
            signer
                .sign(
                    &orders[i % 2],
                    nonce,
                    if window {
                        NonceMode::Window
                    } else {
                        NonceMode::Strict
                    },
                )
                .unwrap()
        })
        .collect()
}

mod blocking {
    use super::*;
    use txc_blocking::ureq;

    /// The blocking client: sign, send, read, decode. Strict nonces (sequential calls).
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip(b: Bencher<'_, '_>) {
        let client = txc_blocking::Client::builder(credentials(BLOCKING_CLIENT_KEY))
            .base_url(SANDBOX.base_url())
            .nonce_window(false)
            .build()
            .unwrap();
        let orders = orders();
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            black_box(client.collateral_market_order(&orders[i % 2]).unwrap())
        });
    }

    /// The floor: raw ureq sending pre-signed bytes and reading the body.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn raw_ureq_presigned(b: Bencher<'_, '_>) {
        raw_ureq(b, SANDBOX.base_url());
    }

    /// Raw ureq sending pre-signed orders to `base_url` one at a time, reading each body.
    pub(super) fn raw_ureq(b: Bencher<'_, '_>, base_url: &str) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
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

    /// The async client: 64 tasks on clones of one client, 2 orders each, per iteration.
    /// Divide the time by 128 for the time per order; window-mode nonces; one client per key,
    /// in turn.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn txc_client_64_in_flight(b: Bencher<'_, '_>) {
        let rt = runtime();
        // One connection pool for every key, as in the raw baseline (and as an application
        // with several keys would share one).
        let http = reqwest::Client::new();
        let clients = ASYNC_CLIENT_KEYS.map(|key| {
            txc_async::Client::builder(credentials(key))
                .base_url(SANDBOX.base_url())
                .http(http.clone())
                .build()
                .unwrap()
        });
        let round = |client: &txc_async::Client| {
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
        };
        // Open the pool's 64 connections before timing, as the raw baseline does.
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
        raw_reqwest(b, SANDBOX.base_url());
    }

    /// Raw reqwest sending 64 × 2 pre-signed orders to `base_url`, 64 in flight.
    pub(super) fn raw_reqwest(b: Bencher<'_, '_>, base_url: &str) {
        let rt = runtime();
        let http = reqwest::Client::new();
        let keys = ASYNC_RAW_KEYS.map(|key| {
            let signer = Signer::new(credentials(key), base_url).unwrap();
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

/// The same raw requests against a server that does no work: the HTTP floor on this machine.
mod canned {
    use super::*;
    use std::net::SocketAddr;

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
                    <CollateralMarketOrder as txc_types::endpoint::Endpoint>::PATH,
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

//! End-to-end benchmarks on loopback against the embedded sandbox, with keep-alive. Each txc
//! client stands beside two raw baselines in the same run:
//!
//! - **same work**: raw ureq / raw reqwest doing inside the timed region what txc does — a
//!   fresh nonce, a `clientOrderId`, the body, base64, HMAC-SHA512, hex, and the answer
//!   decoded into a typed value — written the way a user would without txc
//!   (`support/raw.rs`);
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
//! Each benchmark starts on a fresh sandbox (`support::sandbox`), which shares the two cores
//! with the client. The `canned`
//! benchmarks send the pre-signed requests to a bare axum server that answers a fixed order
//! without looking at the request, to show how much of a round trip is the HTTP stack: see
//! BENCHMARKS.md. Run: `cargo bench -p txc-examples --bench e2e`; `e2e_paired` runs the same
//! sides in turn, which keeps their ratios steady on a noisy host.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

mod support;

use std::hint::black_box;
use std::sync::Arc;
use std::time::SystemTime;

use divan::Bencher;
use support::*;
use txc_sign::Signer;
use txc_sign::nonce::NonceSequence;
use txc_types::endpoint::Endpoint;
use txc_types::orders::CollateralMarketOrder;

fn main() {
    divan::main();
}

const ASYNC_SAMPLES: u32 = 100;
/// The paced async variant sends at the key's documented rate: 30 samples of 128 orders
/// (about 4 s) are enough to see it.
const PACED_SAMPLES: u32 = 30;

mod blocking {
    use super::*;

    /// Orders sent one at a time by the client `client` makes for a fresh sandbox.
    fn round_trips(
        b: Bencher<'_, '_>,
        client: impl FnOnce(&txc_sandbox::Sandbox) -> txc_blocking::Client,
    ) {
        let sandbox = sandbox();
        let client = client(&sandbox);
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            black_box(client.collateral_market_order(&next_order(i)).unwrap())
        });
    }

    /// The blocking client, limiter off: nonce, `clientOrderId`, sign, send, read, decode.
    /// Strict nonces (sequential calls).
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip(b: Bencher<'_, '_>) {
        round_trips(b, |sandbox| {
            blocking_client(sandbox, BLOCKING_CLIENT_KEY, false)
        });
    }

    /// The same with the raw baselines' plain agent (no timeouts, ureq's `User-Agent`)
    /// instead of the one the builder makes: what txc itself adds, apart from its agent's
    /// settings.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip_plain_agent(b: Bencher<'_, '_>) {
        round_trips(b, |sandbox| {
            txc_blocking::Client::builder(credentials(BLOCKING_CLIENT_KEY))
                .base_url(sandbox.base_url())
                .nonce_window(false)
                .no_rate_limit()
                .http(plain_agent())
                .build()
                .unwrap()
        });
    }

    /// The same, limiter on (documented limits): sending as fast as it can, the client is held
    /// to the key's sustained 960 orders/s once its burst is spent. Measures the limit.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn txc_client_round_trip_paced(b: Bencher<'_, '_>) {
        round_trips(b, |sandbox| {
            blocking_client(sandbox, BLOCKING_PACED_KEY, true)
        });
    }

    /// Same work, raw ureq: nonce, `clientOrderId`, sign, send, read, decode, all timed.
    #[divan::bench(sample_count = 200, sample_size = 5)]
    fn raw_ureq_same_work(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        let agent = plain_agent();
        let uri: http::Uri = order_url(sandbox.base_url()).parse().unwrap();
        let client = raw::Client::new(BLOCKING_SAME_WORK_KEY, false);
        let mut side = in_turn(&raw::SIDES);
        b.bench_local(|| black_box(support::raw_ureq_same_work(&agent, &uri, &client, side())));
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
        .bench_local_values(|request| black_box(support::raw_ureq_presigned(&agent, request)));
    }
}

mod concurrent {
    use super::*;
    use txc_async::reqwest;

    /// The async client, limiter off: 64 tasks on clones of one client, 2 orders each, per
    /// iteration. Divide the time by 128 for the time per order; window-mode nonces; one
    /// client per key, in turn.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn txc_client_64_in_flight(b: Bencher<'_, '_>) {
        let rt = runtime();
        let http = reqwest::Client::new();
        let sandbox = sandbox();
        let clients = async_keys("client").map(|key| async_client(&sandbox, &key, &http, false));
        // Open the pool's 64 connections before timing, as the baselines do.
        txc_round(&rt, &clients[0]);
        let mut client = in_turn(&clients);
        b.bench_local(|| txc_round(&rt, client()));
    }

    /// The same on one key with the limiter on (documented limits): once the burst is spent,
    /// 960 orders/s — about 133 ms per 128 orders. Measures the limit.
    #[divan::bench(sample_count = PACED_SAMPLES, sample_size = 1)]
    fn txc_client_64_in_flight_paced(b: Bencher<'_, '_>) {
        let rt = runtime();
        let sandbox = sandbox();
        let client = async_client(&sandbox, ASYNC_PACED_KEY, &reqwest::Client::new(), true);
        txc_round(&rt, &client);
        b.bench_local(|| txc_round(&rt, &client));
    }

    /// Same work, raw reqwest: each of 64 tasks signs (fresh nonce, `clientOrderId`), sends,
    /// reads and decodes 2 orders, all timed.
    #[divan::bench(sample_count = ASYNC_SAMPLES, sample_size = 1)]
    fn raw_reqwest_same_work_64_in_flight(b: Bencher<'_, '_>) {
        let sandbox = sandbox();
        let rt = runtime();
        let http = reqwest::Client::new();
        let url = reqwest::Url::parse(&order_url(sandbox.base_url())).unwrap();
        let clients = async_keys("same-work").map(|key| Arc::new(raw::Client::new(&key, true)));
        same_work_round(&rt, &http, &url, &clients[0]);
        let mut client = in_turn(&clients);
        b.bench_local(|| same_work_round(&rt, &http, &url, client()));
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
        // Open the pool's 64 connections before timing.
        send_all(&rt, &http, presigned_batches(&keys[0].0, &keys[0].1));
        let mut key = in_turn(&keys);
        b.with_inputs(|| {
            let (signer, nonces) = key();
            presigned_batches(signer, nonces)
        })
        .bench_local_values(|batches| send_all(&rt, &http, batches));
    }
}

/// The client's CPU per order, no round trip: what it spends between having an order and
/// having its typed answer, beside the same-work baseline's signing and decoding.
mod client_cpu {
    use super::*;
    use txc_core::decode::{Response, decode};
    use txc_core::{ClientCore, Machine, Step};

    /// An order answer as the sandbox writes it, with a generated `clientOrderId`.
    const ANSWER: &[u8] = br#"{"orderId":1,"clientOrderId":"txc-0000000000016-1","market":"BTC_USDT","side":"buy","type":"margin market","timestamp":1700000000.123456,"dealMoney":"60.000000","dealStock":"0.001","amount":"0.001","left":"0","dealFee":"0.060000","status":"FILLED","stp":"no","positionSide":"BOTH","reduceOnly":false}"#;

    /// The call's first step: the request it sends.
    fn sent<M: Machine>(call: &mut M) -> txc_sign::SignedRequest {
        let Step::Send(request) = call.next(SystemTime::now()) else {
            panic!("not sent")
        };
        request
    }

    /// The call's output once it received [`ANSWER`].
    fn answered<M: Machine>(call: &mut M) -> M::Output {
        call.receive(Ok(Response::new(200, black_box(ANSWER))));
        let Step::Done(answer) = call.next(SystemTime::now()) else {
            panic!("not done")
        };
        answer
    }

    /// A core as the clients make it, limiter off, and the two [`orders`] it takes in turn.
    /// Strict nonces: millions of iterations would run window-mode nonces seconds ahead, and
    /// the call would wait.
    fn core() -> (ClientCore, [CollateralMarketOrder; 2]) {
        let core = txc_core::ClientConfig::new(credentials("bench-cpu"))
            .base_url("http://127.0.0.1:9")
            .no_rate_limit()
            .nonce_window(false)
            .nonce_sequence(NonceSequence::new())
            .build()
            .unwrap();
        (core, orders())
    }

    /// One order through the sans-IO call the transports drive: `place` (a generated
    /// `clientOrderId`), the nonce, signing, `into_http` (what the blocking transport sends),
    /// then the answer decoded into an `Order`.
    #[divan::bench]
    fn txc_call_without_round_trip(b: Bencher<'_, '_>) {
        let (core, _) = core();
        let mut i = 0usize;
        b.bench_local(|| {
            i += 1;
            let order = next_order(i);
            let mut call = core.place(&order);
            black_box(sent(&mut call).into_http());
            black_box(answered(&mut call).unwrap())
        });
    }

    /// The call's first step: the nonce, signing, the attempt's record (the order has its
    /// `clientOrderId` since it was built; `place`'s pending record is in
    /// `txc_call_without_round_trip`).
    #[divan::bench]
    fn txc_step_place_and_sign(b: Bencher<'_, '_>) {
        let (core, orders) = core();
        let mut order = in_turn(&orders);
        b.with_inputs(|| core.call(order()))
            .bench_local_refs(|call| black_box(sent(call)));
    }

    /// The request value the blocking transport sends (`into_http`).
    #[divan::bench]
    fn txc_step_into_http(b: Bencher<'_, '_>) {
        let (core, orders) = core();
        let mut order = in_turn(&orders);
        b.with_inputs(|| core.prepare(order(), SystemTime::now()).unwrap())
            .bench_local_values(|request| black_box(request.into_http()));
    }

    /// The call's last step: the answer received, decoded and judged.
    #[divan::bench]
    fn txc_step_receive_and_decode(b: Bencher<'_, '_>) {
        let (core, orders) = core();
        let mut order = in_turn(&orders);
        b.with_inputs(|| {
            let mut call = core.call(order());
            sent(&mut call);
            call
        })
        .bench_local_refs(|call| black_box(answered(call).unwrap()));
    }

    /// Its signing part: nonce, body, base64, HMAC, hex (`ClientCore::prepare`).
    #[divan::bench]
    fn txc_sign(b: Bencher<'_, '_>) {
        let (core, orders) = core();
        let mut order = in_turn(&orders);
        b.bench_local(|| black_box(core.prepare(order(), SystemTime::now()).unwrap()));
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
        let mut side = in_turn(&raw::SIDES);
        b.bench_local(|| black_box(client.sign(side())));
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

//! What the end-to-end benchmarks share (`e2e` with divan, `e2e_paired` and `cpu_split`
//! taking turns): the sandbox, the keys, the orders, the turn-taking and its medians, and one
//! unit of work per side — a txc call, the same-work baseline's call, the pre-signed floor's
//! send — for each transport. The other benchmarks (`events`, `pacing`, `resolve_events`,
//! `time_to_answer`) take their partner sandbox from here, and the resolving ones their clients
//! with a private stream started.

// Each benchmark uses most of this, not all of it.
#![allow(dead_code, unreachable_pub, clippy::indexing_slicing)]

pub mod raw;

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use txc_async::reqwest;
use txc_blocking::ureq;
use txc_sandbox::{AccountConfig, Sandbox};
use txc_sign::nonce::{NonceMode, NonceSequence, unix_millis};
use txc_sign::{Credentials, SignedRequest, Signer};
use txc_types::endpoint::Endpoint;
use txc_types::orders::{CollateralMarketOrder, Side};

pub const SECRET: &str = "bench-secret-0123456789";

// One account per benchmark, so that no two share a key's nonces.
pub const BLOCKING_CLIENT_KEY: &str = "bench-blocking-client";
pub const BLOCKING_PACED_KEY: &str = "bench-blocking-paced";
pub const BLOCKING_SAME_WORK_KEY: &str = "bench-blocking-same-work";
pub const BLOCKING_RAW_KEY: &str = "bench-blocking-raw";
pub const ASYNC_PACED_KEY: &str = "bench-async-paced";

/// Requests per async round: 64 in flight, two orders each.
pub const IN_FLIGHT: usize = 64;
pub const PER_TASK: usize = 2;

/// The async benchmarks' keys per side, used in turn, one per round.
///
/// A burst of window-mode nonces of one key runs ahead of the clock (one per millisecond):
/// 100 rounds x 128 requests on one key would be 12.8 s ahead, past the client's 3 s pacing
/// lead (it would sleep) and the exchange's 5 s window (divan makes the pre-signed floor's
/// inputs up front, so it would sign nonces the sandbox rejects). Ten keys in turn keep each
/// about 1.3 s ahead.
pub const ASYNC_KEYS: usize = 10;

/// The keys of one side of the async benchmarks: `bench-async-{side}-{i}`.
pub fn async_keys(side: &str) -> [String; ASYNC_KEYS] {
    std::array::from_fn(|i| format!("bench-async-{side}-{i}"))
}

/// A sandbox with every benchmark's account and no rate limit of its own.
///
/// Its look-ups are indexed, so its cost per request stays flat as orders accumulate
/// (`txc-sandbox`'s `stored_orders` bench); `e2e` still starts each benchmark on a fresh one,
/// and `e2e_paired` runs the sides in turn on one.
pub fn sandbox() -> Sandbox {
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

/// A sandbox whose partner demo key holds a billion USDT, enough for every order a benchmark
/// places (the benchmarks that use the demo keys).
pub fn partner_sandbox() -> Sandbox {
    let sandbox = Sandbox::start().unwrap();
    sandbox
        .set_balance(txc_sandbox::demo::PARTNER_API_KEY, "USDT", "1000000000")
        .unwrap();
    sandbox
}

/// Buy then sell the minimum, so positions stay flat however many orders are sent.
pub fn orders() -> [CollateralMarketOrder; 2] {
    [Side::Buy, Side::Sell].map(|side| {
        CollateralMarketOrder::builder("BTC_USDT", side, "0.001")
            .build()
            .unwrap()
    })
}

/// The elements of `items` in turn, one per call, from the second on: the two [`orders`] (or
/// [`raw::SIDES`]) alternating, the async keys' clients rotating. Indexing by a counter modulo
/// the constant `N`, as each benchmark did with its own counter.
pub fn in_turn<'a, T, const N: usize>(items: &'a [T; N]) -> impl FnMut() -> &'a T {
    let mut i = 0usize;
    move || {
        i += 1;
        &items[i % N]
    }
}

/// The median of `times` (zero for none).
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// Runs `sides` in turn, `n` times each, the order rotating every time (whatever the shared
/// host does hits every side alike); each side's median.
pub fn take_turns<const N: usize>(
    n: usize,
    sides: &mut [&mut dyn FnMut() -> Duration; N],
) -> [Duration; N] {
    let mut times: [Vec<Duration>; N] = std::array::from_fn(|_| Vec::with_capacity(n));
    for i in 0..n {
        for k in 0..N {
            let side = (i + k) % N;
            times[side].push(sides[side]());
        }
    }
    times.map(median)
}

/// How long `f` takes.
pub fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// The `i`-th order to place: a buy or a sell of the minimum, built as a user builds each
/// order, with a `clientOrderId` of its own (generated at build time; one client refuses an id
/// it used moments ago).
pub fn next_order(i: usize) -> CollateralMarketOrder {
    let side = [Side::Buy, Side::Sell][i % 2];
    CollateralMarketOrder::builder("BTC_USDT", side, "0.001")
        .build()
        .unwrap()
}

pub fn credentials(key: &str) -> Credentials {
    Credentials::new(key, SECRET).unwrap()
}

/// The URL of the market-order endpoint at `base_url`.
pub fn order_url(base_url: &str) -> String {
    format!("{base_url}{}", CollateralMarketOrder::PATH)
}

/// Pre-signs `n` alternating orders for the floor, outside the timed region.
pub fn presign(
    signer: &Signer,
    nonces: &NonceSequence,
    window: bool,
    n: usize,
) -> Vec<SignedRequest> {
    let orders = orders();
    let mode = if window {
        NonceMode::Window
    } else {
        NonceMode::Strict
    };
    (0..n)
        .map(|i| {
            let nonce = nonces.next(unix_millis(SystemTime::now()));
            signer.sign(&orders[i % 2], nonce, mode).unwrap()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Blocking: one order per call.

/// A ureq agent that hands error statuses over, as txc needs; nothing else set.
pub fn plain_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// The blocking client, strict nonces (sequential calls), limiter off unless `paced`.
pub fn blocking_client(sandbox: &Sandbox, key: &str, paced: bool) -> txc_blocking::Client {
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

/// Same work, raw ureq: nonce, `clientOrderId`, sign, send, read, decode.
pub fn raw_ureq_same_work(
    agent: &ureq::Agent,
    uri: &http::Uri,
    client: &raw::Client,
    side: &str,
) -> raw::Placed {
    let signed = client.sign(side);
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
    raw::decode(status, &body)
}

/// The floor: raw ureq sending a pre-signed request and reading the body's bytes.
pub fn raw_ureq_presigned(agent: &ureq::Agent, request: http::Request<Vec<u8>>) -> Vec<u8> {
    let response = agent.run(request).unwrap();
    assert_eq!(response.status(), 200);
    response.into_body().read_to_vec().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Async: rounds of 64 tasks, 2 orders each.

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The async client over `http` (one connection pool for every key, as the baselines share
/// one, and as an application with several keys would), limiter off unless `paced`.
pub fn async_client(
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

/// 64 tasks on clones of `client`, 2 orders each.
pub fn txc_round(rt: &tokio::runtime::Runtime, client: &txc_async::Client) {
    rt.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for t in 0..IN_FLIGHT {
            let client = client.clone();
            tasks.spawn(async move {
                for i in 0..PER_TASK {
                    let order = next_order(t + i);
                    let placed = client.collateral_market_order(&order).await;
                    black_box(placed.unwrap());
                }
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.unwrap();
        }
    });
}

/// Same work, raw reqwest: each of 64 tasks signs (fresh nonce, `clientOrderId`), sends,
/// reads and decodes 2 orders.
pub fn same_work_round(
    rt: &tokio::runtime::Runtime,
    http: &reqwest::Client,
    url: &reqwest::Url,
    client: &Arc<raw::Client>,
) {
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
}

/// The floor's input: 64 batches of 2 pre-signed requests, window-mode nonces.
pub fn presigned_batches(signer: &Signer, nonces: &NonceSequence) -> Vec<Vec<reqwest::Request>> {
    let mut signed = presign(signer, nonces, true, IN_FLIGHT * PER_TASK)
        .into_iter()
        .map(|s| reqwest::Request::try_from(s.into_http()).unwrap());
    (0..IN_FLIGHT)
        .map(|_| signed.by_ref().take(PER_TASK).collect())
        .collect()
}

/// The floor: each batch on its own task (64 in flight), reading every body's bytes.
pub fn send_all(
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

/// The `ordersPending` subscription of BTC_USDT, which the resolving benchmarks open.
pub fn orders_pending() -> [txc_blocking::events::Subscription; 1] {
    [txc_blocking::events::Subscription::orders_pending(["BTC_USDT"]).unwrap()]
}

/// The blocking client of `config`; with `stream`, its own private stream started (its resync
/// done) and read on a thread of its own for the rest of the run, publishing to the client's
/// order sightings.
pub fn blocking_with_stream(config: txc_core::ClientConfig, stream: bool) -> txc_blocking::Client {
    use txc_blocking::events::StreamEvent;
    let client = txc_blocking::ClientBuilder::from(config).build().unwrap();
    if stream {
        let mut events = client.events(orders_pending()).start().unwrap();
        for event in events.by_ref() {
            if matches!(event, StreamEvent::ResyncDone(_)) {
                break;
            }
        }
        std::thread::spawn(move || events.for_each(drop));
    }
    client
}

/// The async client of `config` on a runtime of its own (one worker: the stream's task); with
/// `stream`, its own private stream started (its resync done) and read for the rest of the run.
pub fn async_with_stream(
    config: txc_core::ClientConfig,
    stream: bool,
) -> (Arc<tokio::runtime::Runtime>, txc_async::Client) {
    use txc_blocking::events::StreamEvent;
    let runtime = Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap(),
    );
    let client = runtime.block_on(async {
        let client = txc_async::ClientBuilder::from(config).build().unwrap();
        if stream {
            let mut events = client.events(orders_pending()).start().unwrap();
            while let Some(event) = events.next().await {
                if matches!(event, StreamEvent::ResyncDone(_)) {
                    break;
                }
            }
            tokio::spawn(async move { while events.next().await.is_some() {} });
        }
        client
    });
    (runtime, client)
}

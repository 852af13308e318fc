//! What the integration tests of both transports share: a [`Driver`] per transport that makes
//! clients from one [`Setup`], the [`Api`] they are called through, the `scenarios!` macro that
//! turns a scenario into one test per transport, and helpers to take errors apart and to look
//! for leaked secrets.

#![allow(
    dead_code,
    unused_macros,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use txc_sandbox::demo;
use txc_sign::{
    ApiError, ClockOffset, Credentials, DecodeErrorKind, Delivery, Error, FleetWorker,
    NonceSequence, PendingOrder, Placed, RateLimiter, RateLimits, RatePolicy, Resolution,
    RetryPolicy, SignedRequest, TransportErrorKind,
};
use txc_types::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, InvestmentPlan,
    OpenOrdersQuery, Order, OrderHistory, OrderHistoryQuery, ServerTime, Side, SmartPlansQuery,
};

// ---------------------------------------------------------------------------------------------
// Drivers: one per transport, the same shape for both.

/// What a test sets on a client; each driver maps it onto its crate's builder.
#[derive(Clone)]
pub struct Setup {
    pub key: &'static str,
    pub secret: &'static str,
    pub nonce_window: bool,
    pub timeout: Option<Duration>,
    pub max_response_bytes: Option<usize>,
    pub retry: Option<RetryPolicy>,
    pub nonces: Option<NonceSequence>,
    pub connect_timeout: Option<Duration>,
    pub user_agent: Option<String>,
    pub settle_delay: Duration,
    pub max_placements: Option<u32>,
    pub client_order_ids: bool,
    /// Brings an own HTTP client (fit for the exchange) instead of the builder's.
    pub own_http: bool,
    pub rate_limits: Option<RateLimits>,
    pub rate_limiter: Option<RateLimiter>,
    pub no_rate_limit: bool,
    pub rate_policy: Option<RatePolicy>,
    pub fleet_worker: Option<FleetWorker>,
    pub clock_offset: Option<ClockOffset>,
}

/// How long resolving waits after an attempt's nonce time in the tests, unless a test sets its
/// own: the sandbox shares this host's clock and places an order before it answers (its orders
/// are visible at once unless a test says otherwise), so resolving need not wait out a real
/// exchange's window.
pub const SANDBOX_SETTLE_DELAY: Duration = Duration::from_millis(100);

/// The retry policy of the tests' clients, unless a test sets its own: as many attempts as
/// [`RetryPolicy::default`], so every retry path is taken as often, but backoffs of milliseconds
/// instead of the exchange's seconds — the sandbox answers at once, and the suite would only
/// sleep (a single test spent 140 s in backoffs).
pub fn sandbox_retries() -> RetryPolicy {
    RetryPolicy::new(
        RetryPolicy::default().max_attempts(),
        Duration::from_millis(5),
        Duration::from_millis(20),
    )
    .with_quick_retry(Duration::from_millis(2))
}

impl Setup {
    pub fn partner() -> Self {
        Self::key(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
    }

    pub fn key(key: &'static str, secret: &'static str) -> Self {
        Self {
            key,
            secret,
            nonce_window: true,
            timeout: None,
            max_response_bytes: None,
            retry: Some(sandbox_retries()),
            nonces: None,
            connect_timeout: None,
            user_agent: None,
            settle_delay: SANDBOX_SETTLE_DELAY,
            max_placements: None,
            client_order_ids: true,
            own_http: false,
            rate_limits: None,
            rate_limiter: None,
            no_rate_limit: false,
            rate_policy: None,
            fleet_worker: None,
            clock_offset: None,
        }
    }

    pub fn rate_limits(mut self, limits: RateLimits) -> Self {
        self.rate_limits = Some(limits);
        self
    }

    pub fn rate_limiter(mut self, limiter: RateLimiter) -> Self {
        self.rate_limiter = Some(limiter);
        self
    }

    pub fn no_rate_limit(mut self) -> Self {
        self.no_rate_limit = true;
        self
    }

    pub fn rate_policy(mut self, policy: RatePolicy) -> Self {
        self.rate_policy = Some(policy);
        self
    }

    pub fn fleet_worker(mut self, worker: FleetWorker) -> Self {
        self.fleet_worker = Some(worker);
        self
    }

    pub fn clock_offset(mut self, offset: ClockOffset) -> Self {
        self.clock_offset = Some(offset);
        self
    }

    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    pub fn user_agent(mut self, user_agent: &str) -> Self {
        self.user_agent = Some(user_agent.to_owned());
        self
    }

    pub fn settle_delay(mut self, delay: Duration) -> Self {
        self.settle_delay = delay;
        self
    }

    pub fn max_placements(mut self, max: u32) -> Self {
        self.max_placements = Some(max);
        self
    }

    pub fn client_order_ids(mut self, on: bool) -> Self {
        self.client_order_ids = on;
        self
    }

    pub fn own_http(mut self) -> Self {
        self.own_http = true;
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    pub fn max_response_bytes(mut self, max: usize) -> Self {
        self.max_response_bytes = Some(max);
        self
    }

    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = Some(retry);
        self
    }

    pub fn nonce_window(mut self, on: bool) -> Self {
        self.nonce_window = on;
        self
    }

    pub fn nonces(mut self, nonces: NonceSequence) -> Self {
        self.nonces = Some(nonces);
        self
    }

    pub fn credentials(&self) -> Credentials {
        Credentials::new(self.key, self.secret).unwrap()
    }
}

/// Applies a [`Setup`] to a transport's builder; both builders have the same setters.
macro_rules! configure {
    ($builder:expr, $base_url:expr, $setup:expr) => {{
        let setup = $setup;
        let mut builder = $builder
            .base_url($base_url)
            .nonce_window(setup.nonce_window)
            .settle_delay(setup.settle_delay);
        if let Some(timeout) = setup.timeout {
            builder = builder.timeout(timeout);
        }
        if let Some(timeout) = setup.connect_timeout {
            builder = builder.connect_timeout(timeout);
        }
        if let Some(user_agent) = setup.user_agent {
            builder = builder.user_agent(user_agent);
        }
        if let Some(max) = setup.max_response_bytes {
            builder = builder.max_response_bytes(max);
        }
        if let Some(retry) = setup.retry {
            builder = builder.retry_policy(retry);
        }
        if let Some(nonces) = setup.nonces {
            builder = builder.nonce_sequence(nonces);
        }
        if let Some(max) = setup.max_placements {
            builder = builder.max_placements(max);
        }
        if let Some(limits) = setup.rate_limits {
            builder = builder.rate_limits(limits);
        }
        if let Some(limiter) = setup.rate_limiter {
            builder = builder.rate_limiter(limiter);
        }
        if setup.no_rate_limit {
            builder = builder.no_rate_limit();
        }
        if let Some(policy) = setup.rate_policy {
            builder = builder.rate_policy(policy);
        }
        if let Some(worker) = setup.fleet_worker {
            builder = builder.fleet_worker(worker);
        }
        if let Some(offset) = setup.clock_offset {
            builder = builder.clock_offset(offset);
        }
        builder.client_order_ids(setup.client_order_ids)
    }};
}

/// The three operations, called the same way whatever the transport.
pub trait Api: Send + Sync {
    fn market(&self, order: &CollateralMarketOrder) -> Result<Order, Error>;
    fn trigger(&self, order: &CollateralTriggerMarketOrder) -> Result<Order, Error>;
    fn plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error>;
    fn open_orders(&self, query: &OpenOrdersQuery) -> Result<Vec<Order>, Error>;
    fn history(&self, query: &OrderHistoryQuery) -> Result<OrderHistory, Error>;
    fn cancel(&self, cancel: &CancelOrder) -> Result<Cancellation, Error>;
    fn resolve(&self, order: &PendingOrder) -> Result<Resolution, Error>;
    fn place_once(&self, order: &CollateralMarketOrder) -> Result<Placed, Error>;
    fn place_trigger_once(&self, order: &CollateralTriggerMarketOrder) -> Result<Placed, Error>;
    fn base_url(&self) -> String;
    fn server_time(&self) -> Result<ServerTime, Error>;
    fn sync_clock(&self) -> Result<ClockOffset, Error>;
    fn clock_offset(&self) -> ClockOffset;
    /// Places every order, at most `concurrency` at once, each through a clone of this client
    /// (threads for the blocking client, tokio tasks for the async one); the results in the
    /// orders' order.
    fn run_orders(
        &self,
        orders: Vec<CollateralMarketOrder>,
        concurrency: usize,
    ) -> Vec<Result<Order, Error>>;
    /// Signs without sending (a dry run).
    fn prepare(&self, order: &CollateralMarketOrder) -> Result<SignedRequest, Error>;
    /// The client's `Debug`.
    fn debug(&self) -> String;

    /// `n` copies of `order` at once, each from its own clone of this client.
    fn concurrent_markets(
        &self,
        order: &CollateralMarketOrder,
        n: usize,
    ) -> Vec<Result<Order, Error>> {
        self.run_orders(vec![order.clone(); n], n)
    }
}

/// Makes clients of one transport.
pub trait Driver {
    fn name(&self) -> &'static str;
    fn client(&self, base_url: &str, setup: Setup) -> Box<dyn Api> {
        self.build(base_url, setup).unwrap()
    }
    /// What the builder configured with `setup` builds.
    fn build(&self, base_url: &str, setup: Setup) -> Result<Box<dyn Api>, Error>;
    /// The `Debug` of a builder configured with `setup`.
    fn builder_debug(&self, base_url: &str, setup: Setup) -> String;
}

pub struct Blocking;

impl Driver for Blocking {
    fn name(&self) -> &'static str {
        "blocking"
    }

    fn build(&self, base_url: &str, setup: Setup) -> Result<Box<dyn Api>, Error> {
        let mut builder = txc_blocking::Client::builder(setup.credentials());
        if setup.own_http {
            let agent: txc_blocking::ureq::Agent = txc_blocking::ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into();
            builder = builder.http(agent);
        }
        Ok(Box::new(configure!(builder, base_url, setup).build()?))
    }

    fn builder_debug(&self, base_url: &str, setup: Setup) -> String {
        let builder = txc_blocking::Client::builder(setup.credentials());
        format!("{:?}", configure!(builder, base_url, setup))
    }
}

/// Hands out the indices `0..n` to workers.
struct Queue {
    next: AtomicUsize,
    len: usize,
}

impl Queue {
    fn take(&self) -> Option<usize> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.len).then_some(i)
    }
}

/// Puts `(index, result)` pairs back in index order.
fn in_order(mut results: Vec<(usize, Result<Order, Error>)>) -> Vec<Result<Order, Error>> {
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

impl Api for txc_blocking::Client {
    fn server_time(&self) -> Result<ServerTime, Error> {
        txc_blocking::Client::server_time(self)
    }

    fn sync_clock(&self) -> Result<ClockOffset, Error> {
        txc_blocking::Client::sync_clock(self)
    }

    fn clock_offset(&self) -> ClockOffset {
        txc_blocking::Client::clock_offset(self)
    }

    fn market(&self, order: &CollateralMarketOrder) -> Result<Order, Error> {
        self.collateral_market_order(order)
    }

    fn trigger(&self, order: &CollateralTriggerMarketOrder) -> Result<Order, Error> {
        self.collateral_trigger_market_order(order)
    }

    fn plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.smart_plans(query)
    }

    fn open_orders(&self, query: &OpenOrdersQuery) -> Result<Vec<Order>, Error> {
        txc_blocking::Client::open_orders(self, query)
    }

    fn history(&self, query: &OrderHistoryQuery) -> Result<OrderHistory, Error> {
        self.order_history(query)
    }

    fn cancel(&self, cancel: &CancelOrder) -> Result<Cancellation, Error> {
        self.cancel_order(cancel)
    }

    fn resolve(&self, order: &PendingOrder) -> Result<Resolution, Error> {
        txc_blocking::Client::resolve(self, order)
    }

    fn place_once(&self, order: &CollateralMarketOrder) -> Result<Placed, Error> {
        txc_blocking::Client::place_once(self, order)
    }

    fn place_trigger_once(&self, order: &CollateralTriggerMarketOrder) -> Result<Placed, Error> {
        txc_blocking::Client::place_once(self, order)
    }

    fn base_url(&self) -> String {
        txc_blocking::Client::base_url(self).to_owned()
    }

    fn run_orders(
        &self,
        orders: Vec<CollateralMarketOrder>,
        concurrency: usize,
    ) -> Vec<Result<Order, Error>> {
        let orders = Arc::new(orders);
        let queue = Arc::new(Queue {
            next: AtomicUsize::new(0),
            len: orders.len(),
        });
        let workers: Vec<_> = (0..concurrency.max(1))
            .map(|_| {
                let client = self.clone();
                let (orders, queue) = (Arc::clone(&orders), Arc::clone(&queue));
                std::thread::spawn(move || {
                    let mut done = Vec::new();
                    while let Some(i) = queue.take() {
                        done.push((i, client.collateral_market_order(&orders[i])));
                    }
                    done
                })
            })
            .collect();
        in_order(
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap())
                .collect(),
        )
    }

    fn prepare(&self, order: &CollateralMarketOrder) -> Result<SignedRequest, Error> {
        txc_blocking::Client::prepare(self, order)
    }

    fn debug(&self) -> String {
        format!("{self:?}")
    }
}

pub struct Async {
    runtime: Arc<tokio::runtime::Runtime>,
}

impl Async {
    pub fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        Self {
            runtime: Arc::new(runtime),
        }
    }
}

/// The async client on a runtime of its own, driven with `block_on`.
pub struct AsyncApi {
    runtime: Arc<tokio::runtime::Runtime>,
    client: txc_async::Client,
}

impl Driver for Async {
    fn name(&self) -> &'static str {
        "async"
    }

    fn build(&self, base_url: &str, setup: Setup) -> Result<Box<dyn Api>, Error> {
        let mut builder = txc_async::Client::builder(setup.credentials());
        if setup.own_http {
            let http = txc_async::reqwest::Client::builder()
                .redirect(txc_async::reqwest::redirect::Policy::none())
                .build()
                .unwrap();
            builder = builder.http(http);
        }
        Ok(Box::new(AsyncApi {
            runtime: Arc::clone(&self.runtime),
            client: configure!(builder, base_url, setup).build()?,
        }))
    }

    fn builder_debug(&self, base_url: &str, setup: Setup) -> String {
        let builder = txc_async::Client::builder(setup.credentials());
        format!("{:?}", configure!(builder, base_url, setup))
    }
}

impl Api for AsyncApi {
    fn server_time(&self) -> Result<ServerTime, Error> {
        self.runtime.block_on(self.client.server_time())
    }

    fn sync_clock(&self) -> Result<ClockOffset, Error> {
        self.runtime.block_on(self.client.sync_clock())
    }

    fn clock_offset(&self) -> ClockOffset {
        self.client.clock_offset()
    }

    fn market(&self, order: &CollateralMarketOrder) -> Result<Order, Error> {
        self.runtime
            .block_on(self.client.collateral_market_order(order))
    }

    fn trigger(&self, order: &CollateralTriggerMarketOrder) -> Result<Order, Error> {
        self.runtime
            .block_on(self.client.collateral_trigger_market_order(order))
    }

    fn plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.runtime.block_on(self.client.smart_plans(query))
    }

    fn open_orders(&self, query: &OpenOrdersQuery) -> Result<Vec<Order>, Error> {
        self.runtime.block_on(self.client.open_orders(query))
    }

    fn history(&self, query: &OrderHistoryQuery) -> Result<OrderHistory, Error> {
        self.runtime.block_on(self.client.order_history(query))
    }

    fn cancel(&self, cancel: &CancelOrder) -> Result<Cancellation, Error> {
        self.runtime.block_on(self.client.cancel_order(cancel))
    }

    fn resolve(&self, order: &PendingOrder) -> Result<Resolution, Error> {
        self.runtime.block_on(self.client.resolve(order))
    }

    fn place_once(&self, order: &CollateralMarketOrder) -> Result<Placed, Error> {
        self.runtime.block_on(self.client.place_once(order))
    }

    fn place_trigger_once(&self, order: &CollateralTriggerMarketOrder) -> Result<Placed, Error> {
        self.runtime.block_on(self.client.place_once(order))
    }

    fn base_url(&self) -> String {
        self.client.base_url().to_owned()
    }

    fn run_orders(
        &self,
        orders: Vec<CollateralMarketOrder>,
        concurrency: usize,
    ) -> Vec<Result<Order, Error>> {
        let orders = Arc::new(orders);
        let queue = Arc::new(Queue {
            next: AtomicUsize::new(0),
            len: orders.len(),
        });
        self.runtime.block_on(async {
            let workers: Vec<_> = (0..concurrency.max(1))
                .map(|_| {
                    let client = self.client.clone();
                    let (orders, queue) = (Arc::clone(&orders), Arc::clone(&queue));
                    tokio::spawn(async move {
                        let mut done = Vec::new();
                        while let Some(i) = queue.take() {
                            done.push((i, client.collateral_market_order(&orders[i]).await));
                        }
                        done
                    })
                })
                .collect();
            let mut results = Vec::with_capacity(orders.len());
            for worker in workers {
                results.extend(worker.await.unwrap());
            }
            in_order(results)
        })
    }

    fn prepare(&self, order: &CollateralMarketOrder) -> Result<SignedRequest, Error> {
        self.client.prepare(order)
    }

    fn debug(&self) -> String {
        format!("{:?}", self.client)
    }
}

/// Turns each scenario `fn(&dyn Driver)` into one test per transport: `blocking::name` and
/// `asynchronous::name`.
macro_rules! scenarios {
    ($($scenario:ident),* $(,)?) => {
        mod blocking {
            $(
                #[test]
                fn $scenario() {
                    super::$scenario(&$crate::common::Blocking);
                }
            )*
        }

        mod asynchronous {
            $(
                #[test]
                fn $scenario() {
                    super::$scenario(&$crate::common::Async::new());
                }
            )*
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Helpers.

pub fn market(amount: &str) -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, amount)
        .build()
        .unwrap()
}

pub fn api_error(result: Result<impl std::fmt::Debug, Error>) -> (Error, ApiError) {
    let error = result.unwrap_err();
    let api = error
        .api()
        .unwrap_or_else(|| panic!("expected an API error, got {error:?}"))
        .clone();
    (error, api)
}

/// The failure behind an unresolved order, or the error itself.
pub fn cause(error: &Error) -> &Error {
    match error {
        Error::OutcomeUnknown(u) | Error::NotPlaced(u) => &u.cause,
        other => other,
    }
}

/// The transport failure of `result` (behind an unresolved order, if it is one).
pub fn transport(
    result: Result<impl std::fmt::Debug, Error>,
) -> (Error, TransportErrorKind, Delivery) {
    let error = result.unwrap_err();
    match cause(&error) {
        Error::Transport(e) => {
            let (kind, delivery) = (e.kind, e.delivery);
            (error, kind, delivery)
        }
        other => panic!("expected a transport error, got {other:?}"),
    }
}

/// Starts a sandbox with `fault` on `route`, sends one order through a client with a 300 ms
/// timeout, and checks that it timed out after sending: outcome unknown, not retryable, sent
/// once. Returns the sandbox and the client for further checks.
pub fn order_times_out(
    driver: &dyn Driver,
    route: txc_sandbox::Route,
    fault: txc_sandbox::Fault,
) -> (txc_sandbox::Sandbox, Box<dyn Api>) {
    let sandbox = txc_sandbox::Sandbox::start().unwrap();
    sandbox.inject_fault(route, fault, None);
    let client = driver.client(
        sandbox.base_url(),
        Setup::partner().timeout(Duration::from_millis(300)),
    );
    let (error, kind, delivery) = transport(client.market(&market("0.01")));
    assert_eq!(
        (kind, delivery),
        (TransportErrorKind::Timeout, Delivery::MaybeSent)
    );
    assert!(error.outcome_unknown());
    assert!(!error.is_retryable());
    assert_eq!(sandbox.stats().requests, 1, "not resent");
    (sandbox, client)
}

/// The decode failure of `result` (behind an unresolved order, if it is one).
pub fn decode_error(result: Result<impl std::fmt::Debug, Error>) -> (Error, u16, DecodeErrorKind) {
    let error = result.unwrap_err();
    match cause(&error) {
        Error::Decode(e) => {
            let (status, kind) = (e.status, e.kind);
            (error, status, kind)
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

/// Waits (at most 10 s) until `done` holds; for effects of requests the client gave up on.
pub fn eventually(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(Instant::now() < deadline, "never happened: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Every text an error shows: `Display`, `Debug`, and the `Display` and `Debug` of each source.
pub fn error_texts(error: &Error) -> String {
    let mut text = format!("{error}\n{error:?}\n");
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        text.push_str(&format!("{s}\n{s:?}\n"));
        source = s.source();
    }
    text
}

pub const WRONG_SECRET: &str = "not-the-partner-secret-6f2d9b4a1c8e";

/// The secrets the tests use.
pub const SECRETS: [&str; 4] = [
    demo::PARTNER_API_SECRET,
    demo::REGULAR_API_SECRET,
    demo::DISABLED_API_SECRET,
    WRONG_SECRET,
];

/// Asserts that `text` shows no secret (as text, bytes, hex or base64), no payload (base64 of
/// `{"request":…`) and no signature (a run of 128 hex digits).
pub fn assert_no_secret(text: &str) {
    for secret in SECRETS {
        let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
        for form in [
            secret.to_owned(),
            format!("{:?}", secret.as_bytes()),
            hex,
            txc_sign::payload(secret.as_bytes()),
        ] {
            assert!(!text.contains(&form), "secret leaked ({form}) in: {text}");
        }
    }
    assert!(
        !text.contains("eyJyZXF1ZXN0Ijoi"),
        "payload leaked in: {text}"
    );
    let hex_run = text
        .split(|c: char| !c.is_ascii_hexdigit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    assert!(hex_run < 128, "signature leaked in: {text}");
}

/// A `tracing` writer collecting everything into memory.
#[derive(Clone, Default)]
pub struct Trace(Arc<Mutex<Vec<u8>>>);

impl Trace {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for Trace {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Trace {
    type Writer = Trace;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

pub fn now_ms() -> u64 {
    txc_sign::unix_millis(SystemTime::now())
}

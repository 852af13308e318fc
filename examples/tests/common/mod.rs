//! What the integration tests of both transports share: a [`Driver`] per transport that makes
//! clients from one [`ClientConfig`] (the configuration both transports' builders wrap), the
//! [`Api`] they are called through, the `scenarios!` macro that turns a scenario into one test
//! per transport, and helpers to take errors apart and to look for leaked secrets.

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

pub use txc_core::ClientConfig;
use txc_core::Error;
use txc_core::decode::{ApiError, DecodeErrorKind, Delivery, TransportErrorKind};
use txc_core::resolve::{PendingOrder, PendingRecord, Placed, Resolution};
use txc_sandbox::demo;
use txc_sign::SignedRequest;
use txc_sign::nonce::ClockOffset;
use txc_types::investments::{InvestmentPlan, SmartPlansQuery};
use txc_types::lookups::{OpenOrdersQuery, OrderHistory, OrderHistoryQuery};
use txc_types::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, NewOrder,
    Order, Side,
};
use txc_types::time::ServerTime;

#[macro_use]
mod forward;

pub mod flex;
pub mod invest;
pub mod journal;
#[path = "../../../crates/txc-types/tests/common/schema.rs"]
pub mod openapi;
pub mod reports;
#[macro_use]
pub mod socket;
pub mod stream;

// ---------------------------------------------------------------------------------------------
// Drivers: one per transport, the same shape for both.

/// The configurations the tests' clients start from: [`ClientConfig`]s, the one configuration
/// both transports' builders wrap.
pub mod config {
    use std::time::Duration;

    use txc_core::ClientConfig;
    use txc_core::pacing::RetryPolicy;
    use txc_core::risk::{MarketRulesCheck, ModeCheck};
    use txc_sandbox::demo;
    use txc_sign::Credentials;

    /// How far apart resolving's rounds of look-ups are in the tests, unless a test sets its
    /// own — through `unproven_settle_delay`, the setting that gives up the guarantee: the
    /// sandbox shares this host's clock and places an order before it answers (its orders are
    /// visible at once unless a test says otherwise), so resolving need not wait out a real
    /// exchange's nonce window (10 s and more a resolution, which would take the suite past two
    /// minutes).
    pub const SANDBOX_SETTLE_DELAY: Duration = Duration::from_millis(100);

    /// How long after an operation's last attempt (its nonce, or the resolver's first look-up
    /// with strict nonces) the tests' clients count it as accepted or never — through
    /// `unproven_acceptance_window`, the other setting that gives up the guarantee — instead of
    /// the documented nonce window and creation allowance (10 s a resolution, waited out by
    /// every case that proves an absence). The sandbox creates what a request asks for before
    /// it answers, on this host's clock, so a second covers every request it delays (its
    /// `Fault::Delay` holds only the answer). `TXC_FULL_RESOLVE=1` runs every case with the
    /// documented window instead (`None`).
    pub fn sandbox_acceptance_window() -> Option<Duration> {
        let full = std::env::var("TXC_FULL_RESOLVE").is_ok_and(|v| v == "1");
        (!full).then_some(Duration::from_secs(1))
    }

    /// The retry policy of the tests' clients, unless a test sets its own: as many attempts as
    /// [`RetryPolicy::default`], so every retry path is taken as often, but backoffs of
    /// milliseconds instead of the exchange's seconds — the sandbox answers at once, and the
    /// suite would only sleep (a single test spent 140 s in backoffs).
    pub fn sandbox_retries() -> RetryPolicy {
        RetryPolicy::new(
            RetryPolicy::default().max_attempts(),
            Duration::from_millis(5),
            Duration::from_millis(20),
        )
        .with_quick_retry(Duration::from_millis(2))
    }

    /// The partner's key, with [`SANDBOX_SETTLE_DELAY`], [`sandbox_acceptance_window`] and
    /// [`sandbox_retries`]. The partner
    /// is a B2B account on the sandbox (its canceled orders never reach the history); the
    /// tests that cancel an order and then resolve it say so (`b2b_account(true)`), the others
    /// leave it off so that absence is "not placed".
    pub fn partner() -> ClientConfig {
        key(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
    }

    /// [`partner`]'s configuration for another key. It checks no position mode and no market
    /// rules before an order ([`ModeCheck::Off`], [`MarketRulesCheck::Off`]), so that each
    /// order is one request, as the scenarios count them; `tests/risk.rs` turns the mode
    /// check on and tests it, `tests/trading.rs` the rules.
    pub fn key(key: &str, secret: &str) -> ClientConfig {
        let config = ClientConfig::new(Credentials::new(key, secret).unwrap())
            .unproven_settle_delay(SANDBOX_SETTLE_DELAY)
            .retry_policy(sandbox_retries())
            .position_mode_check(ModeCheck::Off)
            .market_rules_check(MarketRulesCheck::Off);
        match sandbox_acceptance_window() {
            Some(window) => config.unproven_acceptance_window(window),
            None => config,
        }
    }
}

/// Whose HTTP client a test's client sends through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Http {
    /// The one the builder makes from the configuration.
    Made,
    /// One of the test's own (fit for the exchange), given to the builder's `http`.
    Own,
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
    /// The orders the client holds as in flight or unresolved.
    fn pending_orders(&self) -> Vec<PendingOrder>;
    /// Forgets an unresolved record, settled by hand.
    fn discard_pending(&self, record: PendingRecord) -> std::io::Result<bool>;
    /// Starts placing `order` and gives up waiting after `after`: the async client drops the
    /// future (`tokio::time::timeout`), the blocking one leaves the call to its thread.
    fn market_abandoned_after(&self, order: &CollateralMarketOrder, after: Duration);
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

    /// `n` copies of `order` at once, each with a `clientOrderId` of its own (one client
    /// refuses an id it used a moment ago) and from its own clone of this client.
    fn concurrent_markets(
        &self,
        order: &CollateralMarketOrder,
        n: usize,
    ) -> Vec<Result<Order, Error>> {
        let ids = txc_types::values::ClientOrderIds::process();
        let orders = (0..n)
            .map(|_| order.with_client_order_id(ids.next()))
            .collect();
        self.run_orders(orders, n)
    }
}

/// Makes clients of one transport, each from a [`ClientConfig`] (the one configuration both
/// transports' builders wrap) and the address of the exchange.
pub trait Driver {
    fn name(&self) -> &'static str;
    fn client(&self, base_url: &str, config: ClientConfig) -> Box<dyn Api> {
        self.build(base_url, config).unwrap()
    }
    /// What the transport's builder, started from `config`, builds.
    fn build(&self, base_url: &str, config: ClientConfig) -> Built {
        self.build_with(base_url, config, Http::Made)
    }
    /// What the transport's builder, started from `config` and given `http`, builds.
    fn build_with(&self, base_url: &str, config: ClientConfig, http: Http) -> Built {
        self.build_from(config.base_url(base_url), http)
    }
    /// The `Debug` of the transport's builder started from `config`.
    fn builder_debug(&self, base_url: &str, config: ClientConfig) -> String;
    /// What the transport's builder, started from `config` (with the address in it), builds.
    fn build_from(&self, config: ClientConfig, http: Http) -> Built;
}

/// A client a [`Driver`] built, or why its builder refused.
pub type Built = Result<Box<dyn Api>, Error>;

pub struct Blocking;

impl Driver for Blocking {
    fn name(&self) -> &'static str {
        "blocking"
    }

    fn build_from(&self, config: ClientConfig, http: Http) -> Built {
        let mut builder = txc_blocking::ClientBuilder::from(config);
        if http == Http::Own {
            let agent = txc_blocking::ureq::Agent::config_builder().http_status_as_error(false);
            builder = builder.http(agent.build().into());
        }
        Ok(Box::new(builder.build()?))
    }

    fn builder_debug(&self, base_url: &str, config: ClientConfig) -> String {
        format!(
            "{:?}",
            txc_blocking::ClientBuilder::from(config.base_url(base_url))
        )
    }
}

/// A driver's own client type, as its builder makes it from a configuration: what the
/// [`InvestDriver`](invest::InvestDriver) and [`RiskDriver`](risk::RiskDriver) of every
/// driver hand out, boxed.
pub trait Make: Driver {
    /// The transport's client, with every operation the tests drive.
    type Client: invest::InvestApi + risk::RiskApi + flex::FlexApi + reports::ReportsApi + 'static;
    /// The client `config` describes, for the exchange at `base_url`.
    fn make(&self, base_url: &str, config: ClientConfig) -> Self::Client;
}

impl Make for Blocking {
    type Client = txc_blocking::Client;
    fn make(&self, base_url: &str, config: ClientConfig) -> txc_blocking::Client {
        txc_blocking::ClientBuilder::from(config.base_url(base_url))
            .build()
            .unwrap()
    }
}

/// Calls `call` with every item, at most `concurrency` at once: that many threads, each with
/// a clone of `client`, take the items in turn. The results in the items' order.
pub fn on_threads<C, T, R>(
    client: &C,
    items: Vec<T>,
    concurrency: usize,
    call: fn(&C, &T) -> R,
) -> Vec<R>
where
    C: Clone + Send + 'static,
    T: Send + Sync + 'static,
    R: Send + 'static,
{
    let items = Arc::new(items);
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..concurrency.max(1))
        .map(|_| {
            let (client, items, next) = (client.clone(), Arc::clone(&items), Arc::clone(&next));
            std::thread::spawn(move || {
                let mut done = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        return done;
                    };
                    done.push((i, call(&client, item)));
                }
            })
        })
        .collect();
    let mut done: Vec<(usize, R)> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// What a call of the async client returns, boxed: for [`on_tasks`].
pub type Call<'a, R> = std::pin::Pin<Box<dyn std::future::Future<Output = R> + Send + 'a>>;

/// [`on_threads`] for the async client: a tokio task per item, at most `concurrency` of them
/// running at once (they start in the items' order), on `runtime`.
pub fn on_tasks<T, R>(
    runtime: &tokio::runtime::Runtime,
    client: &txc_async::Client,
    items: Vec<T>,
    concurrency: usize,
    call: for<'a> fn(&'a txc_async::Client, &'a T) -> Call<'a, R>,
) -> Vec<R>
where
    T: Send + 'static,
    R: Send + 'static,
{
    let permits = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    runtime.block_on(async {
        let tasks: Vec<_> = items
            .into_iter()
            .map(|item| {
                let (client, permits) = (client.clone(), Arc::clone(&permits));
                tokio::spawn(async move {
                    let _permit = permits.acquire().await.unwrap();
                    call(&client, &item).await
                })
            })
            .collect();
        let mut results = Vec::with_capacity(tasks.len());
        for task in tasks {
            results.push(task.await.unwrap());
        }
        results
    })
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

    fn pending_orders(&self) -> Vec<PendingOrder> {
        txc_blocking::Client::pending_orders(self)
    }

    fn discard_pending(&self, record: PendingRecord) -> std::io::Result<bool> {
        txc_blocking::Client::discard_pending(self, record)
    }

    fn market_abandoned_after(&self, order: &CollateralMarketOrder, after: Duration) {
        let (client, order) = (self.clone(), order.clone());
        std::thread::spawn(move || {
            let _ = client.collateral_market_order(&order);
        });
        std::thread::sleep(after);
    }

    fn base_url(&self) -> String {
        txc_blocking::Client::base_url(self).to_owned()
    }

    fn run_orders(
        &self,
        orders: Vec<CollateralMarketOrder>,
        concurrency: usize,
    ) -> Vec<Result<Order, Error>> {
        on_threads(self, orders, concurrency, Self::collateral_market_order)
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

/// The async client on this driver's runtime.
impl Make for Async {
    type Client = AsyncApi;
    fn make(&self, base_url: &str, config: ClientConfig) -> AsyncApi {
        let client = txc_async::ClientBuilder::from(config.base_url(base_url));
        self.api(client.build().unwrap())
    }
}

impl AsyncApi {
    /// Every page of the paged list `query` asks for, read to its end through the client's
    /// `pages`.
    fn all_pages<Q>(&self, query: Q) -> flex::Pages<Q::Record>
    where
        Q: txc_types::paging::Paged + Send + Sync,
        Q::Key: Send + Sync,
        Q::Record: Send,
        Q::Response: Send,
    {
        self.runtime.block_on(async {
            let mut read = self.client.pages(query);
            let mut pages = Vec::new();
            while let Some(page) = read.next().await {
                pages.push(page);
            }
            pages
        })
    }
}

impl Async {
    /// `client` on this driver's runtime.
    fn api(&self, client: txc_async::Client) -> AsyncApi {
        let runtime = Arc::clone(&self.runtime);
        AsyncApi { runtime, client }
    }
}

impl Driver for Async {
    fn name(&self) -> &'static str {
        "async"
    }

    fn build_from(&self, config: ClientConfig, http: Http) -> Built {
        let mut builder = txc_async::ClientBuilder::from(config);
        if http == Http::Own {
            let reqwest = txc_async::reqwest::Client::builder();
            let no_redirects = txc_async::reqwest::redirect::Policy::none();
            builder = builder.http(reqwest.redirect(no_redirects).build().unwrap());
        }
        Ok(Box::new(self.api(builder.build()?)))
    }

    fn builder_debug(&self, base_url: &str, config: ClientConfig) -> String {
        format!(
            "{:?}",
            txc_async::ClientBuilder::from(config.base_url(base_url))
        )
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

    fn pending_orders(&self) -> Vec<PendingOrder> {
        self.client.pending_orders()
    }

    fn discard_pending(&self, record: PendingRecord) -> std::io::Result<bool> {
        self.client.discard_pending(record)
    }

    fn market_abandoned_after(&self, order: &CollateralMarketOrder, after: Duration) {
        let placing = self.client.collateral_market_order(order);
        let given_up = self
            .runtime
            .block_on(async { tokio::time::timeout(after, placing).await });
        assert!(given_up.is_err(), "answered within {after:?}: {given_up:?}");
    }

    fn base_url(&self) -> String {
        self.client.base_url().to_owned()
    }

    fn run_orders(
        &self,
        orders: Vec<CollateralMarketOrder>,
        concurrency: usize,
    ) -> Vec<Result<Order, Error>> {
        let (runtime, client) = (&self.runtime, &self.client);
        on_tasks(runtime, client, orders, concurrency, |client, order| {
            Box::pin(client.collateral_market_order(order))
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

/// A market order of 0.01 BTC_USDT with `id`.
pub fn market_with_id(id: &str) -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id(id)
        .build()
        .unwrap()
}

/// The ids of the orders the sandbox holds with `id`.
pub fn held(sandbox: &txc_sandbox::Sandbox, id: &str) -> Vec<u64> {
    sandbox
        .orders()
        .iter()
        .filter(|o| o.client_order_id.as_deref() == Some(id))
        .map(|o| o.order_id)
        .collect()
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
        // Long enough for a loaded host to connect and send within it.
        config::partner().timeout(Duration::from_secs(1)),
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
            txc_sign::stages::payload(secret.as_bytes()),
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
    txc_sign::nonce::unix_millis(SystemTime::now())
}
pub mod risk;
pub mod trading;

/// The path and the body of a signed request with the signed envelope taken off: `request` (the
/// path), `nonce` (a number) and `nonceWindow` (`true`), each asserted; what is left is the
/// request's own fields, as the spec's examples show them.
pub fn unsigned_body(signed: &SignedRequest) -> (String, serde_json::Value) {
    use serde_json::Value;
    let path = signed.uri().path().to_owned();
    let mut body: serde_json::Map<String, Value> = serde_json::from_slice(signed.body()).unwrap();
    assert_eq!(
        body.remove("request"),
        Some(Value::from(path.as_str())),
        "{path}"
    );
    assert!(body.remove("nonce").unwrap().is_u64(), "{path}");
    assert_eq!(
        body.remove("nonceWindow"),
        Some(Value::Bool(true)),
        "{path}"
    );
    (path, Value::Object(body))
}

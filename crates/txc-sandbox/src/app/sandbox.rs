//! [`Sandbox`]: the handle of a running sandbox.

use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::Router;
use txc_types::orders::Order;

use super::server::{Listener, Mode, Runtime};
use crate::auth::{Exchange, Locked};
use crate::config::{Config, PriceStep, Route, SandboxError};
use crate::routes::{self, Fault, Shared};
use crate::state::{
    Changes, KillSwitchTimer, Position, PriceMove, SandboxStats, funding_records_json,
};
use crate::wire::decimal;
use crate::ws::{self, WsFault, WsHub};

/// A running sandbox exchange. Stops the server when dropped.
///
/// Cheap methods drive it without HTTP: prices ([`Sandbox::set_price`], which fires trigger
/// orders), balances, orders, statistics, faults, reset, and stopping or restarting the
/// listener. Every method works from plain code and from inside any tokio runtime.
///
/// ```
/// let sandbox = txc_sandbox::Sandbox::start()?;
/// assert!(sandbox.base_url().starts_with("http://127.0.0.1:"));
/// sandbox.set_price("BTC_USDT", "66000")?;
/// assert!(sandbox.orders().is_empty());
/// drop(sandbox); // stops the server
/// # Ok::<(), txc_sandbox::SandboxError>(())
/// ```
pub struct Sandbox {
    /// The exchange and the routes' faults.
    shared: Arc<Shared>,
    /// The WebSocket's feed, faults and connections.
    ws: Arc<WsHub>,
    router: Router,
    addr: SocketAddr,
    base_url: String,
    listener: Mutex<Option<Listener>>,
    // Declared last: dropped after the listener is stopped.
    runtime: Runtime,
}

impl Sandbox {
    pub(crate) fn launch(config: Config, addr: SocketAddr) -> Result<Self, SandboxError> {
        let ws = Arc::new(WsHub::default());
        let exchange = Arc::new(Exchange::new(config, Changes::to(Arc::new(ws.feed()))));
        let shared = Arc::new(Shared::new(Arc::clone(&exchange)));
        let websocket = ws::route(Arc::clone(&exchange), Arc::clone(&ws));
        let router = routes::router(Arc::clone(&shared), websocket);
        let runtime = Runtime::start()?;
        runtime.spawn(tick(Arc::downgrade(&exchange)));
        let listener = runtime.listen(addr, router.clone())?;
        let addr = listener.addr();
        Ok(Self {
            shared,
            ws,
            router,
            addr,
            base_url: format!("http://{addr}"),
            listener: Mutex::new(Some(listener)),
            runtime,
        })
    }

    /// The base URL, e.g. `http://127.0.0.1:38417` (no trailing slash).
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The private WebSocket's URL, e.g. `ws://127.0.0.1:38417/ws` (see [`crate::WsFault`]
    /// for what it serves).
    pub fn websocket_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Injects `fault` into the WebSocket's open connections (or, for
    /// [`WsFault::RefuseAuthorize`], the next `authorize` requests).
    pub fn ws_fault(&self, fault: WsFault) {
        self.ws.inject(fault);
    }

    /// How many WebSocket connections are open.
    pub fn ws_connections(&self) -> usize {
        self.ws.connections()
    }

    /// Sets a market's price (a positive plain decimal): executes the resting limit orders it
    /// crosses (each at its own price, best first), then activates the stop orders it
    /// reaches, in order id order, at this price. The same as
    /// [`Sandbox::move_price`]`(market, PriceStep::to(price))`.
    pub fn set_price(&self, market: &str, price: &str) -> Result<(), SandboxError> {
        self.locked().state.set_price(market, price).map(|_| ())
    }

    /// Moves a market's price one step ([`PriceStep`]: a price, and the volume the move
    /// trades through the book): what it did.
    pub fn move_price(&self, market: &str, step: PriceStep) -> Result<PriceMove, SandboxError> {
        let mut moves = self
            .locked()
            .state
            .follow(market, std::slice::from_ref(&step))?;
        moves
            .pop()
            .ok_or(SandboxError::UnknownMarket(market.to_owned()))
    }

    /// Moves a market's price along `steps`, in order, at once (every step checked before the
    /// first moves): what each did.
    ///
    /// ```
    /// use txc_sandbox::{PriceStep, Sandbox};
    /// let sandbox = Sandbox::start()?;
    /// let moves = sandbox.follow_price_path(
    ///     "BTC_USDT",
    ///     &[PriceStep::to("64000"), PriceStep::to("63000").volume("0.5")],
    /// )?;
    /// assert_eq!(moves.len(), 2);
    /// # Ok::<(), txc_sandbox::SandboxError>(())
    /// ```
    pub fn follow_price_path(
        &self,
        market: &str,
        steps: &[PriceStep],
    ) -> Result<Vec<PriceMove>, SandboxError> {
        self.locked().state.follow(market, steps)
    }

    /// Plays a price path in the background: one step every `every`, the first after
    /// `every`, for as long as the sandbox lives (a [`Sandbox::reset`] does not stop it). The
    /// steps are checked before it starts. For demos and tests of clients that wait for a fill
    /// to arrive by itself.
    pub fn play_price_path(
        &self,
        market: &str,
        steps: Vec<PriceStep>,
        every: std::time::Duration,
    ) -> Result<(), SandboxError> {
        self.locked().state.check_path(market, &steps)?;
        self.runtime.spawn(routes::play(
            Arc::downgrade(&self.shared.exchange),
            market.to_owned(),
            steps,
            every,
        ));
        Ok(())
    }

    /// Sets the balance of `ticker` (a non-negative plain decimal) of the account `api_key`.
    pub fn set_balance(
        &self,
        api_key: &str,
        ticker: &str,
        amount: &str,
    ) -> Result<(), SandboxError> {
        self.locked().state.set_balance(api_key, ticker, amount)
    }

    /// The balance of `ticker` of the account `api_key` (`"0"` if never set), or `None` for
    /// an unknown account.
    pub fn balance(&self, api_key: &str, ticker: &str) -> Option<String> {
        let locked = self.locked();
        let account = locked.state.accounts.get(api_key)?;
        Some(decimal::text(account.balance(ticker)))
    }

    /// The **main** balance of `ticker` of the account `api_key` (`"0"` if never set) — what
    /// smart investments and flexible lending are paid from and back into, flex earnings
    /// included up to now — or `None` for an unknown account.
    pub fn main_balance(&self, api_key: &str, ticker: &str) -> Option<String> {
        let mut locked = self.locked();
        let now = locked.state.clock.now_us();
        locked.state.accrue_flex(now);
        let account = locked.state.accounts.get(api_key)?;
        Some(decimal::text(
            account.main.get(ticker).copied().unwrap_or_default(),
        ))
    }

    /// Sets the **main** balance of `ticker` (a non-negative plain decimal) of the account
    /// `api_key`.
    pub fn set_main_balance(
        &self,
        api_key: &str,
        ticker: &str,
        amount: &str,
    ) -> Result<(), SandboxError> {
        self.locked()
            .state
            .set_main_balance(api_key, ticker, amount)
    }

    /// Every investment ever made, oldest first, as the JSON record the investments list
    /// answers with, in its current state (closed ones with `status` 2 and the interest paid;
    /// ones a [`Fault::VisibleAfter`] still hides included).
    pub fn investment_records(&self) -> Vec<serde_json::Value> {
        self.locked().state.investment_records()
    }

    /// Every flex plan configured, in order, as the plans list answers it plus the sandbox's
    /// `status` (`1` active, `2` unavailable, `3` inactive, `4` paused) and, for a private
    /// plan, `privateTo` (the API keys it is offered to) — listed or not.
    pub fn flex_plan_records(&self) -> Vec<serde_json::Value> {
        self.locked().state.flex_plan_records()
    }

    /// Every flex investment, oldest first, as the JSON record the flex investments list
    /// answers with, in its current state (earnings accrued up to now; ones a
    /// [`Fault::VisibleAfter`] still hides included), each with its account's `apiKey`.
    pub fn flex_investment_records(&self) -> Vec<serde_json::Value> {
        let mut locked = self.locked();
        let now = locked.state.clock.now_us();
        locked.state.flex_investment_records(now)
    }

    /// Every flex history record, oldest first — investing, reinvesting, withdrawing, the
    /// daily earnings, closing, reopening — as the flex history answers it (earnings accrued
    /// up to now), each with its account's `apiKey`.
    pub fn flex_history_records(&self) -> Vec<serde_json::Value> {
        let mut locked = self.locked();
        let now = locked.state.clock.now_us();
        locked.state.flex_history_records(now)
    }

    /// Sets the status of the flex plan `id` while the sandbox runs: `1` active, `2`
    /// unavailable, `3` inactive, `4` paused (see [`crate::FlexPlanConfig::status`]) — a plan
    /// paused after a client read it, say. [`Sandbox::reset`] restores the configured one.
    pub fn set_flex_plan_status(&self, id: &str, status: i64) -> Result<(), SandboxError> {
        let mut locked = self.locked();
        let now = locked.state.clock.now_us();
        locked.state.set_flex_plan_status(id, status, now)
    }

    /// The open positions of the account `api_key`, sorted by market and side.
    pub fn positions(&self, api_key: &str) -> Vec<Position> {
        let mut locked = self.locked();
        locked.state.expire_kill_switches();
        let now = locked.state.clock.now_us();
        locked.state.catch_up(now);
        locked.state.positions_of(api_key)
    }

    /// Settles funding now, off the schedule, on every perpetual market with a rate: each open
    /// position there receives `−(amount × price × rate)` at the market's current price (see
    /// [`crate::SandboxBuilder::funding_interval`]); then margins are judged. The payments
    /// made, each as `POST /api/v4/collateral-account/funding-history` lists it plus its
    /// account's `apiKey` (funding times passed are settled first, and not returned).
    ///
    /// ```
    /// use txc_sandbox::{Sandbox, demo};
    /// let sandbox = Sandbox::start()?;
    /// assert!(sandbox.funding_tick().is_empty()); // no position: nothing to pay
    /// sandbox.set_funding_rate("BTC_PERP", "-0.0002")?;
    /// # Ok::<(), txc_sandbox::SandboxError>(())
    /// ```
    pub fn funding_tick(&self) -> Vec<serde_json::Value> {
        let mut locked = self.locked();
        let now = locked.state.clock.now_us();
        locked.state.catch_up(now);
        funding_records_json(&locked.state.funding_tick(now))
    }

    /// Sets the funding rate (a signed plain decimal, e.g. `"-0.0002"`) of the perpetual
    /// market `market` from now on ([`crate::MarketConfig::funding_rate`]);
    /// [`Sandbox::reset`] restores the configured one.
    pub fn set_funding_rate(&self, market: &str, rate: &str) -> Result<(), SandboxError> {
        self.locked().state.set_funding_rate(market, rate)
    }

    /// Every funding payment made, oldest first, each as the funding history lists it plus
    /// its account's `apiKey` (funding times passed are settled first).
    pub fn funding_records(&self) -> Vec<serde_json::Value> {
        let mut locked = self.locked();
        let now = locked.state.clock.now_us();
        locked.state.catch_up(now);
        funding_records_json(&locked.state.all_funding())
    }

    /// Every closed position, in the order they closed, each as `POST
    /// /api/v4/collateral-account/positions/closed-pnl` lists it plus its account's `apiKey`.
    pub fn closed_position_records(&self) -> Vec<serde_json::Value> {
        self.locked().state.closed_position_records()
    }

    /// The kill-switch timers of the account `api_key` that have not run out, by market. A
    /// timer whose deadline has passed runs out (canceling its orders) before this answers,
    /// so a timer listed here has canceled nothing yet.
    pub fn kill_switch_timers(&self, api_key: &str) -> Vec<KillSwitchTimer> {
        self.locked().state.kill_switch_timers(api_key)
    }

    /// Every order ever accepted (as [`Sandbox::order_records`] says), resting orders
    /// included, in order id order, each
    /// in its current state, for comparing with what a txc client decoded: the sandbox's own
    /// JSON record of the order (see [`Sandbox::order_records`]) read with `txc_types::orders::Order`'s
    /// `serde` implementation. So a market order compares equal to the SDK's decoding of its
    /// answer; a trigger order differs once it fired or was canceled. A record the SDK type
    /// cannot read would be left out (the tests of both crates compare counts).
    pub fn orders(&self) -> Vec<Order> {
        self.order_records()
            .into_iter()
            // txc-types decodes from JSON text (its numbers keep every digit).
            .filter_map(|record| serde_json::from_str(&record.to_string()).ok())
            .collect()
    }

    /// Every order ever accepted, in order id order, as the JSON record the placement
    /// endpoints answer with, in its current state (a fired trigger order shows `FILLED` and
    /// `activated: 1`, a resting limit order `PARTIALLY_FILLED` once it executed in part). The
    /// same records as `GET /sandbox/v1/orders`. "Accepted" means placed by a request: a
    /// modify's replacement is one, the stop-loss and take-profit orders an OTO group places
    /// when its order fills are not (the open orders and the history show them).
    pub fn order_records(&self) -> Vec<serde_json::Value> {
        let mut locked = self.locked();
        locked.state.expire_kill_switches();
        locked.state.order_records()
    }

    /// Back to the builder's initial state: accounts, prices, orders, positions, nonces, rate
    /// limits, statistics and faults. Order ids start again.
    pub fn reset(&self) {
        self.shared.reset();
    }

    /// Injects `fault` into `route`'s answers, replacing that route's previous fault, for the
    /// next `times` requests (`None`: until cleared). A route's own fault takes precedence over
    /// one for [`Route::All`].
    pub fn inject_fault(&self, route: Route, fault: Fault, times: Option<u32>) {
        self.shared.faults().inject(route, fault, times);
    }

    /// Removes every injected fault.
    pub fn clear_faults(&self) {
        self.shared.faults().clear();
    }

    /// The counters.
    pub fn stats(&self) -> SandboxStats {
        self.locked().state.stats.clone()
    }

    /// The counters once a huge fault body has stopped being written: after a client hangs
    /// up on [`Fault::OversizedBody`] or
    /// [`Fault::Chunked`], the sandbox keeps writing until the
    /// hang-up reaches it. Polls every 50 ms until
    /// [`SandboxStats::fault_body_bytes`] holds still, for at most 5 s; blocks the thread.
    pub fn settled_stats(&self) -> SandboxStats {
        let mut last = self.stats();
        for _ in 0..100 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            let now = self.stats();
            if now.fault_body_bytes == last.fault_body_bytes {
                return now;
            }
            last = now;
        }
        last
    }

    /// Closes the listening socket and drops every open connection (in-flight answers are
    /// lost); the state is kept. Returns once the socket is closed. Does nothing if stopped.
    pub fn stop_listener(&self) {
        let listener = self.listener().take();
        if let Some(listener) = listener {
            listener.stop(Mode::Kill);
        }
        // Upgraded connections no longer belong to the listener.
        self.ws.inject(WsFault::Drop);
    }

    /// Listens again on the same address and port after [`Sandbox::stop_listener`]. Does
    /// nothing if the listener runs.
    pub fn restart_listener(&self) -> Result<(), SandboxError> {
        let mut slot = self.listener();
        if slot.is_none() {
            *slot = Some(self.runtime.listen(self.addr, self.router.clone())?);
        }
        Ok(())
    }

    /// The exchange's state, locked.
    fn locked(&self) -> MutexGuard<'_, Locked> {
        self.shared.lock()
    }

    fn listener(&self) -> MutexGuard<'_, Option<Listener>> {
        self.listener.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How often the sandbox looks for kill-switch timers that ran out, flex days that ended and
/// funding times that passed, when no request comes.
const TICK: std::time::Duration = std::time::Duration::from_millis(10);

/// Runs out the kill-switch timers, accrues flex lending and settles funding on time: every
/// [`TICK`], for as long as the sandbox lives.
async fn tick(exchange: std::sync::Weak<Exchange>) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(exchange) = exchange.upgrade() else {
            return;
        };
        let mut locked = exchange.lock();
        locked.state.expire_kill_switches();
        let now = locked.state.clock.now_us();
        locked.state.accrue_flex(now);
        locked.state.catch_up(now);
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let listener = self.listener().take();
        if let Some(listener) = listener {
            listener.stop(Mode::Graceful);
        }
        self.ws.inject(WsFault::Drop);
    }
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

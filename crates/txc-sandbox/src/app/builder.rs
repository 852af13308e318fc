//! [`SandboxBuilder`]: address, accounts, markets, plans and limits of a sandbox — and
//! [`Sandbox::start`] and [`Sandbox::builder`], which begin with one.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use super::sandbox::Sandbox;
use crate::config::{
    self, AccountConfig, Config, FlexPlanConfig, MarginLevels, MarketConfig, PlanConfig, Route,
    SandboxError, Settings,
};

impl Sandbox {
    /// Starts a sandbox with the defaults on `127.0.0.1` and an ephemeral port.
    pub fn start() -> Result<Self, SandboxError> {
        Self::builder().start()
    }

    /// A builder starting from the defaults.
    pub fn builder() -> SandboxBuilder {
        SandboxBuilder::new()
    }
}

/// Configures and starts a [`Sandbox`].
///
/// Starts from the defaults: `127.0.0.1`, an ephemeral port, the [`crate::demo`] accounts,
/// the markets `BTC_USDT`, `ETH_USDT`, `BTC_PERP`, the default smart plans and the demo flex
/// plans.
///
/// ```
/// use txc_sandbox::{AccountConfig, MarketConfig, Sandbox};
///
/// let sandbox = Sandbox::builder()
///     .clear_defaults()
///     .account(AccountConfig::new("key", "secret").partner(true).balance("USDT", "500"))
///     .market(MarketConfig::new("SOL_USDT", "150").min_amount("0.1").amount_step("0.1"))
///     .rate_limits(100, 10)
///     .start()?;
/// assert_eq!(sandbox.balance("key", "USDT").as_deref(), Some("500"));
/// # Ok::<(), txc_sandbox::SandboxError>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "call .start() to run the sandbox"]
pub struct SandboxBuilder {
    host: IpAddr,
    port: u16,
    accounts: Vec<AccountConfig>,
    markets: Vec<MarketConfig>,
    plans: Vec<PlanConfig>,
    flex_plans: Vec<FlexPlanConfig>,
    settings: Settings,
    /// The margin-call and maintenance rates as given, checked by [`SandboxBuilder::start`].
    margin_rates: Option<(String, String)>,
}

impl Default for SandboxBuilder {
    fn default() -> Self {
        Self {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            accounts: config::default_accounts(),
            markets: config::default_markets(),
            plans: config::default_plans(),
            flex_plans: config::default_flex_plans(),
            settings: Settings::default(),
            margin_rates: None,
        }
    }
}

impl SandboxBuilder {
    /// The defaults (see the type's docs).
    pub fn new() -> Self {
        Self::default()
    }

    /// The port to listen on; `0` (the default) picks a free one.
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// The address to listen on; default `127.0.0.1`. The sandbox has no TLS and publishes
    /// its demo secrets: keep it on loopback.
    pub fn host(mut self, host: IpAddr) -> Self {
        self.host = host;
        self
    }

    /// Adds an account, replacing one with the same API key.
    pub fn account(mut self, account: AccountConfig) -> Self {
        self.accounts.retain(|a| a.api_key() != account.api_key());
        self.accounts.push(account);
        self
    }

    /// Adds a market, replacing one with the same name.
    pub fn market(mut self, market: MarketConfig) -> Self {
        self.markets.retain(|m| m.name() != market.name());
        self.markets.push(market);
        self
    }

    /// Adds a smart investment plan (answered in the order added).
    pub fn plan(mut self, plan: PlanConfig) -> Self {
        self.plans.push(plan);
        self
    }

    /// Adds a flexible lending plan, replacing one with the same id (listed in the order
    /// added).
    pub fn flex_plan(mut self, plan: FlexPlanConfig) -> Self {
        self.flex_plans.retain(|p| p.id() != plan.id());
        self.flex_plans.push(plan);
        self
    }

    /// Removes every account, market, smart plan and flex plan configured so far, the demo
    /// defaults included.
    pub fn clear_defaults(mut self) -> Self {
        self.accounts.clear();
        self.markets.clear();
        self.plans.clear();
        self.flex_plans.clear();
        self
    }

    /// Per-key limits per 10 s: of each order operation (default 10 000) and of smart plans
    /// (default 1 000). Beyond them: HTTP 429 `Too many requests.`.
    pub fn rate_limits(mut self, order_per_10s: u32, plans_per_10s: u32) -> Self {
        self.settings.limits.orders = order_per_10s;
        self.settings.limits.plans = plans_per_10s;
        self
    }

    /// Per-key limits per 10 s of each order look-up — open orders, order history — (default
    /// 12 000) and of cancellation (default 10 000). Beyond them: HTTP 429 `Too many requests.`.
    pub fn lookup_rate_limits(mut self, lookup_per_10s: u32, cancel_per_10s: u32) -> Self {
        self.settings.limits.lookups = lookup_per_10s;
        self.settings.limits.cancels = cancel_per_10s;
        self
    }

    /// The largest request body accepted, in bytes (default 64 KiB); larger ones get HTTP 413.
    pub fn max_body_bytes(mut self, max: usize) -> Self {
        self.settings.max_body_bytes = max;
        self
    }

    /// Runs the sandbox's clock `offset_ms` milliseconds ahead of the host's (behind when
    /// negative), as an exchange whose clock differs from the client's: the nonce window, the
    /// server time, order times and the `Date` header all follow it.
    pub fn clock_offset_ms(mut self, offset_ms: i64) -> Self {
        self.settings.clock_offset_ms = offset_ms;
        self
    }

    /// The per-key limit per 10 s of one of the routes this sandbox serves for positions and
    /// risk controls (balances, summaries, positions, close, leverage, hedge mode, cancel-all,
    /// bulk cancel, the kill switch) or for the conditional orders (the OCO, conditional and
    /// OTO cancels) and modify; each defaults to its documented limit. Other routes have their
    /// own settings ([`rate_limits`](Self::rate_limits) for every placement — limit,
    /// stop-limit, bulk and OCO included —, [`lookup_rate_limits`](Self::lookup_rate_limits)
    /// for the look-ups, the OCO listing included) and ignore this one.
    pub fn rate_limit(mut self, route: Route, per_10s: u32) -> Self {
        self.settings.limits.routes.insert(route, per_10s);
        self
    }

    /// How long one second of a kill-switch timeout lasts on the sandbox (default one second):
    /// with `Duration::from_millis(100)`, a timer set for the documented minimum of `"5"`
    /// seconds runs out after half a second — for tests of what happens when it does. The
    /// answers still say `cancellationTime = startTime + timeout`, in the timeout's seconds.
    pub fn kill_switch_second(mut self, second: Duration) -> Self {
        self.settings.kill_switch_second = second;
        self
    }

    /// How long one minute of a plan's `duration` lasts on the sandbox's clock (default a
    /// minute): interest accrues over the plan's term, and an investment matures at its end, so
    /// a test that cannot wait a plan's days shortens its minutes (e.g. to a millisecond).
    /// Sandbox-only: the exchange's minutes are minutes.
    pub fn investment_minute(mut self, minute: Duration) -> Self {
        self.settings.investment_minute = minute;
        self
    }

    /// How long a day of flexible lending lasts on the sandbox's clock (default a day): each
    /// active flex investment earns `invested × maxRate / 365` at every multiple of it since
    /// the Unix epoch — a `DAILY_EARNING`, reinvested or paid to the main balance. A test that
    /// cannot wait days shortens it (to 50 ms, say); it is never shorter than a millisecond.
    /// Sandbox-only: the exchange's days are days.
    pub fn flex_accrual_interval(mut self, interval: Duration) -> Self {
        self.settings.flex_accrual_interval = interval;
        self
    }

    /// How often funding is settled on perpetual markets (default 8 hours,
    /// [`crate::DEFAULT_FUNDING_INTERVAL`]): at the sandbox's start (or last reset) plus every
    /// multiple of it, each open position on a perpetual market with a rate
    /// ([`MarketConfig::funding_rate`]) receives `−(amount × price × rate)`. A test that cannot
    /// wait hours shortens it (never below a millisecond), or settles funding when it wants
    /// with [`crate::Sandbox::funding_tick`]. Sandbox-only: the exchange's interval is each
    /// market's `funding_interval_minutes`.
    pub fn funding_interval(mut self, interval: Duration) -> Self {
        self.settings.funding_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// The two margin levels, as shares of an account's positions' value (plain decimals
    /// above 0 and below 1, the maintenance rate below the margin-call rate; checked by
    /// [`start`](Self::start)): below `margin_call` the account is in margin call, below
    /// `maintenance` its positions are liquidated. Defaults
    /// [`crate::DEFAULT_MARGIN_CALL_RATE`] (5 %, the sandbox's choice: the docs publish no
    /// margin-call level) and [`crate::DEFAULT_MAINTENANCE_MARGIN_RATE`] (3 %, the docs'
    /// maintenance margin rate).
    pub fn margin_rates(mut self, margin_call: &str, maintenance: &str) -> Self {
        self.margin_rates = Some((margin_call.to_owned(), maintenance.to_owned()));
        self
    }

    /// How long a WebSocket connection may stay silent (no request, no ping) before the
    /// sandbox closes it; default 60 s, the exchange's. Shorter for tests.
    pub fn ws_idle_timeout(mut self, timeout: Duration) -> Self {
        self.settings.ws_idle_timeout = timeout;
        self
    }

    /// How many requests a WebSocket connection may send in any minute (default 200, the
    /// exchange's); one more closes it (code 1008).
    pub fn ws_requests_per_minute(mut self, requests: u32) -> Self {
        self.settings.ws_requests_per_minute = requests;
        self
    }

    /// Whether a resting trigger order with a stop-loss or take-profit (an OTO group) is listed
    /// by `POST /api/v4/orders` as well as among the conditional orders (default: yes). The
    /// docs say plainly only that the conditional orders list OTO groups; off, the open orders
    /// leave them out, as an exchange reading the docs the other way would.
    pub fn oto_orders_in_open_orders(mut self, listed: bool) -> Self {
        self.settings.oto_in_open_orders = listed;
        self
    }

    /// Checks the configuration, binds the address and starts serving; returns once the
    /// socket is bound.
    pub fn start(self) -> Result<Sandbox, SandboxError> {
        let config = self.config()?;
        Sandbox::launch(config, (self.host, self.port).into())
    }

    fn config(&self) -> Result<Config, SandboxError> {
        let mut settings = self.settings.clone();
        if let Some((margin_call, maintenance)) = &self.margin_rates {
            settings.margin = MarginLevels::parse(margin_call, maintenance)?;
        }
        Ok(Config {
            accounts: self
                .accounts
                .iter()
                .map(AccountConfig::validate)
                .collect::<Result<_, _>>()?,
            markets: self
                .markets
                .iter()
                .map(MarketConfig::validate)
                .collect::<Result<_, _>>()?,
            plans: self
                .plans
                .iter()
                .map(PlanConfig::validate)
                .collect::<Result<_, _>>()?,
            flex_plans: self
                .flex_plans
                .iter()
                .map(FlexPlanConfig::validate)
                .collect::<Result<_, _>>()?,
            settings,
        })
    }
}

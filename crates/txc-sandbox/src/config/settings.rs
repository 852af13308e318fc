//! [`Settings`]: what a [`crate::SandboxBuilder`] sets — the rate limits, the body limit, the
//! clocks, the funding interval, the WebSocket's terms, taken as given, and the margin levels,
//! checked by the builder — and their defaults (the `DEFAULT_*` constants). Declared once: the builder holds them, the configuration keeps them
//! for [`crate::Sandbox::reset`], the state, authentication and the transports read them.

use std::collections::HashMap;
use std::time::Duration;

use super::margin_levels::MarginLevels;
use super::op::{Limit, Op};
use super::route::Route;

/// The default request body limit: 64 KiB (larger bodies get HTTP 413).
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;
/// The exchange's rate limit of each order operation, per key per 10 s.
pub const DEFAULT_ORDER_RATE_LIMIT: u32 = 10_000;
/// The exchange's rate limit of the smart plans operation, per key per 10 s.
pub const DEFAULT_PLANS_RATE_LIMIT: u32 = 1_000;
/// The exchange's rate limit of each order look-up (open orders, order history), per key per
/// 10 s.
pub const DEFAULT_LOOKUP_RATE_LIMIT: u32 = 12_000;
/// The exchange's rate limit of order cancellation, per key per 10 s.
pub const DEFAULT_CANCEL_RATE_LIMIT: u32 = 10_000;
/// How often flexible lending accrues: daily, the spec's `DAILY_EARNING`.
pub const DEFAULT_FLEX_ACCRUAL_INTERVAL: Duration = Duration::from_secs(24 * 60 * 60);
/// How often funding is settled on perpetual markets: every 8 hours (the `480` minutes the
/// sandbox's `GET /api/v4/public/futures` has always published).
pub const DEFAULT_FUNDING_INTERVAL: Duration = Duration::from_secs(8 * 60 * 60);
/// The exchange's WebSocket inactivity timeout.
pub const DEFAULT_WS_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// The exchange's limit of requests per WebSocket connection per minute.
pub const DEFAULT_WS_REQUESTS_PER_MINUTE: u32 = 200;

/// The builder's settings; each has one builder method.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The rate limits per key per 10 s.
    pub(crate) limits: RateLimits,
    /// The largest request body accepted, in bytes.
    pub(crate) max_body_bytes: usize,
    /// How far the sandbox's clock is from the host's, in milliseconds.
    pub(crate) clock_offset_ms: i64,
    /// How long one second of a kill-switch timeout lasts.
    pub(crate) kill_switch_second: Duration,
    /// How long one minute of a plan's `duration` lasts on the sandbox's clock.
    pub(crate) investment_minute: Duration,
    /// How long a day of flexible lending lasts on the sandbox's clock: earnings accrue at
    /// each multiple of it since the Unix epoch.
    pub(crate) flex_accrual_interval: Duration,
    /// How long a WebSocket connection may stay silent before the sandbox closes it.
    pub(crate) ws_idle_timeout: Duration,
    /// How many requests a WebSocket connection may send in any minute.
    pub(crate) ws_requests_per_minute: u32,
    /// Whether resting OTO trigger orders are listed among the open orders too.
    pub(crate) oto_in_open_orders: bool,
    /// How often funding is settled on perpetual markets, from the sandbox's start.
    pub(crate) funding_interval: Duration,
    /// The margin-call and maintenance levels.
    pub(crate) margin: MarginLevels,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            limits: RateLimits::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            clock_offset_ms: 0,
            kill_switch_second: Duration::from_secs(1),
            investment_minute: Duration::from_secs(60),
            flex_accrual_interval: DEFAULT_FLEX_ACCRUAL_INTERVAL,
            ws_idle_timeout: DEFAULT_WS_IDLE_TIMEOUT,
            ws_requests_per_minute: DEFAULT_WS_REQUESTS_PER_MINUTE,
            oto_in_open_orders: true,
            funding_interval: DEFAULT_FUNDING_INTERVAL,
            margin: MarginLevels::default(),
        }
    }
}

/// The rate limits per key per 10 s that the builder sets.
#[derive(Debug, Clone)]
pub(crate) struct RateLimits {
    /// Of each order operation ([`Limit::Orders`]).
    pub(crate) orders: u32,
    /// Of the main-account operations together ([`Limit::MainAccount`]).
    pub(crate) plans: u32,
    /// Of each order look-up ([`Limit::Lookups`]).
    pub(crate) lookups: u32,
    /// Of cancellation ([`Limit::Cancels`]).
    pub(crate) cancels: u32,
    /// Set for single routes, in place of their documented figure ([`Limit::Documented`]).
    pub(crate) routes: HashMap<Route, u32>,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            orders: DEFAULT_ORDER_RATE_LIMIT,
            plans: DEFAULT_PLANS_RATE_LIMIT,
            lookups: DEFAULT_LOOKUP_RATE_LIMIT,
            cancels: DEFAULT_CANCEL_RATE_LIMIT,
            routes: HashMap::new(),
        }
    }
}

impl RateLimits {
    /// The limit of `op`.
    pub(crate) fn of(&self, op: Op) -> u32 {
        match op.limit {
            Limit::Orders => self.orders,
            Limit::MainAccount => self.plans,
            Limit::Lookups => self.lookups,
            Limit::Cancels => self.cancels,
            Limit::Fixed(limit) => limit,
            Limit::Documented(limit) => self.routes.get(&op.route).copied().unwrap_or(limit),
        }
    }
}

//! The exchange's state: accounts, prices, orders, positions, nonces, rate limits and
//! statistics, behind one lock held only for a request's admission (rate limit, nonce) and
//! its state change; the markets' fixed terms are shared with the rules, read without it.

mod accounts;
mod execution;
mod lookups;
mod markets;
mod order;
mod order_book;
mod positions;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use rust_decimal::Decimal;

pub(crate) use accounts::Accounts;
pub(crate) use lookups::AsOf;
pub(crate) use markets::{Markets, check_amount};
pub(crate) use order::{OrderRef, StoredOrder};
pub use positions::Position;

use crate::auth::Nonces;
use crate::clock::Clock;
use crate::config::Config;
use crate::op::Op;
use crate::rate_limit::RateLimiter;
use crate::stats::SandboxStats;
use crate::wire::{OrderRecord, PlanRecord};

/// The whole mutable state of a sandbox.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) accounts: Accounts,
    /// The markets' fixed terms, shared with the request rules (read without the lock).
    pub(crate) markets: Arc<Markets>,
    /// Each market's current price.
    pub(crate) prices: HashMap<String, Decimal>,
    pub(crate) orders: order_book::OrderBook,
    pub(crate) positions: positions::Positions,
    pub(crate) plans: Vec<PlanRecord>,
    pub(crate) nonces: Nonces,
    pub(crate) limits: RateLimiter,
    pub(crate) stats: SandboxStats,
    /// The sandbox's clock (the host's, maybe offset).
    pub(crate) clock: Clock,
    order_limit: u32,
    plans_limit: u32,
    lookup_limit: u32,
    cancel_limit: u32,
    /// Whether resting OTO trigger orders are listed among the open orders too.
    pub(crate) oto_in_open_orders: bool,
}

/// The documented limit of `GET /api/v4/public/time` per 10 s.
const PUBLIC_TIME_RATE_LIMIT: u32 = 2_000;

impl State {
    /// The initial state of a configuration, whose markets are `markets`.
    pub(crate) fn new(config: &Config, markets: Arc<Markets>) -> Self {
        Self {
            accounts: Accounts::new(&config.accounts),
            prices: config
                .markets
                .iter()
                .map(|m| (m.name.clone(), m.price))
                .collect(),
            markets,
            orders: order_book::OrderBook::default(),
            positions: positions::Positions::default(),
            plans: config.plans.clone(),
            nonces: Nonces::default(),
            limits: RateLimiter::default(),
            stats: SandboxStats::default(),
            clock: Clock::new(config.clock_offset_ms),
            order_limit: config.order_limit,
            plans_limit: config.plans_limit,
            lookup_limit: config.lookup_limit,
            cancel_limit: config.cancel_limit,
            oto_in_open_orders: config.oto_in_open_orders,
        }
    }

    /// The rate limit of `op` per key per 10 s.
    pub(crate) fn limit(&self, op: Op) -> u32 {
        match op {
            Op::Market | Op::Trigger => self.order_limit,
            Op::Plans => self.plans_limit,
            Op::OpenOrders | Op::History | Op::ConditionalOrders => self.lookup_limit,
            Op::Cancel => self.cancel_limit,
            Op::Time => PUBLIC_TIME_RATE_LIMIT,
        }
    }

    /// The current price of `market`.
    pub(crate) fn price(&self, market: &str) -> Option<Decimal> {
        self.prices.get(market).copied()
    }

    /// Every currency the sandbox knows: plans' tickers, markets' currencies, balances.
    pub(crate) fn known_tickers(&self) -> BTreeSet<&str> {
        let plans = self
            .plans
            .iter()
            .flat_map(|p| [p.ticker.as_str(), p.interest_ticker.as_str()]);
        plans
            .chain(self.markets.tickers())
            .chain(self.accounts.tickers())
            .collect()
    }

    /// Every order's record, in id order, as JSON.
    pub(crate) fn order_records(&self) -> Vec<serde_json::Value> {
        self.orders
            .all()
            .iter()
            .filter_map(|o| serde_json::to_value(OrderRecord::of(o)).ok())
            .collect()
    }
}

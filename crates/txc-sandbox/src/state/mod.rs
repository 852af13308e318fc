//! The exchange's state: accounts, markets, orders, positions, nonces, rate limits and
//! statistics, behind one lock held only for the synchronous handling of a request.

mod accounts;
mod execution;
mod markets;
mod orders;
mod positions;

use std::collections::BTreeSet;

use txc_sign::NonceGuard;
use txc_types::InvestmentPlan;

pub(crate) use accounts::Accounts;
pub(crate) use orders::OrderRequest;
pub use positions::Position;

use crate::config::Config;
use crate::op::Op;
use crate::rate_limit::RateLimiter;
use crate::stats::SandboxStats;

/// The whole mutable state of a sandbox.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) accounts: Accounts,
    pub(crate) markets: markets::Markets,
    pub(crate) orders: orders::OrderBook,
    pub(crate) positions: positions::Positions,
    pub(crate) plans: Vec<InvestmentPlan>,
    pub(crate) nonces: NonceGuard,
    pub(crate) limits: RateLimiter,
    pub(crate) stats: SandboxStats,
    order_limit: u32,
    plans_limit: u32,
}

impl State {
    /// The initial state of a configuration.
    pub(crate) fn new(config: &Config) -> Self {
        Self {
            accounts: Accounts::new(&config.accounts),
            markets: markets::Markets::new(&config.markets),
            orders: orders::OrderBook::default(),
            positions: positions::Positions::default(),
            plans: config.plans.clone(),
            nonces: NonceGuard::default(),
            limits: RateLimiter::default(),
            stats: SandboxStats::default(),
            order_limit: config.order_limit,
            plans_limit: config.plans_limit,
        }
    }

    /// The rate limit of `op` per key per 10 s.
    pub(crate) fn limit(&self, op: Op) -> u32 {
        match op {
            Op::Market | Op::Trigger => self.order_limit,
            Op::Plans => self.plans_limit,
        }
    }

    /// Every currency the sandbox knows: plans' tickers, markets' currencies, balances.
    pub(crate) fn known_tickers(&self) -> BTreeSet<&str> {
        let plans = self.plans.iter().flat_map(|p| {
            [p.ticker.as_deref(), p.interest_ticker.as_deref()]
                .into_iter()
                .flatten()
        });
        plans
            .chain(self.markets.tickers())
            .chain(self.accounts.tickers())
            .collect()
    }
}

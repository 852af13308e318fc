//! The exchange's state: accounts and their balances, the markets' prices, the orders,
//! positions and investments, the kill-switch timers, the statistics — and the [`Change`]s
//! it emits to whoever subscribes.
//!
//! **What it is for:** every state change an operation makes, and the reads it answers from,
//! behind one `&mut` — the caller holds the one lock. A request's field rules ran before
//! (`crate::rules`); the checks here are those that need the state (a `clientOrderId` in use,
//! the hedge-mode side, reduce-only, margin, an order to cancel). It imports the wire, the
//! configuration and the rules, nothing above: a test drives it with no server at all.
//!
//! **What it is not for:** authentication, nonces and rate limits (`crate::auth`, which holds
//! the lock this state lives behind), or any transport: no HTTP, no WebSocket. What it tells
//! the WebSocket it hands to a [`Subscriber`] it was built with.
//!
//! Where each part lives, and where the coming ones go:
//!
//! | part | room |
//! |---|---|
//! | accounts, balances, the account's read views | `accounts.rs`, `account_view.rs` |
//! | orders: the store and its indexes, each market's book, placing and executing, price moves, stop orders, OTO groups and OCOs, modify, look-ups, cancels, the kill switch, the deals (executed history, an order's deals), liquidation orders, their records | `orders/` |
//! | positions: open positions, the margin math, the history, closed positions and their PnL, close, leverage, hedge mode; funding, margin calls, liquidation, ADL quantiles | `positions/` |
//! | lending: smart investments, flexible lending | `lending/` |
//! | what the state tells listeners | `changes.rs` |
//! | the clock, the statistics | `clock.rs`, `stats.rs` |
//! | the markets' public view | `market_view.rs` |

mod account_view;
mod accounts;
#[cfg(test)]
mod book_tests;
mod changes;
mod clock;
mod lending;
mod market_view;
mod orders;
mod positions;
#[cfg(test)]
mod risk_tests;
mod stats;
#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use rust_decimal::Decimal;

pub(crate) use account_view::PositionView;
pub(crate) use accounts::{Account, Accounts};
pub(crate) use changes::{Change, Changes, Deal, OrderChange, Subscriber};
pub(crate) use clock::Clock;
pub(crate) use orders::{AsOf, GroupKind, OrderSource, StoredOrder};
pub use orders::{KillSwitchTimer, PriceMove};
pub use positions::Position;
pub(crate) use positions::funding_records_json;
pub(crate) use stats::Outcome;
pub use stats::SandboxStats;

use crate::config::{Config, Markets, Settings};
use crate::wire::PlanRecord;

/// The whole mutable state of a sandbox.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) accounts: Accounts,
    /// The markets' fixed terms, shared with the request rules (read without the lock).
    pub(crate) markets: Arc<Markets>,
    /// Each market's current price.
    pub(crate) prices: HashMap<String, Decimal>,
    pub(crate) orders: orders::OrderStore,
    pub(crate) positions: positions::Positions,
    pub(crate) plans: Vec<PlanRecord>,
    pub(crate) investments: lending::Investments,
    /// Flexible lending: the flex plans' status, the investments, their history.
    pub(crate) flex: lending::FlexLending,
    pub(crate) stats: SandboxStats,
    /// The sandbox's clock (the host's, maybe offset).
    pub(crate) clock: Clock,
    /// The builder's settings: the plans' minute, the kill switch's second, the open orders'
    /// choice.
    pub(crate) settings: Settings,
    /// The kill-switch timers.
    pub(crate) kill_switches: orders::Timers,
    /// Every position event, per account.
    pub(crate) position_events: positions::PositionEvents,
    /// Every closed position, per account.
    pub(crate) closed_positions: positions::ClosedPositions,
    /// The funding rates, schedule and payments.
    pub(crate) funding: positions::Funding,
    /// Each account's standing against its margin levels.
    pub(crate) risk: positions::Risk,
    /// Where the changes go.
    changes: Changes,
}

impl State {
    /// The initial state of a configuration, whose markets are `markets`; its changes go to
    /// `changes`.
    pub(crate) fn new(config: &Config, markets: Arc<Markets>, changes: Changes) -> Self {
        let clock = Clock::new(config.settings.clock_offset_ms);
        Self {
            accounts: Accounts::new(&config.accounts, Account::of),
            prices: config
                .markets
                .iter()
                .map(|m| (m.name.clone(), m.price))
                .collect(),
            markets,
            orders: orders::OrderStore::new(changes.clone()),
            positions: positions::Positions::default(),
            plans: config.plans.clone(),
            investments: lending::Investments::default(),
            flex: lending::FlexLending::new(
                &config.flex_plans,
                config.settings.flex_accrual_interval,
            ),
            stats: SandboxStats::default(),
            clock,
            kill_switches: orders::Timers::new(config.settings.kill_switch_second),
            position_events: positions::PositionEvents::default(),
            closed_positions: positions::ClosedPositions::default(),
            funding: positions::Funding::new(
                &config.markets,
                config.settings.funding_interval,
                clock.now_us(),
            ),
            risk: positions::Risk::new(config.settings.margin),
            settings: config.settings.clone(),
            changes,
        }
    }

    /// The current price of `market`.
    pub(crate) fn price(&self, market: &str) -> Option<Decimal> {
        self.prices.get(market).copied()
    }

    /// Every currency the sandbox knows: plans' tickers (flex plans' too), markets'
    /// currencies, balances.
    pub(crate) fn known_tickers(&self) -> BTreeSet<&str> {
        let plans = self
            .plans
            .iter()
            .flat_map(|p| [p.ticker.as_str(), p.interest_ticker.as_str()]);
        plans
            .chain(self.flex.tickers())
            .chain(self.markets.tickers())
            .chain(self.accounts.tickers())
            .collect()
    }

    /// Tells the subscriber that `api_key`'s balances or positions changed, and marks its
    /// margin for judging ([`State::settle_risk`]).
    pub(crate) fn account_changed(&mut self, api_key: &str) {
        self.margin_moved(api_key);
        self.changes.emit(|| Change::Account {
            api_key: api_key.to_owned(),
        });
    }

    /// Brings the state up to `now_us`: the funding times passed are settled, and every
    /// account whose margin may have moved is judged (margin calls, liquidations).
    pub(crate) fn catch_up(&mut self, now_us: u64) {
        self.settle_funding_due(now_us);
        self.settle_risk();
    }

    /// The record of every order a request placed (not the stop-loss and take-profit orders
    /// an OTO group placed), in id order, as JSON.
    pub(crate) fn order_records(&self) -> Vec<serde_json::Value> {
        self.orders
            .all()
            .iter()
            .filter(|o| o.placed_by.is_none() && o.source == OrderSource::Api)
            .filter_map(|o| serde_json::to_value(o.record()).ok())
            .collect()
    }
}

//! The exchange's state: accounts, prices, orders, positions, nonces, rate limits and
//! statistics, behind one lock held only for a request's admission (rate limit, nonce) and
//! its state change; the markets' fixed terms are shared with the rules, read without it.

mod account_view;
mod accounts;
mod bulk_cancel;
mod close;
mod execution;
mod investments;
mod kill_switch;
mod lookups;
mod markets;
mod order;
mod order_book;
mod position_history;
mod positions;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use rust_decimal::Decimal;

pub(crate) use accounts::{Account, Accounts};
pub use kill_switch::KillSwitchTimer;
pub(crate) use lookups::AsOf;
pub(crate) use markets::{Markets, check_amount};
pub(crate) use order::{OrderRef, StoredOrder};
pub(crate) use positions::OpenPosition;
pub use positions::Position;

use crate::auth::Nonces;
use crate::clock::Clock;
use crate::config::Config;
use crate::op::Op;
use crate::rate_limit::RateLimiter;
use crate::settings::Settings;
use crate::stats::SandboxStats;
use crate::wire::{OrderRecord, PlanRecord};
use crate::ws::{Change, Feed};

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
    pub(crate) investments: investments::Investments,
    pub(crate) nonces: Nonces,
    pub(crate) limits: RateLimiter,
    pub(crate) stats: SandboxStats,
    /// The sandbox's clock (the host's, maybe offset).
    pub(crate) clock: Clock,
    /// Where changes go for the WebSocket's channels.
    pub(crate) feed: Feed,
    /// The WebSocket tokens issued: token → API key.
    pub(crate) ws_tokens: HashMap<String, String>,
    /// The builder's settings: the rate limits, the plans' minute, the open orders' choice.
    pub(crate) settings: Settings,
    /// The kill-switch timers.
    pub(crate) kill_switches: kill_switch::Timers,
    /// Every position event, per account.
    pub(crate) position_events: position_history::PositionEvents,
}

impl State {
    /// The initial state of a configuration, whose markets are `markets`.
    pub(crate) fn new(config: &Config, markets: Arc<Markets>, feed: Feed) -> Self {
        Self {
            accounts: Accounts::new(&config.accounts, Account::of),
            prices: config
                .markets
                .iter()
                .map(|m| (m.name.clone(), m.price))
                .collect(),
            markets,
            orders: order_book::OrderBook::new(feed.clone()),
            positions: positions::Positions::default(),
            plans: config.plans.clone(),
            investments: investments::Investments::default(),
            nonces: Nonces::default(),
            limits: RateLimiter::default(),
            stats: SandboxStats::default(),
            clock: Clock::new(config.settings.clock_offset_ms),
            feed,
            ws_tokens: HashMap::new(),
            kill_switches: kill_switch::Timers::new(config.settings.kill_switch_second),
            position_events: position_history::PositionEvents::default(),
            settings: config.settings.clone(),
        }
    }

    /// The rate limit of `op` per key per 10 s.
    pub(crate) fn limit(&self, op: Op) -> u32 {
        self.settings.limits.of(op)
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

    /// Tells the WebSocket's feed that `api_key`'s balances or positions changed.
    pub(crate) fn account_changed(&self, api_key: &str) {
        self.feed.send(Change::Account {
            api_key: api_key.to_owned(),
        });
    }

    /// Issues a WebSocket token for `api_key`.
    pub(crate) fn issue_ws_token(&mut self, api_key: &str) -> String {
        let serial = self.ws_tokens.len();
        let token = format!("sbx{:x}{:012x}", self.clock.now_us(), serial);
        self.ws_tokens.insert(token.clone(), api_key.to_owned());
        token
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

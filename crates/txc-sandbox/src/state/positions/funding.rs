//! Funding on perpetual markets: the rates, the schedule, the payments — each moving the
//! account's collateral balance, counted into its position's life (the closed-PnL record's
//! `totalFunding`) and listed by `funding-history`.
//!
//! At each funding time, every open position on a perpetual market with a rate receives
//!
//! ```text
//! fundingAmount = −(positionAmount × settlementPrice × fundingRate)
//! ```
//!
//! (`positionAmount` signed, negative for a short; the settlement price is the market's
//! current price, which stands for the mark price): a positive rate makes longs pay shorts,
//! a negative one the reverse — the spec's two examples, and `txc_types::positions::funding`'s
//! reference. The amount is rounded to 16 decimal places, the places of the spec's second
//! example (whose exact product has 22: the exchange rounds or cuts; the sandbox rounds half
//! to even), which keeps the balance's sums exact. A payment is
//! taken from the balance and, when the balance cannot cover it, from the position's locked
//! margin (the account's equity is the same either way); whatever neither covers is not
//! taken — only a rate far beyond the exchange's caps gets there.
//!
//! Funding times are the sandbox's start plus multiples of the interval
//! ([`crate::SandboxBuilder::funding_interval`], 8 hours by default); they are settled when the
//! state is next touched after them and by a task every 10 ms. [`crate::Sandbox::funding_tick`]
//! settles one now, off the schedule.

use std::collections::HashMap;
use std::time::Duration;

use rust_decimal::Decimal;

use super::margin::MARGIN_PLACES;
use super::open::PositionKey;
use crate::config::{MarketSpec, SandboxError};
use crate::rules::FundingHistoryQuery;
use crate::state::State;
use crate::wire::{FundingPage, FundingRecord, PositionSide, decimal};

/// The most overdue funding times settled at once: past them (a host asleep for long), the
/// schedule skips ahead.
const MAX_OVERDUE: u64 = 1_000;

/// One funding payment of one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FundingEntry {
    pub(crate) market: String,
    pub(crate) side: PositionSide,
    /// The funding time, Unix microseconds.
    pub(crate) at_us: u64,
    /// When the rate was calculated: the previous funding time, Unix microseconds.
    pub(crate) rate_at_us: u64,
    pub(crate) rate: Decimal,
    /// What the account received (negative: paid).
    pub(crate) amount: Decimal,
    /// The position's signed amount.
    pub(crate) position_amount: Decimal,
    pub(crate) settlement_price: Decimal,
}

/// The funding rates, the schedule and every payment, per account.
#[derive(Debug)]
pub(crate) struct Funding {
    rates: HashMap<String, Decimal>,
    interval_us: u64,
    /// The next scheduled funding time, Unix microseconds.
    next_us: u64,
    by_account: HashMap<String, Vec<FundingEntry>>,
}

impl Funding {
    /// The perpetual markets of `markets` at their configured rates, the first funding time
    /// one `interval` after `start_us`.
    pub(crate) fn new(markets: &[MarketSpec], interval: Duration, start_us: u64) -> Self {
        let interval_us = u64::try_from(interval.as_micros())
            .unwrap_or(u64::MAX)
            .max(1_000);
        Self {
            rates: markets
                .iter()
                .filter(|m| m.futures)
                .map(|m| (m.name.clone(), m.funding_rate))
                .collect(),
            interval_us,
            next_us: start_us.saturating_add(interval_us),
            by_account: HashMap::new(),
        }
    }

    /// The rate of `market`, if it is perpetual.
    pub(crate) fn rate(&self, market: &str) -> Option<Decimal> {
        self.rates.get(market).copied()
    }

    /// The next scheduled funding time, Unix microseconds.
    pub(crate) fn next_us(&self) -> u64 {
        self.next_us
    }

    /// The interval between funding times, in microseconds.
    pub(crate) fn interval_us(&self) -> u64 {
        self.interval_us
    }

    /// `api_key`'s payments, oldest first.
    pub(crate) fn of(&self, api_key: &str) -> &[FundingEntry] {
        self.by_account.get(api_key).map_or(&[], Vec::as_slice)
    }

    /// Every account's payments, by API key.
    pub(crate) fn all(&self) -> impl Iterator<Item = (&String, &Vec<FundingEntry>)> {
        self.by_account.iter()
    }
}

impl State {
    /// Settles every scheduled funding time up to `now_us` (at most [`MAX_OVERDUE`] of them:
    /// older ones are skipped), each at its own time and the current prices.
    pub(crate) fn settle_funding_due(&mut self, now_us: u64) {
        let interval = self.funding.interval_us;
        if self.funding.next_us > now_us {
            return;
        }
        let overdue = (now_us - self.funding.next_us) / interval;
        if overdue >= MAX_OVERDUE {
            self.funding.next_us += (overdue - MAX_OVERDUE + 1) * interval;
        }
        while self.funding.next_us <= now_us {
            let at = self.funding.next_us;
            self.funding.next_us = at.saturating_add(interval);
            self.funding_tick(at);
        }
    }

    /// Settles funding at `at_us` on every perpetual market with a rate: each open position
    /// there receives `−(amount × price × rate)`. The payments made, by API key, in market,
    /// account and side order. Then the accounts' margins are judged.
    pub(crate) fn funding_tick(&mut self, at_us: u64) -> Vec<(String, FundingEntry)> {
        let mut rated: Vec<(String, Decimal)> = self
            .funding
            .rates
            .iter()
            .filter(|(_, rate)| !rate.is_zero())
            .map(|(m, r)| (m.clone(), *r))
            .collect();
        rated.sort();
        let mut paid = Vec::new();
        for (market, rate) in rated {
            let Some(price) = self.price(&market) else {
                continue;
            };
            let mut keys: Vec<PositionKey> = self
                .positions
                .all()
                .filter(|(key, _)| key.1 == market)
                .map(|(key, _)| key.clone())
                .collect();
            keys.sort();
            for key in keys {
                if let Some(entry) = self.pay_funding(&key, at_us, rate, price) {
                    paid.push((key.0.clone(), entry));
                }
            }
        }
        self.settle_risk();
        paid
    }

    /// Pays the position under `key` its funding at `at_us`; the payment, recorded.
    fn pay_funding(
        &mut self,
        key: &PositionKey,
        at_us: u64,
        rate: Decimal,
        price: Decimal,
    ) -> Option<FundingEntry> {
        let position = self.positions.get(key);
        let owed = position
            .qty
            .checked_mul(price)?
            .checked_mul(rate)?
            .round_dp(MARGIN_PLACES);
        let collateral = self.markets.get(&key.1)?.collateral.clone();
        let account = self.accounts.get_mut(&key.0)?;
        let balance = account.balance(&collateral);
        let after = balance.checked_sub(owed)?;
        // What the balance cannot cover comes out of the position's margin, as far as it goes.
        let short = (-after).max(Decimal::ZERO);
        let from_margin = short.min(position.margin);
        let received = -owed + (short - from_margin);
        account
            .balances
            .insert(collateral, after.max(Decimal::ZERO));
        self.positions.fund(key, -received, from_margin);
        let entry = FundingEntry {
            market: key.1.clone(),
            side: key.2,
            at_us,
            rate_at_us: at_us.saturating_sub(self.funding.interval_us),
            rate,
            amount: received,
            position_amount: position.qty,
            settlement_price: price,
        };
        self.funding
            .by_account
            .entry(key.0.clone())
            .or_default()
            .push(entry.clone());
        self.stats.funding_payments += 1;
        self.account_changed(&key.0);
        Some(entry)
    }

    /// Sets the funding rate of the perpetual market `market` (a signed plain decimal).
    pub(crate) fn set_funding_rate(
        &mut self,
        market: &str,
        rate: &str,
    ) -> Result<(), SandboxError> {
        let value = decimal::parse_signed(rate).ok_or_else(|| SandboxError::InvalidValue {
            field: "rate",
            value: rate.to_owned(),
            reason: "not a plain decimal",
        })?;
        match self.funding.rates.get_mut(market) {
            Some(current) => {
                *current = value;
                Ok(())
            }
            None if self.markets.get(market).is_some() => Err(SandboxError::InvalidValue {
                field: "market",
                value: market.to_owned(),
                reason: "not a perpetual (_PERP) market",
            }),
            None => Err(SandboxError::UnknownMarket(market.to_owned())),
        }
    }

    /// `api_key`'s funding payments matching `query` as of `as_of_us` (later ones not made
    /// yet, for a lagging read): newest first, paged.
    pub(crate) fn funding_history(
        &self,
        api_key: &str,
        query: &FundingHistoryQuery,
        as_of_us: u64,
    ) -> FundingPage {
        let mut entries: Vec<&FundingEntry> = self
            .funding
            .of(api_key)
            .iter()
            .rev()
            .filter(|e| e.at_us <= as_of_us)
            .filter(|e| query.market.as_deref().is_none_or(|m| e.market == m))
            .collect();
        // By funding time, newest first (a tick settled off the schedule may be newer than a
        // scheduled one settled after it); the later payment first within one time.
        entries.sort_by_key(|e| std::cmp::Reverse(e.at_us));
        FundingPage {
            records: query
                .page
                .of(entries.into_iter())
                .map(funding_record)
                .collect(),
            limit: query.page.limit,
            offset: query.page.offset,
        }
    }
}

/// Payments as [`crate::Sandbox::funding_tick`] and [`crate::Sandbox::funding_records`] show
/// them: each as the funding history lists it, with its account's `apiKey`.
pub(crate) fn funding_records_json(entries: &[(String, FundingEntry)]) -> Vec<serde_json::Value> {
    entries
        .iter()
        .filter_map(|(api_key, entry)| {
            let mut record = serde_json::to_value(funding_record(entry)).ok()?;
            record
                .as_object_mut()?
                .insert("apiKey".to_owned(), api_key.clone().into());
            Some(record)
        })
        .collect()
}

impl State {
    /// Every account's funding payments, oldest first (by funding time, then as made).
    pub(crate) fn all_funding(&self) -> Vec<(String, FundingEntry)> {
        let mut all: Vec<(String, FundingEntry)> = self
            .funding
            .all()
            .flat_map(|(key, entries)| entries.iter().map(|e| (key.clone(), e.clone())))
            .collect();
        all.sort_by(|a, b| (a.1.at_us, &a.0).cmp(&(b.1.at_us, &b.0)));
        all
    }
}

/// `entry` as the funding history lists it.
pub(crate) fn funding_record(entry: &FundingEntry) -> FundingRecord {
    FundingRecord {
        market: entry.market.clone(),
        funding_time: (entry.at_us / 1_000_000).to_string(),
        funding_rate: decimal::text(entry.rate),
        funding_amount: decimal::text(entry.amount),
        position_amount: decimal::text(entry.position_amount),
        settlement_price: decimal::text(entry.settlement_price),
        rate_calculated_time: (entry.rate_at_us / 1_000_000).to_string(),
    }
}

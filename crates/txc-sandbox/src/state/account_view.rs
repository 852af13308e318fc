//! What the collateral account's read endpoints show: balances, the balance summary, the
//! account summary and the open positions, marked to the current prices — and the positions
//! as [`crate::Sandbox::positions`] shows them.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::value::RawValue;

use super::State;
use super::positions::{OpenPosition, Position};
use crate::wire::{AssetBalanceRecord, OpenPositionRecord, SummaryRecord, decimal};

/// Totals over an account's open positions.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    margin: Decimal,
    unrealized: Decimal,
}

impl State {
    /// `api_key`'s balance of each asset (of `ticker` only, when given), as JSON numbers.
    pub(crate) fn collateral_balances(
        &self,
        api_key: &str,
        ticker: Option<&str>,
    ) -> BTreeMap<String, Box<RawValue>> {
        let Some(account) = self.accounts.get(api_key) else {
            return BTreeMap::new();
        };
        let number = |d: Decimal| RawValue::from_string(decimal::text(d)).ok();
        match ticker {
            Some(t) => number(account.balance(t))
                .map(|n| (t.to_owned(), n))
                .into_iter()
                .collect(),
            None => account
                .balances
                .iter()
                .filter_map(|(t, d)| Some((t.clone(), number(*d)?)))
                .collect(),
        }
    }

    /// `api_key`'s balance summary per asset (of `ticker` only, when given): nothing is
    /// borrowed; with borrowing, the balance times the leverage is available.
    pub(crate) fn balance_summary(
        &self,
        api_key: &str,
        ticker: Option<&str>,
    ) -> Vec<AssetBalanceRecord> {
        let Some(account) = self.accounts.get(api_key) else {
            return Vec::new();
        };
        let record = |asset: &str, balance: Decimal| AssetBalanceRecord {
            asset: asset.to_owned(),
            balance: decimal::text(balance),
            borrow: "0".to_owned(),
            available_without_borrow: decimal::text(balance),
            available_with_borrow: decimal::text(
                balance
                    .checked_mul(account.spec.leverage)
                    .unwrap_or(balance),
            ),
        };
        match ticker {
            Some(t) => vec![record(t, account.balance(t))],
            None => account
                .balances
                .iter()
                .map(|(t, d)| record(t, *d))
                .collect(),
        }
    }

    /// `api_key`'s account summary: equity is the free collateral plus the margin held plus
    /// the unrealized profit, all in the markets' collateral currency.
    pub(crate) fn account_summary(&self, api_key: &str) -> SummaryRecord {
        let totals = self.totals(api_key);
        let (free, leverage) = self
            .accounts
            .get(api_key)
            .map_or((Decimal::ZERO, Decimal::ONE), |a| {
                (a.balance(self.collateral()), a.spec.leverage)
            });
        let equity = free + totals.margin + totals.unrealized;
        let fraction = if equity.is_zero() {
            Decimal::ZERO
        } else {
            (totals.margin / equity).round_dp(4)
        };
        SummaryRecord {
            equity: decimal::text(equity),
            margin: decimal::text(totals.margin),
            free_margin: decimal::text(free),
            unrealized_funding: "0".to_owned(),
            pnl: decimal::text(totals.unrealized),
            leverage: u64::try_from(leverage.trunc().mantissa()).unwrap_or(1),
            margin_fraction: decimal::text(fraction),
        }
    }

    /// `api_key`'s open positions (of `market`, when given), by market and side.
    pub(crate) fn open_position_records(
        &self,
        api_key: &str,
        market: Option<&str>,
    ) -> Vec<OpenPositionRecord> {
        let free = self
            .accounts
            .get(api_key)
            .map_or(Decimal::ZERO, |a| a.balance(self.collateral()));
        self.positions
            .listed(api_key, market)
            .into_iter()
            .map(|((_, market, side), p)| {
                let unrealized = self.unrealized(market, p);
                let percent = if p.state.margin.is_zero() {
                    Decimal::ZERO
                } else {
                    (unrealized / p.state.margin * Decimal::ONE_HUNDRED).round_dp(2)
                };
                OpenPositionRecord {
                    head: p.head(market),
                    liquidation_price: None,
                    liquidation_state: None,
                    pnl: decimal::text(p.realized),
                    pnl_percent: decimal::text(percent),
                    margin: decimal::text(p.state.margin),
                    free_margin: decimal::text(free),
                    funding: "0",
                    unrealized_funding: "0",
                    unrealized_pnl: decimal::text(unrealized),
                    tpsl: None,
                    position_side: side.as_str(),
                }
            })
            .collect()
    }

    /// The open positions of `api_key`.
    pub(crate) fn positions_of(&self, api_key: &str) -> Vec<Position> {
        self.positions.of(api_key)
    }

    /// The markets' collateral currency (the first market's; every default market's is
    /// `USDT`).
    fn collateral(&self) -> &str {
        self.markets.collateral()
    }

    /// The unrealized profit of `position` on `market` at its current price.
    fn unrealized(&self, market: &str, position: &OpenPosition) -> Decimal {
        let price = self.price(market).unwrap_or(position.state.entry);
        (price - position.state.entry)
            .checked_mul(position.state.qty)
            .unwrap_or_default()
    }

    fn totals(&self, api_key: &str) -> Totals {
        self.positions.listed(api_key, None).into_iter().fold(
            Totals::default(),
            |t, ((_, market, _), p)| Totals {
                margin: t.margin + p.state.margin,
                unrealized: t.unrealized + self.unrealized(market, p),
            },
        )
    }
}

//! What the collateral account's read endpoints show: balances, the balance summary, the
//! account summary and the open positions, marked to the current prices ([`PositionView`],
//! which the stream's position records are written from too) — and the positions as
//! [`crate::Sandbox::positions`] shows them.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::value::RawValue;

use super::State;
use super::positions::Position;
use crate::wire::{
    AssetBalanceRecord, LiquidationStage, OpenPositionRecord, PositionHead, PositionSide,
    SummaryRecord, TpslRecord, decimal, time,
};

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
        let standing = self.standing(api_key, None);
        let leverage = self
            .accounts
            .get(api_key)
            .map_or(Decimal::ONE, |a| a.spec.leverage);
        let equity = standing.equity();
        let fraction = if equity.is_zero() {
            Decimal::ZERO
        } else {
            (standing.margin / equity).round_dp(4)
        };
        SummaryRecord {
            equity: decimal::text(equity),
            margin: decimal::text(standing.margin),
            free_margin: decimal::text(standing.free),
            unrealized_funding: "0".to_owned(),
            pnl: decimal::text(standing.unrealized),
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
        self.position_views(api_key, market)
            .into_iter()
            .map(|view| {
                let percent = if view.margin.is_zero() {
                    Decimal::ZERO
                } else {
                    (view.unrealized / view.margin * Decimal::ONE_HUNDRED).round_dp(2)
                };
                OpenPositionRecord {
                    head: PositionHead {
                        position_id: view.id,
                        market: view.market.clone(),
                        open_date: time::seconds(view.opened_us),
                        modify_date: time::seconds(view.modified_us),
                        amount: decimal::text(view.amount),
                        base_price: decimal::text(view.entry),
                    },
                    liquidation_price: view.liquidation_price.map(decimal::text),
                    liquidation_state: view.stage.map(LiquidationStage::as_str),
                    pnl: decimal::text(view.realized),
                    pnl_percent: decimal::text(percent),
                    margin: decimal::text(view.margin),
                    free_margin: decimal::text(view.free),
                    funding: "0",
                    unrealized_funding: "0",
                    unrealized_pnl: decimal::text(view.unrealized),
                    tpsl: TpslRecord::of(self.orders.position_tpsl(view.id)),
                    position_side: view.side.as_str(),
                }
            })
            .collect()
    }

    /// `api_key`'s open positions (of `market`, when given) as they stand now, by market and
    /// side.
    pub(crate) fn position_views(&self, api_key: &str, market: Option<&str>) -> Vec<PositionView> {
        let free = self
            .accounts
            .get(api_key)
            .map_or(Decimal::ZERO, |a| a.balance(self.markets.collateral()));
        let stage = self.liquidation_stage(api_key);
        self.positions
            .listed(api_key, market)
            .into_iter()
            .map(|((_, market, side), p)| PositionView {
                id: p.id,
                market: market.clone(),
                side: *side,
                opened_us: p.opened_us,
                modified_us: p.modified_us,
                amount: p.state.qty,
                entry: p.state.entry,
                price: self.price(market).unwrap_or(p.state.entry),
                unrealized: self.unrealized(market, p),
                margin: p.state.margin,
                free,
                realized: p.realized,
                liquidation_price: self.liquidation_price(api_key, market),
                stage,
            })
            .collect()
    }

    /// The open positions of `api_key`.
    pub(crate) fn positions_of(&self, api_key: &str) -> Vec<Position> {
        self.positions.of(api_key)
    }
}

/// An open position as the records show it, at the current price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PositionView {
    pub(crate) id: u64,
    pub(crate) market: String,
    pub(crate) side: PositionSide,
    pub(crate) opened_us: u64,
    pub(crate) modified_us: u64,
    /// Signed: negative for a short.
    pub(crate) amount: Decimal,
    pub(crate) entry: Decimal,
    /// The market's current price.
    pub(crate) price: Decimal,
    pub(crate) unrealized: Decimal,
    pub(crate) margin: Decimal,
    /// The account's collateral balance.
    pub(crate) free: Decimal,
    /// What its partial closes realized.
    pub(crate) realized: Decimal,
    pub(crate) liquidation_price: Option<Decimal>,
    pub(crate) stage: Option<LiquidationStage>,
}

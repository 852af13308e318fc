//! The closed positions: one record per position once it closed — by an order, by
//! `position/close`, by a flip or by liquidation — with what its whole life added up to, and
//! how `positions/closed-pnl` lists them.
//!
//! The aggregates, from the spec's field descriptions (and `txc_types::positions::pnl`'s
//! reference): `grossPnl` is what the position realized, every fill's fee deducted —
//! `direction × (exit fills' value − entry fills' value) − totalTradeFee`, exactly what its
//! fills moved the balance by; `netPnl = grossPnl − totalFunding`, `totalFunding` the funding
//! it paid (negative: received); `avgEntryPrice`/`avgExitPrice` the volume-weighted prices of
//! the fills that grew and reduced it, cut to the market's money precision; `closedSize` the
//! reducing fills' amount.

use std::collections::HashMap;

use rust_decimal::{Decimal, RoundingStrategy};

use super::open::OpenPosition;
use crate::rules::ClosedPnlQuery;
use crate::state::State;
use crate::wire::{ClosedPositionRecord, PositionSide, decimal};

/// A position that closed, as it stood when it did.
#[derive(Debug, Clone)]
pub(crate) struct ClosedPosition {
    pub(crate) market: String,
    pub(crate) side: PositionSide,
    pub(crate) hedge: bool,
    pub(crate) position: OpenPosition,
    /// When it closed, Unix microseconds.
    pub(crate) closed_us: u64,
}

/// Every closed position, per account, in the order they closed.
#[derive(Debug, Default)]
pub(crate) struct ClosedPositions {
    by_account: HashMap<String, Vec<ClosedPosition>>,
}

impl ClosedPositions {
    /// Records that `position` (`api_key`'s, on `market` and `side`) closed at `now_us`.
    pub(crate) fn close(
        &mut self,
        api_key: &str,
        market: &str,
        side: PositionSide,
        hedge: bool,
        position: &OpenPosition,
        now_us: u64,
    ) {
        self.by_account
            .entry(api_key.to_owned())
            .or_default()
            .push(ClosedPosition {
                market: market.to_owned(),
                side,
                hedge,
                position: position.clone(),
                closed_us: now_us,
            });
    }

    /// `api_key`'s closed positions, in the order they closed.
    pub(crate) fn of(&self, api_key: &str) -> &[ClosedPosition] {
        self.by_account.get(api_key).map_or(&[], Vec::as_slice)
    }

    /// Every account's, by API key.
    pub(crate) fn all(&self) -> impl Iterator<Item = (&String, &Vec<ClosedPosition>)> {
        self.by_account.iter()
    }
}

impl State {
    /// `api_key`'s closed positions matching `query` (their close time in its window) as of
    /// `as_of_us` (later ones not closed yet, for a lagging read): by `closeDate` descending,
    /// then `positionId` descending, paged.
    pub(crate) fn closed_pnl(
        &self,
        api_key: &str,
        query: &ClosedPnlQuery,
        as_of_us: u64,
    ) -> Vec<ClosedPositionRecord> {
        let (from, to) = query.period;
        let mut matching: Vec<&ClosedPosition> = self
            .closed_positions
            .of(api_key)
            .iter()
            .filter(|c| c.closed_us <= as_of_us)
            .filter(|c| {
                let at = c.closed_us / 1_000_000;
                from.is_none_or(|f| at >= f) && to.is_none_or(|t| at <= t)
            })
            .collect();
        matching.sort_by_key(|c| std::cmp::Reverse((c.closed_us / 1_000_000, c.position.id)));
        query
            .page
            .of(matching.into_iter())
            .map(|c| self.closed_record(c))
            .collect()
    }

    /// Every account's closed positions, in the order they closed, each as the closed PnL
    /// lists it with its account's `apiKey`.
    pub(crate) fn closed_position_records(&self) -> Vec<serde_json::Value> {
        let mut all: Vec<(&String, &ClosedPosition)> = self
            .closed_positions
            .all()
            .flat_map(|(key, closed)| closed.iter().map(move |c| (key, c)))
            .collect();
        all.sort_by_key(|(key, c)| (c.closed_us, c.position.id, *key));
        all.into_iter()
            .filter_map(|(key, closed)| {
                let mut record = serde_json::to_value(self.closed_record(closed)).ok()?;
                record
                    .as_object_mut()?
                    .insert("apiKey".to_owned(), key.clone().into());
                Some(record)
            })
            .collect()
    }

    /// `closed`'s record.
    fn closed_record(&self, closed: &ClosedPosition) -> ClosedPositionRecord {
        let places = self.markets.get(&closed.market).map_or(8, |m| m.money_prec);
        let life = &closed.position.lifetime;
        let average = |value: Decimal, size: Decimal| {
            value
                .checked_div(size)
                .unwrap_or_default()
                .round_dp_with_strategy(places, RoundingStrategy::ToZero)
        };
        let gross = closed.position.realized - life.fees;
        ClosedPositionRecord {
            position_id: closed.position.id,
            market: closed.market.clone(),
            gross_pnl: decimal::text(gross),
            net_pnl: decimal::text(gross - life.funding_paid),
            total_trade_fee: decimal::text(life.fees),
            total_funding: decimal::text(life.funding_paid),
            avg_entry_price: decimal::text(average(life.entry_value, life.entry_size)),
            avg_exit_price: decimal::text(average(life.exit_value, life.exit_size)),
            closed_size: decimal::text(life.exit_size),
            amount: "0",
            side: closed.side.as_str(),
            is_hedge: closed.hedge,
            open_date: closed.position.opened_us / 1_000_000,
            close_date: closed.closed_us / 1_000_000,
        }
    }
}

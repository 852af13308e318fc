//! The orders a liquidation places: the account's open orders on the market canceled
//! (`AUTO_CANCELED_LIQUIDATION`), then a reduce-only market order of the sandbox's own
//! (`source` `liquidation`) that closes part or all of the position. What to liquidate and
//! when is the positions' business (`crate::state::positions`); this is how it trades.
//!
//! The liquidation order executes against the rest of the exchange at the market's price, as
//! a taker, or — when that price would take the account's balance below zero, the market
//! having moved past the position's bankruptcy price — at the bankruptcy price, the price
//! the docs' last stage (auto-deleveraging) executes at, so that no balance becomes negative.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::execution::Taker;
use super::stored::{OrderSource, StoredOrder};
use crate::rules::OrderRequest;
use crate::state::State;
use crate::state::positions::{PositionKey, bankruptcy_price};
use crate::wire::{OrderStatus, Side};

impl State {
    /// Cancels `api_key`'s open orders on `market` (`AUTO_CANCELED_LIQUIDATION`); how many.
    pub(crate) fn cancel_for_liquidation(&mut self, api_key: &str, market: &str) -> usize {
        let ids: Vec<u64> = self
            .orders
            .listed(api_key, Some(market), true)
            .map(|o| o.id)
            .collect();
        let now = self.clock.now_us();
        ids.iter()
            .filter(|id| {
                self.cancel_as(**id, OrderStatus::AutoCanceledLiquidation, now)
                    .is_some()
            })
            .count()
    }

    /// Whether closing the whole position under `key` at the market's price would take the
    /// balance below zero: the market is past the position's bankruptcy price.
    pub(crate) fn past_bankruptcy(&self, key: &PositionKey) -> bool {
        let size = self.positions.get(key).qty;
        match self.liquidation_prices(key, size.abs()) {
            Some((price, Some(bound))) if size.is_sign_positive() => price < bound,
            Some((price, Some(bound))) => price > bound,
            _ => false,
        }
    }

    /// The market's price for closing `amount` of the position under `key`, and the
    /// position's bankruptcy price for it ([`bankruptcy_price`]).
    fn liquidation_prices(
        &self,
        key: &PositionKey,
        amount: Decimal,
    ) -> Option<(Decimal, Option<Decimal>)> {
        let market = self.markets.get(&key.1)?;
        let balance = self
            .accounts
            .get(&key.0)
            .map(|a| a.balance(&market.collateral))
            .unwrap_or_default();
        let bankrupt = bankruptcy_price(
            self.positions.get(key),
            balance,
            amount,
            market.taker_fee,
            market.money_prec,
        );
        Some((self.price(&key.1)?, bankrupt))
    }

    /// Closes `amount` of the position under `key` with a liquidation order: at the market's
    /// price, or at the position's bankruptcy price when the market's would take the balance
    /// below zero. The order's id, or `None` when there is nothing to close.
    pub(crate) fn liquidation_order(&mut self, key: &PositionKey, amount: Decimal) -> Option<u64> {
        let position = self.positions.get(key);
        if position.qty.is_zero() || amount <= Decimal::ZERO {
            return None;
        }
        let amount = amount.min(position.qty.abs());
        let (api_key, market_name, side) = key;
        let markets = Arc::clone(&self.markets);
        let market = markets.get(market_name)?;
        let direction = if position.qty.is_sign_positive() {
            Side::Sell
        } else {
            Side::Buy
        };
        let request = OrderRequest {
            position_side: Some(*side),
            reduce_only: true,
            ..OrderRequest::market(market_name, direction, amount)
        };
        let now = self.clock.now_us();
        let mut order = StoredOrder::new(api_key, request, *side, now, now);
        order.source = OrderSource::Liquidation;
        // The market's price, unless it is past the bankruptcy price.
        let (market_price, bankrupt) = self.liquidation_prices(key, amount)?;
        let mut price = match (direction, bankrupt) {
            (Side::Sell, Some(floor)) => market_price.max(floor),
            (Side::Buy, Some(ceiling)) => market_price.min(ceiling),
            (_, None) => market_price,
        };
        let tick = Decimal::new(1, market.money_prec);
        let mut fill = self.plan(&order, amount, price, false, None);
        // The bankruptcy price is rounded to the market's precision and the fee to 8 places:
        // a tick further to the safe side covers what rounding took.
        for _ in 0..3 {
            if fill.is_ok() || price <= Decimal::ZERO {
                break;
            }
            price = match direction {
                Side::Sell => price + tick,
                Side::Buy => price - tick,
            };
            fill = self.plan(&order, amount, price, false, None);
        }
        let fill = fill.ok()?;
        let mut deals = Vec::new();
        self.record_taker(
            &mut Taker::New {
                order: &mut order,
                deals: &mut deals,
            },
            amount,
            price,
            &fill,
            None,
        );
        if order.status == OrderStatus::Filled {
            self.stats.filled_orders += 1;
        }
        let id = self.orders.next_id();
        self.orders.add(order, &deals);
        self.settle(id);
        Some(id)
    }
}

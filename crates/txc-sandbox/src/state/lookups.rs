//! The order look-ups and cancellation: open orders, history, cancel — each through the
//! order book's indexes ([`super::order_book`]), never a walk over every order.
//!
//! The look-ups show an order only once it is visible ([`StoredOrder::visible`], delayed by
//! [`crate::Fault::VisibleAfter`]); cancellation acts on the order itself, visible or not (the
//! delay models reads lagging behind the engine, not the engine).

use std::collections::BTreeMap;

use super::{OrderRef, State, StoredOrder};
use crate::answer::Rejection;
use crate::rules::{CancelRequest, HistoryQuery, HistoryStatus, OpenOrdersQuery};
use crate::wire::{ActiveOrderRecord, HistoryByMarket, HistoryRecord, OrderStatus};

impl State {
    /// `api_key`'s open orders matching `query` at `now_us`, newest first, paged.
    pub(crate) fn open_orders(
        &self,
        api_key: &str,
        query: &OpenOrdersQuery,
        now_us: u64,
    ) -> Vec<ActiveOrderRecord> {
        let market = query.market.as_deref();
        let matches = |o: &&StoredOrder| {
            o.api_key == api_key
                && o.is_open()
                && o.visible(now_us)
                && market.is_none_or(|m| o.market() == m)
                && query.order_id.is_none_or(|id| i128::from(o.id) == id)
                && query
                    .client_order_id
                    .as_deref()
                    .is_none_or(|id| o.client_order_id() == Some(id))
        };
        // The narrowest index the query allows (the rules require `market` with an id).
        let by_id = query
            .order_id
            .and_then(|id| u64::try_from(id).ok())
            .map(|id| self.orders.get(id));
        let by_client_id = || {
            let id = query.client_order_id.as_deref()?;
            Some(self.orders.open_with_client_id(api_key, market?, id))
        };
        let candidates: Box<dyn Iterator<Item = &StoredOrder>> = match by_id {
            Some(order) => Box::new(order.into_iter()),
            None if query.order_id.is_some() => Box::new(std::iter::empty()),
            None => match by_client_id() {
                Some(order) => Box::new(order.into_iter()),
                None => Box::new(self.orders.listed(api_key, market, true)),
            },
        };
        candidates
            .filter(matches)
            .skip(query.offset)
            .take(query.limit)
            .map(ActiveOrderRecord::of)
            .collect()
    }

    /// `api_key`'s finished orders matching `query` at `now_us`, newest first, paged, keyed by
    /// market. A `clientOrderId` look-up that matches nothing is 422 code 30
    /// `{"orderHistory":["OrderHistory was not found."]}`.
    pub(crate) fn history(
        &self,
        api_key: &str,
        query: &HistoryQuery,
        now_us: u64,
    ) -> Result<HistoryByMarket, Rejection> {
        let canceled_recorded = self
            .accounts
            .get(api_key)
            .is_none_or(|a| a.spec.canceled_in_history);
        let market = query.market.as_deref();
        let (from, to) = query.period;
        let matches = |o: &&StoredOrder| {
            let created = i64::try_from(o.created_us / 1_000_000).unwrap_or(i64::MAX);
            o.api_key == api_key
                && !o.is_open()
                && o.visible(now_us)
                && (canceled_recorded || o.status == OrderStatus::Filled)
                && market.is_none_or(|m| o.market() == m)
                && match &query.which {
                    Some(which) => which.matches(o),
                    None => (from..=to).contains(&created) && status_matches(query.status, o),
                }
        };
        let candidates: Box<dyn Iterator<Item = &StoredOrder>> = match &query.which {
            Some(OrderRef::Id(id)) => Box::new(self.orders.get(*id).into_iter()),
            Some(OrderRef::ClientId(id)) => Box::new(self.orders.carrying(api_key, id)),
            None => Box::new(self.orders.listed(api_key, market, false)),
        };
        let found: Vec<&StoredOrder> = candidates
            .filter(matches)
            .skip(query.offset)
            .take(query.limit)
            .collect();
        if found.is_empty() && matches!(query.which, Some(OrderRef::ClientId(_))) {
            return Err(Rejection::validation(
                30,
                "orderHistory",
                vec!["OrderHistory was not found.".to_owned()],
            ));
        }
        let mut by_market: BTreeMap<String, Vec<HistoryRecord>> = BTreeMap::new();
        for order in found {
            let fee_asset = self
                .markets
                .get(order.market())
                .map_or("", |m| m.collateral.as_str());
            by_market
                .entry(order.market().to_owned())
                .or_default()
                .push(HistoryRecord::of(order, fee_asset));
        }
        Ok(HistoryByMarket(by_market))
    }

    /// Cancels `api_key`'s open order named by `request`: its final state, or 400 code 2
    /// `Inner validation failed` `{"orderId":["Unexecuted order was not found."]}` when there
    /// is no such open order (unknown, another account's, on another market, already filled or
    /// canceled: not distinguished, like the docs' other cancel endpoints).
    pub(crate) fn cancel(
        &mut self,
        api_key: &str,
        request: &CancelRequest,
    ) -> Result<ActiveOrderRecord, Rejection> {
        let id = self
            .orders
            .find_open(api_key, &request.market, &request.which)
            .map(|o| o.id)
            .ok_or_else(|| {
                Rejection::inner(2, "orderId", "Unexecuted order was not found.")
                    .with_status(http::StatusCode::BAD_REQUEST)
            })?;
        let now = self.clock.now_us();
        let order = self
            .orders
            .update(id, |order| {
                order.status = OrderStatus::Canceled;
                order.finished_us = Some(now);
            })
            .ok_or_else(Rejection::internal)?;
        let record = ActiveOrderRecord::of(order);
        self.stats.canceled_orders += 1;
        Ok(record)
    }
}

/// Whether `order` passes the list mode's `status` filter: `CANCELED` takes every canceled
/// status (sandbox's choice); the sandbox never partly fills, so `PARTIALLY_FILLED` takes none.
fn status_matches(status: HistoryStatus, order: &StoredOrder) -> bool {
    match status {
        HistoryStatus::All => true,
        HistoryStatus::Filled => order.status == OrderStatus::Filled,
        HistoryStatus::Canceled => order.status != OrderStatus::Filled,
        HistoryStatus::PartiallyFilled => false,
    }
}

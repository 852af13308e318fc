//! The order look-ups and cancellation: `POST /api/v4/orders`, `POST
//! /api/v4/trade-account/order/history`, `POST /api/v4/conditional-orders` and `POST
//! /api/v4/order/cancel`, each checked by its own rules ([`crate::rules`]) and answered in its
//! own shape ([`crate::wire`]).

use super::private::{Counts, Endpoint, market_rule};
use crate::config::{Limit, Op, Route};
use crate::rules::{self, CancelRequest, ConditionalQuery, HistoryQuery, OpenOrdersQuery};
use crate::wire::{ActiveOrderRecord, ConditionalPage, HistoryByMarket};

/// The account's open orders, an array.
pub(super) const OPEN_ORDERS: Endpoint<OpenOrdersQuery, Vec<ActiveOrderRecord>> = Endpoint::new(
    Op::new("/api/v4/orders", Route::OpenOrders, Limit::Lookups),
    market_rule,
    |locked, call, query| {
        Ok(locked
            .state
            .open_orders(call.api_key(), &query, call.as_of(&locked.state)))
    },
)
.counts(Counts::Lookup);

/// The account's finished orders, by market.
pub(super) const HISTORY: Endpoint<HistoryQuery, HistoryByMarket> = Endpoint::new(
    Op::new(
        "/api/v4/trade-account/order/history",
        Route::OrderHistory,
        Limit::Lookups,
    ),
    |exchange, call| {
        let now_s = i64::try_from(exchange.clock().now_ms() / 1_000).unwrap_or(i64::MAX);
        Ok(rules::parse_history(
            call.fields()?,
            exchange.markets(),
            now_s,
        )?)
    },
    |locked, call, query| {
        locked
            .state
            .history(call.api_key(), &query, call.as_of(&locked.state))
    },
)
.counts(Counts::Lookup);

/// The account's OTO groups, a page with the total.
pub(super) const CONDITIONAL_ORDERS: Endpoint<ConditionalQuery, ConditionalPage> = Endpoint::new(
    Op::new(
        "/api/v4/conditional-orders",
        Route::ConditionalOrders,
        Limit::Lookups,
    ),
    market_rule,
    |locked, call, query| {
        Ok(locked
            .state
            .conditional_orders(call.api_key(), &query, call.as_of(&locked.state)))
    },
)
.counts(Counts::Lookup);

/// Cancels an order: its final locked.state.
pub(super) const CANCEL: Endpoint<CancelRequest, ActiveOrderRecord> = Endpoint::new(
    Op::new("/api/v4/order/cancel", Route::CancelOrder, Limit::Cancels),
    market_rule,
    |locked, call, request| locked.state.cancel(call.api_key(), &request),
);

//! The order look-ups and cancellation: `POST /api/v4/orders`, `POST
//! /api/v4/trade-account/order/history`, `POST /api/v4/conditional-orders` and `POST
//! /api/v4/order/cancel`, each checked by its own rules ([`crate::rules`]) and answered in its
//! own shape ([`crate::wire`]).

use super::private::{Counts, Endpoint, market_rule};
use crate::faults::Route;
use crate::op::{Limit, Op};
use crate::rules::{self, CancelRequest, ConditionalQuery, HistoryQuery, OpenOrdersQuery};
use crate::wire::{ActiveOrderRecord, ConditionalPage, HistoryByMarket};

/// The account's open orders, an array.
pub(super) const OPEN_ORDERS: Endpoint<OpenOrdersQuery, Vec<ActiveOrderRecord>> = Endpoint::new(
    Op::new("/api/v4/orders", Route::OpenOrders, Limit::Lookups),
    market_rule,
    |state, call, query| Ok(state.open_orders(call.api_key(), &query, call.as_of(state))),
)
.counts(Counts::Lookup);

/// The account's finished orders, by market.
pub(super) const HISTORY: Endpoint<HistoryQuery, HistoryByMarket> = Endpoint::new(
    Op::new(
        "/api/v4/trade-account/order/history",
        Route::OrderHistory,
        Limit::Lookups,
    ),
    |shared, call| {
        let now_s = i64::try_from(shared.clock().now_ms() / 1_000).unwrap_or(i64::MAX);
        Ok(rules::parse_history(
            call.fields()?,
            shared.markets(),
            now_s,
        )?)
    },
    |state, call, query| state.history(call.api_key(), &query, call.as_of(state)),
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
    |state, call, query| Ok(state.conditional_orders(call.api_key(), &query, call.as_of(state))),
)
.counts(Counts::Lookup);

/// Cancels an order: its final state.
pub(super) const CANCEL: Endpoint<CancelRequest, ActiveOrderRecord> = Endpoint::new(
    Op::new("/api/v4/order/cancel", Route::CancelOrder, Limit::Cancels),
    market_rule,
    |state, call, request| state.cancel(call.api_key(), &request),
);

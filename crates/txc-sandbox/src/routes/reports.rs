//! The account's reports: the closed positions' PnL, the funding history, the ADL quantiles
//! (`/api/v4/collateral-account/…`), the executed history and one order's deals
//! (`/api/v4/trade-account/…`) — each checked by its own rules ([`crate::rules`]) and
//! answered in its own shape ([`crate::wire`]), 12 000 per 10 s as the spec says. The lists
//! answer as of the read's time, so [`crate::Fault::Lagging`] makes them answer from the
//! records as they were a while ago.

use super::positions::no_fields;
use super::private::{Counts, Endpoint, market_rule};
use crate::config::{Limit, Op, Route};
use crate::rules::{
    self, ClosedPnlQuery, ExecutedHistoryQuery, FundingHistoryQuery, OrderDealsQuery,
};
use crate::wire::{AdlRecord, ClosedPositionRecord, DealsPage, ExecutedDeals, FundingPage};

/// One record per closed position, by close time.
pub(super) const CLOSED_PNL: Endpoint<ClosedPnlQuery, Vec<ClosedPositionRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/positions/closed-pnl",
        Route::ClosedPnl,
        Limit::Documented(12_000),
    ),
    |exchange, call| {
        let now_s = exchange.clock().now_ms() / 1_000;
        Ok(rules::parse_closed_pnl(call.fields()?, now_s)?)
    },
    |locked, call, query| {
        let as_of = call.as_of(&locked.state).at_us;
        Ok(locked.state.closed_pnl(call.api_key(), &query, as_of))
    },
)
.counts(Counts::Lookup);

/// The funding payments, newest first.
pub(super) const FUNDING_HISTORY: Endpoint<FundingHistoryQuery, FundingPage> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/funding-history",
        Route::FundingHistory,
        Limit::Documented(12_000),
    ),
    market_rule,
    |locked, call, query| {
        let as_of = call.as_of(&locked.state).at_us;
        Ok(locked.state.funding_history(call.api_key(), &query, as_of))
    },
)
.counts(Counts::Lookup);

/// The ADL quantiles of each perpetual market with a position; the body has no fields.
pub(super) const ADL_QUANTILE: Endpoint<(), Vec<AdlRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/adl-quantile",
        Route::AdlQuantile,
        Limit::Documented(12_000),
    ),
    no_fields,
    |locked, call, ()| Ok(locked.state.adl_quantiles(call.api_key())),
)
.counts(Counts::Lookup);

/// The account's deals, newest first.
pub(super) const EXECUTED_HISTORY: Endpoint<ExecutedHistoryQuery, ExecutedDeals> = Endpoint::new(
    Op::new(
        "/api/v4/trade-account/executed-history",
        Route::ExecutedHistory,
        Limit::Documented(12_000),
    ),
    |exchange, call| {
        Ok(rules::parse_executed_history(
            call.fields()?,
            exchange.markets(),
        )?)
    },
    |locked, call, query| {
        let as_of = call.as_of(&locked.state).at_us;
        locked.state.executed_history(call.api_key(), &query, as_of)
    },
)
.counts(Counts::Lookup);

/// One order's deals, newest first.
pub(super) const ORDER_DEALS: Endpoint<OrderDealsQuery, DealsPage> = Endpoint::new(
    Op::new(
        "/api/v4/trade-account/order",
        Route::OrderDeals,
        Limit::Documented(12_000),
    ),
    |_, call| Ok(rules::parse_order_deals(call.fields()?)?),
    |locked, call, query| {
        let as_of = call.as_of(&locked.state).at_us;
        Ok(locked.state.order_deals(call.api_key(), &query, as_of))
    },
)
.counts(Counts::Lookup);

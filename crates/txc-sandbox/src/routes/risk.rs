//! The risk controls' routes: cancel-all, bulk cancel, the kill switch and its status. Their
//! limits per 10 s are the docs' table's.

use super::private::{Endpoint, market_rule};
use crate::config::{Limit, Op, Route};
use crate::rules::{self, BulkItem, CancelAllRequest, KillSwitchRequest};
use crate::wire::{BulkItemRecord, TimerAnswer, TimerRecord};

/// Cancels the account's orders: a literal `[]`.
pub(super) const CANCEL_ALL: Endpoint<CancelAllRequest, [(); 0]> = Endpoint::new(
    Op::new(
        "/api/v4/order/cancel/all",
        Route::CancelAll,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, request| {
        locked.state.cancel_all(call.api_key(), &request);
        Ok([])
    },
);

/// Cancels orders by id: one item per order.
pub(super) const CANCEL_BULK: Endpoint<Vec<BulkItem>, Vec<BulkItemRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/order/cancel/bulk",
        Route::CancelBulk,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, items| Ok(locked.state.cancel_bulk(call.api_key(), items)),
);

/// Sets or deletes a market's timer: the timer, or `[]` when deleted.
pub(super) const KILL_SWITCH: Endpoint<KillSwitchRequest, TimerAnswer> = Endpoint::new(
    Op::new(
        "/api/v4/order/kill-switch",
        Route::KillSwitch,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, request| Ok(locked.state.set_kill_switch(call.api_key(), request)),
);

/// The account's timers, filtered by `market`.
pub(super) const KILL_SWITCH_STATUS: Endpoint<Option<String>, Vec<TimerRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/order/kill-switch/status",
        Route::KillSwitchStatus,
        Limit::Documented(10_000),
    ),
    |exchange, call| {
        Ok(rules::parse_kill_switch_status(
            call.fields()?,
            exchange.markets(),
        )?)
    },
    |locked, call, market| {
        Ok(locked
            .state
            .kill_switch_status(call.api_key(), market.as_deref()))
    },
);

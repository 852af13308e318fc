//! The conditional orders' routes and modify: `POST /api/v4/oco-orders` (the pending OCOs),
//! `POST /api/v4/order/oco-cancel`, `POST /api/v4/order/conditional-cancel`, `POST
//! /api/v4/order/oto-cancel` and `POST /api/v4/order/modify` — each checked by its own rules
//! ([`crate::rules`]) and answered in its own shape ([`crate::wire`]). Their limits per 10 s
//! are the spec's: 12 000 for the listing, 10 000 for the others.

use super::private::{Counts, Endpoint, market_rule};
use crate::config::{Limit, Op, Route};
use crate::rules::{CancelRequest, ConditionalCancel, ModifyRequest, OcoOrdersQuery, OtoCancel};
use crate::state::GroupKind;
use crate::wire::{ActiveOrderRecord, OcoRecord};

/// The account's pending OCOs, an array.
pub(super) const OCO_ORDERS: Endpoint<OcoOrdersQuery, Vec<OcoRecord>> = Endpoint::new(
    Op::new("/api/v4/oco-orders", Route::OcoOrders, Limit::Lookups),
    market_rule,
    |locked, call, query| {
        Ok(locked
            .state
            .oco_orders(call.api_key(), &query, call.as_of(&locked.state)))
    },
)
.counts(Counts::Lookup);

/// Cancels an OCO: its two legs as canceled.
pub(super) const CANCEL_OCO: Endpoint<CancelRequest, OcoRecord> = Endpoint::new(
    Op::new(
        "/api/v4/order/oco-cancel",
        Route::CancelOco,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, request| locked.state.cancel_oco(call.api_key(), &request),
);

/// Cancels an OCO or an OTO by its conditional id: a literal `[]`.
pub(super) const CANCEL_CONDITIONAL: Endpoint<ConditionalCancel, [(); 0]> = Endpoint::new(
    Op::new(
        "/api/v4/order/conditional-cancel",
        Route::CancelConditional,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, ConditionalCancel(group)| {
        locked
            .state
            .cancel_group(call.api_key(), &group, GroupKind::Any)?;
        Ok([])
    },
);

/// Cancels an OTO by its OTO id: a literal `[]`.
pub(super) const CANCEL_OTO: Endpoint<OtoCancel, [(); 0]> = Endpoint::new(
    Op::new(
        "/api/v4/order/oto-cancel",
        Route::CancelOto,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, OtoCancel(group)| {
        locked
            .state
            .cancel_group(call.api_key(), &group, GroupKind::Oto)?;
        Ok([])
    },
);

/// Replaces an order: the replacement, with its new `orderId`, in the `OrderResponse` shape.
pub(super) const MODIFY: Endpoint<ModifyRequest, ActiveOrderRecord> = Endpoint::new(
    Op::new(
        "/api/v4/order/modify",
        Route::ModifyOrder,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, request| {
        locked
            .state
            .modify(call.api_key(), &request, call.visible_after)
    },
);

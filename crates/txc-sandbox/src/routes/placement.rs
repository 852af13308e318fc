//! The order placement operations (`POST /api/v4/order/collateral/market` and
//! `…/trigger-market`): the body checked by the sandbox's own rules ([`crate::rules`]), then
//! placed against the state. A market order fills at the market's price; a trigger order rests
//! until the price reaches `activation_price` (buy: price ≥ activation, sell: price ≤
//! activation), or fills at once when it already has.

use super::answer::Answer;
use super::private::{Call, Counts, Endpoint};
use crate::auth::{Exchange, Locked};
use crate::config::{Limit, Op, Route};
use crate::rules::{self, OrderKind, OrderRequest};
use crate::wire::{OrderRecord, Rejection};

/// A collateral market order: the order record, or the exchange's rejection.
pub(super) const MARKET: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/market",
    Route::CollateralMarket,
    |exchange, call| order(exchange, call, OrderKind::Market),
);

/// A collateral trigger market order: the order record, or the exchange's rejection.
pub(super) const TRIGGER: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/trigger-market",
    Route::CollateralTriggerMarket,
    |exchange, call| order(exchange, call, OrderKind::Trigger),
);

/// The placement of orders checked by `rules`, at `path`: each placement counts against the
/// orders' limit on its own, and a success is an accepted order.
const fn placing(
    path: &'static str,
    route: Route,
    rules: fn(&Exchange, &Call<'_>) -> Result<OrderRequest, Answer>,
) -> Endpoint<OrderRequest, OrderRecord> {
    Endpoint::new(Op::new(path, route, Limit::Orders), rules, place).counts(Counts::Order)
}

/// The rules of an order of `kind`.
fn order(exchange: &Exchange, call: &Call<'_>, kind: OrderKind) -> Result<OrderRequest, Answer> {
    Ok(rules::parse_order(
        call.fields()?,
        kind,
        exchange.markets(),
    )?)
}

/// Places the order.
fn place(
    locked: &mut Locked,
    call: &Call<'_>,
    request: OrderRequest,
) -> Result<OrderRecord, Rejection> {
    locked
        .state
        .place(call.api_key(), request, call.visible_after)
}

//! The order placement operations (`POST /api/v4/order/collateral/market` and
//! `…/trigger-market`): the body checked by the sandbox's own rules ([`crate::rules`]), then
//! placed against the state. A market order fills at the market's price; a trigger order rests
//! until the price reaches `activation_price` (buy: price ≥ activation, sell: price ≤
//! activation), or fills at once when it already has.

use super::private::{Call, Counts, Endpoint};
use crate::answer::{Answer, Rejection};
use crate::app::Shared;
use crate::faults::Route;
use crate::op::{Limit, Op};
use crate::rules::{self, OrderKind, OrderRequest};
use crate::state::State;
use crate::wire::OrderRecord;

/// A collateral market order: the order record, or the exchange's rejection.
pub(super) const MARKET: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/market",
    Route::CollateralMarket,
    |shared, call| order(shared, call, OrderKind::Market),
);

/// A collateral trigger market order: the order record, or the exchange's rejection.
pub(super) const TRIGGER: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/trigger-market",
    Route::CollateralTriggerMarket,
    |shared, call| order(shared, call, OrderKind::Trigger),
);

/// The placement of orders checked by `rules`, at `path`: each placement counts against the
/// orders' limit on its own, and a success is an accepted order.
const fn placing(
    path: &'static str,
    route: Route,
    rules: fn(&Shared, &Call<'_>) -> Result<OrderRequest, Answer>,
) -> Endpoint<OrderRequest, OrderRecord> {
    Endpoint::new(Op::new(path, route, Limit::Orders), rules, place).counts(Counts::Order)
}

/// The rules of an order of `kind`.
fn order(shared: &Shared, call: &Call<'_>, kind: OrderKind) -> Result<OrderRequest, Answer> {
    Ok(rules::parse_order(call.fields()?, kind, shared.markets())?)
}

/// Places the order.
fn place(
    state: &mut State,
    call: &Call<'_>,
    request: OrderRequest,
) -> Result<OrderRecord, Rejection> {
    state.place(call.api_key(), request, call.visible_after)
}

//! The order placement operations (`POST /api/v4/order/collateral/market` and
//! `…/trigger-market`): the body checked by the sandbox's own rules ([`crate::rules`]), then
//! placed against the state. A market order fills at the market's price; a trigger order rests
//! until the price reaches `activation_price` (buy: price ≥ activation, sell: price ≤
//! activation), or fills at once when it already has.

use super::private::Call;
use crate::answer::{Answer, Outcome};
use crate::rules::{self, OrderKind};
use crate::state::State;

/// `POST /api/v4/order/collateral/market`.
pub(super) fn market(state: &mut State, call: &Call<'_>) -> Answer {
    place(state, call, OrderKind::Market)
}

/// `POST /api/v4/order/collateral/trigger-market`.
pub(super) fn trigger(state: &mut State, call: &Call<'_>) -> Answer {
    place(state, call, OrderKind::Trigger)
}

/// Checks and places an order: the order record, or the exchange's rejection.
fn place(state: &mut State, call: &Call<'_>, kind: OrderKind) -> Answer {
    let map = match rules::object(call.body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    let placed = rules::parse_order(&map, kind, &state.markets)
        .and_then(|request| state.place(&call.verified.api_key, request, call.visible_after));
    match placed {
        Ok(record) => Answer::ok(&record, Outcome::OrderAccepted),
        Err(rejection) => rejection.answer(),
    }
}

//! The order routes' operation: the body checked by the sandbox's own rules
//! ([`crate::rules`]), then placed against the state.

use txc_sign::VerifiedRequest;

use crate::answer::{Answer, Outcome};
use crate::rules::{self, OrderKind};
use crate::state::State;

/// Checks and places an order: the order record, or the exchange's rejection. Shared by both
/// order routes.
pub(super) fn place(
    state: &mut State,
    verified: &VerifiedRequest,
    body: &[u8],
    kind: OrderKind,
) -> Answer {
    let map = match rules::object(body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    let placed = rules::parse_order(&map, kind, &state.markets)
        .and_then(|request| state.place(&verified.api_key, request));
    match placed {
        Ok(record) => Answer::ok(&record, Outcome::OrderAccepted),
        Err(rejection) => rejection.answer(),
    }
}

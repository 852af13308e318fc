//! The body of `POST /api/v4/order/cancel` (companion-endpoints §3): `market` required and
//! exactly one of `orderId` / `clientOrderId`.
//!
//! Field problems answer together with code 30, in the docs' wording (`Market field is
//! required.`, `OrderId field is required.`, `OrderId field should be an integer.`, `Market
//! field should be a string.` with `Market field format is invalid.`); an unknown market is 31
//! `Market is not available.`. Both identifiers at once is a validation error whose message
//! the docs do not give.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{integer, market_name, present, push};
use crate::answer::Rejection;
use crate::state::{Markets, OrderRef};

/// A cancel request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CancelRequest {
    pub(crate) market: String,
    pub(crate) which: OrderRef,
}

/// Checks a cancel body.
pub(crate) fn parse_cancel(
    map: &Map<String, Value>,
    markets: &Markets,
) -> Result<CancelRequest, Rejection> {
    let mut errors = BTreeMap::new();
    let market = match present(map, "market") {
        // An empty string fails `required` as Laravel reads it.
        None => {
            push(&mut errors, "market", "Market field is required.");
            None
        }
        Some(Value::String(s)) if s.is_empty() => {
            push(&mut errors, "market", "Market field is required.");
            None
        }
        Some(Value::String(s)) if !market_name::is_well_formed(s) => {
            push(&mut errors, "market", "Market field format is invalid.");
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            push(&mut errors, "market", "Market field should be a string.");
            push(&mut errors, "market", "Market field format is invalid.");
            None
        }
    };
    let order_id = present(map, "orderId").map(|v| {
        let id = integer(v);
        if id.is_none() {
            push(
                &mut errors,
                "orderId",
                "OrderId field should be an integer.",
            );
        }
        id
    });
    let client_order_id = match present(map, "clientOrderId") {
        None => None,
        Some(Value::String(s)) if s.is_empty() => {
            push(
                &mut errors,
                "clientOrderId",
                "ClientOrderId field is required.",
            );
            Some(None)
        }
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(_) => {
            push(
                &mut errors,
                "clientOrderId",
                "ClientOrderId field should be a string.",
            );
            Some(None)
        }
    };
    let which = match (order_id, client_order_id) {
        (None, None) => {
            push(&mut errors, "orderId", "OrderId field is required.");
            None
        }
        (Some(_), Some(_)) => {
            // Not documented: "Sending both identifiers, or neither, returns a validation
            // error."
            push(
                &mut errors,
                "orderId",
                "Only one of orderId and clientOrderId may be sent.",
            );
            None
        }
        (Some(Some(id)), None) => Some(OrderRef::Id(u64::try_from(id).unwrap_or(u64::MAX))),
        (None, Some(Some(id))) => Some(OrderRef::ClientId(id)),
        _ => None,
    };
    if !errors.is_empty() {
        return Err(Rejection::fields(30, errors));
    }
    match (market, which) {
        (Some(market), Some(which)) if markets.get(&market).is_some() => {
            Ok(CancelRequest { market, which })
        }
        (Some(_), Some(_)) => Err(Rejection::validation(
            31,
            "market",
            vec!["Market is not available.".to_owned()],
        )),
        _ => Err(Rejection::fields(30, errors)),
    }
}

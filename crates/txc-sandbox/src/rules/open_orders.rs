//! The body of `POST /api/v4/orders` (companion-endpoints §1): `market`, `orderId`,
//! `clientOrderId`, `limit` (1–100, default 50), `offset` (0–4294967295, default 0).
//!
//! `market` problems answer code 31 first, with the endpoint's own (older docs') messages;
//! then every other field's problems together with code 30, as in the docs' example that
//! reports `limit` and `offset` at once. "Search across all markets is available only if
//! clientOrderId and orderId are not provided": an id without `market` is 31 `The market field
//! is required.`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{integer, market_name, present, push};
use crate::answer::Rejection;
use crate::state::Markets;

/// The filters of an open-orders request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpenOrdersQuery {
    pub(crate) market: Option<String>,
    pub(crate) order_id: Option<i128>,
    pub(crate) client_order_id: Option<String>,
    pub(crate) limit: usize,
    pub(crate) offset: usize,
}

/// The most `limit` allows.
const MAX_LIMIT: i128 = 100;
/// The most `offset` allows.
const MAX_OFFSET: i128 = 4_294_967_295;

/// Checks an open-orders body.
pub(crate) fn parse_open_orders(
    map: &Map<String, Value>,
    markets: &Markets,
) -> Result<OpenOrdersQuery, Rejection> {
    let market = market(map, markets)?;
    let mut errors = BTreeMap::new();
    // Not documented for this endpoint: Laravel's wording, as its other messages are.
    let order_id = match present(map, "orderId") {
        None => None,
        Some(v) => {
            let id = integer(v);
            if id.is_none() {
                push(&mut errors, "orderId", "The order id must be an integer.");
            }
            id
        }
    };
    let client_order_id = match present(map, "clientOrderId") {
        None => None,
        Some(Value::String(s)) if s.is_empty() => {
            push(
                &mut errors,
                "clientOrderId",
                "The client order id must not be empty.",
            );
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            push(
                &mut errors,
                "clientOrderId",
                "The client order id must be a string.",
            );
            None
        }
    };
    let limit = bounded(map, "limit", 50, 1, MAX_LIMIT, &mut errors);
    let offset = bounded(map, "offset", 0, 0, MAX_OFFSET, &mut errors);
    if !errors.is_empty() {
        return Err(Rejection::fields(30, errors));
    }
    if market.is_none() && (order_id.is_some() || client_order_id.is_some()) {
        return Err(Rejection::validation(
            31,
            "market",
            vec!["The market field is required.".to_owned()],
        ));
    }
    Ok(OpenOrdersQuery {
        market,
        order_id,
        client_order_id,
        limit: usize::try_from(limit).unwrap_or(usize::MAX),
        offset: usize::try_from(offset).unwrap_or(usize::MAX),
    })
}

/// `market`, code 31, with this endpoint's messages (companion-endpoints §1).
fn market(map: &Map<String, Value>, markets: &Markets) -> Result<Option<String>, Rejection> {
    let reject = |m: &str| Rejection::validation(31, "market", vec![m.to_owned()]);
    match present(map, "market") {
        None => Ok(None),
        Some(Value::String(name)) if name.is_empty() => {
            Err(reject("Market field should not be empty string."))
        }
        Some(Value::String(name)) if !market_name::is_well_formed(name) => {
            Err(reject("Market field format is invalid."))
        }
        // Verbatim, without the final period the order endpoints' message has.
        Some(Value::String(name)) if markets.get(name).is_none() => {
            Err(reject("Market is not available"))
        }
        Some(Value::String(name)) => Ok(Some(name.clone())),
        Some(_) => Err(reject("Market field should be a string.")),
    }
}

/// An integer field with a default and bounds; its problems go to `errors` with the docs'
/// messages (`The limit must be an integer.`, `… must be at least 1.`, `… may not be greater
/// than 100.`).
fn bounded(
    map: &Map<String, Value>,
    field: &str,
    default: i128,
    min: i128,
    max: i128,
    errors: &mut BTreeMap<String, Vec<String>>,
) -> i128 {
    let Some(value) = present(map, field) else {
        return default;
    };
    match integer(value) {
        None => push(errors, field, &format!("The {field} must be an integer.")),
        Some(n) if n < min => push(
            errors,
            field,
            &format!("The {field} must be at least {min}."),
        ),
        Some(n) if n > max => push(
            errors,
            field,
            &format!("The {field} may not be greater than {max}."),
        ),
        Some(n) => return n,
    }
    default
}

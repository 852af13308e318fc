//! The body of `POST /api/v4/order/cancel/bulk`: `orders`, 1 to 100 items, each `market` and
//! exactly one of `orderId` / `clientOrderId`.
//!
//! The request-level problems answer HTTP 422 code 30, as documented: `orders` missing or not
//! an array (`{"orders":["validation.required"]}`), or more than 100 items (`validation.between`;
//! the sandbox answers an empty array the same way, `minItems: 1`). Each item's problems are
//! answered inside the array, as documented, the other items processed all the same.

use serde_json::{Map, Value};

use super::market_rule::MarketRule;
use super::order_ref::OrderRef;
use super::values::{integer, present};
use crate::config::Markets;
use crate::wire::{BulkItemRecord, Rejection};

/// The most items a bulk cancel takes.
const MAX_ITEMS: usize = 100;

/// One item of a bulk cancel that passed its rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BulkCancelTarget {
    pub(crate) market: String,
    pub(crate) which: OrderRef,
}

/// One item of a bulk cancel: to cancel, or already answered by its rules.
#[derive(Debug, Clone)]
pub(crate) enum BulkItem {
    Cancel(BulkCancelTarget),
    Invalid(BulkItemRecord),
}

/// Checks a bulk cancel body: the items, each checked on its own.
impl MarketRule for Vec<BulkItem> {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let items = orders(map, MAX_ITEMS)?;
        Ok(items.iter().map(|item| parse_item(item, markets)).collect())
    }
}

/// A bulk body's `orders`: an array of 1 to `max` items; else 30, `validation.required` (missing
/// or not an array) or `validation.between` (the documented answers of the bulk cancel, which
/// the bulk of limit orders shares).
pub(super) fn orders(map: &Map<String, Value>, max: usize) -> Result<&Vec<Value>, Rejection> {
    let invalid = |message: &str| Rejection::validation(30, "orders", vec![message.to_owned()]);
    let Some(Value::Array(items)) = present(map, "orders") else {
        return Err(invalid("validation.required"));
    };
    if items.is_empty() || items.len() > max {
        return Err(invalid("validation.between"));
    }
    Ok(items)
}

/// One item's rules, in the docs' order: an object, a `market` that exists, exactly one id.
fn parse_item(item: &Value, markets: &Markets) -> BulkItem {
    let invalid = |field: &str, message: &str| {
        BulkItem::Invalid(BulkItemRecord::failed(
            30,
            "Validation failed",
            field,
            &[message],
        ))
    };
    let Value::Object(item) = item else {
        return invalid("request", "Invalid order format");
    };
    let market = match present(item, "market") {
        None => return invalid("market", "validation.required"),
        Some(Value::String(name)) if markets.get(name).is_some() => name.clone(),
        Some(_) => return invalid("market", "validation.market_not_exist"),
    };
    let order_id = present(item, "orderId");
    let client_order_id = present(item, "clientOrderId");
    let which = match (order_id, client_order_id) {
        (None, None) => return invalid("request", "validation.required"),
        (Some(_), Some(_)) => return invalid("request", "api.validation.order.chooseOneId"),
        (Some(id), None) => match integer(id).and_then(|n| u64::try_from(n).ok()) {
            Some(id) => OrderRef::Id(id),
            // Not documented: Laravel's key, as the documented ones are.
            None => return invalid("orderId", "validation.integer"),
        },
        (None, Some(Value::String(id))) if !id.is_empty() => OrderRef::ClientId(id.clone()),
        (None, Some(_)) => return invalid("clientOrderId", "validation.string"),
    };
    BulkItem::Cancel(BulkCancelTarget { market, which })
}

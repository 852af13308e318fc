//! The body of `POST /api/v4/order/collateral/bulk`: `orders`, 1 to 20 limit orders, and
//! `stopOnFail`.
//!
//! The collateral page gives no bound; the spot bulk page says "From 1 to 20 orders per
//! request": the sandbox takes 20. The request-level problems answer HTTP 422 code 30, worded
//! like the bulk cancel's documented ones: `orders` missing or not an array
//! (`validation.required`), empty or over 20 items (`validation.between`), `stopOnFail` not a
//! boolean. Each order is checked on its own by a limit order's rules
//! ([`super::parse_order`]); its refusal is answered in its place.

use serde_json::{Map, Value};

use super::cancel_bulk::orders;
use super::market_rule::MarketRule;
use super::order::{OrderKind, OrderRequest, boolean, parse_order};
use crate::config::Markets;
use crate::wire::Rejection;

/// The most orders a bulk request takes.
const MAX_ORDERS: usize = 20;

/// A bulk request whose envelope passed the rules: each order checked or refused, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BulkRequest {
    pub(crate) orders: Vec<Result<OrderRequest, Rejection>>,
    /// Stop at the first order that fails (the spec: "Only orders up to (but not including)
    /// the failed order are processed").
    pub(crate) stop_on_fail: bool,
}

/// Checks a bulk body: the envelope, then each order on its own.
impl MarketRule for BulkRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let items = orders(map, MAX_ORDERS)?;
        let stop_on_fail = boolean(map, "stopOnFail")?;
        let orders = items
            .iter()
            .map(|item| match item {
                Value::Object(order) => parse_order(order, OrderKind::Limit, markets),
                // The bulk cancel's documented message for an item that is not an object.
                _ => Err(Rejection::validation(
                    30,
                    "request",
                    vec!["Invalid order format".to_owned()],
                )),
            })
            .collect();
        Ok(BulkRequest {
            orders,
            stop_on_fail,
        })
    }
}

//! The body of `POST /api/v4/order/cancel` (companion-endpoints §3): `market` required and
//! exactly one of `orderId` / `clientOrderId`.
//!
//! Field problems answer together with code 30, in the docs' wording (`Market field is
//! required.`, `OrderId field is required.`, `OrderId field should be an integer.`, `Market
//! field should be a string.` with `Market field format is invalid.`); an unknown market is 31
//! `Market is not available.`. Both identifiers at once is a validation error whose message
//! the docs do not give.

use serde_json::{Map, Value};

use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::market_rule::MarketRule;
use super::order_ref::OrderRef;
use crate::config::Markets;
use crate::wire::Rejection;

/// A cancel request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CancelRequest {
    pub(crate) market: String,
    pub(crate) which: OrderRef,
}

/// Checks a cancel body.
impl MarketRule for CancelRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let mut fields = Fields::new(map, Wording::Field);
        // An empty string fails `required` as Laravel reads it.
        let market = fields.required_market();
        let order_id = fields.integer::<i128>("orderId");
        let client_order_id = fields.text("clientOrderId", Empty::Required);
        let which = match (order_id, client_order_id) {
            (None, None) => {
                fields.required("orderId");
                None
            }
            (Some(_), Some(_)) => {
                // Not documented: "Sending both identifiers, or neither, returns a validation
                // error."
                fields.push(
                    "orderId",
                    "Only one of orderId and clientOrderId may be sent.",
                );
                None
            }
            (Some(Some(id)), None) => Some(OrderRef::Id(u64::try_from(id).unwrap_or(u64::MAX))),
            (None, Some(Some(id))) => Some(OrderRef::ClientId(id)),
            _ => None,
        };
        fields.finish(30)?;
        let (market, which) = market_name::available(market, which, markets)?;
        Ok(CancelRequest { market, which })
    }
}

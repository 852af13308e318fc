//! The body of `POST /api/v4/orders` (companion-endpoints §1): `market`, `orderId`,
//! `clientOrderId`, `limit` (1–100, default 50), `offset` (0–4294967295, default 0).
//!
//! `market` problems answer code 31 first, with the endpoint's own (older docs') messages;
//! then every other field's problems together with code 30, as in the docs' example that
//! reports `limit` and `offset` at once. "Search across all markets is available only if
//! clientOrderId and orderId are not provided": an id without `market` is 31 `The market field
//! is required.`.

use serde_json::{Map, Value};

use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::market_rule::MarketRule;
use super::page::{Page, Paging};
use crate::config::Markets;
use crate::wire::{self, Rejection};

/// The filters of an open-orders request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpenOrdersQuery {
    pub(crate) market: Option<String>,
    pub(crate) order_id: Option<i128>,
    pub(crate) client_order_id: Option<String>,
    pub(crate) page: Page,
}

/// `limit` 1–100 (default 50), `offset` 0–4294967295.
const PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: 100,
    max_offset: Some(4_294_967_295),
};

/// Checks an open-orders body.
impl MarketRule for OpenOrdersQuery {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let market = market(map, markets)?;
        let mut fields = Fields::new(map, Wording::Laravel);
        // Not documented for this endpoint: Laravel's wording, as its other messages are.
        let order_id = fields.integer::<i128>("orderId").flatten();
        let client_order_id = fields.text("clientOrderId", Empty::Rejected).flatten();
        let page = Page::read(&mut fields, PAGING);
        fields.finish(30)?;
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
            page,
        })
    }
}

/// `market`, code 31, with this endpoint's messages (companion-endpoints §1); the conditional
/// orders use the same.
pub(super) fn market(
    map: &Map<String, Value>,
    markets: &Markets,
) -> Result<Option<String>, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let name = fields.text("market", Empty::Rejected);
    fields.finish(31)?;
    let Some(Some(name)) = name else {
        return Ok(None);
    };
    if !wire::is_market_name(&name) {
        return Err(market_name::rejection(market_name::FORMAT_INVALID));
    }
    if markets.get(&name).is_none() {
        // Verbatim, without the final period the order endpoints' message has.
        return Err(market_name::rejection("Market is not available"));
    }
    Ok(Some(name))
}

//! The body of `POST /api/v4/conditional-orders` (the spec's `getConditionalOrders`): `market`
//! (optional), `limit` (1–100, default 100), `offset` (0–4294967295, default 0).
//!
//! The spec names two codes: 31 "market validation failed (the `market` filter is unknown or
//! not available for collateral trading)", and 30 for invalid pagination. Their messages are
//! not given: the sandbox answers `market` with the open orders' (older docs') messages and the
//! page with Laravel's, as on `POST /api/v4/orders`.

use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::market_rule::MarketRule;
use super::open_orders::market;
use super::page::{Page, Paging};
use crate::config::Markets;
use crate::wire::Rejection;

/// The filters of a conditional-orders request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConditionalQuery {
    pub(crate) market: Option<String>,
    pub(crate) page: Page,
}

/// `limit` 1–100 (default 100), `offset` 0–4294967295.
const PAGING: Paging = Paging {
    default_limit: 100,
    max_limit: 100,
    max_offset: Some(4_294_967_295),
};

/// Checks a conditional-orders body: `market` first (31), then the page (30).
impl MarketRule for ConditionalQuery {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let market = market(map, markets)?;
        let mut fields = Fields::new(map, Wording::Laravel);
        let page = Page::read(&mut fields, PAGING);
        fields.finish(30)?;
        Ok(ConditionalQuery { market, page })
    }
}

//! The body of `POST /api/v4/conditional-orders` (the spec's `getConditionalOrders`): `market`
//! (optional), `limit` (1–100, default 100), `offset` (0–4294967295, default 0).
//!
//! The spec names two codes: 31 "market validation failed (the `market` filter is unknown or
//! not available for collateral trading)", and 30 for invalid pagination. Their messages are
//! not given: the sandbox answers `market` with the open orders' (older docs') messages and the
//! page with Laravel's, as on `POST /api/v4/orders`.

use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::open_orders::market;
use crate::answer::Rejection;
use crate::state::Markets;

/// The filters of a conditional-orders request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConditionalQuery {
    pub(crate) market: Option<String>,
    pub(crate) limit: usize,
    pub(crate) offset: usize,
}

/// The most `limit` allows.
const MAX_LIMIT: i128 = 100;
/// The most `offset` allows.
const MAX_OFFSET: i128 = 4_294_967_295;

/// Checks a conditional-orders body: `market` first (31), then the page (30).
pub(crate) fn parse_conditional_orders(
    map: &Map<String, Value>,
    markets: &Markets,
) -> Result<ConditionalQuery, Rejection> {
    let market = market(map, markets)?;
    let mut fields = Fields::new(map, Wording::Laravel);
    let limit = fields.bounded("limit", 100, 1, Some(MAX_LIMIT));
    let offset = fields.bounded("offset", 0, 0, Some(MAX_OFFSET));
    fields.finish(30)?;
    Ok(ConditionalQuery {
        market,
        limit: usize::try_from(limit).unwrap_or(usize::MAX),
        offset: usize::try_from(offset).unwrap_or(usize::MAX),
    })
}

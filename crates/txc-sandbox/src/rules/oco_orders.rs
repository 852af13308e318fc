//! The body of `POST /api/v4/oco-orders`: `market` (optional), `limit` (1–100, default 50),
//! `offset` (0–4294967295, default 0). As for the conditional orders: `market` problems first
//! (31, the open orders' messages), then the page (30, Laravel's messages).

use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::market_rule::MarketRule;
use super::open_orders::market;
use super::page::{Page, Paging};
use crate::config::Markets;
use crate::wire::Rejection;

/// The filters of an OCO listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OcoOrdersQuery {
    pub(crate) market: Option<String>,
    pub(crate) page: Page,
}

/// `limit` 1–100 (default 50), `offset` 0–4294967295.
const PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: 100,
    max_offset: Some(4_294_967_295),
};

impl MarketRule for OcoOrdersQuery {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let market = market(map, markets)?;
        let mut fields = Fields::new(map, Wording::Laravel);
        let page = Page::read(&mut fields, PAGING);
        fields.finish(30)?;
        Ok(OcoOrdersQuery { market, page })
    }
}

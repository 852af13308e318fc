//! `POST /api/v4/oco-orders`: the account's active OCO pairs.

use txc_derive::Request;

use super::OcoOrder;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::Market;

/// Lists the account's active (unexecuted) OCO pairs ([`OcoOrder`]), of one market or all, a
/// page at a time: 1 to 100 pairs a page (default 50). There is no total: the last page is the
/// one with fewer pairs than the limit (an empty page is past the end).
///
/// A pair's `clientOrderId` is on its legs; resolving a lost OCO answer reads these pages.
/// An unknown market is refused with code 31.
///
/// ```
/// use txc_types::orders::OcoOrdersQuery;
/// let page = OcoOrdersQuery::builder().market("BTC_USDT").limit(100).build()?;
/// assert_eq!(serde_json::to_string(&page).unwrap(), r#"{"market":"BTC_USDT","limit":100}"#);
/// assert_eq!(OcoOrdersQuery::builder().limit(0).build().unwrap_err().field(), "limit");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/oco-orders",
    operation = "oco_orders",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<OcoOrder>,
    builder = OcoOrdersQueryBuilder,
)]
pub struct OcoOrdersQuery {
    /// The market filter: only pairs of this market.
    #[request(set, text)]
    market: Option<Market>,
    #[request(page)]
    page: Page<{ OcoOrdersQuery::MAX_LIMIT }, { OcoOrdersQuery::MAX_OFFSET }>,
}

impl OcoOrdersQuery {
    /// The most pairs a page may hold.
    pub const MAX_LIMIT: u64 = 100;
    /// The largest offset the exchange accepts.
    pub const MAX_OFFSET: u64 = 4_294_967_295;

    /// The first page (50 pairs) of every market's OCO pairs.
    pub fn new() -> Self {
        Self::default()
    }

    /// The page of `market`'s pairs starting at `offset`, [`Self::MAX_LIMIT`] pairs long (an
    /// offset beyond [`Self::MAX_OFFSET`] is sent as that).
    pub fn page(market: Market, offset: u64) -> Self {
        Self {
            market: Some(market),
            page: Page::full_at(offset),
        }
    }
}

impl Paged for OcoOrdersQuery {
    type Record = OcoOrder;
    /// The pair's id.
    type Key = u64;
    const DEFAULT_LIMIT: Option<u64> = Some(50);

    fn tally(answer: &Vec<OcoOrder>) -> Tally {
        Tally::of(answer.len())
    }

    fn records(&self, answer: Vec<OcoOrder>) -> Vec<OcoOrder> {
        answer
    }

    fn key(record: &OcoOrder) -> u64 {
        record.id
    }
}

//! `POST /api/v4/trade-account/order`: the deals (fills) of one order.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::ExecutedDeal;
use crate::errors::{Reason, ValidationError};
use crate::page::Page;
use crate::paging::{Paged, Tally};

/// Lists the deals of one order by its `orderId` ([`ExecutedDeal`]s with the counterparty's
/// order, maker or taker, the fee), a page at a time.
///
/// **Collateral markets:** the spec files this endpoint under spot trading and does not say
/// whether it covers the orders of margin and futures (collateral) markets — unlike its
/// sibling [`ExecutedHistoryQuery`](super::ExecutedHistoryQuery), which says it covers every
/// trading type. An `orderId` that is unknown or not the account's is not an error: the
/// answer is an empty page (HTTP 200), as it is for an order older than six months (from the
/// start of the current month). So an empty answer does not prove that an order had no
/// fills; the executed history filtered by the order's market is the sure way.
///
/// Pages hold from 1 deal (default 50; the spec gives no maximum) from `offset` (default 0).
/// There is no `total`: a page with fewer deals than the limit is the last ([`Paged`]). The
/// spec gives no order of the deals.
///
/// ```
/// use txc_types::lookups::OrderDealsQuery;
/// let q = OrderDealsQuery::builder().order_id(3134995325).limit(50).offset(0).build()?;
/// assert_eq!(
///     serde_json::to_string(&q).unwrap(),
///     r#"{"orderId":3134995325,"limit":50,"offset":0}"#
/// );
/// assert_eq!(serde_json::to_string(&OrderDealsQuery::new(7)).unwrap(), r#"{"orderId":7}"#);
/// assert_eq!(OrderDealsQuery::builder().build().unwrap_err().field(), "orderId");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/trade-account/order",
    operation = "order_deals",
    kind = Read,
    rate_limit = (12_000, 10),
    response = OrderDeals,
    builder = OrderDealsQueryBuilder,
    check = Self::has_an_order,
)]
pub struct OrderDealsQuery {
    /// The order whose deals to list (required; order ids are positive).
    #[request(get = copy, set)]
    order_id: u64,
    #[request(page)]
    page: Page<{ u64::MAX }, { u64::MAX }>,
}

impl OrderDealsQuery {
    /// The deals of the order `order_id` (the exchange's first page, 50 deals).
    pub fn new(order_id: u64) -> Self {
        Self {
            order_id,
            ..Self::default()
        }
    }

    /// An `orderId` was given: order ids are positive.
    fn has_an_order(&self) -> Result<(), ValidationError> {
        if self.order_id == 0 {
            return Err(ValidationError::invalid("orderId", Reason::NotPositive));
        }
        Ok(())
    }
}

impl Paged for OrderDealsQuery {
    type Record = ExecutedDeal;
    /// The deal's id.
    type Key = u64;
    const DEFAULT_LIMIT: Option<u64> = Some(50);

    fn tally(answer: &OrderDeals) -> Tally {
        Tally::of(answer.records.len())
    }

    fn records(&self, answer: OrderDeals) -> Vec<ExecutedDeal> {
        answer.records
    }

    fn key(record: &ExecutedDeal) -> u64 {
        record.id
    }
}

/// A page of an order's deals: `{"records","offset","limit"}`, read completely or not at all
/// (a record that does not decode fails the page).
///
/// ```
/// let page: txc_types::lookups::OrderDeals =
///     serde_json::from_str(r#"{"records":[],"offset":0,"limit":50}"#)?;
/// assert!(page.records.is_empty());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a page of deals")]
#[non_exhaustive]
pub struct OrderDeals {
    /// The deals.
    #[answer(with = "crate::lenient::array")]
    pub records: Vec<ExecutedDeal>,
    /// The page's offset, as the exchange echoes it.
    pub offset: Option<u64>,
    /// The page's limit, as the exchange echoes it.
    pub limit: Option<u64>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

//! `POST /api/v4/conditional-orders`: the account's active conditional orders — OTO groups
//! (an order with a stop-loss or take-profit) and OCO pairs.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::ConditionalOrder;
use crate::page::Page;
use crate::paging::{LastPage, Paged, Tally};
use crate::values::Market;

/// Lists the account's active conditional orders, of one market or all, a page at a time;
/// the page that reaches the answer's `total` is the last ([`Paged`]).
///
/// The exchange has no `clientOrderId` filter here: finding an order means reading every page
/// (the answer's [`ConditionalOrders::total`] says how many records there are). Pages hold 1
/// to 100 records (default 100). An unknown market is refused with code 31.
///
/// ```
/// use txc_types::lookups::ConditionalOrdersQuery;
/// let page = ConditionalOrdersQuery::builder().market("BTC_USDT").offset(100).build()?;
/// assert_eq!(serde_json::to_string(&page).unwrap(), r#"{"market":"BTC_USDT","offset":100}"#);
/// assert!(ConditionalOrdersQuery::builder().limit(101).build().is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/conditional-orders",
    operation = "conditional_orders",
    kind = Read,
    rate_limit = (12_000, 10),
    response = ConditionalOrders,
    builder = ConditionalOrdersQueryBuilder,
)]
pub struct ConditionalOrdersQuery {
    /// The market filter: only records of this market.
    #[request(set, text)]
    market: Option<Market>,
    #[request(page)]
    page: Page<{ ConditionalOrdersQuery::MAX_LIMIT }, { ConditionalOrdersQuery::MAX_OFFSET }>,
}

impl ConditionalOrdersQuery {
    /// The most records a page may hold.
    pub const MAX_LIMIT: u64 = 100;
    /// The largest offset the exchange accepts.
    pub const MAX_OFFSET: u64 = 4_294_967_295;

    /// The first page (100 records) of every market's conditional orders.
    pub fn new() -> Self {
        Self::default()
    }

    /// The page of `market`'s records starting at `offset`, [`Self::MAX_LIMIT`] records long
    /// (an offset beyond [`Self::MAX_OFFSET`] is sent as that).
    pub fn page(market: Market, offset: u64) -> Self {
        Self {
            market: Some(market),
            page: Page::full_at(offset),
        }
    }
}

impl Paged for ConditionalOrdersQuery {
    type Record = ConditionalOrder;
    /// `oto:` or `oco:` and the group's id; a record of another type is its JSON text.
    type Key = String;
    const DEFAULT_LIMIT: Option<u64> = Some(100);
    const LAST_PAGE: LastPage = LastPage::Total;

    fn tally(answer: &ConditionalOrders) -> Tally {
        Tally::with_total(answer.records.len(), answer.total)
    }

    fn records(&self, answer: ConditionalOrders) -> Vec<ConditionalOrder> {
        answer.records
    }

    fn key(record: &ConditionalOrder) -> String {
        match record {
            ConditionalOrder::Oto(group) => format!("oto:{}", group.id),
            ConditionalOrder::Oco(group) => format!("oco:{}", group.id),
            ConditionalOrder::Other(fields) => Value::Object(fields.clone()).to_string(),
        }
    }
}

/// A page of the conditional orders list.
///
/// ```
/// let page: txc_types::lookups::ConditionalOrders =
///     serde_json::from_str(r#"{"limit":100,"offset":0,"total":0,"records":[]}"#)?;
/// assert_eq!((page.total, page.records.len()), (Some(0), 0));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a conditional orders page")]
#[non_exhaustive]
pub struct ConditionalOrders {
    /// The page size the exchange used.
    pub limit: Option<u64>,
    /// How many records it skipped.
    pub offset: Option<u64>,
    /// How many records the list holds in all.
    pub total: Option<u64>,
    /// This page's records.
    #[answer(with = "records")]
    pub records: Vec<ConditionalOrder>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Stores the `records` array, each record decoded on its own ([`ConditionalOrder`]); PHP's
/// `{}` for an empty array is an empty list, and anything else that is not an array is kept.
fn records<'de, A: serde::de::MapAccess<'de>>(
    slot: &mut Option<Vec<ConditionalOrder>>,
    field: crate::lenient::Field<'_, 'de, A>,
) -> Result<crate::lenient::Set, A::Error> {
    use crate::lenient::Set;
    let Some(raw) = field.raw_text()? else {
        *slot = Some(Vec::new());
        return Ok(Set::Taken);
    };
    if let Ok(list) = serde_json::from_str::<Vec<ConditionalOrder>>(raw) {
        *slot = Some(list);
        return Ok(Set::Taken);
    }
    let value: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
    if value.as_object().is_some_and(Map::is_empty) {
        *slot = Some(Vec::new());
        return Ok(Set::Taken);
    }
    Ok(Set::Keep(value))
}

impl<'a> IntoIterator for &'a ConditionalOrders {
    type Item = &'a ConditionalOrder;
    type IntoIter = std::slice::Iter<'a, ConditionalOrder>;
    fn into_iter(self) -> Self::IntoIter {
        self.records.iter()
    }
}

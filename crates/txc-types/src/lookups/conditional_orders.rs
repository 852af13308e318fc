//! `POST /api/v4/conditional-orders`: the account's active conditional orders — OTO groups
//! (an order with a stop-loss or take-profit) and OCO pairs.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::Answer;

use super::ConditionalOrder;
use super::lookup::in_range;
use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::errors::ValidationError;
use crate::values::Market;

/// Lists the account's active conditional orders, of one market or all, a page at a time.
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConditionalOrdersQuery {
    market: Option<Market>,
    limit: Option<u64>,
    offset: Option<u64>,
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

    /// Starts a query with filters.
    pub fn builder() -> ConditionalOrdersQueryBuilder {
        ConditionalOrdersQueryBuilder {
            state: Ok(Self::default()),
        }
    }

    /// The page of `market`'s records starting at `offset`, [`Self::MAX_LIMIT`] records long
    /// (an offset beyond [`Self::MAX_OFFSET`] is sent as that).
    pub fn page(market: Market, offset: u64) -> Self {
        Self {
            market: Some(market),
            limit: Some(Self::MAX_LIMIT),
            offset: Some(offset.min(Self::MAX_OFFSET)),
        }
    }

    /// The market filter, if any.
    pub fn market(&self) -> Option<&Market> {
        self.market.as_ref()
    }

    /// The page size, if set (the exchange's default is 100).
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// The page offset, if set.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }
}

/// Builds a [`ConditionalOrdersQuery`]: each setter checks its value, and the first invalid
/// one is reported by [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct ConditionalOrdersQueryBuilder {
    state: Result<ConditionalOrdersQuery, ValidationError>,
}

impl ConditionalOrdersQueryBuilder {
    fn set(
        mut self,
        apply: impl FnOnce(&mut ConditionalOrdersQuery) -> Result<(), ValidationError>,
    ) -> Self {
        if let Ok(q) = &mut self.state
            && let Err(e) = apply(q)
        {
            self.state = Err(e);
        }
        self
    }

    /// Only records of `market`.
    pub fn market(self, market: impl FieldValue<Market>) -> Self {
        self.set(|q| {
            q.market = Some(market.into_field("market")?);
            Ok(())
        })
    }

    /// At most `limit` records, from 1 to 100 (default 100).
    pub fn limit(self, limit: u64) -> Self {
        self.set(|q| {
            q.limit = Some(in_range(
                "limit",
                limit,
                1,
                ConditionalOrdersQuery::MAX_LIMIT,
            )?);
            Ok(())
        })
    }

    /// Skip the first `offset` records (default 0).
    pub fn offset(self, offset: u64) -> Self {
        self.set(|q| {
            q.offset = Some(in_range(
                "offset",
                offset,
                0,
                ConditionalOrdersQuery::MAX_OFFSET,
            )?);
            Ok(())
        })
    }

    /// Returns the query, or the first invalid value.
    pub fn build(self) -> Result<ConditionalOrdersQuery, ValidationError> {
        self.state
    }
}

impl Endpoint for ConditionalOrdersQuery {
    const PATH: &'static str = "/api/v4/conditional-orders";
    const OPERATION: &'static str = "conditional_orders";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(12_000, 10));
    type Response = ConditionalOrders;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(m) = &self.market {
            visit("market", WireValue::Str(m.as_str()))?;
        }
        for (name, value) in [("limit", self.limit), ("offset", self.offset)] {
            if let Some(n) = value {
                visit(name, WireValue::Int(n))?;
            }
        }
        Ok(())
    }
}

impl Serialize for ConditionalOrdersQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
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
#[derive(Debug, Clone, PartialEq, Serialize, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a conditional orders page")]
#[non_exhaustive]
pub struct ConditionalOrders {
    /// The page size the exchange used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// How many records it skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// How many records the list holds in all.
    #[serde(skip_serializing_if = "Option::is_none")]
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

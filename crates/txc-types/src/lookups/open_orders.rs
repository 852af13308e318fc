//! `POST /api/v4/orders`: the account's unexecuted (open) orders, trigger orders included.

use serde::{Serialize, Serializer};

use super::lookup::{Lookup, LookupQuery, QueryBuilder, lookup_builder};
use crate::endpoint::{Endpoint, EndpointKind, RateLimit, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::orders::Order;
use crate::values::{ClientOrderId, Market};

/// Lists open orders — limit, stop-limit and resting trigger (stop-market) orders — or looks
/// one up by `orderId` or `clientOrderId` (exact match).
///
/// The exchange searches every market only when no id is given, so a look-up by id needs a
/// market; [`OpenOrdersQueryBuilder::build`] refuses one without. Pages hold 1 to 100 orders
/// (default 50); there is no total: the last page is the one with fewer than `limit` orders.
///
/// ```
/// use txc_types::lookups::OpenOrdersQuery;
/// let mine = OpenOrdersQuery::builder()
///     .market("BTC_USDT")
///     .client_order_id("order-42")
///     .build()?;
/// assert_eq!(serde_json::to_string(&mine).unwrap(), r#"{"market":"BTC_USDT","clientOrderId":"order-42"}"#);
/// let err = OpenOrdersQuery::builder().order_id(7).build().unwrap_err();
/// assert_eq!(err.field(), "orderId");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenOrdersQuery {
    lookup: Lookup,
}

lookup_builder! {
    /// Builds an [`OpenOrdersQuery`]: each setter checks its value, and the first invalid one is
    /// reported by [`build`](Self::build), naming its wire field.
    OpenOrdersQueryBuilder => OpenOrdersQuery, max limit 100
}

impl OpenOrdersQuery {
    /// Every open order of every market (first page, 50 orders).
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query with filters.
    pub fn builder() -> OpenOrdersQueryBuilder {
        OpenOrdersQueryBuilder(QueryBuilder::new())
    }

    /// The open order of `market` whose `clientOrderId` is `id`, if there is one.
    pub fn by_client_order_id(market: Market, id: ClientOrderId) -> Self {
        Self {
            lookup: Lookup::by_client_order_id(market, id),
        }
    }

    /// The market, id and page filters.
    pub fn filters(&self) -> &Lookup {
        &self.lookup
    }
}

impl LookupQuery for OpenOrdersQuery {
    const MAX_LIMIT: u64 = 100;
    const MAX_OFFSET: u64 = 4_294_967_295;

    fn lookup_mut(&mut self) -> &mut Lookup {
        &mut self.lookup
    }

    /// The exchange searches every market only when no id is given: an id needs a market.
    fn check(&self) -> Result<(), ValidationError> {
        let l = &self.lookup;
        if l.market.is_none() {
            for (set, field) in [
                (l.order_id.is_some(), "orderId"),
                (l.client_order_id.is_some(), "clientOrderId"),
            ] {
                if set {
                    return Err(ValidationError::invalid(field, Reason::Requires("market")));
                }
            }
        }
        Ok(())
    }
}

impl Endpoint for OpenOrdersQuery {
    const PATH: &'static str = "/api/v4/orders";
    const OPERATION: &'static str = "open_orders";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(12_000, 10));
    type Response = Vec<Order>;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.lookup.visit_filters(&mut visit)?;
        self.lookup.visit_page(&mut visit)
    }
}

impl Serialize for OpenOrdersQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

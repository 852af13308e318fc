//! `POST /api/v4/orders`: the account's unexecuted (open) orders, trigger orders included.

use serde::{Serialize, Serializer};

use crate::{
    ClientOrderId, Endpoint, EndpointKind, FieldValue, Market, Order, Reason, ValidationError,
    WireValue,
};

/// Lists open orders — limit, stop-limit and resting trigger (stop-market) orders — or looks
/// one up by `orderId` or `clientOrderId` (exact match).
///
/// The exchange searches every market only when no id is given, so a look-up by id needs a
/// market; [`OpenOrdersQueryBuilder::build`] refuses one without. Pages hold 1 to 100 orders
/// (default 50); there is no total: the last page is the one with fewer than `limit` orders.
///
/// ```
/// use txc_types::OpenOrdersQuery;
/// let mine = OpenOrdersQuery::builder()
///     .market("BTC_USDT")
///     .client_order_id("order-42")
///     .build()?;
/// assert_eq!(serde_json::to_string(&mine).unwrap(), r#"{"market":"BTC_USDT","clientOrderId":"order-42"}"#);
/// let err = OpenOrdersQuery::builder().order_id(7).build().unwrap_err();
/// assert_eq!(err.field(), "orderId");
/// # Ok::<(), txc_types::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenOrdersQuery {
    market: Option<Market>,
    order_id: Option<u64>,
    client_order_id: Option<ClientOrderId>,
    limit: Option<u64>,
    offset: Option<u64>,
}

impl OpenOrdersQuery {
    /// The most orders a page may hold.
    pub const MAX_LIMIT: u64 = 100;
    /// The largest offset the exchange accepts.
    pub const MAX_OFFSET: u64 = 4_294_967_295;

    /// Every open order of every market (first page, 50 orders).
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query with filters.
    pub fn builder() -> OpenOrdersQueryBuilder {
        OpenOrdersQueryBuilder {
            state: Ok(Self::default()),
        }
    }

    /// The open order of `market` whose `clientOrderId` is `id`, if there is one.
    pub fn by_client_order_id(market: Market, id: ClientOrderId) -> Self {
        Self {
            market: Some(market),
            client_order_id: Some(id),
            ..Self::default()
        }
    }

    /// The market filter, if any.
    pub fn market(&self) -> Option<&Market> {
        self.market.as_ref()
    }

    /// The order id filter, if any.
    pub fn order_id(&self) -> Option<u64> {
        self.order_id
    }

    /// The client order id filter, if any.
    pub fn client_order_id(&self) -> Option<&ClientOrderId> {
        self.client_order_id.as_ref()
    }
}

/// Builds an [`OpenOrdersQuery`]; the first invalid value is reported by `build`.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct OpenOrdersQueryBuilder {
    state: Result<OpenOrdersQuery, ValidationError>,
}

impl OpenOrdersQueryBuilder {
    fn set(
        mut self,
        apply: impl FnOnce(&mut OpenOrdersQuery) -> Result<(), ValidationError>,
    ) -> Self {
        if let Ok(q) = &mut self.state
            && let Err(e) = apply(q)
        {
            self.state = Err(e);
        }
        self
    }

    /// Only orders of `market`.
    pub fn market(self, market: impl FieldValue<Market>) -> Self {
        self.set(|q| {
            q.market = Some(market.into_field("market")?);
            Ok(())
        })
    }

    /// Only the order with this id (needs a market).
    pub fn order_id(self, id: u64) -> Self {
        self.set(|q| {
            q.order_id = Some(id);
            Ok(())
        })
    }

    /// Only the order with this client order id (needs a market).
    pub fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self {
        self.set(|q| {
            q.client_order_id = Some(id.into_field("clientOrderId")?);
            Ok(())
        })
    }

    /// At most `limit` orders, 1 to 100 (default 50).
    pub fn limit(self, limit: u64) -> Self {
        self.set(|q| {
            q.limit = Some(in_range("limit", limit, 1, OpenOrdersQuery::MAX_LIMIT)?);
            Ok(())
        })
    }

    /// Skip the first `offset` orders (default 0).
    pub fn offset(self, offset: u64) -> Self {
        self.set(|q| {
            q.offset = Some(in_range("offset", offset, 0, OpenOrdersQuery::MAX_OFFSET)?);
            Ok(())
        })
    }

    /// Returns the query, or the first invalid value.
    pub fn build(self) -> Result<OpenOrdersQuery, ValidationError> {
        let q = self.state?;
        if q.market.is_none() {
            for (set, field) in [
                (q.order_id.is_some(), "orderId"),
                (q.client_order_id.is_some(), "clientOrderId"),
            ] {
                if set {
                    return Err(ValidationError::invalid(field, Reason::Requires("market")));
                }
            }
        }
        Ok(q)
    }
}

/// `value` if it is within `min..=max`, else an error naming `field`.
pub(crate) fn in_range(
    field: &'static str,
    value: u64,
    min: u64,
    max: u64,
) -> Result<u64, ValidationError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(ValidationError::invalid(
            field,
            Reason::OutOfRange { min, max },
        ))
    }
}

impl Endpoint for OpenOrdersQuery {
    const PATH: &'static str = "/api/v4/orders";
    const OPERATION: &'static str = "open_orders";
    const KIND: EndpointKind = EndpointKind::Read;
    type Response = Vec<Order>;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(m) = &self.market {
            visit("market", WireValue::Str(m.as_str()))?;
        }
        if let Some(id) = self.order_id {
            visit("orderId", WireValue::Int(id))?;
        }
        if let Some(id) = &self.client_order_id {
            visit("clientOrderId", WireValue::Str(id.as_str()))?;
        }
        if let Some(n) = self.limit {
            visit("limit", WireValue::Int(n))?;
        }
        if let Some(n) = self.offset {
            visit("offset", WireValue::Int(n))?;
        }
        Ok(())
    }
}

impl Serialize for OpenOrdersQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::wire_value::serialize_fields(self, s)
    }
}

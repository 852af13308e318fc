//! What the two order look-ups share: the filters by market and id, the page, and one builder.
//!
//! Not an endpoint: see [`crate::OpenOrdersQuery`] and [`crate::OrderHistoryQuery`].

use crate::{ClientOrderId, FieldValue, Market, Reason, ValidationError, WireValue};

/// The market, id and page filters of a look-up, as a [`QueryBuilder`] sets them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lookup {
    pub(crate) market: Option<Market>,
    pub(crate) order_id: Option<u64>,
    pub(crate) client_order_id: Option<ClientOrderId>,
    pub(crate) limit: Option<u64>,
    pub(crate) offset: Option<u64>,
}

impl Lookup {
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

    /// The page size, if set.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// The page offset, if set.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// The look-up of one order of `market` by its `clientOrderId`.
    pub(crate) fn by_client_order_id(market: Market, id: ClientOrderId) -> Self {
        Self {
            market: Some(market),
            client_order_id: Some(id),
            ..Self::default()
        }
    }

    /// Visits `market`, `orderId`, `clientOrderId`, in wire order.
    pub(crate) fn visit_filters<E>(
        &self,
        visit: &mut impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
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
        Ok(())
    }

    /// Visits `limit`, `offset`, in wire order.
    pub(crate) fn visit_page<E>(
        &self,
        visit: &mut impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        for (name, value) in [("limit", self.limit), ("offset", self.offset)] {
            if let Some(n) = value {
                visit(name, WireValue::Int(n))?;
            }
        }
        Ok(())
    }
}

/// A look-up [`QueryBuilder`] builds: [`crate::OpenOrdersQuery`] or
/// [`crate::OrderHistoryQuery`] (sealed).
pub trait LookupQuery: crate::sealed::Sealed + Default {
    /// The most orders a page may hold.
    const MAX_LIMIT: u64;
    /// The largest offset the exchange accepts.
    const MAX_OFFSET: u64;
    /// The market, id and page filters.
    fn lookup(&self) -> &Lookup;
    /// The filters, for the builder.
    fn lookup_mut(&mut self) -> &mut Lookup;
    /// The query's own rules beyond each value's, checked by [`QueryBuilder::build`].
    fn check(&self) -> Result<(), ValidationError>;
}

/// Builds a look-up ([`crate::OpenOrdersQueryBuilder`], [`crate::OrderHistoryQueryBuilder`]):
/// each setter checks its value, and the first invalid one is reported by
/// [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct QueryBuilder<Q> {
    state: Result<Q, ValidationError>,
}

impl<Q: LookupQuery> QueryBuilder<Q> {
    pub(crate) fn new() -> Self {
        Self {
            state: Ok(Q::default()),
        }
    }

    /// Applies `apply` unless a value was already refused.
    pub(crate) fn set(mut self, apply: impl FnOnce(&mut Q) -> Result<(), ValidationError>) -> Self {
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
            q.lookup_mut().market = Some(market.into_field("market")?);
            Ok(())
        })
    }

    /// Only the order with this id.
    pub fn order_id(self, id: u64) -> Self {
        self.set(|q| {
            q.lookup_mut().order_id = Some(id);
            Ok(())
        })
    }

    /// Only the order with this client order id (exact match).
    pub fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self {
        self.set(|q| {
            q.lookup_mut().client_order_id = Some(id.into_field("clientOrderId")?);
            Ok(())
        })
    }

    /// At most `limit` orders, from 1 to the query's `MAX_LIMIT` (default 50).
    pub fn limit(self, limit: u64) -> Self {
        self.set(|q| {
            q.lookup_mut().limit = Some(in_range("limit", limit, 1, Q::MAX_LIMIT)?);
            Ok(())
        })
    }

    /// Skip the first `offset` orders (default 0).
    pub fn offset(self, offset: u64) -> Self {
        self.set(|q| {
            q.lookup_mut().offset = Some(in_range("offset", offset, 0, Q::MAX_OFFSET)?);
            Ok(())
        })
    }

    /// Returns the query, or the first invalid value or combination.
    pub fn build(self) -> Result<Q, ValidationError> {
        let q = self.state?;
        q.check()?;
        Ok(q)
    }
}

/// `value` if it is within `min..=max`, else an error naming `field`.
fn in_range(field: &'static str, value: u64, min: u64, max: u64) -> Result<u64, ValidationError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(ValidationError::invalid(
            field,
            Reason::OutOfRange { min, max },
        ))
    }
}

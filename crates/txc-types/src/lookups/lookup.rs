//! What the two order look-ups share: the filters by market and id, the page, and one builder.
//!
//! Not an endpoint: see [`OpenOrdersQuery`](super::OpenOrdersQuery) and
//! [`OrderHistoryQuery`](super::OrderHistoryQuery).
//!
//! Each query has its own builder type ([`OpenOrdersQueryBuilder`](super::OpenOrdersQueryBuilder),
//! [`OrderHistoryQueryBuilder`](super::OrderHistoryQueryBuilder)) wrapping one generic
//! [`QueryBuilder`] that holds the setters' code; [`lookup_builder!`] writes the wrappers'
//! one-line forwarding methods, so each builder's page lists its own methods and nothing is
//! written twice. [`LookupBuilder`] lets code apply the same filters to either.

use crate::endpoint::{FieldValue, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::values::{ClientOrderId, Market};

/// The market, id and page filters of a look-up, as its builder sets them.
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

/// A look-up query: its page bounds, its filters and its own rules.
pub(crate) trait LookupQuery: Default {
    /// The most orders a page may hold.
    const MAX_LIMIT: u64;
    /// The largest offset the exchange accepts.
    const MAX_OFFSET: u64;
    /// The filters, for the builder.
    fn lookup_mut(&mut self) -> &mut Lookup;
    /// The query's own rules beyond each value's, checked by [`QueryBuilder::build`].
    fn check(&self) -> Result<(), ValidationError>;
}

/// The code of both look-up builders: each setter checks its value, and the first invalid one
/// is reported by [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
pub(crate) struct QueryBuilder<Q> {
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

    pub(crate) fn market(self, market: impl FieldValue<Market>) -> Self {
        self.set(|q| {
            q.lookup_mut().market = Some(market.into_field("market")?);
            Ok(())
        })
    }

    pub(crate) fn order_id(self, id: u64) -> Self {
        self.set(|q| {
            q.lookup_mut().order_id = Some(id);
            Ok(())
        })
    }

    pub(crate) fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self {
        self.set(|q| {
            q.lookup_mut().client_order_id = Some(id.into_field("clientOrderId")?);
            Ok(())
        })
    }

    pub(crate) fn limit(self, limit: u64) -> Self {
        self.set(|q| {
            q.lookup_mut().limit = Some(in_range("limit", limit, 1, Q::MAX_LIMIT)?);
            Ok(())
        })
    }

    pub(crate) fn offset(self, offset: u64) -> Self {
        self.set(|q| {
            q.lookup_mut().offset = Some(in_range("offset", offset, 0, Q::MAX_OFFSET)?);
            Ok(())
        })
    }

    pub(crate) fn build(self) -> Result<Q, ValidationError> {
        let q = self.state?;
        q.check()?;
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

/// The filters both look-up builders take, for code that applies them to either
/// ([`OpenOrdersQueryBuilder`](super::OpenOrdersQueryBuilder) or
/// [`OrderHistoryQueryBuilder`](super::OrderHistoryQueryBuilder); sealed). Each builder has the
/// same methods of its own, so calling them needs no import of this trait.
///
/// ```
/// use txc_types::lookups::{LookupBuilder, OpenOrdersQuery, OrderHistoryQuery};
///
/// fn mine<B: LookupBuilder>(builder: B) -> Result<B::Query, txc_types::errors::ValidationError> {
///     builder.market("BTC_USDT").client_order_id("order-42").limit(10).build()
/// }
/// let open = mine(OpenOrdersQuery::builder())?;
/// let finished = mine(OrderHistoryQuery::builder())?;
/// assert_eq!(open.filters(), finished.filters());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
pub trait LookupBuilder: crate::sealed::Sealed + Sized {
    /// The query it builds.
    type Query;
    /// Only orders of `market`.
    fn market(self, market: impl FieldValue<Market>) -> Self;
    /// Only the order with this id.
    fn order_id(self, id: u64) -> Self;
    /// Only the order with this client order id (exact match).
    fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self;
    /// At most `limit` orders per page.
    fn limit(self, limit: u64) -> Self;
    /// Skip the first `offset` orders.
    fn offset(self, offset: u64) -> Self;
    /// Returns the query, or the first invalid value or combination.
    fn build(self) -> Result<Self::Query, ValidationError>;
}

/// Defines the builder `$name` of the look-up `$query` — a wrapper of [`QueryBuilder`] — with
/// the filters as its own methods and as [`LookupBuilder`]'s. Forwarding is all it writes: a
/// type's page shows only its inherent methods as its own, and inherent methods cannot come
/// from a generic impl, so the alternative is the same six methods written out per builder.
macro_rules! lookup_builder {
    ($(#[$doc:meta])* $name:ident => $query:ty, max limit $max:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        #[must_use = "call .build() to get the query"]
        pub struct $name($crate::lookups::lookup::QueryBuilder<$query>);

        impl $name {
            /// Only orders of `market`.
            pub fn market(self, market: impl $crate::endpoint::FieldValue<$crate::values::Market>) -> Self {
                Self(self.0.market(market))
            }

            /// Only the order with this id.
            pub fn order_id(self, id: u64) -> Self {
                Self(self.0.order_id(id))
            }

            /// Only the order with this client order id (exact match).
            pub fn client_order_id(
                self,
                id: impl $crate::endpoint::FieldValue<$crate::values::ClientOrderId>,
            ) -> Self {
                Self(self.0.client_order_id(id))
            }

            #[doc = concat!("At most `limit` orders, from 1 to ", stringify!($max), " (default 50).")]
            pub fn limit(self, limit: u64) -> Self {
                Self(self.0.limit(limit))
            }

            /// Skip the first `offset` orders (default 0).
            pub fn offset(self, offset: u64) -> Self {
                Self(self.0.offset(offset))
            }

            /// Returns the query, or the first invalid value or combination.
            pub fn build(self) -> Result<$query, $crate::errors::ValidationError> {
                self.0.build()
            }
        }

        impl $crate::sealed::Sealed for $name {}

        impl $crate::lookups::LookupBuilder for $name {
            type Query = $query;
            fn market(self, market: impl $crate::endpoint::FieldValue<$crate::values::Market>) -> Self {
                $name::market(self, market)
            }
            fn order_id(self, id: u64) -> Self {
                $name::order_id(self, id)
            }
            fn client_order_id(
                self,
                id: impl $crate::endpoint::FieldValue<$crate::values::ClientOrderId>,
            ) -> Self {
                $name::client_order_id(self, id)
            }
            fn limit(self, limit: u64) -> Self {
                $name::limit(self, limit)
            }
            fn offset(self, offset: u64) -> Self {
                $name::offset(self, offset)
            }
            fn build(self) -> Result<$query, $crate::errors::ValidationError> {
                $name::build(self)
            }
        }
    };
}
pub(crate) use lookup_builder;

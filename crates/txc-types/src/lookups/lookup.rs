//! What the two order look-ups share: [`LookupBuilder`], for code that applies the same
//! filters to either builder.
//!
//! Not an endpoint: see [`OpenOrdersQuery`](super::OpenOrdersQuery) and
//! [`OrderHistoryQuery`](super::OrderHistoryQuery), whose builders have these methods as their
//! own (each field declared once, by `#[derive(Request)]`); [`lookup_builder!`] implements the
//! trait by calling them, and writes the constructors both queries share.

use crate::endpoint::FieldValue;
use crate::errors::ValidationError;
use crate::values::{ClientOrderId, Market};

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
/// assert_eq!(
///     (open.market(), open.client_order_id(), open.limit()),
///     (finished.market(), finished.client_order_id(), finished.limit())
/// );
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

/// Implements [`LookupBuilder`] for the builder `$name` of `$query` by calling its own
/// methods of the same names (a trait cannot give a type's page inherent methods, and a
/// generic impl cannot call them), and writes the two constructors both look-ups share —
/// `new` and `by_client_order_id`, documented by `$new` and `$by_id`.
macro_rules! lookup_builder {
    ($name:ident => $query:ty, $new:literal, $by_id:literal) => {
        impl $query {
            #[doc = $new]
            pub fn new() -> Self {
                Self::default()
            }

            #[doc = $by_id]
            pub fn by_client_order_id(
                market: $crate::values::Market,
                id: $crate::values::ClientOrderId,
            ) -> Self {
                Self {
                    market: Some(market),
                    client_order_id: Some(id),
                    ..Self::default()
                }
            }
        }

        impl $crate::sealed::Sealed for $name {}

        impl $crate::lookups::LookupBuilder for $name {
            type Query = $query;
            fn market(
                self,
                market: impl $crate::endpoint::FieldValue<$crate::values::Market>,
            ) -> Self {
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

//! `POST /api/v4/order/cancel`: cancels one open order.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use txc_derive::Request;

use super::Order;
use crate::endpoint::{BodyFields, FieldValue, Visit, WireValue};
use crate::errors::ValidationError;
use crate::values::{ClientOrderId, Market};

/// Cancels one open order — a resting trigger order, say — by its `orderId` or its
/// `clientOrderId`. The exchange takes exactly one of the two; the two constructors make
/// "both" and "neither" impossible.
///
/// An order operation: never resent after a failure that leaves its outcome unknown.
///
/// ```
/// use txc_types::orders::CancelOrder;
/// let by_id = CancelOrder::by_order_id("BTC_USDT", 4180284841)?;
/// assert_eq!(serde_json::to_string(&by_id).unwrap(), r#"{"market":"BTC_USDT","orderId":4180284841}"#);
/// let by_client_id = CancelOrder::by_client_order_id("BTC_PERP", "order-42")?;
/// assert_eq!(
///     serde_json::to_string(&by_client_id).unwrap(),
///     r#"{"market":"BTC_PERP","clientOrderId":"order-42"}"#
/// );
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/cancel",
    operation = "cancel_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Cancellation,
    error_outcome = not_found,
)]
pub struct CancelOrder {
    /// The market.
    market: Market,
    /// Which order.
    #[request(flatten)]
    target: OrderRef,
}

/// Which order to cancel.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OrderRef {
    /// By the exchange's order id.
    OrderId(u64),
    /// By the caller's order id.
    ClientOrderId(ClientOrderId),
}

impl CancelOrder {
    /// Cancels the order of `market` with the exchange's id `order_id`.
    pub fn by_order_id(
        market: impl FieldValue<Market>,
        order_id: u64,
    ) -> Result<Self, ValidationError> {
        let (market, target) = OrderRef::in_market(market, Ok(OrderRef::OrderId(order_id)))?;
        Ok(Self { market, target })
    }

    /// Cancels the open order of `market` whose `clientOrderId` is `id`.
    pub fn by_client_order_id(
        market: impl FieldValue<Market>,
        id: impl FieldValue<ClientOrderId>,
    ) -> Result<Self, ValidationError> {
        let (market, target) = OrderRef::in_market(market, OrderRef::client(id))?;
        Ok(Self { market, target })
    }
}

impl OrderRef {
    /// The reference by the caller's id, validated as the wire field `clientOrderId`.
    pub(crate) fn client(id: impl FieldValue<ClientOrderId>) -> Result<Self, ValidationError> {
        id.into_field("clientOrderId").map(Self::ClientOrderId)
    }

    /// The market, validated as the wire field `market`, with the reference: the two fields
    /// that name an order (a cancel's, a modify's), market first.
    pub(crate) fn in_market(
        market: impl FieldValue<Market>,
        target: Result<Self, ValidationError>,
    ) -> Result<(Market, Self), ValidationError> {
        Ok((market.into_field("market")?, target?))
    }

    /// The one body field that names the order: `orderId` or `clientOrderId`.
    pub(crate) fn wire(&self) -> (&'static str, WireValue<'_>) {
        match self {
            Self::OrderId(id) => ("orderId", WireValue::Int(*id)),
            Self::ClientOrderId(id) => ("clientOrderId", WireValue::Str(id.as_str())),
        }
    }
}

impl BodyFields for OrderRef {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        let (name, value) = self.wire();
        visit(name, value)
    }
}

/// What a cancel did: the canceled record — an order ([`CancelOrder`]), an OCO pair
/// ([`OcoCancellation`](super::OcoCancellation)), or the body of a group cancel
/// ([`GroupCancellation`](super::GroupCancellation)) — or "not found".
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub enum Cancellation<T = Order> {
    /// It was canceled; its final state.
    Canceled(Box<T>),
    /// Nothing open matched (HTTP 4xx, code 2, `Unexecuted order was not found.`): it never
    /// existed, or it was already filled (a leg executed) or canceled — the exchange does not
    /// say which.
    NotFound,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Cancellation<T> {
    /// The canceled record; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|record| Self::Canceled(Box::new(record)))
    }
}

/// The "not found" of every cancel — the order, OCO, conditional and OTO cancels answer it
/// alike: HTTP 4xx, code 2 with field errors (`orderId`, `id` or `otoId`: `Unexecuted order
/// was not found.`). (Code 2 without field errors is the disabled-key response.)
pub(crate) fn not_found<T>(
    status: u16,
    code: Option<i64>,
    errors: &BTreeMap<String, Vec<String>>,
) -> Option<Cancellation<T>> {
    ((400..500).contains(&status) && code == Some(2) && !errors.is_empty())
        .then_some(Cancellation::NotFound)
}

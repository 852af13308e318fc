//! `POST /api/v4/order/oco-cancel`: cancels an OCO pair.

use txc_derive::Request;

use super::cancel_order::not_found;
use super::{Cancellation, OcoOrder, OrderRef};
use crate::endpoint::FieldValue;
use crate::errors::ValidationError;
use crate::values::{ClientOrderId, Market};

/// Cancels an OCO pair — both legs — by the pair's `id` (sent as `orderId`: the id the
/// creation answer and the OCO listing give) or by the `clientOrderId` it was created with.
/// The exchange takes exactly one of the two; the two constructors make "both" and "neither"
/// impossible.
///
/// An order operation: never resent after a failure that leaves its outcome unknown. A "not
/// found" (code 2) is an outcome, [`OcoCancellation::NotFound`]: the pair never existed, or a
/// leg executed, or it was canceled already — the exchange does not say which.
///
/// ```
/// use txc_types::orders::CancelOcoOrder;
/// let cancel = CancelOcoOrder::by_order_id("BTC_USDT", 117703764513)?;
/// assert_eq!(serde_json::to_string(&cancel).unwrap(), r#"{"market":"BTC_USDT","orderId":117703764513}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/oco-cancel",
    operation = "cancel_oco_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = OcoCancellation,
    error_outcome = not_found,
)]
pub struct CancelOcoOrder {
    /// The market.
    market: Market,
    /// Which pair: its id (`orderId`) or its `clientOrderId`.
    #[request(flatten)]
    target: OrderRef,
}

impl CancelOcoOrder {
    /// Cancels the pair of `market` whose id is `id` ([`OcoOrder::id`]).
    pub fn by_order_id(market: impl FieldValue<Market>, id: u64) -> Result<Self, ValidationError> {
        let (market, target) = OrderRef::in_market(market, Ok(OrderRef::OrderId(id)))?;
        Ok(Self { market, target })
    }

    /// Cancels the pair of `market` created with the `clientOrderId` `id`.
    pub fn by_client_order_id(
        market: impl FieldValue<Market>,
        id: impl FieldValue<ClientOrderId>,
    ) -> Result<Self, ValidationError> {
        let (market, target) = OrderRef::in_market(market, OrderRef::client(id))?;
        Ok(Self { market, target })
    }
}

/// What an OCO cancel did: the canceled pair ([`OcoOrder`], its legs' final states), or
/// [`NotFound`](Cancellation::NotFound) — no active pair matched (HTTP 4xx, code 2).
pub type OcoCancellation = Cancellation<OcoOrder>;

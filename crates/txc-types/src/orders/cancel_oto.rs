//! `POST /api/v4/order/oto-cancel`: cancels an OTO group.

use txc_derive::Request;

use super::GroupCancellation;
use super::cancel_order::not_found;
use crate::endpoint::FieldValue;
use crate::errors::ValidationError;
use crate::values::Market;

/// Cancels the OTO group `otoId` of `market`: the group an order placed with a stop-loss or
/// take-profit makes — its id is the order's [`Oto::oto_id`](super::Oto::oto_id), and the
/// [`OtoGroup::id`](crate::lookups::OtoGroup::id) of the conditional orders list (the spec's
/// example uses an OCO leg's `orderId`; this crate takes the group's id).
///
/// What it removes (the spec says only "cancels an OTO order"; decided here, and the sandbox
/// does the same): the whole group — the linked order while it is still open, and the
/// stop-loss and take-profit its fill would activate. To keep the order, modify it instead.
///
/// An order operation: never resent after a failure that leaves its outcome unknown; a "not
/// found" (code 2) is an outcome ([`GroupCancellation::NotFound`]).
///
/// ```
/// use txc_types::orders::CancelOtoOrder;
/// let cancel = CancelOtoOrder::new("BTC_USDT", 29457221)?;
/// assert_eq!(serde_json::to_string(&cancel).unwrap(), r#"{"market":"BTC_USDT","otoId":29457221}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/order/oto-cancel",
    operation = "cancel_oto_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = GroupCancellation,
    error_outcome = not_found,
)]
pub struct CancelOtoOrder {
    /// The market.
    market: Market,
    /// The OTO group's id.
    #[request(get = copy)]
    oto_id: u64,
}

impl CancelOtoOrder {
    /// Cancels the OTO group of `market` whose id is `oto_id`.
    pub fn new(market: impl FieldValue<Market>, oto_id: u64) -> Result<Self, ValidationError> {
        Ok(Self {
            market: market.into_field("market")?,
            oto_id,
        })
    }
}

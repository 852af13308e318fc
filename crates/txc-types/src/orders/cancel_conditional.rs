//! `POST /api/v4/order/conditional-cancel`: cancels a conditional order (an OCO pair or an
//! OTO group), and [`GroupCancellation`], what it and the OTO cancel answer.

use txc_derive::Request;

use super::Cancellation;
use super::cancel_order::not_found;
use crate::endpoint::{Acknowledged, FieldValue};
use crate::errors::ValidationError;
use crate::values::Market;

/// Cancels a conditional order of `market` by its `id` — the id of a record of the
/// conditional orders list ([`ConditionalOrder`](crate::lookups::ConditionalOrder):
/// [`OcoGroup::id`](crate::lookups::OcoGroup::id) or [`OtoGroup::id`](crate::lookups::OtoGroup::id)).
///
/// What it removes (the spec: "both legs of the conditional order are cancelled"; its example
/// uses an OCO leg's `orderId`, which this crate does not take for the group's id): an OCO
/// pair's two legs, or an OTO group whole — its linked order while still open, and the
/// stop-loss and take-profit its fill would activate. The OTO cancel
/// ([`CancelOtoOrder`](super::CancelOtoOrder)) removes an OTO group the same way, by its
/// `otoId`.
///
/// An order operation: never resent after a failure that leaves its outcome unknown; a "not
/// found" (code 2) is an outcome ([`GroupCancellation::NotFound`]).
///
/// ```
/// use txc_types::orders::CancelConditionalOrder;
/// let cancel = CancelConditionalOrder::new("BTC_USDT", 117703764513)?;
/// assert_eq!(serde_json::to_string(&cancel).unwrap(), r#"{"market":"BTC_USDT","id":117703764513}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/conditional-cancel",
    operation = "cancel_conditional_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = GroupCancellation,
    error_outcome = not_found,
)]
pub struct CancelConditionalOrder {
    /// The market.
    market: Market,
    /// The conditional order's id (a record's `id` in the conditional orders list).
    #[request(get = copy)]
    id: u64,
}

impl CancelConditionalOrder {
    /// Cancels the conditional order of `market` whose id is `id`.
    pub fn new(market: impl FieldValue<Market>, id: u64) -> Result<Self, ValidationError> {
        Ok(Self {
            market: market.into_field("market")?,
            id,
        })
    }
}

/// What a conditional or OTO cancel did: both answer a literal `[]` when they cancel
/// ([`Canceled`](Cancellation::Canceled) holds the body as sent, [`Acknowledged`]), or
/// [`NotFound`](Cancellation::NotFound): no active group matched (HTTP 4xx, code 2) — it never
/// existed, or it executed, or it was canceled already; the exchange does not say which.
pub type GroupCancellation = Cancellation<Acknowledged>;

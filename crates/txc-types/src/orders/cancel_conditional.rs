//! `POST /api/v4/order/conditional-cancel`: cancels a conditional order (an OCO pair or an
//! OTO group), and [`GroupCancellation`], what it and the OTO cancel answer.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use txc_derive::Request;

use super::cancel_order::is_not_found;
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

/// What a conditional or OTO cancel did: both answer a literal `[]` when they cancel.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub enum GroupCancellation {
    /// The group was canceled; the answer's body as sent (documented: `[]`).
    Canceled(Acknowledged),
    /// No active group matched (HTTP 4xx, code 2): it never existed, or it executed, or it
    /// was canceled already — the exchange does not say which.
    NotFound,
}

impl<'de> Deserialize<'de> for GroupCancellation {
    /// Any body but an error-shaped object ([`Acknowledged`]); decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Acknowledged::deserialize(d).map(Self::Canceled)
    }
}

/// The "not found" of a group cancel (HTTP 4xx, code 2 with field errors).
pub(crate) fn not_found(
    status: u16,
    code: Option<i64>,
    errors: &BTreeMap<String, Vec<String>>,
) -> Option<GroupCancellation> {
    is_not_found(status, code, errors).then_some(GroupCancellation::NotFound)
}

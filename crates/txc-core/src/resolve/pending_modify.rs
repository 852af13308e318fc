//! [`PendingModify`]: what is known of a modify whose outcome is unknown, enough to find out.

use std::time::SystemTime;

use txc_types::orders::{ModifyOrder, OrderRef};
use txc_types::values::{ClientOrderId, Market};

use crate::AttemptRecord;

/// A modify that may or may not have replaced its order: the request, the order as the client
/// read it just before (its `orderId` and `clientOrderId`: what tells the replacement from the
/// original), and every attempt to send it (nonce and signing time). Carried by
/// [`Error::ModifyUnknown`](crate::Error::ModifyUnknown); give it to the client's
/// `resolve_modify`.
///
/// The record exists before the first byte is sent (the client's `pending_modifies`, and its
/// [`Journal`](crate::Journal)).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::PendingModify;
/// use txc_sign::nonce::Nonce;
/// use txc_types::orders::ModifyOrder;
///
/// let modify = ModifyOrder::by_client_order_id("BTC_USDT", "quote-1").price("64100").build()?;
/// let nonce = 1_700_000_000_000;
/// let attempt = AttemptRecord { nonce: Nonce(nonce), signed_at: UNIX_EPOCH + Duration::from_millis(nonce) };
/// let pending = PendingModify::new(modify, Some(4_180_284_841), None, vec![attempt]);
/// assert_eq!(pending.client_order_id().map(|id| id.as_str()), Some("quote-1"));
/// assert_eq!(pending.original_order_id(), Some(4_180_284_841));
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingModify {
    modify: ModifyOrder,
    original_order_id: Option<u64>,
    client_order_id: Option<ClientOrderId>,
    attempts: Vec<AttemptRecord>,
    reason: Option<String>,
}

impl PendingModify {
    /// `modify` of the order whose `orderId` was `original_order_id` and whose `clientOrderId`
    /// is `client_order_id` (each as read before the modify, when known; the request's own
    /// target counts too), sent in `attempts`.
    pub fn new(
        modify: ModifyOrder,
        original_order_id: Option<u64>,
        client_order_id: Option<ClientOrderId>,
        attempts: Vec<AttemptRecord>,
    ) -> Self {
        let (original_order_id, client_order_id) = match modify.target() {
            OrderRef::OrderId(id) => (original_order_id.or(Some(*id)), client_order_id),
            OrderRef::ClientOrderId(id) => (original_order_id, Some(id.clone())),
        };
        Self {
            modify,
            original_order_id,
            client_order_id,
            attempts,
            reason: None,
        }
    }

    /// The same modify, noted as one resolving could not settle, for `reason`.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// The same modify with `attempts` added.
    pub(crate) fn with_attempts<'a>(
        mut self,
        attempts: impl IntoIterator<Item = &'a AttemptRecord>,
    ) -> Self {
        self.attempts.extend(attempts.into_iter().copied());
        self
    }

    /// Why resolving it could not tell, when it was tried and could not.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The request.
    pub fn modify(&self) -> &ModifyOrder {
        &self.modify
    }

    /// The market.
    pub fn market(&self) -> &Market {
        self.modify.market()
    }

    /// The modified order's `orderId` before the modify (the request's, or read before it).
    pub fn original_order_id(&self) -> Option<u64> {
        self.original_order_id
    }

    /// The order's `clientOrderId` (the request's, or read before it): the replacement
    /// carries it, and resolving reads the order by it. `None`: the order had none, and a lost
    /// answer cannot be resolved.
    pub fn client_order_id(&self) -> Option<&ClientOrderId> {
        self.client_order_id.as_ref()
    }

    /// Every attempt to send it, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }

    /// When the first attempt was signed.
    pub fn first_signed_at(&self) -> Option<SystemTime> {
        self.attempts.iter().map(|a| a.signed_at).min()
    }

    /// Whether `other` modifies the same order (same market, and the same `orderId` or the
    /// same `clientOrderId`): what the client refuses to send while this is unresolved.
    pub(crate) fn same_order(&self, other: &Self) -> bool {
        self.market() == other.market()
            && (self
                .original_order_id
                .is_some_and(|id| other.original_order_id == Some(id))
                || self
                    .client_order_id
                    .as_ref()
                    .is_some_and(|id| other.client_order_id.as_ref() == Some(id)))
    }

    /// What it is, in a few words: `modify of order <id> on <market>`.
    pub(crate) fn subject(&self) -> String {
        let order = match (&self.client_order_id, self.original_order_id) {
            (Some(id), _) => id.as_str().to_owned(),
            (None, Some(id)) => id.to_string(),
            (None, None) => "?".to_owned(),
        };
        format!("modify of order {order} on {}", self.market().as_str())
    }
}

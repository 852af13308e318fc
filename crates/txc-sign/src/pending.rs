//! [`PendingOrder`]: what is known of an order whose outcome is unknown, enough to find out.

use std::time::SystemTime;

use txc_types::values::{ClientOrderId, Market};

use crate::AttemptRecord;

/// An order that may or may not have been placed: its market, `clientOrderId` and every
/// attempt to place it (nonce and signing time). Carried by
/// [`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown); give it to the client's `resolve`.
///
/// Make one yourself for an order recorded before a crash:
///
/// ```
/// use std::time::SystemTime;
/// use txc_sign::{AttemptRecord, Nonce, PendingOrder};
/// let pending = PendingOrder::new(
///     "BTC_USDT".parse()?,
///     Some("txc-3f9a0c1b7d2e4-1".parse()?),
///     vec![AttemptRecord { nonce: Nonce(1_700_000_000_000), signed_at: SystemTime::now() }],
/// );
/// assert_eq!(pending.market().as_str(), "BTC_USDT");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingOrder {
    market: Market,
    client_order_id: Option<ClientOrderId>,
    attempts: Vec<AttemptRecord>,
}

impl PendingOrder {
    /// An order of `market` sent with `client_order_id` (`None`: it had none, and cannot be
    /// looked up), in `attempts`.
    pub fn new(
        market: Market,
        client_order_id: Option<ClientOrderId>,
        attempts: Vec<AttemptRecord>,
    ) -> Self {
        Self {
            market,
            client_order_id,
            attempts,
        }
    }

    /// The market.
    pub fn market(&self) -> &Market {
        &self.market
    }

    /// The `clientOrderId` it was sent with.
    pub fn client_order_id(&self) -> Option<&ClientOrderId> {
        self.client_order_id.as_ref()
    }

    /// Every attempt to place it, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }

    /// When the first attempt was signed.
    pub fn first_signed_at(&self) -> Option<SystemTime> {
        self.attempts.iter().map(|a| a.signed_at).min()
    }

    pub(crate) fn push_attempts(&mut self, attempts: &[AttemptRecord]) {
        self.attempts.extend_from_slice(attempts);
    }
}

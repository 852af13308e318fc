//! [`PendingOrder`]: what is known of an order whose outcome is unknown, enough to find out.

use std::time::SystemTime;

use txc_types::orders::NewOrder;
use txc_types::values::{ClientOrderId, Market};

use crate::socket::SocketAttempt;
use crate::{AttemptRecord, Nonce};

/// An order that may or may not have been placed: its market, `clientOrderId`, whether it is a
/// trigger order, and every attempt to place it (nonce and signing time). Carried by
/// [`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown); give it to the client's `resolve`.
///
/// The record exists before the first byte is sent: the client keeps each in-flight order's
/// record (its `pending_orders`) and hands it to a [`Journal`](crate::Journal) before every
/// attempt, so a crash or a dropped future leaves it behind. Make one yourself for an order
/// recorded elsewhere:
///
/// ```
/// use std::time::SystemTime;
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::PendingOrder;
/// use txc_sign::nonce::Nonce;
/// let pending = PendingOrder::new(
///     "BTC_USDT".parse()?,
///     "txc-3f9a0c1b7d2e4-1".parse()?,
///     vec![AttemptRecord { nonce: Nonce(1_700_000_000_000), signed_at: SystemTime::now() }],
/// )
/// .with_trigger(true);
/// assert_eq!(pending.market().as_str(), "BTC_USDT");
/// assert!(pending.is_trigger());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingOrder {
    market: Market,
    client_order_id: ClientOrderId,
    trigger: bool,
    attempts: Vec<AttemptRecord>,
    socket_attempts: Vec<SocketAttempt>,
    reason: Option<String>,
}

impl PendingOrder {
    /// An order of `market` sent with `client_order_id` in `attempts` (a market order; see
    /// [`with_trigger`](Self::with_trigger)).
    pub fn new(
        market: Market,
        client_order_id: ClientOrderId,
        attempts: Vec<AttemptRecord>,
    ) -> Self {
        Self {
            market,
            client_order_id,
            trigger: false,
            attempts,
            socket_attempts: Vec::new(),
            reason: None,
        }
    }

    /// The record of `order` before any attempt.
    pub fn of<O: NewOrder>(order: &O) -> Self {
        let fields = order.fields();
        Self::new(
            fields.market().clone(),
            fields.client_order_id().clone(),
            Vec::new(),
        )
        .with_trigger(order.is_trigger())
    }

    /// The same order marked as a trigger order (`true`), which may rest unexecuted and, with
    /// a stop-loss or take-profit, be listed among the conditional orders: resolving looks
    /// there too.
    pub fn with_trigger(mut self, trigger: bool) -> Self {
        self.trigger = trigger;
        self
    }

    /// The same order, noted as one resolving could not settle, for `reason` (kept with its
    /// journal record and shown by the client's `pending_orders`).
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Why resolving it could not tell, when it was tried and could not: the record stays
    /// (in the client and its [`Journal`](crate::Journal)) until resolved or discarded.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The market.
    pub fn market(&self) -> &Market {
        &self.market
    }

    /// The `clientOrderId` it was sent with.
    pub fn client_order_id(&self) -> &ClientOrderId {
        &self.client_order_id
    }

    /// Whether it is a trigger order.
    pub fn is_trigger(&self) -> bool {
        self.trigger
    }

    /// Every attempt to place it, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }

    /// The same order with `attempts` made over the WebSocket (frames carry no nonce: each
    /// attempt is when its frame was written and when its outcome was settled unknown), which
    /// resolving looks for by [`AcceptanceWindow::of_socket`](super::AcceptanceWindow::of_socket).
    pub fn with_socket_attempts(
        mut self,
        attempts: impl IntoIterator<Item = SocketAttempt>,
    ) -> Self {
        self.socket_attempts.extend(attempts);
        self
    }

    /// Every attempt to place it over the WebSocket, oldest first.
    pub fn socket_attempts(&self) -> &[SocketAttempt] {
        &self.socket_attempts
    }

    /// What its record is known by ([`PendingRecord::key`](crate::PendingRecord::key)): its
    /// first attempt's nonce — or, sent over the WebSocket only, its first frame's time in
    /// microseconds since the epoch.
    pub fn key(&self) -> Option<Nonce> {
        record_key(&self.attempts, &self.socket_attempts)
    }

    /// When the first attempt was signed.
    pub fn first_signed_at(&self) -> Option<SystemTime> {
        self.attempts.iter().map(|a| a.signed_at).min()
    }

    /// When the last attempt was signed.
    pub fn last_signed_at(&self) -> Option<SystemTime> {
        self.attempts.iter().map(|a| a.signed_at).max()
    }

    pub(crate) fn push_attempts<'a>(
        &mut self,
        attempts: impl IntoIterator<Item = &'a AttemptRecord>,
    ) {
        self.attempts.extend(attempts.into_iter().copied());
    }
}

/// The key of a record with `attempts` over REST and `socket` over the WebSocket: the first
/// nonce, else the first frame's time in microseconds (never a REST nonce's milliseconds).
pub(crate) fn record_key(attempts: &[AttemptRecord], socket: &[SocketAttempt]) -> Option<Nonce> {
    attempts.first().map(|a| a.nonce).or_else(|| {
        socket.first().map(|a| {
            let micros = a
                .written_at
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_micros();
            Nonce(u64::try_from(micros).unwrap_or(u64::MAX))
        })
    })
}

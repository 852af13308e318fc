//! What resolving finds: a record the exchange showed, [`Found`] with what proved it, the
//! [`Resolution`] an operation ends with — and for an order, the [`PlacedOrder`] it was
//! ([`Placed`]).

use txc_types::events::StreamOrder;
use txc_types::lookups::HistoryOrder;
use txc_types::orders::Order;

use super::evidence::Evidence;

/// An order as the exchange showed it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// One per resolution, never stored in bulk: matching on the order beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub enum PlacedOrder {
    /// The placement's own response.
    Answered(Order),
    /// Found among the open orders, or as the order of an OTO group among the conditional
    /// orders (a resting trigger order).
    Open(Order),
    /// Found in the order history (filled or canceled).
    Finished(HistoryOrder),
    /// Shown by the private event stream (`ordersPending`, `ordersExecuted`): the stream's
    /// record of it.
    Streamed(StreamOrder),
}

impl PlacedOrder {
    /// The exchange's order id.
    pub fn order_id(&self) -> u64 {
        match self {
            Self::Answered(o) | Self::Open(o) => o.order_id,
            Self::Finished(h) => h.id,
            Self::Streamed(s) => s.id,
        }
    }

    /// The order's `clientOrderId`, if it has one.
    pub fn client_order_id(&self) -> Option<&str> {
        match self {
            Self::Answered(o) | Self::Open(o) => o.client_order_id.as_deref(),
            Self::Finished(h) => h.client_order_id.as_deref(),
            Self::Streamed(s) => s.client_order_id.as_deref(),
        }
    }
}

/// A record of the operation the exchange showed, and what proved it was the attempts' own.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Found<R> {
    /// The record.
    pub record: R,
    /// What proved it: the placement's own answer, or the look-up that found it inside the
    /// attempts' acceptance window.
    pub evidence: Evidence,
}

impl<R> Found<R> {
    /// `record`, proved by `evidence`.
    pub fn new(record: R, evidence: Evidence) -> Self {
        Self { record, evidence }
    }
}

/// An order that was placed: the record, and what proved it was this placement's.
pub type Placed = Found<PlacedOrder>;

impl Found<PlacedOrder> {
    /// The exchange's order id.
    pub fn order_id(&self) -> u64 {
        self.record.order_id()
    }

    /// The order's `clientOrderId`, if it has one.
    pub fn client_order_id(&self) -> Option<&str> {
        self.record.client_order_id()
    }
}

/// What resolving found — each answer with the [`Evidence`] that proved it. An outcome it
/// cannot prove either way is the error [`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown) instead, with the reason.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Resolution<R = PlacedOrder> {
    /// It was carried out: the record, found inside the attempts' acceptance window.
    Placed(Found<R>),
    /// It was not: absence proven twice by the rule (see [`Resolve`](super::Resolve)). Safe to send again
    /// (with a fresh nonce).
    NotPlaced(Evidence),
    /// Absence was proven twice, but the account's look-ups cannot show every outcome — a B2B
    /// account's history omits canceled orders — so it cannot tell. `place_once` does not
    /// resend on it unless told to (`resend_when_cancels_are_invisible`).
    CannotTell(Evidence),
}

impl<R> Resolution<R> {
    /// The evidence behind the answer.
    pub fn evidence(&self) -> &Evidence {
        match self {
            Self::Placed(found) => &found.evidence,
            Self::NotPlaced(e) | Self::CannotTell(e) => e,
        }
    }
}

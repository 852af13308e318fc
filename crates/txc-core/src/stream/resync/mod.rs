//! Reading the state again after every (re)connection, sans-IO: [`Resyncer`] keeps what the
//! consumer has been told about orders (from the stream's own events), turns each
//! [`Resync`](super::Resync) into a [`ResyncPlan`] of REST look-ups — the open orders of the
//! subscribed markets, the history since the gap, a look-up by id of every order known open
//! that the open orders no longer show, and the open positions when a positions channel is in
//! force — run by [`ResyncLookups`] (a [`Machine`](crate::Machine) any transport drives), and
//! turns what they found into [`ResyncChange`]s and the positions
//! ([`StreamEvent::ResyncedPositions`](super::StreamEvent::ResyncedPositions)): what changed
//! while the stream was away, as events the consumer applies like any other.
//!
//! The rules that make applying every event in order end with the exchange's state, whatever
//! interleaves with the look-ups: a finished order stays finished (a look-up never reopens an
//! order the stream saw finish); an order is reported gone only if it was known open when the
//! look-ups started; a change is reported once (an order the stream already reported finished
//! is not reported again); the positions read are sent unless a live positions snapshot came
//! after the look-ups started (it is no older).

mod lookups;
mod tracker;

use std::time::{Duration, SystemTime};

use txc_types::lookups::HistoryOrder;
use txc_types::orders::Order;
use txc_types::values::{ClientOrderId, Market};

pub use lookups::{ResyncFindings, ResyncLookups};
pub use tracker::Resyncer;

/// How far before the gap the history is read again: events sent just before a connection
/// died may never have arrived, and the two clocks differ.
pub const RESYNC_OVERLAP: Duration = Duration::from_secs(60);

/// What one resync looks up, made by [`Resyncer::due`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResyncPlan {
    pub(crate) connection: u64,
    pub(crate) markets: Vec<Market>,
    /// History from this Unix second on; `None` at the first establishment.
    pub(crate) history_since: Option<u64>,
    /// The orders known open when the look-ups start: `(id, market)`.
    pub(crate) known_open: Vec<(u64, Market)>,
    /// Whether the open positions are read (a positions channel is in force).
    pub(crate) positions: bool,
}

impl ResyncPlan {
    /// The connection whose establishment asked for it.
    pub fn connection(&self) -> u64 {
        self.connection
    }

    /// The markets whose open orders (and history) are read.
    pub fn markets(&self) -> &[Market] {
        &self.markets
    }

    /// From when the history is read (Unix seconds); `None` when it is not (the first
    /// establishment: nothing was missed).
    pub fn history_since(&self) -> Option<u64> {
        self.history_since
    }

    /// Whether the open positions are read: a positions channel (`positionsMargin`,
    /// `positionsAccountMargin`) is in force.
    pub fn reads_positions(&self) -> bool {
        self.positions
    }
}

/// A change the stream missed, found by a resync: synthesized, marked as coming from the
/// resync ([`StreamEvent::Resynced`](super::StreamEvent::Resynced)), and carrying the REST
/// record as read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// One at a time to the consumer: matching on the record beats saving bytes.
#[allow(clippy::large_enum_variant)]
pub enum ResyncChange {
    /// Open now and not known open before: placed while away, or open when the stream started.
    Opened(Order),
    /// Known open and still open, with a different executed amount or status.
    Updated(Order),
    /// Finished (filled or canceled) while away — known open before, or placed and finished
    /// while away.
    Finished(HistoryOrder),
    /// Known open before, and now neither open nor in the history (the exchange records no
    /// canceled orders in a B2B account's history): finished, how is not known.
    Gone {
        /// The order's id.
        order_id: u64,
        /// Its market.
        market: Market,
        /// Its `clientOrderId`, if it had one.
        client_order_id: Option<ClientOrderId>,
    },
}

impl ResyncChange {
    /// The order's id.
    pub fn order_id(&self) -> u64 {
        match self {
            Self::Opened(o) | Self::Updated(o) => o.order_id,
            Self::Finished(h) => h.id,
            Self::Gone { order_id, .. } => *order_id,
        }
    }

    /// The order's market.
    pub fn market(&self) -> &Market {
        match self {
            Self::Opened(o) | Self::Updated(o) => &o.market,
            Self::Finished(h) => &h.market,
            Self::Gone { market, .. } => market,
        }
    }

    /// The order's `clientOrderId`, if it has one.
    pub fn client_order_id(&self) -> Option<&ClientOrderId> {
        match self {
            Self::Opened(o) | Self::Updated(o) => o.client_order_id.as_ref(),
            Self::Finished(h) => h.client_order_id.as_ref(),
            Self::Gone {
                client_order_id, ..
            } => client_order_id.as_ref(),
        }
    }

    /// Whether the order is finished.
    pub fn is_finished(&self) -> bool {
        matches!(self, Self::Finished(_) | Self::Gone { .. })
    }
}

/// The end of a resync: what it found and how many REST look-ups it took. Every
/// [`ResyncChange`] of it came before.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResyncReport {
    /// The connection whose establishment asked for it.
    pub connection: u64,
    /// Orders reported [`ResyncChange::Opened`].
    pub opened: usize,
    /// Orders reported [`ResyncChange::Updated`].
    pub updated: usize,
    /// Orders reported [`ResyncChange::Finished`].
    pub finished: usize,
    /// Orders reported [`ResyncChange::Gone`].
    pub gone: usize,
    /// The open positions reported
    /// ([`StreamEvent::ResyncedPositions`](super::StreamEvent::ResyncedPositions)); `None`
    /// when none were read (no positions channel) or a live snapshot superseded them.
    pub positions: Option<usize>,
    /// REST requests made.
    pub lookups: usize,
    /// Whether a page limit cut the look-ups short (more than [`MAX_PAGES`] pages of one
    /// list): some changes may be missing.
    pub truncated: bool,
    /// When the look-ups started.
    pub started_at: SystemTime,
}

/// The most pages of one list a resync reads (100 open orders or 500 history records a page).
pub const MAX_PAGES: u64 = 50;

#[cfg(test)]
mod tests;

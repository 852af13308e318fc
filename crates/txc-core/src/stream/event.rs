//! [`StreamEvent`]: what a stream tells its consumer — channel updates, and every change of
//! the connection (subscribed, resync needed, disconnected, stopped) and every error.

use std::time::{Duration, SystemTime};

use txc_types::events::AccountEvent;
use txc_types::positions::Position;

use super::{
    Channel, ResyncChange, ResyncReport, StreamError, Subscription, UnknownMessage, Update,
};

/// One event of a stream, in the order the consumer must see them.
#[derive(Debug)]
#[non_exhaustive]
// Handed on one at a time, and queued only briefly: matching on the record beats saving bytes.
#[allow(clippy::large_enum_variant)]
pub enum StreamEvent {
    /// A channel's subscription was confirmed on the current connection.
    Subscribed(Channel),
    /// A channel's unsubscription was confirmed.
    Unsubscribed(Channel),
    /// The connection is authorized and every channel answered its subscription: the stream
    /// is established, and the state its updates change must be read again over REST
    /// (the server keeps no events for a client that was away). Updates of this connection
    /// come only after this event.
    Resync(Resync),
    /// An update of a channel, decoded into its record.
    Account(AccountEvent),
    /// An update of a channel that did not decode into its record: the parameters as sent,
    /// and why ([`Update::error`]). The stream goes on.
    Update(Update),
    /// A change the stream missed while it was away, found by a resync over REST (made by a
    /// driver's [`Resyncer`](super::Resyncer), never by the machine): apply it like an update.
    Resynced(ResyncChange),
    /// Every open position of the account as a resync read it over REST
    /// (`/api/v4/collateral-account/positions/open`), when a positions channel is in force:
    /// replaces the positions the consumer holds. Not sent when a `positionsMargin` snapshot
    /// came live after the resync's look-ups started: that snapshot is no older.
    ResyncedPositions(Vec<Position>),
    /// A resync finished: every [`StreamEvent::Resynced`] change and
    /// [`StreamEvent::ResyncedPositions`] it found came before.
    ResyncDone(ResyncReport),
    /// A message of a kind the machine does not know, kept whole.
    Unknown(UnknownMessage),
    /// A connection ended, or an attempt to open one failed; says when the next attempt is.
    Disconnected(Disconnect),
    /// Something went wrong; the stream goes on unless [`StreamEvent::Stopped`] follows.
    Error(StreamError),
    /// The stream stopped for good; the machine only says
    /// [`StreamStep::Finished`](super::StreamStep::Finished) from now on.
    Stopped(StopReason),
}

/// The stream is established on a new connection; what to read again over REST.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Resync {
    /// The connection (1 for the first).
    pub connection: u64,
    /// The subscriptions in force on it, in the order they were subscribed.
    pub subscriptions: Vec<Subscription>,
    /// When the last established connection was lost: events since then were missed.
    /// `None` on the first establishment (nothing was missed, but nothing is known yet).
    pub gap_since: Option<SystemTime>,
}

impl Resync {
    /// Whether this is the first establishment of the stream.
    pub fn is_initial(&self) -> bool {
        self.gap_since.is_none()
    }

    /// The channels in force.
    pub fn channels(&self) -> impl Iterator<Item = Channel> + '_ {
        self.subscriptions.iter().map(Subscription::channel)
    }
}

/// A connection ended, or an attempt to open one failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Disconnect {
    /// The connection (1 for the first attempt).
    pub connection: u64,
    /// Why.
    pub reason: DisconnectReason,
    /// Whether the connection had been established (a [`Resync`] was emitted for it).
    pub was_established: bool,
    /// Channel events that arrived while the connection subscribed and are discarded because
    /// it ended before it was established; the next [`Resync`] reads their state again.
    pub discarded_events: usize,
    /// When the next attempt starts; `None` when the stream stops.
    pub reconnect_in: Option<Duration>,
}

/// Why a connection ended.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DisconnectReason {
    /// The driver could not open the connection.
    ConnectFailed(String),
    /// The driver did not open the connection within the connect timeout.
    ConnectTimeout,
    /// The socket closed (a close frame, an end of stream or an I/O error, as the driver
    /// says).
    Closed {
        /// The close code, if a close frame had one.
        code: Option<u16>,
        /// The close reason or the error, as the driver describes it.
        reason: String,
    },
    /// A request had no answer within the answer timeout: the connection is taken as dead.
    AnswerTimeout {
        /// The request's method.
        method: &'static str,
    },
    /// The token request failed (the [`StreamError::TokenFailed`] before says why).
    TokenFailed,
    /// The server refused `authorize` (the [`StreamError::AuthorizationRefused`] before says
    /// why).
    AuthorizationRefused,
    /// More channel events arrived while subscribing than the machine holds
    /// ([`StreamConfig::with_max_held_events`](super::StreamConfig::with_max_held_events)).
    TooManyHeldEvents,
    /// The consumer asked the stream to stop.
    Stopped,
}

/// Why a stream stopped for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// The consumer asked it to ([`StreamMachine::stop`](super::StreamMachine::stop)).
    Requested,
    /// The token request was refused for good (see the [`StreamError::TokenFailed`] before).
    TokenRefused,
    /// `authorize` was refused too many times in a row.
    AuthorizationRefused,
}

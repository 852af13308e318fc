//! [`SocketError`]: why an order method's call over the WebSocket failed — the cause inside
//! [`Error::Socket`](crate::Error::Socket), or of an unknown outcome
//! ([`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown)).

use std::time::Duration;

use txc_types::socket::{SocketMethod, SocketRefusal};

use super::outcome::UnknownCause;
use crate::stream::StopReason;

/// Why a call of an order method over the WebSocket failed. No variant holds a socket
/// library's error: a connection's failure is its text.
///
/// Which of them leave an order's outcome unknown is [`outcome_unknown`](Self::outcome_unknown):
/// only [`Unknown`](Self::Unknown) does (a frame handed to the socket whose answer never came,
/// or an answer that says nothing); every other was refused or never sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SocketError {
    /// The exchange refused the call with a listed code: nothing was done.
    #[error("{method}: refused by the exchange: {refusal}: {message}")]
    Refused {
        /// The method called.
        method: SocketMethod,
        /// The code's class.
        refusal: SocketRefusal,
        /// The exchange's message.
        message: String,
    },
    /// The exchange's rate limit (`7`, `10000`, `10001`): nothing was done; wait before
    /// calling again.
    #[error("{method}: rate-limited by the exchange: {refusal}: {message}")]
    RateLimited {
        /// The method called.
        method: SocketMethod,
        /// The code's class.
        refusal: SocketRefusal,
        /// The exchange's message.
        message: String,
    },
    /// `43` answering a resend: an active order has the `client_order_id` — evidence that an
    /// earlier send placed it (`place_once` resolves again on it).
    #[error("{method}: client order id already exists (a resend): {message}")]
    Duplicate {
        /// The method called.
        method: SocketMethod,
        /// The exchange's message.
        message: String,
    },
    /// The client's own pacing ([`SocketLimits`](super::SocketLimits)) had no slot within the
    /// session's pacing wait: nothing was sent; a slot frees in `wait`.
    #[error("not sent: the WebSocket's {what} limit is reached; a slot frees in {wait:?}")]
    Paced {
        /// Which budget: `placements`, `requests` or `connections`.
        what: &'static str,
        /// How long until a slot frees.
        wait: Duration,
    },
    /// No authorized connection within the session's connect wait: nothing was sent.
    #[error("not sent: no authorized WebSocket connection to {url}: {reason}")]
    NotConnected {
        /// The URL.
        url: String,
        /// The last failure seen (a refused connection, a token or authorization refused).
        reason: String,
    },
    /// The session stopped for good (closed, or authorization refused too often): nothing
    /// more is sent on it; open a new one.
    #[error("not sent: the WebSocket session stopped: {0:?}")]
    Stopped(StopReason),
    /// The journal could not record the order before its frame: the frame was not written.
    #[error("not sent: the journal could not record the order before its frame: {0}")]
    Journal(String),
    /// The frame was handed to the socket and no answer says what became of it: the order
    /// may or may not exist. The cause of an [`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown).
    #[error("{method}: the outcome is unknown: {cause}")]
    Unknown {
        /// The method called.
        method: SocketMethod,
        /// Why.
        cause: UnknownCause,
    },
}

impl SocketError {
    /// Whether the call may have been carried out although this error was returned: only
    /// [`Unknown`](Self::Unknown).
    pub fn outcome_unknown(&self) -> bool {
        matches!(self, Self::Unknown { .. })
    }

    /// Whether calling again is safe: nothing was done, and a later call may succeed — the
    /// exchange's rate limit, the client's pacing, a connection not up or a journal that
    /// failed (all before anything was carried out).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. }
                | Self::Paced { .. }
                | Self::NotConnected { .. }
                | Self::Journal(_)
        )
    }

    /// The exchange's refusal, when it refused (or rate-limited) the call.
    pub fn refusal(&self) -> Option<SocketRefusal> {
        match self {
            Self::Refused { refusal, .. } | Self::RateLimited { refusal, .. } => Some(*refusal),
            Self::Duplicate { .. } => Some(SocketRefusal::ClientOrderIdExists),
            _ => None,
        }
    }
}

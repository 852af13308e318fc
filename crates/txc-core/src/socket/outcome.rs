//! What became of an order method's call: [`SocketOutcome`], with the call and its attempt
//! ([`Settled`]).

use std::time::SystemTime;

use txc_types::socket::{SocketAnswer, SocketRefusal, SocketRequest};

/// The outcome of one call of an order method.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SocketOutcome {
    /// Answered with a `result`: the order placed, modified or canceled, or the group.
    Done(Box<SocketAnswer>),
    /// Refused by a listed code: nothing was done (an unlisted code is
    /// [`Unknown`](Self::Unknown)).
    Refused {
        /// The class of the code.
        refusal: SocketRefusal,
        /// The exchange's message (diagnostic text).
        message: String,
    },
    /// A rate limit (`7`, `10000`, `10001`): nothing was done; wait before sending again.
    RateLimited {
        /// The class of the code.
        refusal: SocketRefusal,
        /// The exchange's message.
        message: String,
    },
    /// `43` answering a resend of an order whose first send's outcome was unknown: an active
    /// order has its client order id — the first send placed it (evidence, as REST's code 36
    /// is).
    Duplicate {
        /// The exchange's message.
        message: String,
    },
    /// The order may or may not exist: resolve it (events, then look-ups) before any resend.
    Unknown(UnknownCause),
    /// The frame was never handed to the socket: nothing can have been done.
    NotSent,
}

/// Why a call's outcome is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnknownCause {
    /// No answer within the answer time-out.
    TimedOut,
    /// The connection was lost after the frame was handed to the socket.
    ConnectionLost,
    /// The exchange answered a code that says it could not tell (`2`, `3`, `5`).
    ExchangeUnsure {
        /// The class of the code.
        refusal: SocketRefusal,
        /// The exchange's message.
        message: String,
    },
    /// A code the docs do not list.
    UnlistedCode {
        /// The code.
        code: i64,
        /// The exchange's message.
        message: String,
    },
    /// An answer that could not be read (a `result` that is not the method's object, or
    /// neither `result` nor `error`).
    Unreadable(String),
}

impl std::fmt::Display for UnknownCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TimedOut => f.write_str("no answer within the answer time-out"),
            Self::ConnectionLost => {
                f.write_str("the connection was lost after the frame was handed to the socket")
            }
            Self::ExchangeUnsure { refusal, message } => {
                write!(f, "the exchange could not tell: {refusal}: {message}")
            }
            Self::UnlistedCode { code, message } => {
                write!(f, "an error code the docs do not list: {code}: {message}")
            }
            Self::Unreadable(why) => write!(f, "an answer that could not be read: {why}"),
        }
    }
}

/// When a frame may have been processed: from when it was handed to the socket until the
/// client knew it no longer could be answered (the time-out, or the connection lost), both on
/// the local clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SocketAttempt {
    /// When the frame was handed to the socket.
    pub written_at: SystemTime,
    /// When its outcome was settled as unknown (time-out, connection lost) or known.
    pub settled_at: SystemTime,
}

/// A call settled: its request id, the call, its outcome and — when its frame was handed to
/// the socket — the attempt's times, which bound where a resolver looks.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    /// The request id the call was sent with.
    pub id: u64,
    /// The call.
    pub call: SocketRequest,
    /// Whether the call was a resend of an order whose earlier outcome was unknown.
    pub resend: bool,
    /// The outcome.
    pub outcome: SocketOutcome,
    /// The attempt, when the frame was handed to the socket.
    pub attempt: Option<SocketAttempt>,
}

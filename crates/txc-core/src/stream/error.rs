//! The stream's errors: [`StreamError`] (what goes wrong on a running stream, emitted as an
//! event — never a log line) and [`RpcError`] (the server's JSON-RPC error object).

use serde_json::Value;
use serde_json::value::RawValue;

use super::Channel;
use crate::Error;

/// Something that went wrong on a running stream, as an event
/// ([`StreamEvent::Error`](super::StreamEvent::Error)). The stream goes on after each unless
/// a [`StreamEvent::Stopped`](super::StreamEvent::Stopped) follows.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The token request (`POST /api/v4/profile/websocket_token`) failed. Fatal when the
    /// exchange refused the key or the request (authentication, permission, validation) or
    /// the client is misconfigured; otherwise the stream reconnects after a delay.
    #[error("the WebSocket token could not be obtained{}", if *.fatal { " (fatal)" } else { "; retrying" })]
    TokenFailed {
        /// Why.
        #[source]
        error: Error,
        /// Whether the stream stops.
        fatal: bool,
    },
    /// The server refused `authorize` (typically an expired or invalid token). The stream
    /// reconnects with a fresh token, and stops after
    /// [`max_authorize_refusals`](super::StreamConfig::with_max_authorize_refusals) refusals in
    /// a row.
    #[error("authorization refused ({refusals} in a row{}): {error}", if *.fatal { ", fatal" } else { "" })]
    AuthorizationRefused {
        /// The server's error.
        error: RpcError,
        /// Refusals in a row, this one included.
        refusals: u32,
        /// Whether the stream stops.
        fatal: bool,
    },
    /// The server refused a channel's subscription (e.g. a market that does not exist). The
    /// channel is dropped from the stream and not subscribed again; the others go on.
    #[error("subscription to {channel} refused: {error}")]
    SubscriptionRefused {
        /// The channel.
        channel: Channel,
        /// The server's error.
        error: RpcError,
    },
    /// The server refused another request (`ping`, an `_unsubscribe`).
    #[error("{method} refused: {error}")]
    RequestRefused {
        /// The request's method.
        method: &'static str,
        /// The server's error.
        error: RpcError,
    },
    /// The REST look-ups of a resync failed (after the client's retries): the state the
    /// stream's events describe may miss changes until a resync succeeds. It is tried again
    /// after `retry_in`, unless a newer connection's resync replaces it.
    #[error("resync of connection {connection} failed{}: {error}", .retry_in.map_or_else(String::new, |d| format!(" (again in {d:?})")))]
    ResyncFailed {
        /// The connection whose establishment asked for it.
        connection: u64,
        /// Why.
        #[source]
        error: Error,
        /// When it is tried again; `None` when a newer resync replaces it.
        retry_in: Option<std::time::Duration>,
    },
    /// A frame that is not a JSON-RPC message (not JSON, not an object, an id that is not
    /// an integer, a binary frame that is not UTF-8 text).
    #[error("malformed frame ({reason}): {}", snippet(.text))]
    MalformedFrame {
        /// What is wrong with it.
        reason: String,
        /// The frame as received (binary frames converted lossily).
        text: String,
    },
    /// An answer whose id matches no request in flight (a late answer of a replaced
    /// connection, or the server's mistake).
    #[error("answer to no request in flight (id {id}): {}", snippet(.raw.get()))]
    UnmatchedAnswer {
        /// The answer's id.
        id: u64,
        /// The whole answer.
        raw: Box<RawValue>,
    },
    /// An answer of an unexpected shape (an `authorize` or subscribe success without
    /// `{"status":"success"}`, a `ping` answered without `"pong"`). It is taken as a success.
    #[error("unexpected answer to {method}: {}", snippet(.raw.get()))]
    UnexpectedAnswer {
        /// The request's method.
        method: &'static str,
        /// The whole answer.
        raw: Box<RawValue>,
    },
    /// The driver passed an input the machine was not waiting for (a frame with no
    /// connection open, `Connected` with no connect asked for): it is ignored.
    #[error("input {input} out of order (the machine is {state})")]
    OutOfOrder {
        /// The input.
        input: &'static str,
        /// What the machine was doing.
        state: &'static str,
    },
}

impl StreamError {
    /// Whether the stream stops because of this error.
    pub fn is_fatal(&self) -> bool {
        match self {
            Self::TokenFailed { fatal, .. } | Self::AuthorizationRefused { fatal, .. } => *fatal,
            _ => false,
        }
    }
}

/// The error object of a JSON-RPC answer, e.g. `{"code": 1, "message": "invalid argument"}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {message}", code.map_or_else(|| "no code:".to_owned(), |c| format!("code {c}:")))]
#[non_exhaustive]
pub struct RpcError {
    /// The code, when it is an integer.
    pub code: Option<i64>,
    /// The message (the raw object when it has none).
    pub message: String,
}

impl RpcError {
    /// Reads an error object leniently: any integer `code`, any string `message`.
    pub(crate) fn read(raw: &RawValue) -> Self {
        match serde_json::from_str::<Value>(raw.get()) {
            Ok(Value::Object(map)) => Self {
                code: map.get("code").and_then(Value::as_i64),
                message: map
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| raw.get().to_owned(), str::to_owned),
            },
            Ok(Value::String(message)) => Self {
                code: None,
                message,
            },
            _ => Self {
                code: None,
                message: raw.get().to_owned(),
            },
        }
    }
}

/// The start of `text`, for messages: at most 120 characters.
fn snippet(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or(text)),
        None => text.to_owned(),
    }
}

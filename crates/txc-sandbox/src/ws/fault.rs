//! [`WsFault`]: the failures a test injects into the WebSocket's open connections, and the
//! [`Command`] each becomes for every connection.

use std::time::Duration;

/// A failure to inject into the WebSocket's open connections.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WsFault {
    /// Every open connection is dropped at once, without a close frame.
    Drop,
    /// Every open connection stops reading and writing for this long (its requests wait,
    /// unanswered, and so do the updates).
    Stall(Duration),
    /// The next this many `authorize` requests are refused (an expired or invalid token).
    RefuseAuthorize(u32),
    /// The next this many order methods (placements, cancels) are processed — the order is
    /// placed or canceled — and then their connection is dropped before the answer is sent:
    /// the client's outcome is unknown.
    DropAfterOrder(u32),
    /// Every authorized connection is sent an update of a method the exchange does not
    /// document (`sandbox_unknown_update`).
    UnknownEvent,
    /// Every open connection is sent frames that are not JSON-RPC messages: text that is not
    /// JSON, JSON that is not an object, an id that is not an integer, a binary frame that is
    /// not UTF-8, and an update of a known channel whose parameters do not fit its record.
    MalformedFrames,
}

/// A fault sent to every connection.
#[derive(Debug, Clone)]
pub(crate) enum Command {
    Drop,
    Stall(Duration),
    UnknownEvent,
    MalformedFrames,
}

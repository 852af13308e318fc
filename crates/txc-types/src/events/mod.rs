//! The private event stream: [`WebSocketTokenQuery`] → [`WebSocketToken`], the token that
//! authorizes a WebSocket connection (`txc-sign`'s `stream` module drives the connection).
//!
//! | operation | request | answer |
//! |---|---|---|
//! | WebSocket token | [`WebSocketTokenQuery`] | [`WebSocketToken`] |

mod websocket_token;

pub use websocket_token::{WebSocketToken, WebSocketTokenQuery};

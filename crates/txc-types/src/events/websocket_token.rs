//! `POST /api/v4/profile/websocket_token`: a token that authorizes a private WebSocket
//! connection (the `authorize` method).
//!
//! This module describes the request and its answer; it does not open or authorize any
//! connection (`txc-core`'s `stream` module does that, sans-IO).

use std::fmt;

use serde::Deserialize;
use txc_derive::Request;
use zeroize::Zeroize;

/// Asks for a WebSocket token. It has no parameters of its own: the body is the signed
/// `request` and `nonce` every private request carries.
///
/// ```
/// use txc_types::endpoint::{Endpoint, RateLimit};
/// use txc_types::events::WebSocketTokenQuery;
/// assert_eq!(WebSocketTokenQuery::PATH, "/api/v4/profile/websocket_token");
/// assert_eq!(WebSocketTokenQuery::RATE_LIMIT, Some(RateLimit::new(10, 60)));
/// assert_eq!(serde_json::to_string(&WebSocketTokenQuery)?, "{}");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
// Asking again only issues another token; the endpoint's page: "Rate limit: 10 requests/60
// sec."
#[request(
    path = "/api/v4/profile/websocket_token",
    operation = "websocket_token",
    kind = Read,
    rate_limit = (10, 60),
    response = WebSocketToken,
)]
pub struct WebSocketTokenQuery;

/// A WebSocket token, the answer `{"websocket_token": "…"}`: the first parameter of the
/// WebSocket's `authorize` method.
///
/// It lets whoever holds it read the account's private streams, so it is treated as a
/// secret: its `Debug` shows no token, and its text is zeroized on drop. The exchange does
/// not document how long a token lives; its guide says to fetch a fresh one for every
/// connection, which is what the stream machine does. An empty token is not an answer.
///
/// ```
/// let token: txc_types::events::WebSocketToken =
///     serde_json::from_str(r#"{"websocket_token":"your_current_token"}"#)?;
/// assert_eq!(token.expose(), "your_current_token");
/// assert_eq!(format!("{token:?}"), "WebSocketToken(..)");
/// assert!(serde_json::from_str::<txc_types::events::WebSocketToken>(r#"{"websocket_token":""}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
// Decoded with a plain derive for now: fields the docs do not list are not kept.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "TokenAnswer")]
pub struct WebSocketToken {
    token: String,
}

/// The answer as sent.
#[derive(Deserialize)]
struct TokenAnswer {
    websocket_token: String,
}

impl TryFrom<TokenAnswer> for WebSocketToken {
    type Error = &'static str;
    fn try_from(mut answer: TokenAnswer) -> Result<Self, Self::Error> {
        if answer.websocket_token.is_empty() {
            return Err("websocket_token is empty");
        }
        Ok(Self {
            token: std::mem::take(&mut answer.websocket_token),
        })
    }
}

impl WebSocketToken {
    /// A token from its text (a test's, or one obtained some other way).
    pub fn new(token: impl Into<String>) -> Self {
        Self {
            token: token.into(),
        }
    }

    /// The token's text, to put in an `authorize` request. Never log it.
    pub fn expose(&self) -> &str {
        &self.token
    }
}

impl fmt::Debug for WebSocketToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebSocketToken(..)")
    }
}

impl Drop for WebSocketToken {
    fn drop(&mut self) {
        self.token.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_answer_and_refuses_others() {
        let token: WebSocketToken =
            serde_json::from_str(r#"{"websocket_token":"your_current_token"}"#).unwrap();
        assert_eq!(token.expose(), "your_current_token");
        for body in [
            r#"{"websocket_token":""}"#,
            r#"{"websocket_token":null}"#,
            r#"{"token":"x"}"#,
            "[]",
        ] {
            assert!(
                serde_json::from_str::<WebSocketToken>(body).is_err(),
                "{body}"
            );
        }
    }

    #[test]
    fn debug_never_shows_the_token() {
        let token = WebSocketToken::new("secret-token-text");
        assert!(!format!("{token:?}").contains("secret"));
    }
}

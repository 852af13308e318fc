//! `POST /api/v4/profile/websocket_token`: a token that authorizes a WebSocket connection
//! (the `authorize` method of `GET /ws`). Signed like every private request; the body has no
//! fields of its own. The token lives as long as the sandbox's state (the docs say nothing of
//! its lifetime; [`crate::WsFault::RefuseAuthorize`] plays an expired one).

use serde::Serialize;

use super::private::Endpoint;
use crate::config::{Limit, Op, Route};

/// Issues a WebSocket token. The docs' limit is 10 per 60 s; the sandbox counts in 10 s
/// windows, like every other route, so 10 per 10 s (sandbox's choice). The body's values are
/// not read.
pub(super) const WEBSOCKET_TOKEN: Endpoint<(), TokenRecord> = Endpoint::new(
    Op::new(
        "/api/v4/profile/websocket_token",
        Route::WebSocketToken,
        Limit::Fixed(10),
    ),
    |_, _| Ok(()),
    |locked, call, ()| {
        Ok(TokenRecord {
            websocket_token: {
                let now_us = locked.state.clock.now_us();
                locked.tokens.issue(call.api_key(), now_us)
            },
        })
    },
);

/// `{"websocket_token": "…"}`, as the docs' example.
#[derive(Debug, Serialize)]
pub(super) struct TokenRecord {
    websocket_token: String,
}

//! `POST /api/v4/profile/websocket_token`: a token that authorizes a WebSocket connection
//! (the `authorize` method of `GET /ws`). Signed like every private request; the body has no
//! fields of its own. The token lives as long as the sandbox's state (the docs say nothing of
//! its lifetime; [`crate::WsFault::RefuseAuthorize`] plays an expired one).

use serde::Serialize;

use super::private::{Call, Operation};
use crate::answer::{Answer, Rejection};
use crate::app::Shared;
use crate::op::Op;
use crate::state::State;

/// Issues a WebSocket token.
#[derive(Debug, Clone, Copy)]
pub(super) struct WebSocketToken;

/// `{"websocket_token": "…"}`, as the docs' example.
#[derive(Debug, Serialize)]
pub(super) struct TokenRecord {
    websocket_token: String,
}

impl Operation for WebSocketToken {
    type Request = ();
    type Reply = TokenRecord;

    fn op(self) -> Op {
        Op::WebSocketToken
    }

    fn parse(self, _shared: &Shared, _call: &Call<'_>) -> Result<(), Answer> {
        Ok(())
    }

    fn apply(self, state: &mut State, call: &Call<'_>, (): ()) -> Result<TokenRecord, Rejection> {
        Ok(TokenRecord {
            websocket_token: state.issue_ws_token(call.api_key()),
        })
    }
}

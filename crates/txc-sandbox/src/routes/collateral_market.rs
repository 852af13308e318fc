//! `POST /api/v4/order/collateral/market`: fills at the market's current price.

use std::sync::Arc;

use axum::Extension;
use axum::body::Body;
use axum::extract::State as Extract;
use axum::response::Response;
use http::HeaderMap;
use txc_sign::VerifiedRequest;

use super::{order_body, private};
use crate::answer::Answer;
use crate::app::Shared;
use crate::op::Op;
use crate::rules::OrderKind;
use crate::server::ConnectionReset;
use crate::state::State;

pub(super) async fn handle(
    Extract(shared): Extract<Arc<Shared>>,
    reset: Option<Extension<ConnectionReset>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let reset = reset.map(|Extension(reset)| reset);
    private::handle(shared, Op::Market, place, headers, body, reset).await
}

fn place(state: &mut State, verified: &VerifiedRequest, body: &[u8]) -> Answer {
    order_body::place(state, verified, body, OrderKind::Market)
}

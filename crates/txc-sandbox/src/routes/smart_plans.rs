//! `POST /api/v4/main-account/smart/plans`: the plans, for B2B partner keys only.

use std::sync::Arc;

use axum::Extension;
use axum::body::Body;
use axum::extract::State as Extract;
use axum::response::Response;
use http::HeaderMap;
use txc_sign::{AuthRejection, VerifiedRequest};

use super::private;
use crate::answer::{Answer, Outcome};
use crate::app::Shared;
use crate::op::Op;
use crate::rules;
use crate::server::ConnectionReset;
use crate::state::State;

pub(super) async fn handle(
    Extract(shared): Extract<Arc<Shared>>,
    reset: Option<Extension<ConnectionReset>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let reset = reset.map(|Extension(reset)| reset);
    private::handle(shared, Op::Plans, list, headers, body, reset).await
}

fn list(state: &mut State, verified: &VerifiedRequest, body: &[u8]) -> Answer {
    let partner = state
        .accounts
        .get(&verified.api_key)
        .is_some_and(|a| a.spec.partner);
    if !partner {
        return Answer::auth(AuthRejection::PERMISSION_DENIED);
    }
    let map = match rules::object(body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    let known = state.known_tickers();
    let ticker = match rules::parse_ticker(&map, |t| known.contains(t)) {
        Ok(ticker) => ticker,
        Err(rejection) => return rejection.answer(),
    };
    let plans: Vec<_> = state
        .plans
        .iter()
        .filter(|p| ticker.as_ref().is_none_or(|t| p.ticker == *t))
        .cloned()
        .collect();
    state.stats.plans_served += 1;
    Answer::ok(&plans, Outcome::Served)
}

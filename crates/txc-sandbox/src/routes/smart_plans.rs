//! `POST /api/v4/main-account/smart/plans`: the plans, for B2B partner keys only.

use std::sync::Arc;

use axum::Extension;
use axum::body::Body;
use axum::extract::State as Extract;
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use txc_sign::{AuthRejection, VerifiedRequest};
use txc_types::{RequestBodyError, SmartPlansQuery};

use super::private;
use crate::answer::{Answer, Outcome, Rejection};
use crate::app::Shared;
use crate::op::Op;
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
    let query = match SmartPlansQuery::from_body(body) {
        Ok(query) => query,
        Err(RequestBodyError::Invalid(_)) => return invalid_ticker(),
        Err(_) => {
            return bad_request(vec!["The ticker must be a string.".to_owned()]);
        }
    };
    let ticker = query.ticker().map(|t| t.as_str());
    if let Some(t) = ticker
        && !state.known_tickers().contains(t)
    {
        return invalid_ticker();
    }
    let plans: Vec<_> = state
        .plans
        .iter()
        .filter(|p| ticker.is_none() || p.ticker.as_deref() == ticker)
        .cloned()
        .collect();
    state.stats.plans_served += 1;
    Answer::ok(&plans, Outcome::Served)
}

fn invalid_ticker() -> Answer {
    bad_request(vec!["The selected ticker is invalid.".to_owned()])
}

/// HTTP 400 code 0 `Validation failed` on `ticker`, as the exchange answers this endpoint.
fn bad_request(errors: Vec<String>) -> Answer {
    let mut rejection = Rejection::validation(0, "ticker", errors);
    rejection.status = StatusCode::BAD_REQUEST;
    rejection.answer()
}

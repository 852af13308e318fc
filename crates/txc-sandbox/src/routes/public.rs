//! The public routes: `GET /api/v4/public/time`, and the `Date` header of every response.

use std::sync::Arc;

use axum::extract::State as Extract;
use axum::response::Response;
use http::header::{DATE, HeaderValue};

use super::answer::Answer;
use super::shared::Shared;
use crate::config::{Limit, Op, Route};
use crate::state::Outcome;

/// The rate limit of the public routes counts every caller together (the docs count per IP;
/// the sandbox has one).
const ANY_CALLER: &str = "";

/// `GET /api/v4/public/time`, limited to the docs' 2 000 per 10 s (of every caller together).
pub(super) const TIME: Op = Op::new(
    "/api/v4/public/time",
    Route::ServerTime,
    Limit::Fixed(2_000),
);

/// [`TIME`]: `{"time": <Unix seconds>}` by the sandbox's clock.
pub(super) async fn time(Extract(shared): Extract<Arc<Shared>>) -> Response {
    let mut locked = shared.lock();
    locked.state.stats.requests += 1;
    let answer = match locked.rate_limit(TIME, ANY_CALLER) {
        Ok(()) => {
            let seconds = locked.state.clock.now_ms() / 1_000;
            Answer::ok(&serde_json::json!({ "time": seconds }), Outcome::Served)
        }
        Err(rejection) => Answer::auth(rejection),
    };
    drop(locked);
    answer.into_response()
}

/// Sets the `Date` header from the sandbox's clock, which may be offset from the host's.
pub(super) async fn date(
    Extract(shared): Extract<Arc<Shared>>,
    mut response: Response,
) -> Response {
    let now = shared.exchange.clock().now();
    if let Ok(value) = HeaderValue::from_str(&httpdate::fmt_http_date(now)) {
        response.headers_mut().insert(DATE, value);
    }
    response
}

//! The public routes: `GET /api/v4/public/time`, and the `Date` header of every response.

use std::sync::Arc;

use axum::extract::State as Extract;
use axum::response::Response;
use http::header::{DATE, HeaderValue};

use crate::answer::{Answer, Outcome};
use crate::app::Shared;
use crate::auth::AuthRejection;
use crate::faults::Route;
use crate::op::{Limit, Op};

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
    let mut state = shared.state();
    state.stats.requests += 1;
    let now = std::time::Instant::now();
    let limit = state.limit(TIME);
    let answer = if state
        .limits
        .admit(ANY_CALLER, TIME.counted_as(), limit, now)
    {
        let seconds = state.clock.now_ms() / 1_000;
        Answer::ok(&serde_json::json!({ "time": seconds }), Outcome::Served)
    } else {
        state.stats.rate_limited += 1;
        Answer::auth(AuthRejection::TOO_MANY_REQUESTS)
    };
    drop(state);
    answer.into_response()
}

/// Sets the `Date` header from the sandbox's clock, which may be offset from the host's.
pub(super) async fn date(
    Extract(shared): Extract<Arc<Shared>>,
    mut response: Response,
) -> Response {
    let now = shared.clock().now();
    if let Ok(value) = HeaderValue::from_str(&httpdate::fmt_http_date(now)) {
        response.headers_mut().insert(DATE, value);
    }
    response
}

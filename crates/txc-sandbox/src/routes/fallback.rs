//! 404 for unknown paths and 405 for wrong methods, both with a JSON body.

use std::sync::Arc;

use axum::extract::State as Extract;
use axum::handler::Handler;
use axum::response::Response;
use axum::routing::{MethodRouter, get, post};
use http::header::{ALLOW, HeaderValue};
use http::{StatusCode, Uri};

use super::answer::Answer;
use super::shared::Shared;

/// Counts a request to an exchange path (not the control API) and records its outcome.
fn count(shared: &Shared, uri: &Uri, answer: &Answer) {
    if !uri.path().starts_with("/sandbox/") {
        let mut locked = shared.lock();
        locked.state.stats.requests += 1;
        locked.state.stats.record(&answer.outcome);
    }
}

/// HTTP 404 `{"code":0,"message":"Not found.","errors":{}}`.
pub(super) async fn not_found(Extract(shared): Extract<Arc<Shared>>, uri: Uri) -> Response {
    let answer = Answer::protocol(StatusCode::NOT_FOUND, "Not found.");
    count(&shared, &uri, &answer);
    answer.into_response()
}

fn method_not_allowed(shared: &Shared, uri: &Uri, allow: &'static str) -> Response {
    let answer = Answer::protocol(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed.");
    count(shared, uri, &answer);
    let mut response = answer.into_response();
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static(allow));
    response
}

/// A route taking `POST` to `handler`; any other method is answered HTTP 405.
pub(super) fn post_only<H, T>(handler: H) -> MethodRouter<Arc<Shared>>
where
    H: Handler<T, Arc<Shared>>,
    T: 'static,
{
    post(handler).fallback(method_not_allowed_post)
}

/// A route taking `GET` to `handler`; any other method is answered HTTP 405.
pub(super) fn get_only<H, T>(handler: H) -> MethodRouter<Arc<Shared>>
where
    H: Handler<T, Arc<Shared>>,
    T: 'static,
{
    only_get(get(handler))
}

/// `route`, a `GET` route, with any other method answered HTTP 405.
pub(super) fn only_get(route: MethodRouter<Arc<Shared>>) -> MethodRouter<Arc<Shared>> {
    route.fallback(method_not_allowed_get)
}

/// HTTP 405 for a route that takes `POST`.
async fn method_not_allowed_post(Extract(shared): Extract<Arc<Shared>>, uri: Uri) -> Response {
    method_not_allowed(&shared, &uri, "POST")
}

/// HTTP 405 for a route that takes `GET`.
async fn method_not_allowed_get(Extract(shared): Extract<Arc<Shared>>, uri: Uri) -> Response {
    method_not_allowed(&shared, &uri, "GET")
}

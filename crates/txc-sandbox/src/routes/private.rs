//! The pipeline every exchange operation goes through: count, pick a fault, read the body
//! (size limit), answer an unprocessed fault, authenticate, run the operation, record the
//! outcome, answer (maybe faulted).

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::body::Body;
use axum::extract::State as Extract;
use axum::response::Response;
use axum::routing::{MethodRouter, post};
use http::{HeaderMap, StatusCode};
use txc_sign::VerifiedRequest;

use super::body::{self, BodyError};
use super::fallback;
use crate::answer::Answer;
use crate::app::Shared;
use crate::auth;
use crate::faults::{self, Fault};
use crate::op::Op;
use crate::server::ConnectionControl;
use crate::state::State;

/// An authenticated request, as an operation sees it.
pub(super) struct Call<'a> {
    pub(super) verified: &'a VerifiedRequest,
    pub(super) body: &'a [u8],
    /// How long after placement the look-ups may show an order placed by this request
    /// ([`Fault::VisibleAfter`]; zero otherwise).
    pub(super) visible_after: Duration,
}

/// What an operation does once the request is authenticated.
pub(super) type Operation = fn(&mut State, &Call<'_>) -> Answer;

/// The route of `op`: `POST` runs `operation` through the pipeline, other methods get 405.
pub(super) fn route(op: Op, operation: Operation) -> MethodRouter<Arc<Shared>> {
    post(
        move |Extract(shared): Extract<Arc<Shared>>,
              control: Option<Extension<ConnectionControl>>,
              headers: HeaderMap,
              body: Body| async move {
            let control = control.map(|Extension(control)| control);
            handle(shared, op, operation, headers, body, control).await
        },
    )
    .fallback(fallback::method_not_allowed_post)
}

/// Handles one request to `op`; `control` holds the request's connection's switches.
async fn handle(
    shared: Arc<Shared>,
    op: Op,
    operation: Operation,
    headers: HeaderMap,
    body: Body,
    control: Option<ConnectionControl>,
) -> Response {
    let fault = shared.faults().take(op.route());
    {
        let mut state = shared.state();
        state.stats.requests += 1;
        if fault.is_some() {
            state.stats.faults_injected += 1;
        }
    }
    let read = body::read(body, shared.max_body_bytes()).await;
    let fault = match fault {
        Some(fault) if fault.skips_processing() => {
            return faults::unprocessed(fault).await;
        }
        other => other,
    };
    let visible_after = match &fault {
        Some(Fault::VisibleAfter(delay)) => *delay,
        _ => Duration::ZERO,
    };
    let answer = match read {
        Ok(bytes) => process(&shared, op, operation, &headers, &bytes, visible_after),
        Err(error) => {
            let mut answer = match error {
                BodyError::TooLarge => {
                    Answer::protocol(StatusCode::PAYLOAD_TOO_LARGE, "Request body is too large.")
                }
                BodyError::Broken => {
                    Answer::protocol(StatusCode::BAD_REQUEST, "Request body could not be read.")
                }
            };
            answer.close = true;
            shared.state().stats.record(&answer.outcome);
            answer
        }
    };
    match fault {
        Some(fault) => faults::processed(fault, answer, &shared, control).await,
        None => answer.into_response(),
    }
}

/// Authenticates and runs the operation under the state lock.
fn process(
    shared: &Shared,
    op: Op,
    operation: Operation,
    headers: &HeaderMap,
    body: &[u8],
    visible_after: Duration,
) -> Answer {
    let mut state = shared.state();
    let answer = match auth::authenticate(&mut state, op, headers, body) {
        Ok(verified) => operation(
            &mut state,
            &Call {
                verified: &verified,
                body,
                visible_after,
            },
        ),
        Err(rejection) => rejection,
    };
    state.stats.record(&answer.outcome);
    answer
}

//! The pipeline every exchange operation goes through: count, pick a fault, read the body
//! (size limit), answer an unprocessed fault, authenticate, run the operation, record the
//! outcome, answer (maybe faulted).

use std::sync::Arc;

use axum::body::Body;
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use txc_sign::VerifiedRequest;

use super::body::{self, BodyError};
use crate::answer::Answer;
use crate::app::Shared;
use crate::auth;
use crate::faults;
use crate::op::Op;
use crate::server::ConnectionReset;
use crate::state::State;

/// What an operation does once the request is authenticated.
pub(super) type Operation = fn(&mut State, &VerifiedRequest, &[u8]) -> Answer;

/// Handles one request to `op`; `reset` is the request's connection's reset switch.
pub(super) async fn handle(
    shared: Arc<Shared>,
    op: Op,
    operation: Operation,
    headers: HeaderMap,
    body: Body,
    reset: Option<ConnectionReset>,
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
        Some(fault) if faults::skips_processing(&fault) => {
            return faults::unprocessed(fault).await;
        }
        other => other,
    };
    let answer = match read {
        Ok(bytes) => process(&shared, op, operation, &headers, &bytes),
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
        Some(fault) => faults::processed(fault, answer, &shared, reset).await,
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
) -> Answer {
    let mut state = shared.state();
    let answer = match auth::authenticate(&mut state, op, headers, body) {
        Ok(verified) => operation(&mut state, &verified, body),
        Err(rejection) => rejection,
    };
    state.stats.record(&answer.outcome);
    answer
}

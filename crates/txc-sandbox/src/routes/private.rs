//! The pipeline every exchange operation goes through: count, pick a fault, read the body
//! (size limit), answer an unprocessed fault, authenticate, check the body's rules, run the
//! operation, record the outcome, answer (maybe faulted).
//!
//! The state's lock is held only for what changes or reads the state: the rate limit and the
//! nonce, the operation's effect, the counters. Authentication (the HMAC), the body's JSON
//! and its rules, and encoding the answer run without it, so concurrent requests wait for
//! each other only for the state change.

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::body::Body;
use axum::extract::State as Extract;
use axum::response::Response;
use axum::routing::{MethodRouter, post};
use http::{HeaderMap, StatusCode};
use serde::Serialize;
use serde_json::{Map, Value};

use super::body::{self, BodyError};
use super::fallback;
use crate::answer::{Answer, Outcome, Rejection};
use crate::app::Shared;
use crate::auth::{self, AuthRejection, Signed};
use crate::faults::{self, Fault};
use crate::op::Op;
use crate::server::ConnectionControl;
use crate::state::{AsOf, State};

/// An authenticated request, as an operation sees it.
pub(super) struct Call<'a> {
    /// The key that signed it, and the body's fields.
    pub(super) signed: &'a Signed,
    /// How long after placement the look-ups may show an order placed by this request
    /// ([`Fault::VisibleAfter`]; zero otherwise).
    pub(super) visible_after: Duration,
    /// How far behind a look-up answers ([`Fault::Lagging`]; zero otherwise).
    pub(super) lag: Duration,
}

impl Call<'_> {
    /// When a look-up answers as of: `now_us`, less its lag ([`Fault::Lagging`]).
    pub(super) fn as_of(&self, now_us: u64) -> AsOf {
        let lag = u64::try_from(self.lag.as_micros()).unwrap_or(u64::MAX);
        AsOf {
            at_us: now_us.saturating_sub(lag),
            lagging: lag > 0,
        }
    }
}

impl Call<'_> {
    /// The API key that signed the request.
    pub(super) fn api_key(&self) -> &str {
        &self.signed.api_key
    }

    /// The body's fields, or `Invalid payload.` for a body whose values cannot be read
    /// (`1e400`, nesting beyond serde_json's limit), answered once the nonce is used.
    pub(super) fn fields(&self) -> Result<&Map<String, Value>, Answer> {
        self.signed
            .envelope
            .fields
            .as_ref()
            .ok_or_else(|| Answer::auth(AuthRejection::INVALID_PAYLOAD))
    }
}

/// An exchange operation in two steps: its rules, which read only what the configuration
/// fixes and run without the state's lock, and its effect, under the lock.
pub(super) trait Operation: Copy + Send + Sync + 'static {
    /// What the rules make of a body.
    type Request;
    /// The success answer, encoded after the lock is released.
    type Reply: Serialize;

    /// The operation.
    fn op(self) -> Op;

    /// What a success answer counts as.
    fn served(self) -> Outcome {
        Outcome::Served
    }

    /// The HTTP status of a success answer.
    fn success_status(self) -> StatusCode {
        StatusCode::OK
    }

    /// Checks the request against the operation's rules and the key's permissions.
    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<Self::Request, Answer>;

    /// Runs `request` against the state.
    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: Self::Request,
    ) -> Result<Self::Reply, Rejection>;
}

/// The route of `operation`: `POST` runs it through the pipeline, other methods get 405.
pub(super) fn route<O: Operation>(operation: O) -> MethodRouter<Arc<Shared>> {
    post(
        move |Extract(shared): Extract<Arc<Shared>>,
              control: Option<Extension<ConnectionControl>>,
              headers: HeaderMap,
              body: Body| async move {
            let control = control.map(|Extension(control)| control);
            handle(operation, shared, headers, body, control).await
        },
    )
    .fallback(fallback::method_not_allowed_post)
}

/// Handles one request to `O`; `control` holds the request's connection's switches.
async fn handle<O: Operation>(
    operation: O,
    shared: Arc<Shared>,
    headers: HeaderMap,
    body: Body,
    control: Option<ConnectionControl>,
) -> Response {
    let fault = shared.faults().take(operation.op().route());
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
    let (visible_after, lag) = match &fault {
        Some(Fault::VisibleAfter(delay)) => (*delay, Duration::ZERO),
        Some(Fault::Lagging(lag)) => (Duration::ZERO, *lag),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let answer = match read {
        Ok(bytes) => process(operation, &shared, &headers, &bytes, visible_after, lag),
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

/// Authenticates and checks the request without the lock, admits it and runs the operation
/// under the lock, and encodes the answer after.
fn process<O: Operation>(
    operation: O,
    shared: &Shared,
    headers: &HeaderMap,
    body: &[u8],
    visible_after: Duration,
    lag: Duration,
) -> Answer {
    let signed = match auth::check(shared.keys(), operation.op().path(), headers, body) {
        Ok(signed) => signed,
        Err(rejection) => {
            let answer = Answer::auth(rejection);
            shared.state().stats.record(&answer.outcome);
            return answer;
        }
    };
    let call = Call {
        signed: &signed,
        visible_after,
        lag,
    };
    let request = operation.parse(shared, &call);
    let mut state = shared.state();
    // Timers that ran out act before anything else sees the state.
    state.expire_kill_switches();
    let verdict = match (auth::admit(&mut state, operation.op(), &signed), request) {
        (Err(rejection), _) => Verdict::Refused(rejection),
        (Ok(()), Err(answer)) => Verdict::Answered(answer),
        (Ok(()), Ok(request)) => match operation.apply(&mut state, &call, request) {
            Ok(reply) => Verdict::Served(reply),
            Err(rejection) => Verdict::Rejected(rejection),
        },
    };
    let outcome = verdict.outcome(operation.served());
    state.stats.record(&outcome);
    drop(state);
    let mut answer = verdict.answer(outcome);
    if answer.status == StatusCode::OK {
        answer.status = operation.success_status();
    }
    answer
}

/// What became of an authenticated request, before its answer is encoded (after the lock).
enum Verdict<R> {
    /// Refused by the rate limit or the nonce rules.
    Refused(AuthRejection),
    /// Refused by the operation's rules or permissions, already answered.
    Answered(Answer),
    /// Rejected against the state.
    Rejected(Rejection),
    /// Served.
    Served(R),
}

impl<R: Serialize> Verdict<R> {
    /// What the answer counts as; `served` for a success.
    fn outcome(&self, served: Outcome) -> Outcome {
        let rejected = |code, message: &str| Outcome::Rejected {
            code,
            message: message.to_owned(),
        };
        match self {
            Self::Refused(rejection) => rejected(rejection.code, rejection.message),
            Self::Answered(answer) => answer.outcome.clone(),
            Self::Rejected(rejection) => rejected(rejection.code, rejection.message),
            Self::Served(_) => served,
        }
    }

    /// The answer, encoded.
    fn answer(self, outcome: Outcome) -> Answer {
        match self {
            Self::Refused(rejection) => Answer::auth(rejection),
            Self::Answered(answer) => answer,
            Self::Rejected(rejection) => rejection.answer(),
            Self::Served(reply) => Answer::ok(&reply, outcome),
        }
    }
}

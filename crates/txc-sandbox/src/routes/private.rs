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
use axum::routing::MethodRouter;
use http::{HeaderMap, StatusCode};
use serde::Serialize;
use serde_json::{Map, Value};

use super::answer::Answer;
use super::body::{self, BodyError};
use super::connection::ConnectionControl;
use super::fallback;
use super::faults::{self, Fault};
use super::shared::Shared;
use crate::auth::{AuthRejection, Exchange, Locked, Signed};
use crate::config::Op;
use crate::rules::MarketRule;
use crate::state::{AsOf, Outcome, State};
use crate::wire::Rejection;

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
    /// When a look-up answers as of: the sandbox's time in `state`, less the look-up's lag
    /// ([`Fault::Lagging`]).
    pub(super) fn as_of(&self, state: &State) -> AsOf {
        let lag = u64::try_from(self.lag.as_micros()).unwrap_or(u64::MAX);
        AsOf {
            at_us: state.clock.now_us().saturating_sub(lag),
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

/// An exchange operation, written once: its [`Op`] (path, fault route, rate limit), who may
/// call it, what a success counts as and its HTTP status, then its two steps — its rules, which
/// read only what the configuration fixes and run without the state's lock, and its effect,
/// under the lock.
pub(super) struct Endpoint<Request, Reply> {
    /// Its path, fault route and rate limit.
    pub(super) op: Op,
    /// Whether only a B2B partner's key may call it (others: HTTP 403, before its rules).
    partners_only: bool,
    /// What a success counts as.
    counts: Counts,
    /// The HTTP status of a success.
    status: StatusCode,
    /// Its rules: the request they make of the body and the key, or the answer.
    rules: fn(&Exchange, &Call<'_>) -> Result<Request, Answer>,
    /// Its effect: the request run against the state (and, for the WebSocket's token, the
    /// admission's memory), under the lock.
    effect: fn(&mut Locked, &Call<'_>, Request) -> Result<Reply, Rejection>,
}

/// The rules step of an operation whose request is read against the markets: the request's
/// [`MarketRule`].
pub(super) fn market_rule<Request: MarketRule>(
    exchange: &Exchange,
    call: &Call<'_>,
) -> Result<Request, Answer> {
    Ok(Request::parse(call.fields()?, exchange.markets())?)
}

/// What an operation's success counts as in the statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Counts {
    /// A request served, nothing more.
    Request,
    /// An accepted order.
    Order,
    /// A look-up answered.
    Lookup,
    /// A smart plans answer.
    Plans,
}

impl<Request, Reply> Clone for Endpoint<Request, Reply> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Request, Reply> Copy for Endpoint<Request, Reply> {}

impl<Request, Reply> Endpoint<Request, Reply> {
    /// The operation `op`: any key, a success counts as a request served, HTTP 200.
    pub(super) const fn new(
        op: Op,
        rules: fn(&Exchange, &Call<'_>) -> Result<Request, Answer>,
        effect: fn(&mut Locked, &Call<'_>, Request) -> Result<Reply, Rejection>,
    ) -> Self {
        Self {
            op,
            partners_only: false,
            counts: Counts::Request,
            status: StatusCode::OK,
            rules,
            effect,
        }
    }

    /// Only for B2B partner keys: others are answered HTTP 403 before the rules.
    pub(super) const fn partners_only(self) -> Self {
        Self {
            partners_only: true,
            ..self
        }
    }

    /// A success counts as `counts`.
    pub(super) const fn counts(self, counts: Counts) -> Self {
        Self { counts, ..self }
    }

    /// A success is answered with `status`.
    pub(super) const fn status(self, status: StatusCode) -> Self {
        Self { status, ..self }
    }
}

/// The route of `endpoint`: `POST` runs it through the pipeline, other methods get 405.
pub(super) fn route<Request, Reply>(endpoint: Endpoint<Request, Reply>) -> MethodRouter<Arc<Shared>>
where
    Request: 'static,
    Reply: Serialize + 'static,
{
    fallback::post_only(
        move |Extract(shared): Extract<Arc<Shared>>,
              control: Option<Extension<ConnectionControl>>,
              headers: HeaderMap,
              body: Body| async move {
            let control = control.map(|Extension(control)| control);
            handle(endpoint, shared, headers, body, control).await
        },
    )
}

/// Handles one request to `endpoint`; `control` holds the request's connection's switches.
async fn handle<Request, Reply: Serialize>(
    endpoint: Endpoint<Request, Reply>,
    shared: Arc<Shared>,
    headers: HeaderMap,
    body: Body,
    control: Option<ConnectionControl>,
) -> Response {
    let fault = shared.faults().take(endpoint.op.route);
    {
        let mut locked = shared.lock();
        locked.state.stats.requests += 1;
        if fault.is_some() {
            locked.state.stats.faults_injected += 1;
        }
    }
    let read = body::read(body, shared.exchange.settings().max_body_bytes).await;
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
        Ok(bytes) => process(endpoint, &shared, &headers, &bytes, visible_after, lag),
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
            shared.lock().state.stats.record(&answer.outcome);
            answer
        }
    };
    match fault {
        Some(fault) => faults::processed(fault, answer, &shared.exchange, control).await,
        None => answer.into_response(),
    }
}

/// Authenticates and checks the request without the lock, admits it and runs the operation
/// under the lock, and encodes the answer after.
fn process<Request, Reply: Serialize>(
    endpoint: Endpoint<Request, Reply>,
    shared: &Shared,
    headers: &HeaderMap,
    body: &[u8],
    visible_after: Duration,
    lag: Duration,
) -> Answer {
    let signed = match shared.exchange.check(endpoint.op.path, headers, body) {
        Ok(signed) => signed,
        Err(rejection) => {
            let answer = Answer::auth(rejection);
            shared.lock().state.stats.record(&answer.outcome);
            return answer;
        }
    };
    let call = Call {
        signed: &signed,
        visible_after,
        lag,
    };
    let request = if endpoint.partners_only && !signed.partner {
        Err(Answer::auth(AuthRejection::PERMISSION_DENIED))
    } else {
        (endpoint.rules)(&shared.exchange, &call)
    };
    let mut locked = shared.lock();
    // Timers that ran out, and funding times that passed, act before anything else sees the
    // state.
    locked.state.expire_kill_switches();
    let now_us = locked.state.clock.now_us();
    locked.state.catch_up(now_us);
    let verdict = match (locked.admit(endpoint.op, &signed), request) {
        (Err(rejection), _) => Verdict::Refused(rejection),
        (Ok(()), Err(answer)) => Verdict::Answered(answer),
        (Ok(()), Ok(request)) => match (endpoint.effect)(&mut locked, &call, request) {
            Ok(reply) => {
                match endpoint.counts {
                    Counts::Lookup => locked.state.stats.lookups_served += 1,
                    Counts::Plans => locked.state.stats.plans_served += 1,
                    Counts::Request | Counts::Order => {}
                }
                Verdict::Served(reply)
            }
            Err(rejection) => Verdict::Rejected(rejection),
        },
    };
    // What the operation did to margins: margin calls, liquidations.
    locked.state.settle_risk();
    let served = if endpoint.counts == Counts::Order {
        Outcome::OrderAccepted
    } else {
        Outcome::Served
    };
    let outcome = verdict.outcome(served);
    locked.state.stats.record(&outcome);
    drop(locked);
    let mut answer = verdict.answer(outcome);
    if answer.status == StatusCode::OK {
        answer.status = endpoint.status;
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
            Self::Rejected(rejection) => Answer::from(rejection),
            Self::Served(reply) => Answer::ok(&reply, outcome),
        }
    }
}

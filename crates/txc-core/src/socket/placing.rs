//! What a socket call's outcome means to its caller and to the client's ledger
//! ([`finish_call`]), and placing exactly once over the socket ([`SocketPlaceOnce`]): the same
//! rule as REST's [`PlaceOnce`](crate::resolve::PlaceOnce), resolved by the same resolver.

use std::time::SystemTime;

use txc_types::socket::{SocketAnswer, SocketMethod, SocketRequest};

use super::error::SocketError;
use super::outcome::{Settled, SocketOutcome};
use super::session::SocketCallState;
use crate::machine::Wake;
use crate::resolve::{Evidence, Found, PlacedOco, PlacedOrder, Resolution, Resolve, ResolveOco};
use crate::{ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError, Unresolved};

/// What placing over the socket exactly once found: the socket's own answer, or what
/// resolving found over REST after an unknown outcome.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// One per placement: matching on it beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub enum SocketPlaced {
    /// The order method's own answer.
    Answered(SocketAnswer),
    /// An order (or an OTO's entry) found by resolving.
    Order(PlacedOrder),
    /// An OCO pair found by resolving.
    Oco(PlacedOco),
}

impl SocketPlaced {
    /// The exchange's order id: the order's, an OCO's take-profit leg's or group's, an OTO's
    /// entry's (`None` for an answer without one).
    pub fn order_id(&self) -> Option<u64> {
        match self {
            Self::Answered(SocketAnswer::Oco(group)) => Some(group.id),
            Self::Answered(answer) => answer.orders().first().map(|o| o.id),
            Self::Order(order) => Some(order.order_id()),
            Self::Oco(pair) => pair.pair().map(|p| p.id),
        }
    }
}

/// The operation an order method's call is named by in errors and records.
pub(crate) fn operation(method: SocketMethod) -> &'static str {
    method.name()
}

/// A standalone call's end, read for its caller — the answer, or a typed error — with the
/// ledger settled: forgotten once definite (done, refused, never sent), left unresolved (with
/// its journal record, the attempt's real times) when unknown — then the error is
/// [`Error::OutcomeUnknown`] carrying the [`PendingOrder`] the client's `resolve` takes.
pub fn finish_call(
    core: &ClientCore,
    call: &SocketCallState,
    result: Result<Settled, Error>,
) -> Result<SocketAnswer, Error> {
    let settled = result?;
    let method = call.request().method();
    let settled_at = settled.attempt.map(|a| a.settled_at);
    let pending = call.pending(settled_at);
    let settle = |refused: bool| {
        if let Some(pending) = &pending {
            core.ledger().settle(pending, core.nonce_mode(), refused);
        }
    };
    match settled.outcome {
        SocketOutcome::Done(answer) => {
            settle(false);
            Ok(*answer)
        }
        SocketOutcome::Unknown(cause) => {
            let error = Error::Socket(SocketError::Unknown { method, cause });
            let Some(pending) = pending else {
                return Err(error);
            };
            keep_unresolved(core, &pending);
            let unresolved = Unresolved::new(operation(method), pending, error);
            Err(Error::OutcomeUnknown(Box::new(unresolved)))
        }
        outcome => {
            settle(true);
            Err(refusal(method, outcome))
        }
    }
}

/// The record of a socket order whose outcome is unknown, with its attempt's real times:
/// recorded again (same key) and left unresolved.
fn keep_unresolved(core: &ClientCore, pending: &PendingOrder) {
    let record = crate::resolve::Record {
        market: pending.market(),
        client_order_id: pending.client_order_id(),
        trigger: pending.is_trigger(),
        attempts: pending.attempts().to_vec(),
        socket: pending.socket_attempts().to_vec(),
    };
    // The record with the provisional times stays if the journal cannot take the real ones.
    let _ = core.ledger().record(record, None);
    core.ledger()
        .abandon(pending.market(), pending.client_order_id());
}

/// The error of an outcome that did nothing (refused, rate-limited, duplicate, never sent).
fn refusal(method: SocketMethod, outcome: SocketOutcome) -> Error {
    let error = match outcome {
        SocketOutcome::Refused { refusal, message } => SocketError::Refused {
            method,
            refusal,
            message,
        },
        SocketOutcome::RateLimited { refusal, message } => SocketError::RateLimited {
            method,
            refusal,
            message,
        },
        SocketOutcome::Duplicate { message } => SocketError::Duplicate { method, message },
        SocketOutcome::Unknown(cause) => SocketError::Unknown { method, cause },
        _ => SocketError::NotConnected {
            url: String::new(),
            reason: "the connection closed before the frame was written".to_owned(),
        },
    };
    Error::Socket(error)
}

/// Resolving a socket placement whose outcome is unknown, over REST: an order (or an OTO's
/// entry) by its `client_order_id` ([`Resolve`]), an OCO pair by its take-profit leg's
/// ([`ResolveOco`]) — the same resolvers as REST's, with events first.
pub enum SocketResolver<'a> {
    /// An order.
    Order(Resolve<'a>),
    /// An OCO pair.
    Oco(ResolveOco<'a>),
}

impl<'a> SocketResolver<'a> {
    /// The resolver of `pending`, placed by `method`.
    pub fn new(core: &'a ClientCore, method: SocketMethod, pending: PendingOrder) -> Self {
        let op = operation(method);
        match method {
            SocketMethod::OcoPlace => Self::Oco(ResolveOco::of_pair(core, pending, op)),
            _ => Self::Order(Resolve::of_order(core, pending, op)),
        }
    }
}

impl Machine for SocketResolver<'_> {
    type Output = Result<Resolution<SocketPlaced>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self {
            Self::Order(resolve) => match resolve.next(now).forward() {
                Ok(step) => step,
                Err(r) => Step::Done(r.map(|r| map_resolution(r, SocketPlaced::Order))),
            },
            Self::Oco(resolve) => match resolve.next(now).forward() {
                Ok(step) => step,
                Err(r) => Step::Done(r.map(|r| map_resolution(r, SocketPlaced::Oco))),
            },
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match self {
            Self::Order(resolve) => resolve.receive(response),
            Self::Oco(resolve) => resolve.receive(response),
        }
    }

    fn wake(&self) -> Option<Wake<'_>> {
        match self {
            Self::Order(resolve) => resolve.wake(),
            Self::Oco(resolve) => resolve.wake(),
        }
    }
}

fn map_resolution<R>(
    resolution: Resolution<R>,
    f: impl FnOnce(R) -> SocketPlaced,
) -> Resolution<SocketPlaced> {
    match resolution {
        Resolution::Placed(found) => {
            Resolution::Placed(Found::new(f(found.record), found.evidence))
        }
        Resolution::NotPlaced(evidence) => Resolution::NotPlaced(evidence),
        Resolution::CannotTell(evidence) => Resolution::CannotTell(evidence),
    }
}

/// What [`SocketPlaceOnce`] asks of its driver.
#[non_exhaustive]
// One step at a time, never stored: boxing the answer would allocate per placement.
#[allow(clippy::large_enum_variant)]
pub enum OnceStep<'a> {
    /// Run this call through the session ([`SocketSession::step`](super::SocketSession::step))
    /// and hand it back, with its end, to [`SocketPlaceOnce::sent`].
    Send(SocketCallState),
    /// Drive this resolver over REST and hand its end to [`SocketPlaceOnce::resolved`].
    Resolve(Box<SocketResolver<'a>>),
    /// Ended.
    Done(Result<Found<SocketPlaced>, Error>),
}

/// What the machine was last handed.
// One at a time, moved out at once.
#[allow(clippy::large_enum_variant)]
enum Input {
    Start,
    Sent(SocketCallState, Result<Settled, Error>),
    Resolved(Result<Resolution<SocketPlaced>, Error>),
    Nothing,
}

/// Places an order over the socket exactly once, by REST's rule
/// ([`PlaceOnce`](crate::resolve::PlaceOnce)): an unresolved record of its `client_order_id`
/// (this process's, or a journal's from an earlier one) is resolved first; the record is
/// journaled before every frame; an unknown outcome (a time-out, the connection lost after
/// the frame, an answer that says nothing) is resolved — events first, then look-ups over
/// REST — and the order sent again (same `client_order_id`) only when proven not placed, at
/// most the client's `max_placements` times; `43` answering a resend is evidence that an
/// earlier send placed it: resolved again, placed if found, else unknown. Never resent
/// without resolving. A refusal of a later send (other than `43`) ends it unknown, as REST's
/// does.
pub struct SocketPlaceOnce<'a> {
    core: &'a ClientCore,
    request: SocketRequest,
    placements: u32,
    pending: PendingOrder,
    evidence: Option<Evidence>,
    /// While resolving: the cause of the unknown outcome, and whether a resend was answered
    /// `43`.
    resolving: Option<(Error, bool)>,
    input: Input,
    finished: bool,
}

impl<'a> SocketPlaceOnce<'a> {
    /// Places `request` exactly once for `core`'s client; a request without a
    /// `client_order_id` (a TPSL pair, a cancel) cannot be: refused before any I/O.
    pub fn new(core: &'a ClientCore, request: SocketRequest) -> Result<Self, Error> {
        let market = request
            .market()
            .and_then(|m| m.parse::<txc_types::values::Market>().ok());
        let (Some(market), Some(id), true) = (
            market,
            request.client_order_id().cloned(),
            request.method().is_placement(),
        ) else {
            return Err(Error::InvalidRequest(
                txc_types::errors::ValidationError::InvalidField {
                    field: "client_order_id",
                    reason: txc_types::errors::Reason::Unsupported(
                        "is needed to place exactly once: this call carries none or places \
                         nothing (send it with place, and look it up by its market)",
                    ),
                },
            ));
        };
        let trigger = request.method() != SocketMethod::MarketPlace;
        Ok(Self {
            core,
            request,
            placements: 1,
            pending: PendingOrder::new(market, id, Vec::new()).with_trigger(trigger),
            evidence: None,
            resolving: None,
            input: Input::Start,
            finished: false,
        })
    }

    /// The order's record: every attempt so far.
    pub fn pending(&self) -> &PendingOrder {
        &self.pending
    }

    /// Hands back the call [`OnceStep::Send`] handed out, with its end.
    pub fn sent(&mut self, call: SocketCallState, result: Result<Settled, Error>) {
        self.input = Input::Sent(call, result);
    }

    /// The end of the resolver [`OnceStep::Resolve`] handed out.
    pub fn resolved(&mut self, result: Result<Resolution<SocketPlaced>, Error>) {
        self.input = Input::Resolved(result);
    }

    /// What to do next: call it first, and again after each [`sent`](Self::sent) or
    /// [`resolved`](Self::resolved), until [`OnceStep::Done`].
    pub fn step(&mut self) -> OnceStep<'a> {
        if self.finished {
            return OnceStep::Done(Err(Error::invalid_config(
                "place_once",
                "the placement has already finished",
            )));
        }
        match std::mem::replace(&mut self.input, Input::Nothing) {
            Input::Start => self.start(),
            Input::Sent(call, result) => self.read_sent(call, result),
            Input::Resolved(result) => self.read_resolved(result),
            Input::Nothing => self.done(Err(Error::invalid_config(
                "place_once",
                "the driver handed nothing back",
            ))),
        }
    }

    fn done(&mut self, result: Result<Found<SocketPlaced>, Error>) -> OnceStep<'a> {
        self.finished = true;
        OnceStep::Done(result)
    }

    fn start(&mut self) -> OnceStep<'a> {
        let ledger = self.core.ledger();
        match ledger.adopt(self.pending.market(), self.pending.client_order_id()) {
            Err(in_flight) => self.done(Err(in_flight)),
            Ok(None) => OnceStep::Send(SocketCallState::new(self.request.clone())),
            Ok(Some(earlier)) => {
                let (pending, cause) =
                    crate::resolve::taken_over(earlier, self.pending.is_trigger());
                self.pending = pending;
                self.resolve(cause, false)
            }
        }
    }

    fn resolve(&mut self, cause: Error, refused_43: bool) -> OnceStep<'a> {
        self.resolving = Some((cause, refused_43));
        let resolver = SocketResolver::new(self.core, self.request.method(), self.pending.clone());
        OnceStep::Resolve(Box::new(resolver))
    }

    fn read_sent(&mut self, call: SocketCallState, result: Result<Settled, Error>) -> OnceStep<'a> {
        let method = self.request.method();
        let settled = match result {
            Ok(settled) => settled,
            Err(not_sent) if self.placements == 1 => return self.done(Err(not_sent)),
            Err(not_sent) => {
                // Every earlier attempt was proven not placed, and this one was not sent.
                let mut unresolved =
                    Unresolved::new(operation(method), self.pending.clone(), not_sent);
                unresolved.evidence = self.evidence.take();
                return self.done(Err(Error::NotPlaced(Box::new(unresolved))));
            }
        };
        if let Some(pending) = call.pending(settled.attempt.map(|a| a.settled_at)) {
            self.pending = pending;
        }
        match settled.outcome {
            SocketOutcome::Done(answer) => {
                self.core
                    .ledger()
                    .settle(&self.pending, self.core.nonce_mode(), false);
                let placed = Found::new(SocketPlaced::Answered(*answer), Evidence::answered());
                self.done(Ok(placed))
            }
            SocketOutcome::Unknown(cause) => {
                self.rerecord();
                self.resolve(Error::Socket(SocketError::Unknown { method, cause }), false)
            }
            SocketOutcome::Duplicate { message } => self.resolve(
                Error::Socket(SocketError::Duplicate { method, message }),
                true,
            ),
            outcome if self.placements == 1 => {
                self.core
                    .ledger()
                    .settle(&self.pending, self.core.nonce_mode(), true);
                let error = refusal(method, outcome);
                self.done(Err(error))
            }
            outcome => {
                let error = refusal(method, outcome);
                self.unknown(error)
            }
        }
    }

    fn read_resolved(&mut self, result: Result<Resolution<SocketPlaced>, Error>) -> OnceStep<'a> {
        let (cause, refused_43) = self.resolving.take().unwrap_or_else(|| {
            (
                Error::Unproven {
                    reason: "resolved".to_owned(),
                },
                false,
            )
        });
        match result {
            Ok(Resolution::Placed(found)) => self.done(Ok(found)),
            Ok(Resolution::NotPlaced(evidence)) => {
                self.evidence = Some(evidence);
                if refused_43 {
                    return self.unknown(cause);
                }
                if self.placements >= self.core.max_placements() {
                    let method = self.request.method();
                    let mut unresolved =
                        Unresolved::new(operation(method), self.pending.clone(), cause);
                    unresolved.evidence = self.evidence.take();
                    return self.done(Err(Error::NotPlaced(Box::new(unresolved))));
                }
                self.resend()
            }
            Ok(Resolution::CannotTell(evidence)) => {
                self.evidence = Some(evidence);
                let resend = self.core.resend_when_cancels_are_invisible()
                    && !refused_43
                    && self.placements < self.core.max_placements();
                if resend {
                    return self.resend();
                }
                let reason = crate::resolve::absence_caveat(self.core).unwrap_or_default();
                self.unknown(Error::Unproven { reason })
            }
            Err(Error::OutcomeUnknown(unknown)) => {
                let Unresolved {
                    cause, evidence, ..
                } = *unknown;
                self.evidence = evidence;
                self.unknown(cause)
            }
            Err(other) => self.unknown(other),
        }
    }

    fn resend(&mut self) -> OnceStep<'a> {
        self.placements += 1;
        OnceStep::Send(SocketCallState::resend(self.request.clone(), &self.pending))
    }

    /// The record again with the attempt's real times (same key), still in flight.
    fn rerecord(&self) {
        let record = crate::resolve::Record {
            market: self.pending.market(),
            client_order_id: self.pending.client_order_id(),
            trigger: self.pending.is_trigger(),
            attempts: self.pending.attempts().to_vec(),
            socket: self.pending.socket_attempts().to_vec(),
        };
        let _ = self.core.ledger().record(record, None);
    }

    /// Ends unknown because of `cause`, the record kept unresolved with the cause as its
    /// reason.
    fn unknown(&mut self, cause: Error) -> OnceStep<'a> {
        let ledger = self.core.ledger();
        ledger.abandon(self.pending.market(), self.pending.client_order_id());
        ledger.note(&self.pending, &cause.to_string());
        let method = self.request.method();
        let mut unresolved = Unresolved::new(operation(method), self.pending.clone(), cause);
        unresolved.evidence = self.evidence.take();
        self.done(Err(Error::OutcomeUnknown(Box::new(unresolved))))
    }
}

impl Drop for SocketPlaceOnce<'_> {
    /// Dropped before it ended (a dropped future): the order's record, if the ledger holds it
    /// in flight, is left unresolved.
    fn drop(&mut self) {
        if !self.finished {
            self.core
                .ledger()
                .abandon(self.pending.market(), self.pending.client_order_id());
        }
    }
}

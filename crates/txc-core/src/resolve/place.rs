//! [`Place`] and [`PlaceOnce`]: placing an order (of any [`Placeable`] type: a single order or
//! an OCO pair), and placing it exactly once.

use std::time::SystemTime;

use super::evidence::Evidence;
use super::ledger::{Record, last_nonce_time, send_if_recorded};
use super::order_search::absence_caveat;
use super::outcome::{Found, Resolution};
use super::placeable::{Placeable, pending_of};
use super::resolver::Resolver;
use crate::machine::Call;
use crate::machine::Wake;
use crate::{
    AttemptRecord, ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError,
    Unresolved,
};

/// The default most times [`PlaceOnce`] sends one order.
pub const DEFAULT_MAX_PLACEMENTS: u32 = 3;

/// The exchange's code for a `clientOrderId` refused, among them "already used" by an open
/// order of the market.
const CLIENT_ORDER_ID_CODE: i64 = 36;

/// Places an order: a [`Call`] whose failures that leave the order's outcome unknown come out
/// as [`Error::OutcomeUnknown`], carrying the [`PendingOrder`] that resolving needs.
///
/// Before anything is sent it refuses an order whose `clientOrderId` this client uses for an
/// order in flight or used for one inside the new one's window ([`Error::ClientOrderIdInUse`]),
/// and one whose `clientOrderId` has an unresolved record — of this process, or of an earlier
/// one, read from the journal when the client was built ([`Error::ResolveFirst`], naming the
/// record: resolve it, or use `place_once`, which does). Before each attempt it records the
/// order's pending record in the client's ledger and [`Journal`](crate::Journal) — an attempt
/// the journal cannot record is not sent — and clears it once the outcome is definite. An
/// order whose outcome stays unknown, or whose machine is dropped mid-placement (a dropped
/// future), stays recorded as unresolved.
pub struct Place<'a, O: Placeable> {
    core: &'a ClientCore,
    call: Call<'a, O>,
    /// The attempts of earlier placements of the same order (with `PlaceOnce`). The order's
    /// market and id are the call's: a record is made from them only when one is needed.
    earlier: Vec<AttemptRecord>,
    /// Whether the reuse check is still to be made (the first placement only).
    check_reuse: bool,
    /// Whether this placement settles the order's record itself (not inside `PlaceOnce`).
    standalone: bool,
    /// Whether the ledger holds this placement's record in flight: a standalone placement
    /// settles it when it ends, or leaves it unresolved (ended unknown, or dropped before);
    /// inside `PlaceOnce`, which does that, it stays set once recorded.
    in_flight: bool,
}

impl<'a, O: Placeable> Place<'a, O> {
    pub(crate) fn new(core: &'a ClientCore, call: Call<'a, O>, standalone: bool) -> Self {
        Self {
            core,
            call,
            earlier: Vec::new(),
            check_reuse: true,
            standalone,
            in_flight: false,
        }
    }

    /// A further placement of an order placed before in the `earlier` attempts.
    fn again(core: &'a ClientCore, call: Call<'a, O>, earlier: Vec<AttemptRecord>) -> Self {
        Self {
            core,
            call,
            earlier,
            check_reuse: false,
            standalone: false,
            in_flight: false,
        }
    }

    /// The order being placed, with the `clientOrderId` it is sent with.
    pub fn order(&self) -> &O {
        self.call.endpoint()
    }

    /// The order's pending record: every attempt so far, earlier placements' included.
    pub fn pending(&self) -> PendingOrder {
        let mut pending = pending_of(self.call.endpoint());
        pending.push_attempts(self.attempts());
        pending
    }

    /// Every attempt so far, earlier placements' first.
    fn attempts(&self) -> impl Iterator<Item = &AttemptRecord> {
        self.earlier.iter().chain(self.call.attempts())
    }
}

impl<O: Placeable> Machine for Place<'_, O> {
    type Output = Result<O::Response, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Send(request) => {
                // The first attempt's record also checks that the id may be used: one lock.
                let reuse_at = std::mem::take(&mut self.check_reuse)
                    .then(|| last_nonce_time(self.call.attempts(), self.core.nonce_mode()))
                    .flatten();
                let order = self.call.endpoint();
                let record = Record {
                    market: order.market(),
                    client_order_id: order.client_order_id(),
                    trigger: order.may_rest(),
                    attempts: self.attempts().copied().collect(),
                    socket: Vec::new(),
                };
                let recorded = self.core.ledger().record(record, reuse_at);
                let (in_flight, call) = (&mut self.in_flight, &mut self.call);
                match send_if_recorded(recorded, request, in_flight, call, "order") {
                    Some(step) => step,
                    None => self.next(now),
                }
            }
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                // Inside `PlaceOnce` the record stays in flight: it resolves it.
                if self.standalone {
                    self.abandon();
                }
                let unresolved = Unresolved::new(O::OPERATION, self.pending(), cause);
                Step::Done(Err(Error::OutcomeUnknown(Box::new(unresolved))))
            }
            Step::Done(done) => {
                if self.standalone && std::mem::take(&mut self.in_flight) {
                    let order = self.call.endpoint();
                    self.core.ledger().settle_recorded(
                        order.market(),
                        order.client_order_id(),
                        self.attempts(),
                        self.core.nonce_mode(),
                        done.is_err(),
                    );
                }
                Step::Done(done)
            }
            Step::Wait(delay) => Step::Wait(delay),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}

impl<O: Placeable> Place<'_, O> {
    /// Leaves the order's record in flight unresolved: nothing of this client owns it now.
    fn abandon(&mut self) {
        if std::mem::take(&mut self.in_flight) {
            let order = self.call.endpoint();
            self.core
                .ledger()
                .abandon(order.market(), order.client_order_id());
        }
    }
}

impl<O: Placeable> Drop for Place<'_, O> {
    /// A placement dropped while its order is in flight (a dropped future) leaves the order's
    /// record unresolved: `pending_orders` lists it, and the journal keeps it.
    fn drop(&mut self) {
        if self.standalone {
            self.abandon();
        }
    }
}

/// The unresolved records of an id `place_once` took over (`earlier`, their attempts together),
/// as the record to resolve — a trigger order if any was, or the new one `may_rest` — and the
/// cause its resolution is for.
pub(crate) fn taken_over(earlier: PendingOrder, may_rest: bool) -> (PendingOrder, Error) {
    let reason = format!(
        "an earlier placement of this clientOrderId was unresolved ({}); it was resolved \
         before anything was sent",
        earlier.reason().unwrap_or("its outcome was unknown")
    );
    let trigger = earlier.is_trigger() || may_rest;
    (earlier.with_trigger(trigger), Error::Unproven { reason })
}

// Placing is where every call starts and most end: boxing it would allocate per order.
#[allow(clippy::large_enum_variant)]
enum Stage<'a, O: Placeable> {
    /// Not started: an unresolved record of the id is resolved first, else the order placed.
    Start,
    Placing(Place<'a, O>),
    /// Resolving; the failure that made the outcome unknown; whether a resend was refused
    /// with code 36 (the id held by an open order).
    Resolving(Box<Resolver<'a, O::Search>>, Error, bool),
    Finished,
}

/// Places an order exactly once: sends it; if the outcome is unknown, [resolves](super::Resolve) it;
/// if it was proven not placed, sends it again — same `clientOrderId`, fresh nonce — at most
/// the client's `max_placements` times in all.
///
/// **Across restarts.** When the client holds unresolved records of the order's
/// `clientOrderId` — left by an earlier call whose outcome stayed unknown, a dropped future, or
/// an earlier process (read from the [`Journal`](crate::Journal) when the client was built) —
/// it takes them over (as one record, their attempts together) and resolves them **before**
/// sending anything: placed ends it with that order; not placed lets it place (counted as a
/// resend); anything else ends it unknown, nothing sent. An order of the id in flight in
/// this client refuses it ([`Error::ClientOrderIdInUse`]).
///
/// Ends with the [`Placed`](super::Placed) order and what proved it; with the error that ends a first
/// placement that certainly left nothing (a validation error, say); with
/// [`Error::NotPlaced`] when every placement was proven not placed; or with
/// [`Error::OutcomeUnknown`], carrying every attempt to resolve later, when:
///
/// - resolving cannot tell (see [`Resolve`](super::Resolve)) — including a B2B account's absence
///   ([`Resolution::CannotTell`]), on which it does not resend unless the client was built with
///   `resend_when_cancels_are_invisible(true)`;
/// - any attempt after the first fails in any way: a later attempt's refusal says nothing of
///   the earlier ones, whose absence rested on the rule's assumptions. A refusal with code 36
///   (the id held by an open order) is evidence that an earlier attempt rests on the book: it
///   resolves again, and answers placed if it finds it, else unknown.
///
/// Dropped before it ends (a dropped future), it leaves the order's record unresolved.
pub struct PlaceOnce<'a, O: Placeable> {
    core: &'a ClientCore,
    order: O,
    placements: u32,
    /// Every attempt of every placement so far.
    pending: PendingOrder,
    /// The evidence of the last resolution.
    evidence: Option<Evidence>,
    stage: Stage<'a, O>,
}

impl<'a, O: Placeable> PlaceOnce<'a, O> {
    pub(crate) fn new(core: &'a ClientCore, order: O) -> Self {
        let pending = pending_of(&order);
        Self {
            core,
            order,
            placements: 1,
            pending,
            evidence: None,
            stage: Stage::Start,
        }
    }

    fn finish(
        &mut self,
        result: Result<Found<O::Placed>, Error>,
    ) -> Step<Result<Found<O::Placed>, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    /// Ends with the order's outcome unknown because of `cause`, keeping its record — as
    /// unresolved, with the cause as its reason (held again if a resolution had settled it).
    fn unknown(&mut self, cause: Error) -> Step<Result<Found<O::Placed>, Error>> {
        self.abandon();
        self.core.ledger().note(&self.pending, &cause.to_string());
        let mut unresolved = Unresolved::new(O::OPERATION, self.pending.clone(), cause);
        unresolved.evidence = self.evidence.take();
        self.finish(Err(Error::OutcomeUnknown(Box::new(unresolved))))
    }

    /// Leaves the order's record in flight (if the ledger holds one) unresolved.
    fn abandon(&self) {
        let holds = match &self.stage {
            Stage::Placing(place) => place.in_flight || !self.pending.attempts().is_empty(),
            Stage::Resolving(..) => true,
            Stage::Start | Stage::Finished => !self.pending.attempts().is_empty(),
        };
        if holds {
            self.core
                .ledger()
                .abandon(self.order.market(), self.order.client_order_id());
        }
    }

    /// Starts: resolves the unresolved records of the id first, if the client holds any.
    fn start(&mut self, now: SystemTime) -> Step<Result<Found<O::Placed>, Error>> {
        match self
            .core
            .ledger()
            .adopt(self.order.market(), self.order.client_order_id())
        {
            Err(in_flight) => self.finish(Err(in_flight)),
            Ok(None) => {
                let first = Place::new(self.core, self.core.call_owned(self.order.clone()), false);
                self.stage = Stage::Placing(first);
                self.next(now)
            }
            Ok(Some(earlier)) => {
                let (pending, cause) = taken_over(earlier, self.order.may_rest());
                self.pending = pending;
                self.resolve(cause, false, now)
            }
        }
    }

    fn resolve(
        &mut self,
        cause: Error,
        refused_36: bool,
        now: SystemTime,
    ) -> Step<Result<Found<O::Placed>, Error>> {
        let resolve = O::resolver(self.core, self.pending.clone(), O::OPERATION);
        self.stage = Stage::Resolving(Box::new(resolve), cause, refused_36);
        self.next(now)
    }

    fn resend(&mut self, now: SystemTime) -> Step<Result<Found<O::Placed>, Error>> {
        self.placements += 1;
        let call = self.core.call_owned(self.order.clone());
        let earlier = self.pending.attempts().to_vec();
        self.stage = Stage::Placing(Place::again(self.core, call, earlier));
        self.next(now)
    }
}

impl<O: Placeable> Machine for PlaceOnce<'_, O> {
    type Output = Result<Found<O::Placed>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Start => self.start(now),
            Stage::Placing(mut place) => match place.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Placing(place);
                    step
                }
                Err(outcome) => {
                    self.pending = place.pending();
                    match outcome {
                        Ok(order) => {
                            self.core
                                .ledger()
                                .settle(&self.pending, self.core.nonce_mode(), false);
                            let placed = Found::new(O::answered(order), Evidence::answered());
                            self.finish(Ok(placed))
                        }
                        Err(Error::OutcomeUnknown(unknown)) => {
                            let Unresolved { cause, .. } = *unknown;
                            self.resolve(cause, false, now)
                        }
                        Err(e) if self.placements == 1 => {
                            // Nothing of this order was ever accepted.
                            if place.in_flight {
                                self.core.ledger().settle(
                                    &self.pending,
                                    self.core.nonce_mode(),
                                    true,
                                );
                            }
                            self.finish(Err(e))
                        }
                        Err(e) if e.api().and_then(|a| a.code) == Some(CLIENT_ORDER_ID_CODE) => {
                            self.resolve(e, true, now)
                        }
                        Err(e) => {
                            self.stage = Stage::Placing(place);
                            self.unknown(e)
                        }
                    }
                }
            },
            Stage::Resolving(mut resolve, cause, refused_36) => match resolve.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Resolving(resolve, cause, refused_36);
                    step
                }
                Err(Ok(Resolution::Placed(placed))) => self.finish(Ok(placed)),
                Err(Ok(Resolution::NotPlaced(evidence))) => {
                    self.evidence = Some(evidence);
                    if refused_36 {
                        return self.unknown(cause);
                    }
                    if self.placements >= self.core.max_placements() {
                        let mut unresolved =
                            Unresolved::new(O::OPERATION, self.pending.clone(), cause);
                        unresolved.evidence = self.evidence.take();
                        return self.finish(Err(Error::NotPlaced(Box::new(unresolved))));
                    }
                    self.resend(now)
                }
                Err(Ok(Resolution::CannotTell(evidence))) => {
                    self.evidence = Some(evidence);
                    let resend = self.core.resend_when_cancels_are_invisible()
                        && !refused_36
                        && self.placements < self.core.max_placements();
                    if resend {
                        return self.resend(now);
                    }
                    let reason = absence_caveat(self.core).unwrap_or_default();
                    self.stage = Stage::Resolving(resolve, cause, refused_36);
                    self.unknown(Error::Unproven { reason })
                }
                Err(Err(still_unknown)) => {
                    self.stage = Stage::Resolving(resolve, cause, refused_36);
                    match still_unknown {
                        Error::OutcomeUnknown(u) => {
                            let Unresolved {
                                cause, evidence, ..
                            } = *u;
                            self.evidence = evidence;
                            self.unknown(cause)
                        }
                        other => self.unknown(other),
                    }
                }
            },
            Stage::Finished => Step::after_end("place_once", "the placement"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Placing(place) => place.receive(response),
            Stage::Resolving(resolve, _, _) => resolve.receive(response),
            Stage::Start | Stage::Finished => {}
        }
    }

    fn wake(&self) -> Option<Wake<'_>> {
        match &self.stage {
            Stage::Resolving(resolve, _, _) => resolve.wake(),
            Stage::Start | Stage::Placing(_) | Stage::Finished => None,
        }
    }
}

impl<O: Placeable> Drop for PlaceOnce<'_, O> {
    /// Dropped before it ended (a dropped future): the order's record, if it has one, is left
    /// unresolved — `pending_orders` lists it, the journal keeps it.
    fn drop(&mut self) {
        if !matches!(self.stage, Stage::Finished) {
            self.abandon();
        }
    }
}

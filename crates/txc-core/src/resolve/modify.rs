//! [`Modify`] and [`ModifyOnce`]: changing a resting order — which the exchange does by
//! replacing it — and doing so exactly once, never resent blindly.

use std::time::SystemTime;

use txc_types::lookups::OpenOrdersQuery;
use txc_types::orders::{Modified, ModifyOrder, Order, OrderRef};

use super::evidence::Evidence;
use super::ledger::send_if_recorded;
use super::modify_search::{ModifyResolution, ResolveModify, UnresolvedModify};
use super::outcome::{Found, PlacedOrder};
use crate::machine::{Call, Wake};
use crate::{
    ClientCore, Error, Machine, PendingModify, PendingRecord, Response, Step, TransportError,
};

/// How a modify ended before its answer is named.
enum Ran {
    /// The exchange's answer: the replacement.
    Answered(Modified),
    /// What resolving a lost answer found (`modify_once`).
    Resolved(ModifyResolution),
}

/// Where a modify is.
enum Stage<'a> {
    /// Refusing before any I/O: an unresolved record of the same order.
    Refused(Box<PendingRecord>),
    /// Reading the order before the modify: its `orderId` and `clientOrderId`.
    Read(Box<Call<'a, OpenOrdersQuery>>),
    /// Sending the modify.
    Sending(Box<Call<'a, ModifyOrder>>),
    /// Resolving a lost answer.
    Resolving(Box<ResolveModify<'a>>),
    Finished,
}

/// A modify sent, and — with `once` — resolved when its answer is lost and sent again only
/// when resolving proved it not applied.
struct ModifyRun<'a> {
    core: &'a ClientCore,
    modify: ModifyOrder,
    once: bool,
    /// The record: the order as read before, every attempt of earlier sendings.
    pending: PendingModify,
    placements: u32,
    /// Whether the ledger holds the record in flight.
    in_flight: bool,
    stage: Stage<'a>,
}

impl<'a> ModifyRun<'a> {
    fn new(core: &'a ClientCore, modify: &ModifyOrder, once: bool) -> Self {
        let pending = PendingModify::new(modify.clone(), None, None, Vec::new());
        let stage = match core.modifies.unresolved_like(&pending) {
            Some(earlier) => Stage::Refused(Box::new(PendingRecord::Modify(earlier))),
            None => Stage::Read(Box::new(core.call_owned(read_query(modify)))),
        };
        Self {
            core,
            modify: modify.clone(),
            once,
            pending,
            placements: 0,
            in_flight: false,
            stage,
        }
    }

    /// The record with every attempt so far, the call's included.
    fn record(&self, call: &Call<'_, ModifyOrder>) -> PendingModify {
        self.pending.clone().with_attempts(call.attempts())
    }

    fn finish(&mut self, result: Result<Ran, Error>) -> Step<Result<Ran, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    /// Sends the modify (again).
    fn send(&mut self, now: SystemTime) -> Step<Result<Ran, Error>> {
        self.placements += 1;
        self.stage = Stage::Sending(Box::new(self.core.call_owned(self.modify.clone())));
        self.next_step(now)
    }

    /// Ends unknown: the record kept unresolved, noted with the cause.
    fn unknown(&mut self, unresolved: UnresolvedModify) -> Step<Result<Ran, Error>> {
        self.core.modifies.abandon(&unresolved.modify);
        self.core
            .modifies
            .note(&unresolved.modify, &unresolved.cause.to_string());
        self.in_flight = false;
        self.finish(Err(Error::ModifyUnknown(Box::new(unresolved))))
    }

    fn next_step(&mut self, now: SystemTime) -> Step<Result<Ran, Error>> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Refused(record) => self.finish(Err(Error::ResolveFirst(record))),
            Stage::Read(mut read) => match read.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Read(read);
                    step
                }
                Err(answer) => {
                    // Unread, or not open: sent all the same (the exchange answers for the
                    // order); the record then has only the request's own target.
                    let found = answer.ok().and_then(|orders| self.original(orders));
                    self.pending = PendingModify::new(
                        self.modify.clone(),
                        found.as_ref().map(|o| o.order_id),
                        found.and_then(|o| o.client_order_id),
                        Vec::new(),
                    );
                    self.send(now)
                }
            },
            Stage::Sending(mut call) => match call.next(now) {
                Step::Send(request) => {
                    let record = self.record(&call);
                    let check = self.placements == 1 && call.attempts().len() <= 1;
                    let recorded = self.core.modifies.record(&record, check);
                    let sent = send_if_recorded(
                        recorded,
                        request,
                        &mut self.in_flight,
                        &mut call,
                        "modify",
                    );
                    self.stage = Stage::Sending(call);
                    match sent {
                        Some(Step::Done(refused)) => {
                            let refused: Result<Ran, Error> = refused;
                            self.finish(refused)
                        }
                        Some(step) => step,
                        None => self.next_step(now),
                    }
                }
                Step::Wait(delay) => {
                    self.stage = Stage::Sending(call);
                    Step::Wait(delay)
                }
                Step::Done(Ok(modified)) => {
                    let record = self.record(&call);
                    self.core.modifies.settle(&record);
                    self.in_flight = false;
                    self.finish(Ok(Ran::Answered(modified)))
                }
                Step::Done(Err(cause)) if cause.outcome_unknown() => {
                    let record = self.record(&call);
                    if !self.once {
                        return self.unknown(UnresolvedModify::new(record, cause));
                    }
                    self.pending = record.clone();
                    let resolve = ResolveModify::of_modify(self.core, record);
                    self.stage = Stage::Resolving(Box::new(resolve));
                    self.next_step(now)
                }
                Step::Done(Err(refused)) => {
                    // Refused: this attempt changed nothing, and the earlier ones were proven
                    // not applied.
                    if std::mem::take(&mut self.in_flight) {
                        self.core.modifies.settle(&self.record(&call));
                    }
                    self.finish(Err(refused))
                }
            },
            Stage::Resolving(mut resolve) => match resolve.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Resolving(resolve);
                    step
                }
                Err(Ok(ModifyResolution::Unchanged { .. }))
                    if self.placements < self.core.max_placements() =>
                {
                    self.in_flight = false;
                    self.send(now)
                }
                Err(Ok(resolution)) => {
                    self.in_flight = false;
                    self.finish(Ok(Ran::Resolved(resolution)))
                }
                Err(Err(Error::ModifyUnknown(unresolved))) => self.unknown(*unresolved),
                Err(Err(other)) => {
                    let pending = self.pending.clone();
                    self.unknown(UnresolvedModify::new(pending, other))
                }
            },
            Stage::Finished => Step::after_end("modify_order", "the modify"),
        }
    }

    /// The modified order among the open orders read before.
    fn original(&self, orders: Vec<Order>) -> Option<Order> {
        let market = self.modify.market();
        orders.into_iter().find(|o| {
            &o.market == market
                && match self.modify.target() {
                    OrderRef::OrderId(id) => o.order_id == *id,
                    OrderRef::ClientOrderId(id) => o.client_order_id.as_ref() == Some(id),
                }
        })
    }
}

/// The open orders' look-up of the order `modify` names.
fn read_query(modify: &ModifyOrder) -> OpenOrdersQuery {
    let market = modify.market().clone();
    match modify.target() {
        OrderRef::ClientOrderId(id) => OpenOrdersQuery::by_client_order_id(market, id.clone()),
        OrderRef::OrderId(id) => OpenOrdersQuery::builder()
            .market(market.clone())
            .order_id(*id)
            .build()
            .unwrap_or_default(),
    }
}

impl Machine for ModifyRun<'_> {
    type Output = Result<Ran, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        self.next_step(now)
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Read(call) => call.receive(response),
            Stage::Sending(call) => call.receive(response),
            Stage::Resolving(resolve) => resolve.receive(response),
            Stage::Refused(_) | Stage::Finished => {}
        }
    }

    fn wake(&self) -> Option<Wake<'_>> {
        match &self.stage {
            Stage::Resolving(resolve) => resolve.wake(),
            _ => None,
        }
    }
}

impl Drop for ModifyRun<'_> {
    /// Dropped while the modify is in flight (a dropped future): its record is left
    /// unresolved.
    fn drop(&mut self) {
        if self.in_flight {
            let record = match &self.stage {
                Stage::Sending(call) => self.record(call),
                _ => self.pending.clone(),
            };
            self.core.modifies.abandon(&record);
        }
    }
}

/// Modifies an order (`POST /api/v4/order/modify`): reads the order first (the open orders, by
/// the request's `orderId` or `clientOrderId`: one look-up) so that the record knows both its
/// ids, keeps the record in the client's ledger and [`Journal`](crate::Journal) before each
/// attempt, and sends the modify. The answer is the replacement ([`Modified`], a new
/// `orderId`). Never resent after a failure that leaves its outcome unknown: that failure is
/// [`Error::ModifyUnknown`] (resolve it with the client's `resolve_modify`, or use
/// [`ModifyOnce`]). A modify of an order with an unresolved modify is refused before any I/O
/// ([`Error::ResolveFirst`]).
pub struct Modify<'a>(ModifyRun<'a>);

impl<'a> Modify<'a> {
    pub(crate) fn new(core: &'a ClientCore, modify: &ModifyOrder) -> Self {
        Self(ModifyRun::new(core, modify, false))
    }
}

impl Machine for Modify<'_> {
    type Output = Result<Modified, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.0.next(now) {
            Step::Done(Ok(Ran::Answered(modified))) => Step::Done(Ok(modified)),
            // A plain modify never resolves.
            Step::Done(Ok(Ran::Resolved(_))) => Step::after_end("modify_order", "the modify"),
            Step::Done(Err(e)) => Step::Done(Err(e)),
            Step::Wait(delay) => Step::Wait(delay),
            Step::Send(request) => Step::Send(request),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.0.receive(response);
    }
}

/// Modifies an order exactly once: like [`Modify`], but a failure that leaves the outcome
/// unknown is resolved ([`ResolveModify`]: the order read by its `clientOrderId` and compared
/// with the request) — replaced: done; unchanged (proven not applied, and no attempt can be
/// any more): sent again, fresh nonce, at most the client's `max_placements` times in all;
/// gone (filled or canceled meanwhile): that answer. Never resent blindly. Ends with the
/// [`ModifyResolution`] — the replacement as answered ([`Evidence::answered`]) when nothing was
/// lost — or [`Error::ModifyUnknown`] when resolving cannot tell.
pub struct ModifyOnce<'a>(ModifyRun<'a>);

impl<'a> ModifyOnce<'a> {
    pub(crate) fn new(core: &'a ClientCore, modify: &ModifyOrder) -> Self {
        Self(ModifyRun::new(core, modify, true))
    }
}

impl Machine for ModifyOnce<'_> {
    type Output = Result<ModifyResolution, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.0.next(now) {
            Step::Done(Ok(Ran::Answered(modified))) => {
                let replacement = PlacedOrder::Answered(modified.replacement);
                let found = Found::new(replacement, Evidence::answered());
                Step::Done(Ok(ModifyResolution::Replaced(found)))
            }
            Step::Done(Ok(Ran::Resolved(resolution))) => Step::Done(Ok(resolution)),
            Step::Done(Err(e)) => Step::Done(Err(e)),
            Step::Wait(delay) => Step::Wait(delay),
            Step::Send(request) => Step::Send(request),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.0.receive(response);
    }

    fn wake(&self) -> Option<Wake<'_>> {
        self.0.wake()
    }
}

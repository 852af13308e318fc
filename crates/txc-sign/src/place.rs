//! [`Place`] and [`PlaceOnce`]: placing an order, and placing it exactly once.

use std::time::SystemTime;

use txc_types::orders::{NewOrder, Order};

use crate::call::Call;
use crate::resolve::{Placed, Resolution, Resolve};
use crate::{ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError, Unresolved};

/// The default most times [`PlaceOnce`] sends one order.
pub const DEFAULT_MAX_PLACEMENTS: u32 = 3;

/// Places an order: a [`Call`] whose failures that leave the order's outcome unknown come out
/// as [`Error::OutcomeUnknown`], carrying the [`PendingOrder`] that resolving needs.
pub struct Place<'a, O: NewOrder> {
    call: Call<'a, O>,
}

impl<'a, O: NewOrder> Place<'a, O> {
    pub(crate) fn new(call: Call<'a, O>) -> Self {
        Self { call }
    }

    /// The order being placed, with the `clientOrderId` it is sent with.
    pub fn order(&self) -> &O {
        self.call.endpoint()
    }

    fn pending(&self) -> PendingOrder {
        let fields = self.order().fields();
        PendingOrder::new(
            fields.market().clone(),
            fields.client_order_id().cloned(),
            self.call.attempts().to_vec(),
        )
    }
}

impl<O: NewOrder> Machine for Place<'_, O> {
    type Output = Result<Order, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                let unresolved = Unresolved::new(O::OPERATION, self.pending(), cause);
                Step::Done(Err(Error::OutcomeUnknown(Box::new(unresolved))))
            }
            step => step,
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}

enum Stage<'a, O: NewOrder> {
    Placing(Place<'a, O>),
    Resolving(Resolve<'a>, Error),
    Finished,
}

/// Places an order exactly once: sends it; if the outcome is unknown, [resolves](Resolve) it;
/// if it was not placed, sends it again — same `clientOrderId`, fresh nonce — at most the
/// client's `max_placements` times in all. Never two orders for one call, as far as the
/// resolution is right (see [`Resolve`] for what the exchange's rules prove).
///
/// Ends with the [`Placed`] order; with the error that ends a placement that certainly left
/// nothing (a validation error, say); with [`Error::OutcomeUnknown`] when resolving cannot
/// tell (carrying every attempt, to resolve later); or with [`Error::NotPlaced`] when every
/// placement was resolved as not placed.
pub struct PlaceOnce<'a, O: NewOrder> {
    core: &'a ClientCore,
    order: O,
    placements: u32,
    /// Every attempt of every placement so far.
    pending: PendingOrder,
    stage: Stage<'a, O>,
}

impl<'a, O: NewOrder> PlaceOnce<'a, O> {
    pub(crate) fn new(core: &'a ClientCore, order: O) -> Self {
        let fields = order.fields();
        let pending = PendingOrder::new(
            fields.market().clone(),
            fields.client_order_id().cloned(),
            Vec::new(),
        );
        let first = Place::new(core.call_owned(order.clone()));
        Self {
            core,
            order,
            placements: 1,
            pending,
            stage: Stage::Placing(first),
        }
    }

    fn finish(&mut self, result: Result<Placed, Error>) -> Step<Result<Placed, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    fn unresolved(&self, cause: Error) -> Box<Unresolved> {
        Box::new(Unresolved::new(O::OPERATION, self.pending.clone(), cause))
    }
}

impl<O: NewOrder> Machine for PlaceOnce<'_, O> {
    type Output = Result<Placed, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        if self.order.fields().client_order_id().is_none() {
            return self.finish(Err(Error::invalid_config(
                "clientOrderId",
                "placing exactly once looks the order up by its clientOrderId: give it one, or \
                 keep the client's generated ids on",
            )));
        }
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Placing(mut place) => match place.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Placing(place);
                    step
                }
                Err(Ok(order)) => self.finish(Ok(Placed::Answered(order))),
                Err(Err(Error::OutcomeUnknown(unknown))) => {
                    let Unresolved { order, cause, .. } = *unknown;
                    self.pending.push_attempts(order.attempts());
                    let resolve = self.core.resolve(self.pending.clone());
                    self.stage = Stage::Resolving(resolve, cause);
                    self.next(now)
                }
                Err(Err(e)) => self.finish(Err(e)),
            },
            Stage::Resolving(mut resolve, cause) => match resolve.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Resolving(resolve, cause);
                    step
                }
                Err(Ok(Resolution::Placed(placed))) => self.finish(Ok(placed)),
                Err(Ok(Resolution::NotPlaced)) => {
                    if self.placements >= self.core.max_placements() {
                        let error = Error::NotPlaced(self.unresolved(cause));
                        return self.finish(Err(error));
                    }
                    self.placements += 1;
                    let again = Place::new(self.core.call_owned(self.order.clone()));
                    self.stage = Stage::Placing(again);
                    self.next(now)
                }
                Err(Err(still_unknown)) => {
                    let cause = match still_unknown {
                        Error::OutcomeUnknown(u) => u.cause,
                        other => other,
                    };
                    let error = Error::OutcomeUnknown(self.unresolved(cause));
                    self.finish(Err(error))
                }
            },
            Stage::Finished => Step::Done(Err(Error::invalid_config(
                "place_once",
                "the placement has already finished",
            ))),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Placing(place) => place.receive(response),
            Stage::Resolving(resolve, _) => resolve.receive(response),
            Stage::Finished => {}
        }
    }
}

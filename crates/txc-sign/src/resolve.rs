//! [`Resolve`]: finds out whether an order whose outcome is unknown was placed, the way the
//! exchange advises — by looking its `clientOrderId` up in the open orders, then in the order
//! history — once every attempt to send it is too old to still be accepted.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::lookups::{HistoryOrder, OpenOrdersQuery, OrderHistoryQuery};
use txc_types::orders::Order;

use crate::call::Call;
use crate::{ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError, Unresolved};

/// An order that was placed, as the exchange last showed it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Placed {
    /// The placement's own response.
    Answered(Order),
    /// Found among the open orders (a resting trigger order).
    Open(Order),
    /// Found in the order history (filled or canceled).
    Finished(HistoryOrder),
}

impl Placed {
    /// The exchange's order id.
    pub fn order_id(&self) -> u64 {
        match self {
            Self::Answered(o) | Self::Open(o) => o.order_id,
            Self::Finished(h) => h.id,
        }
    }

    /// The order's `clientOrderId`, if it has one.
    pub fn client_order_id(&self) -> Option<&str> {
        match self {
            Self::Answered(o) | Self::Open(o) => o.client_order_id.as_deref(),
            Self::Finished(h) => h.client_order_id.as_deref(),
        }
    }
}

/// What resolving found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// One per resolution, never stored in bulk: matching on the order beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub enum Resolution {
    /// The order was placed.
    Placed(Placed),
    /// Neither look-up found it after the settling delay: it was not placed, and may be placed
    /// again (with a fresh nonce).
    NotPlaced,
}

/// How old, at least, an order found by `clientOrderId` must be relative to the first attempt
/// to send it before it is taken for an earlier order that reused the id: generous, for clock
/// differences between this host and the exchange.
const CLOCK_TOLERANCE: Duration = Duration::from_secs(60);

enum Stage<'a> {
    Settle,
    Open(Call<'a, OpenOrdersQuery>),
    History(Call<'a, OrderHistoryQuery>),
    Finished,
}

/// Resolves a [`PendingOrder`]: a [`Machine`] whose output is a [`Resolution`], or
/// [`Error::OutcomeUnknown`] when it cannot tell (a look-up failed, or the `clientOrderId`
/// matches an earlier order) — never "not placed" without both look-ups saying so.
///
/// It first waits until every attempt is older than the client's settling delay (default
/// [`DEFAULT_SETTLE_DELAY`]) counted from the attempt's nonce time. That is what the
/// exchange's rules prove: with `nonceWindow` a request **arriving** more than 5 s after its
/// nonce time is refused, so once the delay has passed no attempt still in flight can be
/// accepted (and without `nonceWindow`, the look-ups' own larger nonces make any straggler of
/// the same key be refused). The docs say nothing about how soon an accepted order becomes
/// visible to the look-ups: the settling delay is the knob for that too.
pub struct Resolve<'a> {
    core: &'a ClientCore,
    order: PendingOrder,
    stage: Stage<'a>,
}

/// The default settling delay: the exchange's ±5 s nonce window, plus 5 s for the difference
/// between this host's clock and the exchange's and for the order to become visible.
pub const DEFAULT_SETTLE_DELAY: Duration = Duration::from_secs(10);

impl<'a> Resolve<'a> {
    pub(crate) fn new(core: &'a ClientCore, order: PendingOrder) -> Self {
        Self {
            core,
            order,
            stage: Stage::Settle,
        }
    }

    /// When every attempt is past the settling delay.
    fn settled_at(&self) -> SystemTime {
        let window = self.core.nonce_mode() == crate::NonceMode::Window;
        self.order
            .attempts()
            .iter()
            .map(|a| {
                let nonce_time = UNIX_EPOCH + Duration::from_millis(a.nonce.get());
                if window {
                    a.signed_at.max(nonce_time)
                } else {
                    a.signed_at
                }
            })
            .max()
            .unwrap_or(UNIX_EPOCH)
            + self.core.settle_delay()
    }

    fn unknown(&mut self, cause: Error) -> Step<Result<Resolution, Error>> {
        self.stage = Stage::Finished;
        let order = self.order.clone();
        Step::Done(Err(Error::OutcomeUnknown(Box::new(Unresolved::new(
            "resolve", order, cause,
        )))))
    }

    fn done(&mut self, resolution: Resolution) -> Step<Result<Resolution, Error>> {
        self.stage = Stage::Finished;
        Step::Done(Ok(resolution))
    }

    /// A history record with our id, if it is not older than the first attempt.
    fn ours(&self, found: HistoryOrder) -> Result<Placed, Error> {
        let first = self.order.first_signed_at().unwrap_or(UNIX_EPOCH);
        if found.ctime.to_system_time() + CLOCK_TOLERANCE < first {
            return Err(Error::invalid_config(
                "clientOrderId",
                "it matches an order created before this one was sent, so this one cannot be \
                 told apart; give every order its own clientOrderId",
            ));
        }
        Ok(Placed::Finished(found))
    }
}

impl Machine for Resolve<'_> {
    type Output = Result<Resolution, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        let Some(id) = self.order.client_order_id().cloned() else {
            return self.unknown(Error::invalid_config(
                "clientOrderId",
                "an order sent without one cannot be looked up",
            ));
        };
        let market = self.order.market().clone();
        match &mut self.stage {
            Stage::Settle => {
                let settled = self.settled_at();
                if let Ok(wait) = settled.duration_since(now)
                    && !wait.is_zero()
                {
                    return Step::Wait(wait);
                }
                let query = OpenOrdersQuery::by_client_order_id(market, id);
                self.stage = Stage::Open(self.core.call_owned(query));
                self.next(now)
            }
            Stage::Open(call) => match call.next(now).forward() {
                Ok(step) => step,
                Err(Ok(orders)) => {
                    let found = orders
                        .into_iter()
                        .find(|o| o.client_order_id.as_ref() == Some(&id));
                    match found {
                        Some(order) => self.done(Resolution::Placed(Placed::Open(order))),
                        None => {
                            let query = OrderHistoryQuery::by_client_order_id(market, id);
                            self.stage = Stage::History(self.core.call_owned(query));
                            self.next(now)
                        }
                    }
                }
                Err(Err(e)) => self.unknown(e),
            },
            Stage::History(call) => match call.next(now).forward() {
                Ok(step) => step,
                Err(Ok(history)) => {
                    let found = history
                        .into_orders()
                        .find(|o| o.client_order_id.as_ref() == Some(&id));
                    match found.map(|o| self.ours(o)) {
                        Some(Ok(placed)) => self.done(Resolution::Placed(placed)),
                        Some(Err(e)) => self.unknown(e),
                        None => self.done(Resolution::NotPlaced),
                    }
                }
                Err(Err(e)) => self.unknown(e),
            },
            Stage::Finished => Step::Done(Err(Error::invalid_config(
                "resolve",
                "the resolution has already finished",
            ))),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Open(call) => call.receive(response),
            Stage::History(call) => call.receive(response),
            Stage::Settle | Stage::Finished => {}
        }
    }
}

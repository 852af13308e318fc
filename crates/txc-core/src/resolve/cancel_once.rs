//! [`CancelOnce`]: a cancel of any kind — an order, an OCO pair, an OTO group, a conditional
//! order — whose lost answer is settled by asking again, and what it found
//! ([`CancelOutcome`]).

use std::marker::PhantomData;
use std::time::SystemTime;

use txc_types::endpoint::Endpoint;
use txc_types::orders::Cancellation;

use crate::machine::Call;
use crate::{ClientCore, Error, Machine, Response, Step, TransportError};

/// What a cancel did, every lost answer settled.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CancelOutcome<T> {
    /// Canceled by this call: the canceled record (its final state).
    Canceled(Box<T>),
    /// Nothing active matched at the first attempt: it never existed, or it had executed or
    /// was canceled already (the exchange does not say which).
    NotFound,
    /// An attempt's answer was lost, and asking again found nothing active ("not found"):
    /// the lost attempt canceled it — or it executed or was canceled meanwhile. Either way
    /// nothing of it is active any more, which is what the cancel was for; which of the two it
    /// was, no look-up can tell (a B2B account's history omits canceled orders, and the
    /// exchange answers all of them alike).
    Gone {
        /// How many attempts' answers were lost.
        lost: u32,
    },
}

impl<T> CancelOutcome<T> {
    /// The canceled record, when this call canceled it.
    pub fn canceled(&self) -> Option<&T> {
        match self {
            Self::Canceled(record) => Some(record),
            _ => None,
        }
    }
}

/// Cancels exactly once — an order ([`CancelOrder`](txc_types::orders::CancelOrder)), an OCO
/// pair ([`CancelOcoOrder`](txc_types::orders::CancelOcoOrder)), an OTO group or a conditional
/// order — and settles a lost answer: a cancel removes only what is still active, so asking
/// again is how its outcome is found. After a failure that leaves the outcome unknown it sends
/// the cancel again (fresh nonce, at most the client's `max_placements` sends in all): a
/// "not found" then is evidence that nothing of it is active any more
/// ([`CancelOutcome::Gone`]), judged as the exchange's not-found of the order cancel is; a
/// canceled record is this call's ([`CancelOutcome::Canceled`]). What it cannot settle ends
/// with the last failure (its outcome unknown).
///
/// A cancel by `clientOrderId` asked again could cancel an order placed with the same id in
/// between: the client refuses reusing an id within its acceptance window, so only another
/// writer of the key can.
pub struct CancelOnce<'a, E: Endpoint<Response = Cancellation<T>> + Clone, T> {
    core: &'a ClientCore,
    cancel: E,
    call: Call<'a, E>,
    sends: u32,
    lost: u32,
    _canceled: PhantomData<fn() -> T>,
}

impl<'a, E: Endpoint<Response = Cancellation<T>> + Clone, T> CancelOnce<'a, E, T> {
    pub(crate) fn new(core: &'a ClientCore, cancel: &E) -> Self {
        Self {
            core,
            cancel: cancel.clone(),
            call: core.call_owned(cancel.clone()),
            sends: 1,
            lost: 0,
            _canceled: PhantomData,
        }
    }
}

impl<E: Endpoint<Response = Cancellation<T>> + Clone, T> Machine for CancelOnce<'_, E, T> {
    type Output = Result<CancelOutcome<T>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now).forward() {
            Ok(step) => step,
            Err(Ok(Cancellation::Canceled(record))) => {
                Step::Done(Ok(CancelOutcome::Canceled(record)))
            }
            Err(Ok(Cancellation::NotFound)) if self.lost > 0 => {
                Step::Done(Ok(CancelOutcome::Gone { lost: self.lost }))
            }
            Err(Ok(_)) => Step::Done(Ok(CancelOutcome::NotFound)),
            Err(Err(lost)) if lost.outcome_unknown() && self.sends < self.core.max_placements() => {
                self.lost += 1;
                self.sends += 1;
                self.call = self.core.call_owned(self.cancel.clone());
                self.next(now)
            }
            Err(Err(error)) => Step::Done(Err(error)),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}

//! [`Moving`]: sending an operation that moves money once — investing in a fixed plan
//! ([`Investing`]), investing in or withdrawing from a flex plan — journaled before every
//! attempt, and never sent again after an ambiguous answer.
//!
//! Such a request carries no id of the caller's, so an ambiguous answer (a 5xx, a reset
//! connection, a lost response) cannot be retried safely: [`Moving`] ends it as the
//! operation's unknown-outcome error ([`MoneyMove::unknown`]), carrying the plan, the amount
//! and every attempt. [`MoveOnce`](crate::MoveOnce) then resolves it and acts again only when
//! resolving proved that nothing was done.

use std::time::SystemTime;

use txc_types::investments::Invest;

use super::ledger::send_if_recorded;
use crate::machine::Call;
use crate::{
    AttemptRecord, Error, Machine, MoneyMove, MoveLedger, PendingMove, Response, Step,
    TransportError, UnresolvedMove,
};

/// Sends an operation that moves money: a [`Call`] whose failures that leave the outcome
/// unknown come out as the operation's unknown-outcome error ([`Error::InvestmentUnknown`] for
/// an investment, [`Error::FlexInvestUnknown`], [`Error::FlexWithdrawUnknown`]), carrying the
/// [`PendingMove`] that resolving needs.
///
/// Before each attempt it records the operation's pending record — plan, amount, every
/// attempt's nonce — in the client's ledger and [`Journal`](crate::Journal) (an attempt the
/// journal cannot record is not sent), and clears it once the outcome is definite; one whose
/// outcome stays unknown, or whose machine is dropped mid-call, stays recorded as unresolved.
/// Before anything is sent it refuses an operation of the plan and amount of an unresolved
/// record of its kind ([`Error::ResolveFirst`]): resolving could not tell the two apart.
pub struct Moving<'a, R: MoneyMove> {
    call: Call<'a, R>,
    /// The attempts of earlier sends of the same operation (inside a `MoveOnce`).
    earlier: Vec<AttemptRecord>,
    /// Whether the check against unresolved records is still to be made (the first send).
    check: bool,
    /// Whether this call settles the record itself (not inside a `MoveOnce`).
    standalone: bool,
    /// Whether the ledger holds this call's record in flight (inside a `MoveOnce`, once
    /// recorded, until it ends).
    pub(crate) in_flight: bool,
}

/// Investing in a fixed plan: [`Moving`] an [`Invest`].
pub type Investing<'a> = Moving<'a, Invest>;

impl<'a, R: MoneyMove> Moving<'a, R> {
    pub(crate) fn new(call: Call<'a, R>, standalone: bool) -> Self {
        Self {
            call,
            earlier: Vec::new(),
            check: true,
            standalone,
            in_flight: false,
        }
    }

    /// A further send of an operation sent before in the `earlier` attempts.
    pub(crate) fn again(call: Call<'a, R>, earlier: Vec<AttemptRecord>) -> Self {
        Self {
            call,
            earlier,
            check: false,
            standalone: false,
            in_flight: false,
        }
    }

    /// The operation being sent.
    pub fn request(&self) -> &R {
        self.call.endpoint()
    }

    /// What is known of it so far: the request and every attempt signed (earlier sends'
    /// first).
    pub fn pending(&self) -> PendingMove<R> {
        let attempts = self.earlier.iter().chain(self.call.attempts()).copied();
        PendingMove::new(
            self.request().clone(),
            self.call.core().nonce_mode(),
            attempts.collect(),
        )
    }

    fn ledger(&self) -> &MoveLedger {
        self.call.core().moves()
    }

    /// Leaves the record in flight unresolved: nothing of this client owns it now.
    fn abandon(&mut self) {
        if std::mem::take(&mut self.in_flight) {
            self.ledger().abandon(&self.pending());
        }
    }
}

impl Moving<'_, Invest> {
    /// The investment being made.
    pub fn invest(&self) -> &Invest {
        self.call.endpoint()
    }
}

impl<R: MoneyMove> Machine for Moving<'_, R> {
    type Output = Result<R::Response, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Send(request) => {
                let check = std::mem::take(&mut self.check);
                let recorded = self.ledger().record(&self.pending(), check);
                let (in_flight, call) = (&mut self.in_flight, &mut self.call);
                match send_if_recorded(recorded, request, in_flight, call, R::NOUN) {
                    Some(step) => step,
                    None => self.next(now),
                }
            }
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                // Inside a `MoveOnce` the record stays in flight: it resolves it.
                if self.standalone {
                    self.abandon();
                }
                let unresolved = UnresolvedMove::new(self.pending(), cause);
                Step::Done(Err(R::unknown(Box::new(unresolved))))
            }
            Step::Done(done) => {
                if self.standalone && std::mem::take(&mut self.in_flight) {
                    self.ledger().settle(&self.pending());
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

impl<R: MoneyMove> Drop for Moving<'_, R> {
    /// Dropped while the operation is in flight (a dropped future): its record is left
    /// unresolved — the client's list of pending records shows it, the journal keeps it.
    fn drop(&mut self) {
        if self.standalone {
            self.abandon();
        }
    }
}

//! [`MoveOnce`]: doing an operation that moves money exactly once — investing in a fixed plan
//! ([`InvestOnce`]), investing in a flex plan ([`FlexInvestOnce`]), withdrawing from one
//! ([`FlexWithdrawOnce`]): sent; on an unknown outcome resolved from the exchange's list of
//! such operations; sent again only when resolving proved that nothing was done.

use std::time::SystemTime;

use txc_types::investments::Invest;
use txc_types::investments::flex::{FlexInvest, FlexWithdraw};

use super::move_search::MoveSearch;
use super::moving::Moving;
use super::resolver::Resolver;
use crate::{
    ClientCore, Error, Machine, MoneyMove, MoveResolution, PendingMove, Response, Step,
    TransportError, UnresolvedMove,
};

enum Stage<'a, R: MoneyMove> {
    /// Not started: an unresolved record resolving could not tell from this operation is
    /// resolved first, else the operation sent.
    Start,
    Sending(Moving<'a, R>),
    Resolving(Box<Resolver<'a, MoveSearch<R>>>, Error),
    Finished,
}

/// Does an operation that moves money exactly once: sends it; if its outcome is unknown,
/// resolves it; if it was not done, sends it again (fresh nonce), at most the client's
/// `max_placements` times in all. Never done twice for one call, as far as the resolution is
/// right (see [`ResolveInvestment`](crate::ResolveInvestment) for what the exchange's rules
/// prove, the same rule for every such operation).
///
/// **Across restarts.** When the client holds unresolved records of the same kind, plan and
/// amount — left by an earlier call whose outcome stayed unknown, a dropped future, or an
/// earlier process (read from the [`Journal`](crate::Journal) when the client was built) — it
/// takes them over (as one record) and resolves them **before** sending anything: done ends it
/// with that record; not done lets it act (counted as a resend); anything else — "cannot
/// tell" included — ends it unknown, nothing sent.
///
/// Ends with what was done ([`MoneyMove::Done`]: [`Invested`](crate::Invested),
/// [`FlexDone`](crate::FlexDone)); with the error of a first attempt that certainly did
/// nothing (a refusal: bounds, balance, permission); with the operation's unknown-outcome
/// error ([`Error::InvestmentUnknown`], [`Error::FlexInvestUnknown`],
/// [`Error::FlexWithdrawUnknown`]) when resolving cannot tell (a look-up failed; a record of the
/// plan and amount in the window that another writer of the key may have made — see
/// [`InvestmentWriters`](crate::InvestmentWriters) — carrying the candidates), or when a later
/// attempt fails in any way after an earlier one's outcome was unknown (carrying every
/// attempt); or with its "not done" error ([`Error::NotInvested`], [`Error::FlexNotInvested`],
/// [`Error::FlexNotWithdrawn`]) when every attempt was resolved as not done. Dropped before it
/// ends, it leaves the record unresolved.
pub struct MoveOnce<'a, R: MoneyMove> {
    core: &'a ClientCore,
    request: R,
    sends: u32,
    /// Every attempt of every send so far.
    pending: PendingMove<R>,
    stage: Stage<'a, R>,
}

/// Investing in a fixed plan exactly once: [`MoveOnce`] an [`Invest`].
pub type InvestOnce<'a> = MoveOnce<'a, Invest>;

/// Investing in a flex plan exactly once: [`MoveOnce`] a [`FlexInvest`].
pub type FlexInvestOnce<'a> = MoveOnce<'a, FlexInvest>;

/// Withdrawing from a flex plan exactly once: [`MoveOnce`] a [`FlexWithdraw`].
pub type FlexWithdrawOnce<'a> = MoveOnce<'a, FlexWithdraw>;

impl<'a, R: MoneyMove> MoveOnce<'a, R> {
    pub(crate) fn new(core: &'a ClientCore, request: R) -> Self {
        let pending = PendingMove::new(request.clone(), core.nonce_mode(), Vec::new());
        Self {
            core,
            request,
            sends: 1,
            pending,
            stage: Stage::Start,
        }
    }

    /// What is known of the operation so far: the request and every attempt signed.
    pub fn pending(&self) -> PendingMove<R> {
        match &self.stage {
            Stage::Sending(sending) => sending.pending(),
            _ => self.pending.clone(),
        }
    }

    fn finish(&mut self, result: Result<R::Done, Error>) -> Step<Result<R::Done, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    /// Ends unknown, the record kept as unresolved with the cause as its reason (held again
    /// if a resolution had settled it).
    fn unknown(&mut self, unresolved: UnresolvedMove<R>) -> Step<Result<R::Done, Error>> {
        let ledger = self.core.moves();
        ledger.abandon(&unresolved.pending);
        ledger.note(&unresolved.pending, &unresolved.reason());
        self.finish(Err(R::unknown(Box::new(unresolved))))
    }

    /// Starts resolving what is known so far, `cause` the failure that left it unknown.
    fn resolve(&mut self, cause: Error, now: SystemTime) -> Step<Result<R::Done, Error>> {
        let resolve = Resolver::new(self.core, MoveSearch::new(self.pending.clone()));
        self.stage = Stage::Resolving(Box::new(resolve), cause);
        self.next(now)
    }

    /// Starts: resolves the unresolved records like this one first, if any.
    fn start(&mut self, now: SystemTime) -> Step<Result<R::Done, Error>> {
        match self.core.moves().adopt(&self.request) {
            None => {
                let first = Moving::new(self.core.call_owned(self.request.clone()), false);
                self.stage = Stage::Sending(first);
                self.next(now)
            }
            Some(earlier) => {
                let reason = format!(
                    "an earlier {} of this plan and amount was unresolved ({}); it was \
                     resolved before anything was sent",
                    R::NOUN,
                    earlier.reason().unwrap_or("its outcome was unknown")
                );
                self.pending = earlier;
                self.resolve(Error::Unproven { reason }, now)
            }
        }
    }

    /// An attempt ended at `now` with `result`.
    fn sent(
        &mut self,
        result: Result<R::Response, Error>,
        recorded: bool,
        now: SystemTime,
    ) -> Step<Result<R::Done, Error>> {
        let error = match result {
            Ok(answer) => {
                self.core.moves().settle(&self.pending);
                return self.finish(Ok(R::answered(answer)));
            }
            Err(error) => match R::unresolved(error) {
                Ok(unknown) => return self.resolve(unknown.cause, now),
                Err(error) => error,
            },
        };
        if self.sends == 1 {
            // The first attempt was refused: certainly nothing was done.
            if recorded {
                self.core.moves().settle(&self.pending);
            }
            return self.finish(Err(error));
        }
        // An earlier attempt's outcome was unknown and resolved as not done; a refusal now
        // (balance, bounds) could be that attempt's doing after all.
        let pending = self.pending.clone();
        self.unknown(UnresolvedMove::new(pending, error))
    }

    /// Resolving ended with `resolution`; `cause` left the outcome unknown.
    fn resolved(
        &mut self,
        resolution: Result<R::Resolution, Error>,
        cause: Error,
        now: SystemTime,
    ) -> Step<Result<R::Done, Error>> {
        let resolution = match resolution {
            Ok(resolution) => resolution.into(),
            Err(still_unknown) => {
                let unresolved = match R::unresolved(still_unknown) {
                    Ok(u) => {
                        let UnresolvedMove {
                            cause, evidence, ..
                        } = *u;
                        let unresolved = UnresolvedMove::new(self.pending.clone(), cause);
                        match evidence {
                            Some(evidence) => unresolved.with_evidence(evidence),
                            None => unresolved,
                        }
                    }
                    Err(other) => UnresolvedMove::new(self.pending.clone(), other),
                };
                return self.unknown(unresolved);
            }
        };
        match resolution {
            MoveResolution::Done { record, evidence } => {
                self.finish(Ok(R::found(record, evidence)))
            }
            MoveResolution::NotDone { evidence } => {
                if self.sends >= self.core.max_placements() {
                    let unresolved =
                        UnresolvedMove::new(self.pending.clone(), cause).with_evidence(evidence);
                    return self.finish(Err(R::not_done(Box::new(unresolved))));
                }
                self.sends += 1;
                let call = self.core.call_owned(self.request.clone());
                let again = Moving::again(call, self.pending.attempts().to_vec());
                self.stage = Stage::Sending(again);
                self.next(now)
            }
            MoveResolution::CannotTell {
                candidates,
                evidence,
            } => {
                let unresolved = UnresolvedMove::new(self.pending.clone(), cause)
                    .with_candidates(candidates)
                    .with_evidence(evidence);
                self.unknown(unresolved)
            }
        }
    }
}

impl<R: MoneyMove> Machine for MoveOnce<'_, R> {
    type Output = Result<R::Done, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Start => self.start(now),
            Stage::Sending(mut sending) => match sending.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Sending(sending);
                    step
                }
                Err(result) => {
                    self.pending = sending.pending();
                    let recorded = sending.in_flight;
                    self.sent(result, recorded, now)
                }
            },
            Stage::Resolving(mut resolve, cause) => match resolve.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Resolving(resolve, cause);
                    step
                }
                Err(resolution) => self.resolved(resolution, cause, now),
            },
            Stage::Finished => {
                Step::after_end(R::OPERATION, &format!("doing the {} once", R::NOUN))
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Sending(sending) => sending.receive(response),
            Stage::Resolving(resolve, _) => resolve.receive(response),
            Stage::Start | Stage::Finished => {}
        }
    }
}

impl<R: MoneyMove> Drop for MoveOnce<'_, R> {
    /// Dropped before it ended (a dropped future): the operation's record, if it has one, is
    /// left unresolved — the client's list of pending records shows it, the journal keeps it.
    fn drop(&mut self) {
        let pending = match &self.stage {
            Stage::Sending(sending) if sending.in_flight => sending.pending(),
            Stage::Resolving(..) => self.pending.clone(),
            _ => return,
        };
        self.core.moves().abandon(&pending);
    }
}

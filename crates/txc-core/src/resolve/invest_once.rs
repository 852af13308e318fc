//! [`Investing`] and [`InvestOnce`]: investing in a smart plan, and investing exactly once.
//!
//! An investment request has no id of the caller's, so an ambiguous answer (a 5xx, a reset
//! connection, a lost response) cannot be retried safely: [`Investing`] ends it as
//! [`Error::InvestmentUnknown`], carrying the plan, the amount and every attempt. [`InvestOnce`]
//! then [resolves](ResolveInvestment) it from the investments list and invests again only when
//! resolving proved that nothing was invested.

use std::time::SystemTime;

use txc_types::investments::{Invest, Investment, NewInvestment};

use super::invest_resolution::InvestResolution;
use super::invest_resolve::ResolveInvestment;
use super::ledger::send_if_recorded;
use crate::machine::Call;
use crate::{
    AttemptRecord, ClientCore, Error, Evidence, Machine, PendingInvestment, Response, Step,
    TransportError, UnresolvedInvestment,
};

/// An investment that was made, as the exchange showed it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Invested {
    /// The investment's own answer (HTTP 201).
    Answered(NewInvestment),
    /// Found in the investments list by resolving an unknown outcome.
    Found {
        /// The investment.
        investment: Box<Investment>,
        /// What proved it is this one: the window and the rounds read.
        evidence: Evidence,
    },
}

impl Invested {
    /// The investment's id.
    pub fn id(&self) -> &str {
        match self {
            Self::Answered(new) => &new.id,
            Self::Found { investment, .. } => &investment.id,
        }
    }
}

/// Invests: a [`Call`] whose failures that leave the outcome unknown come out as
/// [`Error::InvestmentUnknown`], carrying the [`PendingInvestment`] that resolving needs.
///
/// Before each attempt it records the investment's pending record — plan, amount, every
/// attempt's nonce — in the client's ledger and [`Journal`](crate::Journal) (an attempt the
/// journal cannot record is not sent), and clears it once the outcome is definite; one whose
/// outcome stays unknown, or whose machine is dropped mid-call, stays recorded as unresolved.
/// Before anything is sent it refuses an investment of the plan and amount of an unresolved
/// record ([`Error::ResolveFirst`]): resolving could not tell the two apart.
pub struct Investing<'a> {
    call: Call<'a, Invest>,
    /// The attempts of earlier sends of the same investment (with `InvestOnce`).
    earlier: Vec<AttemptRecord>,
    /// Whether the check against unresolved records is still to be made (the first send).
    check: bool,
    /// Whether this call settles the record itself (not inside `InvestOnce`).
    standalone: bool,
    /// Whether the ledger holds this call's record in flight (inside `InvestOnce`, once
    /// recorded, until it ends).
    in_flight: bool,
}

impl<'a> Investing<'a> {
    pub(crate) fn new(call: Call<'a, Invest>, standalone: bool) -> Self {
        Self {
            call,
            earlier: Vec::new(),
            check: true,
            standalone,
            in_flight: false,
        }
    }

    /// A further send of an investment sent before in the `earlier` attempts.
    fn again(call: Call<'a, Invest>, earlier: Vec<AttemptRecord>) -> Self {
        Self {
            call,
            earlier,
            check: false,
            standalone: false,
            in_flight: false,
        }
    }

    /// The investment being made.
    pub fn invest(&self) -> &Invest {
        self.call.endpoint()
    }

    /// What is known of it so far: the request and every attempt signed (earlier sends'
    /// first).
    pub fn pending(&self) -> PendingInvestment {
        let attempts = self.earlier.iter().chain(self.call.attempts()).copied();
        PendingInvestment::new(
            self.invest().clone(),
            self.call.core().nonce_mode(),
            attempts.collect(),
        )
    }

    fn ledger(&self) -> &super::investment_ledger::InvestmentLedger {
        self.call.core().investment_ledger()
    }

    /// Leaves the record in flight unresolved: nothing of this client owns it now.
    fn abandon(&mut self) {
        if std::mem::take(&mut self.in_flight) {
            self.ledger().abandon(&self.pending());
        }
    }
}

impl Machine for Investing<'_> {
    type Output = Result<NewInvestment, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Send(request) => {
                let check = std::mem::take(&mut self.check);
                let recorded = self.ledger().record(&self.pending(), check);
                let (in_flight, call) = (&mut self.in_flight, &mut self.call);
                match send_if_recorded(recorded, request, in_flight, call, "investment") {
                    Some(step) => step,
                    None => self.next(now),
                }
            }
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                // Inside `InvestOnce` the record stays in flight: it resolves it.
                if self.standalone {
                    self.abandon();
                }
                let unresolved = UnresolvedInvestment::new(self.pending(), cause);
                Step::Done(Err(Error::InvestmentUnknown(Box::new(unresolved))))
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

impl Drop for Investing<'_> {
    /// Dropped while the investment is in flight (a dropped future): its record is left
    /// unresolved — `pending_investments` lists it, the journal keeps it.
    fn drop(&mut self) {
        if self.standalone {
            self.abandon();
        }
    }
}

enum Stage<'a> {
    /// Not started: an unresolved record of the plan and amount is resolved first, else the
    /// investment sent.
    Start,
    Investing(Investing<'a>),
    Resolving(Box<ResolveInvestment<'a>>, Error),
    Finished,
}

/// Invests exactly once: sends the investment; if its outcome is unknown, resolves it; if it
/// was not invested, sends it again (fresh nonce), at most the client's `max_placements` times
/// in all. Never two investments for one call, as far as the resolution is right (see
/// [`ResolveInvestment`] for what the exchange's rules prove).
///
/// **Across restarts.** When the client holds unresolved records of the same plan and amount
/// — left by an earlier call whose outcome stayed unknown, a dropped future, or an earlier
/// process (read from the [`Journal`](crate::Journal) when the client was built) — it takes
/// them over (as one record) and resolves them **before** sending anything: invested ends it
/// with that investment; not invested lets it invest (counted as a resend); anything else —
/// "cannot tell" included — ends it unknown, nothing sent.
///
/// Ends with [`Invested`]; with the error of a first attempt that certainly invested nothing
/// (a refusal: bounds, balance, permission); with [`Error::InvestmentUnknown`] when resolving
/// cannot tell (a look-up failed; a record of the plan and amount in the window that another
/// writer of the key may have made — see [`InvestmentWriters`](crate::InvestmentWriters) —
/// carrying the candidates), or when a later attempt fails in any way after an earlier one's
/// outcome was unknown (carrying every attempt); or with [`Error::NotInvested`] when every
/// attempt was resolved as not invested. Dropped before it ends, it leaves the record
/// unresolved.
pub struct InvestOnce<'a> {
    core: &'a ClientCore,
    invest: Invest,
    sends: u32,
    /// Every attempt of every send so far.
    pending: PendingInvestment,
    stage: Stage<'a>,
}

impl<'a> InvestOnce<'a> {
    pub(crate) fn new(core: &'a ClientCore, invest: Invest) -> Self {
        let pending = PendingInvestment::new(invest.clone(), core.nonce_mode(), Vec::new());
        Self {
            core,
            invest,
            sends: 1,
            pending,
            stage: Stage::Start,
        }
    }

    /// What is known of the investment so far: the request and every attempt signed.
    pub fn pending(&self) -> PendingInvestment {
        match &self.stage {
            Stage::Investing(investing) => investing.pending(),
            _ => self.pending.clone(),
        }
    }

    fn finish(&mut self, result: Result<Invested, Error>) -> Step<Result<Invested, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    /// Ends unknown, the record kept as unresolved with the cause as its reason (held again
    /// if a resolution had settled it).
    fn unknown(&mut self, unresolved: UnresolvedInvestment) -> Step<Result<Invested, Error>> {
        let ledger = self.core.investment_ledger();
        ledger.abandon(&unresolved.investment);
        ledger.note(&unresolved.investment, &unresolved.reason());
        self.finish(Err(Error::InvestmentUnknown(Box::new(unresolved))))
    }

    /// Starts: resolves the unresolved records of the plan and amount first, if any.
    fn start(&mut self, now: SystemTime) -> Step<Result<Invested, Error>> {
        match self.core.investment_ledger().adopt(&self.invest) {
            None => {
                let first = Investing::new(self.core.call_owned(self.invest.clone()), false);
                self.stage = Stage::Investing(first);
                self.next(now)
            }
            Some(earlier) => {
                let reason = format!(
                    "an earlier investment of this plan and amount was unresolved ({}); it was \
                     resolved before anything was sent",
                    earlier.reason().unwrap_or("its outcome was unknown")
                );
                self.pending = earlier;
                let resolve = self.core.resolve_investment(self.pending.clone());
                self.stage = Stage::Resolving(Box::new(resolve), Error::Unproven { reason });
                self.next(now)
            }
        }
    }

    /// An investment attempt ended at `now` with `result`.
    fn invested(
        &mut self,
        result: Result<NewInvestment, Error>,
        recorded: bool,
        now: SystemTime,
    ) -> Step<Result<Invested, Error>> {
        let error = match result {
            Ok(new) => {
                self.core.investment_ledger().settle(&self.pending);
                return self.finish(Ok(Invested::Answered(new)));
            }
            Err(Error::InvestmentUnknown(unknown)) => {
                let resolve = self.core.resolve_investment(self.pending.clone());
                self.stage = Stage::Resolving(Box::new(resolve), unknown.cause);
                return self.next(now);
            }
            Err(error) => error,
        };
        if self.sends == 1 {
            // The first attempt was refused: certainly nothing was invested.
            if recorded {
                self.core.investment_ledger().settle(&self.pending);
            }
            return self.finish(Err(error));
        }
        // An earlier attempt's outcome was unknown and resolved as not invested; a refusal
        // now (balance, "already exists") could be that attempt's doing after all.
        let pending = self.pending.clone();
        self.unknown(UnresolvedInvestment::new(pending, error))
    }
}

impl Machine for InvestOnce<'_> {
    type Output = Result<Invested, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Start => self.start(now),
            Stage::Investing(mut investing) => match investing.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Investing(investing);
                    step
                }
                Err(result) => {
                    self.pending = investing.pending();
                    let recorded = investing.in_flight;
                    self.invested(result, recorded, now)
                }
            },
            Stage::Resolving(mut resolve, cause) => match resolve.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Resolving(resolve, cause);
                    step
                }
                Err(Ok(InvestResolution::Invested {
                    investment,
                    evidence,
                })) => self.finish(Ok(Invested::Found {
                    investment,
                    evidence,
                })),
                Err(Ok(InvestResolution::NotInvested { evidence })) => {
                    if self.sends >= self.core.max_placements() {
                        let unresolved = UnresolvedInvestment::new(self.pending.clone(), cause)
                            .with_evidence(evidence);
                        return self.finish(Err(Error::NotInvested(Box::new(unresolved))));
                    }
                    self.sends += 1;
                    let call = self.core.call_owned(self.invest.clone());
                    let again = Investing::again(call, self.pending.attempts().to_vec());
                    self.stage = Stage::Investing(again);
                    self.next(now)
                }
                Err(Ok(InvestResolution::CannotTell {
                    candidates,
                    evidence,
                })) => {
                    let unresolved = UnresolvedInvestment::new(self.pending.clone(), cause)
                        .with_candidates(candidates)
                        .with_evidence(evidence);
                    self.unknown(unresolved)
                }
                Err(Err(still_unknown)) => {
                    let unresolved = match still_unknown {
                        Error::InvestmentUnknown(u) => {
                            let UnresolvedInvestment {
                                cause, evidence, ..
                            } = *u;
                            let unresolved = UnresolvedInvestment::new(self.pending.clone(), cause);
                            match evidence {
                                Some(evidence) => unresolved.with_evidence(evidence),
                                None => unresolved,
                            }
                        }
                        other => UnresolvedInvestment::new(self.pending.clone(), other),
                    };
                    self.unknown(unresolved)
                }
            },
            Stage::Finished => Step::after_end("invest_once", "the investment"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Investing(investing) => investing.receive(response),
            Stage::Resolving(resolve, _) => resolve.receive(response),
            Stage::Start | Stage::Finished => {}
        }
    }
}

impl Drop for InvestOnce<'_> {
    /// Dropped before it ended (a dropped future): the investment's record, if it has one, is
    /// left unresolved — `pending_investments` lists it, the journal keeps it.
    fn drop(&mut self) {
        let pending = match &self.stage {
            Stage::Investing(investing) if investing.in_flight => investing.pending(),
            Stage::Resolving(..) => self.pending.clone(),
            _ => return,
        };
        self.core.investment_ledger().abandon(&pending);
    }
}

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
use crate::machine::Call;
use crate::{
    ClientCore, Error, Evidence, Machine, PendingInvestment, Response, Step, TransportError,
    UnresolvedInvestment,
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
pub struct Investing<'a> {
    call: Call<'a, Invest>,
}

impl<'a> Investing<'a> {
    pub(crate) fn new(call: Call<'a, Invest>) -> Self {
        Self { call }
    }

    /// The investment being made.
    pub fn invest(&self) -> &Invest {
        self.call.endpoint()
    }

    /// What is known of it so far: the request and the attempts signed.
    pub fn pending(&self) -> PendingInvestment {
        PendingInvestment::new(
            self.invest().clone(),
            self.call.core().nonce_mode(),
            self.call.attempts().to_vec(),
        )
    }
}

impl Machine for Investing<'_> {
    type Output = Result<NewInvestment, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                let unresolved = UnresolvedInvestment::new(self.pending(), cause);
                Step::Done(Err(Error::InvestmentUnknown(Box::new(unresolved))))
            }
            step => step,
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}

enum Stage<'a> {
    Investing(Investing<'a>),
    Resolving(Box<ResolveInvestment<'a>>, Error),
    Finished,
}

/// Invests exactly once: sends the investment; if its outcome is unknown, resolves it; if it
/// was not invested, sends it again (fresh nonce), at most the client's `max_placements` times
/// in all. Never two investments for one call, as far as the resolution is right (see
/// [`ResolveInvestment`] for what the exchange's rules prove).
///
/// Ends with [`Invested`]; with the error of a first attempt that certainly invested nothing
/// (a refusal: bounds, balance, permission); with [`Error::InvestmentUnknown`] when resolving
/// cannot tell (a look-up failed, or several identical investments in the window), or when a
/// later attempt fails in any way after an earlier one's outcome was unknown (carrying every
/// attempt); or with [`Error::NotInvested`] when every attempt was resolved as not invested.
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
        let first = Investing::new(core.call_owned(invest.clone()));
        Self {
            core,
            invest,
            sends: 1,
            pending,
            stage: Stage::Investing(first),
        }
    }

    /// What is known of the investment so far: the request and every attempt signed.
    pub fn pending(&self) -> PendingInvestment {
        let mut pending = self.pending.clone();
        if let Stage::Investing(investing) = &self.stage {
            pending.push_attempts(investing.call.attempts());
        }
        pending
    }

    fn finish(&mut self, result: Result<Invested, Error>) -> Step<Result<Invested, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    fn unknown(&mut self, unresolved: UnresolvedInvestment) -> Step<Result<Invested, Error>> {
        self.finish(Err(Error::InvestmentUnknown(Box::new(unresolved))))
    }

    /// An investment attempt ended at `now` with `result`.
    fn invested(
        &mut self,
        result: Result<NewInvestment, Error>,
        attempts: &[crate::AttemptRecord],
        now: SystemTime,
    ) -> Step<Result<Invested, Error>> {
        self.pending.push_attempts(attempts);
        let error = match result {
            Ok(new) => return self.finish(Ok(Invested::Answered(new))),
            Err(Error::InvestmentUnknown(unknown)) => {
                let resolve = self.core.resolve_investment(self.pending.clone());
                self.stage = Stage::Resolving(Box::new(resolve), unknown.cause);
                return self.next(now);
            }
            Err(error) => error,
        };
        if self.sends == 1 {
            // The first attempt was refused: certainly nothing was invested.
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
            Stage::Investing(mut investing) => match investing.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Investing(investing);
                    step
                }
                Err(result) => {
                    let attempts = investing.call.attempts().to_vec();
                    self.invested(result, &attempts, now)
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
                    let again = Investing::new(self.core.call_owned(self.invest.clone()));
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
            Stage::Finished => {}
        }
    }
}

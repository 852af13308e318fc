//! [`UnresolvedMove`]: an operation that moves money and the failure that ended its call —
//! the context of the errors of an unknown outcome ([`Error::InvestmentUnknown`],
//! [`Error::FlexInvestUnknown`], [`Error::FlexWithdrawUnknown`]) and of "not done"
//! ([`Error::NotInvested`], [`Error::FlexNotInvested`], [`Error::FlexNotWithdrawn`]).

use std::error::Error as StdError;
use std::fmt;

use txc_types::investments::Invest;

use crate::{Error, Evidence, MoneyMove, PendingMove};

/// An operation that moves money ([`MoneyMove`]) and the failure that ended its call. As an
/// error it reads as its cause.
#[derive(Debug)]
#[non_exhaustive]
pub struct UnresolvedMove<R: MoneyMove> {
    /// The operation: `invest`, `flex_invest`, `flex_withdraw`.
    pub operation: &'static str,
    /// The operation: plan, amount and every attempt.
    pub pending: PendingMove<R>,
    /// The failure that ended the last attempt or look-up.
    pub cause: Error,
    /// When resolving found records it cannot tell from this operation's (same plan, same
    /// amount, created inside the attempts' window, and another writer may have made them):
    /// all of them. One may be this one.
    pub candidates: Vec<R::Record>,
    /// The look-ups resolving made, if it ran.
    pub evidence: Option<Evidence>,
}

/// An investment in a fixed plan and the failure that ended its call: the context of
/// [`Error::InvestmentUnknown`] and [`Error::NotInvested`].
pub type UnresolvedInvestment = UnresolvedMove<Invest>;

impl<R: MoneyMove> UnresolvedMove<R> {
    /// The context of an operation whose last attempt or look-up failed with `cause`.
    pub fn new(pending: PendingMove<R>, cause: Error) -> Self {
        Self {
            operation: R::OPERATION,
            pending,
            cause,
            candidates: Vec::new(),
            evidence: None,
        }
    }

    /// The same, with the candidates resolving could not tell apart.
    pub fn with_candidates(mut self, candidates: Vec<R::Record>) -> Self {
        self.candidates = candidates;
        self
    }

    /// The same, with the evidence resolving gathered.
    pub fn with_evidence(mut self, evidence: Evidence) -> Self {
        self.evidence = Some(evidence);
        self
    }

    /// Why it is unresolved, in one line: the candidates resolving could not tell from it, or
    /// the cause.
    pub fn reason(&self) -> String {
        if self.candidates.is_empty() {
            return self.cause.to_string();
        }
        cannot_tell_reason::<R>(&self.candidates)
    }
}

/// Why an operation of kind `R` resolving found `candidates` for is unresolved.
pub(crate) fn cannot_tell_reason<R: MoneyMove>(candidates: &[R::Record]) -> String {
    let ids: Vec<&str> = candidates.iter().map(R::record_id).collect();
    format!(
        "cannot tell: {} {} record(s) of the plan and amount were created in the attempts' \
         window ({}), which may be this one or another writer's",
        ids.len(),
        R::NOUN,
        ids.join(", ")
    )
}

impl<R: MoneyMove> fmt::Display for UnresolvedMove<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cause.fmt(f)
    }
}

impl<R: MoneyMove> StdError for UnresolvedMove<R> {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.cause.source()
    }
}

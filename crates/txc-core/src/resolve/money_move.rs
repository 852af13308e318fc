//! [`MoneyMove`]: an operation that moves money and carries no id of the caller's — investing
//! in a fixed plan ([`Invest`](txc_types::investments::Invest)), investing in a flex plan
//! ([`FlexInvest`](txc_types::investments::flex::FlexInvest)) and withdrawing from one
//! ([`FlexWithdraw`](txc_types::investments::flex::FlexWithdraw)) — and what the one machinery
//! that sends, journals and resolves them ([`Moving`](crate::Moving),
//! [`MoveOnce`](crate::MoveOnce), [`MoveSearch`](crate::MoveSearch), the client's ledger)
//! needs to know of each: its look-ups, its records, its errors.

use std::fmt;
use std::time::Duration;

use txc_types::endpoint::Endpoint;
use txc_types::values::{Amount, ExactDecimal};

use crate::{
    AcceptanceWindow, ClientCore, Error, Evidence, MoveResolution, PendingMove, PendingRecord,
    RoundMachine, UnresolvedMove,
};

/// The seal of the traits whose implementations are this crate's own: the operations that move
/// money, and the changes resolved by state.
mod sealed {
    /// Implemented only inside this crate.
    pub trait Sealed {}
}

pub(crate) use sealed::Sealed;

/// An operation that moves money — a request of a plan and an amount, with no id of the
/// caller's — which the client never sends again after an ambiguous answer without resolving
/// it from proof: the exchange's list of such operations, searched for a record of the plan and
/// amount created inside the attempts' acceptance window (see
/// [`ResolveInvestment`](crate::ResolveInvestment) for the rule, the same for every one).
///
/// Sealed: implemented by [`Invest`](txc_types::investments::Invest),
/// [`FlexInvest`](txc_types::investments::flex::FlexInvest) and
/// [`FlexWithdraw`](txc_types::investments::flex::FlexWithdraw). What differs between them is
/// here; the machines ([`Moving`](crate::Moving), [`MoveOnce`](crate::MoveOnce)), the search
/// ([`MoveSearch`](crate::MoveSearch)), the pending record ([`PendingMove`]) and the error
/// ([`UnresolvedMove`]) are written once for all.
pub trait MoneyMove: Endpoint + Clone + fmt::Debug + PartialEq + Send + Sync + Sealed {
    /// What resolving finds of it: the record a look-up lists (an investment of a fixed plan; a
    /// flex history record).
    type Record: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// What resolving it answers ([`InvestResolution`](crate::InvestResolution),
    /// [`FlexResolution`](crate::FlexResolution)).
    type Resolution: From<MoveResolution<Self::Record>> + Into<MoveResolution<Self::Record>>;
    /// What doing it exactly once answers ([`Invested`](crate::Invested),
    /// [`FlexDone`](crate::FlexDone)).
    type Done: fmt::Debug;

    /// What it is, in a word or two: `investment`, `flex investment`, `flex withdrawal`.
    const NOUN: &'static str;
    /// How finely a record's creation time is known (whole seconds).
    const CREATED_PRECISION: Duration = Duration::from_secs(1);

    /// The plan's id.
    fn plan_id(&self) -> &str;

    /// The amount.
    fn amount(&self) -> &Amount;

    /// Whether `self` and `other` are operations resolving cannot tell apart: the same plan and
    /// the same amount, by value (`250` is `250.0`).
    fn same(&self, other: &Self) -> bool {
        if self.plan_id() != other.plan_id() {
            return false;
        }
        let (x, y) = (self.amount().as_str(), other.amount().as_str());
        match (ExactDecimal::new(x), ExactDecimal::new(y)) {
            (Ok(x), Ok(y)) => x == y,
            _ => x == y,
        }
    }

    /// `pending`, as the client's journal keeps it.
    fn wrap(pending: PendingMove<Self>) -> PendingRecord;

    /// The operation of this kind `record` holds, if it holds one.
    fn unwrap(record: &PendingRecord) -> Option<&PendingMove<Self>>;

    /// A round of look-ups for `pending`: every record of its plan and amount the look-ups list,
    /// each a candidate with its creation time (see [`Search::round`](crate::Search::round)).
    fn round<'a>(
        pending: &PendingMove<Self>,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, Self::Record>;

    /// A record's id, for messages.
    fn record_id(record: &Self::Record) -> &str;

    /// The error of an operation whose outcome is unknown.
    fn unknown(unresolved: Box<UnresolvedMove<Self>>) -> Error;

    /// The error of an operation every attempt of which was resolved as not done.
    fn not_done(unresolved: Box<UnresolvedMove<Self>>) -> Error;

    /// The unresolved operation an [`unknown`](Self::unknown) error carries, or the error as
    /// it was.
    fn unresolved(error: Error) -> Result<Box<UnresolvedMove<Self>>, Error>;

    /// What doing it exactly once answers when the exchange answered the attempt.
    fn answered(answer: Self::Response) -> Self::Done;

    /// What doing it exactly once answers when resolving found its record.
    fn found(record: Box<Self::Record>, evidence: Evidence) -> Self::Done;
}

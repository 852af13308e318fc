//! [`MoveSearch`]: finding an operation that moves money again by its plan and amount — an
//! investment in a fixed plan in the investments list ([`InvestmentSearch`]), a flex investment
//! or withdrawal in the flex history — for the one [`Resolver`](crate::Resolver), which
//! resolves them all by one rule ([`ResolveInvestment`](crate::ResolveInvestment)).

use txc_types::investments::Invest;

use super::evidence::{AcceptanceWindow, Evidence};
use super::invest_resolution::InvestmentWriters;
use super::search::{Outcome, Presence, RoundMachine, Search};
use super::unresolved_move::cannot_tell_reason;
use crate::{
    AttemptRecord, ClientCore, Error, MoneyMove, MoveResolution, NonceMode, PendingMove,
    UnresolvedMove,
};

/// The look-ups that find an operation that moves money by its plan and amount: the
/// [`Search`] of [`ResolveInvestment`](crate::ResolveInvestment),
/// [`ResolveFlexInvest`](crate::ResolveFlexInvest) and
/// [`ResolveFlexWithdraw`](crate::ResolveFlexWithdraw).
///
/// A round ([`MoneyMove::round`]) reads every page of the operation's list — the investments
/// (a fixed plan's investment), the flex history (a flex investment or withdrawal) — each
/// record once; a record of the plan and amount is a candidate, the attempts' own when created
/// inside their window ([`Presence::Settled`]: only a round made once every record of the
/// attempts shows counts, and several inside the window cannot be told apart). Whose a single
/// such record is rests on the client's [`InvestmentWriters`]: with `Shared` it cannot tell.
#[derive(Debug, Clone)]
pub struct MoveSearch<R> {
    pending: PendingMove<R>,
}

/// The search of a fixed plan's investment in the investments list.
pub type InvestmentSearch = MoveSearch<Invest>;

impl<R: MoneyMove> MoveSearch<R> {
    /// The search for `pending`.
    pub fn new(pending: PendingMove<R>) -> Self {
        Self { pending }
    }

    /// The operation searched for.
    pub fn pending(&self) -> &PendingMove<R> {
        &self.pending
    }

    /// "Cannot tell", with `candidates`: the record stays, noted with why.
    fn cannot_tell(
        &self,
        core: &ClientCore,
        candidates: Vec<R::Record>,
        evidence: Evidence,
    ) -> MoveResolution<R::Record> {
        let reason = cannot_tell_reason::<R>(&candidates);
        core.moves().note(&self.pending, &reason);
        MoveResolution::CannotTell {
            candidates,
            evidence,
        }
    }
}

impl<R: MoneyMove> Search for MoveSearch<R> {
    type Record = R::Record;
    type Answer = R::Resolution;

    fn attempts(&self) -> &[AttemptRecord] {
        self.pending.attempts()
    }

    fn nonce_mode(&self, _core: &ClientCore) -> NonceMode {
        self.pending.nonce_mode()
    }

    fn presence(&self) -> Presence {
        Presence::Settled
    }

    fn round<'a>(
        &self,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, R::Record> {
        R::round(&self.pending, core, window)
    }

    fn answer(
        &self,
        core: &ClientCore,
        outcome: Outcome<R::Record>,
    ) -> Result<R::Resolution, Error> {
        let ledger = core.moves();
        let resolution = match outcome {
            Outcome::Found(record, evidence)
                if core.investment_writers() == InvestmentWriters::Sole =>
            {
                ledger.settle(&self.pending);
                MoveResolution::Done {
                    record: Box::new(record),
                    evidence,
                }
            }
            Outcome::Absent(_, evidence) => {
                ledger.settle(&self.pending);
                MoveResolution::NotDone { evidence }
            }
            Outcome::Found(record, evidence) => self.cannot_tell(core, vec![record], evidence),
            Outcome::Ambiguous(candidates, evidence) => {
                self.cannot_tell(core, candidates, evidence)
            }
        };
        Ok(resolution.into())
    }

    fn unknown(&self, cause: Error, evidence: Evidence) -> Error {
        let unresolved = UnresolvedMove::new(self.pending.clone(), cause).with_evidence(evidence);
        R::unknown(Box::new(unresolved))
    }

    fn unresolved(&self, core: &ClientCore, reason: &str) {
        core.moves().note(&self.pending, reason);
    }

    fn subject(&self) -> String {
        R::wrap(self.pending.clone()).subject()
    }
}

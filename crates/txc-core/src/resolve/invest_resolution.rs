//! [`InvestResolution`]: what resolving an investment whose outcome is unknown answers, with
//! the [`Evidence`] behind it — and [`InvestmentWriters`], the setting the answer rests on.

use txc_types::investments::Investment;

use crate::Evidence;

/// What resolving an investment found, and what proved it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InvestResolution {
    /// One investment of the plan and amount was created inside the window: this one.
    Invested {
        /// The investment, as the list showed it.
        investment: Box<Investment>,
        /// The window and the rounds.
        evidence: Evidence,
    },
    /// Absence proven twice by the rule: not invested; investing again is safe.
    NotInvested {
        /// The window and the rounds.
        evidence: Evidence,
    },
    /// One investment of the plan and amount was created inside the window while other
    /// writers may invest with the key
    /// ([`InvestmentWriters::Shared`]), or several were: one
    /// may be this one, and which — or whether — cannot be told. Do not invest again.
    CannotTell {
        /// All of them.
        candidates: Vec<Investment>,
        /// The window and the rounds.
        evidence: Evidence,
    },
}

impl InvestResolution {
    /// What proved it.
    pub fn evidence(&self) -> &Evidence {
        match self {
            Self::Invested { evidence, .. }
            | Self::NotInvested { evidence }
            | Self::CannotTell { evidence, .. } => evidence,
        }
    }
}

/// Whether other writers may invest with the client's key — what a record of the plan and
/// amount found inside an investment's window proves (see
/// [`ResolveInvestment`](super::ResolveInvestment)'s rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum InvestmentWriters {
    /// Others may invest with the key (other processes, the website): one record of the plan
    /// and amount in the window "cannot tell" — it may be theirs.
    #[default]
    Shared,
    /// This client is the key's only investor (no identical investment by anyone else, or by
    /// itself less than the window apart): one record in the window is this investment's.
    Sole,
}

impl From<crate::MoveResolution<Investment>> for InvestResolution {
    fn from(resolution: crate::MoveResolution<Investment>) -> Self {
        match resolution {
            crate::MoveResolution::Done { record, evidence } => Self::Invested {
                investment: record,
                evidence,
            },
            crate::MoveResolution::NotDone { evidence } => Self::NotInvested { evidence },
            crate::MoveResolution::CannotTell {
                candidates,
                evidence,
            } => Self::CannotTell {
                candidates,
                evidence,
            },
        }
    }
}

impl From<InvestResolution> for crate::MoveResolution<Investment> {
    fn from(resolution: InvestResolution) -> Self {
        match resolution {
            InvestResolution::Invested {
                investment,
                evidence,
            } => Self::Done {
                record: investment,
                evidence,
            },
            InvestResolution::NotInvested { evidence } => Self::NotDone { evidence },
            InvestResolution::CannotTell {
                candidates,
                evidence,
            } => Self::CannotTell {
                candidates,
                evidence,
            },
        }
    }
}

//! [`MoveResolution`]: what resolving an operation that moves money whose outcome is unknown
//! answers, with the [`Evidence`] behind it — as a flex investment's or withdrawal's
//! ([`FlexResolution`]); a fixed plan's investment names it
//! [`InvestResolution`](crate::InvestResolution).

use txc_types::investments::flex::FlexHistoryRecord;

use crate::Evidence;

/// What resolving an operation that moves money found, and what proved it: its record, or
/// proof that it was not done, or records it cannot be told from.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MoveResolution<Rec> {
    /// One record of the plan and amount was created inside the window: this operation's.
    Done {
        /// The record, as the look-up listed it.
        record: Box<Rec>,
        /// The window and the rounds.
        evidence: Evidence,
    },
    /// Absence proven twice by the rule: not done; doing it again is safe.
    NotDone {
        /// The window and the rounds.
        evidence: Evidence,
    },
    /// One record of the plan and amount was created inside the window while other writers
    /// may make the same call with the key ([`InvestmentWriters::Shared`](crate::InvestmentWriters::Shared)),
    /// or several were: one may be this operation's, and which — or whether — cannot be told.
    /// Do not do it again.
    CannotTell {
        /// All of them.
        candidates: Vec<Rec>,
        /// The window and the rounds.
        evidence: Evidence,
    },
}

/// What resolving a flex investment or withdrawal found: its record in the flex history (an
/// `INVEST` or `OPEN_INVESTMENT`, a `WITHDRAW_FROM_INVESTMENT`).
pub type FlexResolution = MoveResolution<FlexHistoryRecord>;

impl<Rec> MoveResolution<Rec> {
    /// What proved it.
    pub fn evidence(&self) -> &Evidence {
        match self {
            Self::Done { evidence, .. }
            | Self::NotDone { evidence }
            | Self::CannotTell { evidence, .. } => evidence,
        }
    }
}

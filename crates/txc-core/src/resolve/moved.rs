//! What doing an operation that moves money exactly once answers: [`Invested`] for a fixed
//! plan's investment, [`FlexDone`] for a flex investment or withdrawal — the exchange's answer,
//! or the record resolving found, with the [`Evidence`] that it is this one.

use txc_types::investments::flex::{FlexHistoryRecord, FlexTransaction};
use txc_types::investments::{Investment, NewInvestment};

use crate::Evidence;

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

/// A flex investment or withdrawal that was made, as the exchange showed it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FlexDone {
    /// The operation's own answer (HTTP 201): its transaction.
    Answered(FlexTransaction),
    /// Found in the flex history by resolving an unknown outcome.
    Found {
        /// The history's record of it (`INVEST` or `OPEN_INVESTMENT`, `WITHDRAW_FROM_INVESTMENT`).
        record: Box<FlexHistoryRecord>,
        /// What proved it is this one: the window and the rounds read.
        evidence: Evidence,
    },
}

impl FlexDone {
    /// The transaction's id, under which the history lists it.
    pub fn transaction_id(&self) -> &str {
        match self {
            Self::Answered(answer) => answer.transaction_id(),
            Self::Found { record, .. } => &record.transaction_id,
        }
    }
}

//! [`FlexOutcome`]: what a `txc flex …` command produced, for the output to print.

use txc_blocking::endpoint::Acknowledged;
use txc_blocking::investments::flex::{
    FlexHistoryRecord, FlexInvestment, FlexPlan, FlexTransaction,
};
use txc_blocking::outcomes::{FlexDone, FlexResolution, StateReached};

/// What a flex command produced.
// One per run, and boxed in `Outcome`: matching on the records beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub(crate) enum FlexOutcome {
    /// `flex plans`: every page.
    Plans(Vec<FlexPlan>),
    /// `flex investments`: every page.
    Investments(Vec<FlexInvestment>),
    /// `flex history` and `flex payments`: every page.
    History(Vec<FlexHistoryRecord>),
    /// `flex invest` (`"invest"`) or `flex withdraw` (`"withdraw"`): what was done.
    Moved(&'static str, FlexDone),
    /// `flex resolve invest|withdraw` (`"invest"`, `"withdraw"`): what resolving found (never
    /// "cannot tell", which is a failure).
    Resolved(&'static str, FlexResolution),
    /// `flex close`.
    Closed {
        /// The plan whose investment was closed.
        plan_id: String,
        /// How it was seen closed.
        reached: StateReached<FlexTransaction>,
    },
    /// `flex auto-invest`.
    AutoInvest {
        /// The plan whose investment was switched.
        plan_id: String,
        /// The state asked for.
        on: bool,
        /// How it was seen in that state.
        reached: StateReached<Acknowledged>,
    },
}

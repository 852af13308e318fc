//! The arguments the fixed plans' commands ([`crate::args`]) and the flexible ones
//! ([`crate::flex_args`]) both take: moving money into or out of a plan (`invest`,
//! `flex invest|withdraw`), resolving such a move (`resolve-investment`, `flex resolve`), a
//! switch, and an investment's status.

use clap::{Args, ValueEnum};

/// A plan, an amount, exactly once or not: `invest`, `flex invest` and `flex withdraw`.
#[derive(Debug, Args)]
pub(crate) struct MoveArgs {
    /// The plan's id (`txc plans` or `txc flex plans` lists them)
    pub(crate) plan_id: String,
    /// The amount, in the plan's currency, e.g. 250
    pub(crate) amount: String,
    /// Exactly once: on an unknown outcome resolve it (from the investments list, or the flex
    /// history), and send it again only when it was not done. An unresolved record of the
    /// same plan and amount in the journal is resolved first (without --once it stops the
    /// command: exit 4, nothing sent)
    #[arg(long)]
    pub(crate) once: bool,
}

/// A move whose outcome is unknown, as `txc` printed it: `resolve-investment` and `flex
/// resolve`.
#[derive(Debug, Args)]
pub(crate) struct UnknownMoveArgs {
    /// The plan's id
    pub(crate) plan_id: String,
    /// The amount
    pub(crate) amount: String,
    /// The nonce (Unix milliseconds) of an attempt to send it, for one the journal does not
    /// hold (sent from elsewhere); repeat for each attempt
    #[arg(long, value_name = "N")]
    pub(crate) nonce: Vec<u64>,
    /// The attempts were signed without nonceWindow (strict nonces)
    #[arg(long)]
    pub(crate) strict: bool,
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SwitchArg {
    /// On
    On,
    /// Off
    Off,
}

/// An investment's status, fixed or flex.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum StatusArg {
    /// Active
    Active,
    /// Closed
    Closed,
}

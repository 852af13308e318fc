//! `txc flex …`, as clap parses it: flexible lending's commands and their options.
//!
//! The doc comments here are also the `--help` texts.

use clap::{Args, Subcommand, ValueEnum};

use crate::shared_args::{MoveArgs, StatusArg, SwitchArg, UnknownMoveArgs};

/// `txc flex`: the subcommand.
#[derive(Debug, Args)]
pub(crate) struct FlexArgs {
    #[command(subcommand)]
    pub(crate) command: FlexCommand,
}

/// Flexible lending's commands.
#[derive(Debug, Subcommand)]
pub(crate) enum FlexCommand {
    /// List the flex plans offered to the account, every page
    /// (POST /api/v4/main-account/smart-flex/plans)
    Plans {
        /// Only plans of this currency, e.g. USDT
        #[arg(long, value_name = "T")]
        ticker: Option<String>,
    },
    /// Invest in a flex plan — create, top up or reopen the account's investment in it: reads
    /// the plan and the investment first and checks the amount against their bounds before
    /// investing (POST /api/v4/main-account/smart-flex/investments/invest)
    Invest(FlexInvestArgs),
    /// Withdraw part of the account's investment in a flex plan: reads the plan and the
    /// investment first and checks the amount against their bounds
    /// (POST /api/v4/main-account/smart-flex/investments/withdraw)
    Withdraw(MoveArgs),
    /// Close the account's investment in a flex plan: everything comes back; a lost answer is
    /// resolved by the investment's state (POST /api/v4/main-account/smart-flex/investments/close)
    Close {
        /// The plan's id
        plan_id: String,
    },
    /// Switch the auto-reinvestment of the account's investment in a flex plan on or off; a
    /// lost answer is resolved by the investment's state
    /// (POST /api/v4/main-account/smart-flex/investments/auto-invest)
    AutoInvest {
        /// The plan's id
        plan_id: String,
        /// On or off
        switch: SwitchArg,
    },
    /// List the account's flex investments, every page
    /// (POST /api/v4/main-account/smart-flex/investments)
    Investments(FlexInvestmentsArgs),
    /// List the flex investment history, every page
    /// (POST /api/v4/main-account/smart-flex/investments/history)
    History(FlexHistoryArgs),
    /// List the daily earnings paid, every page
    /// (POST /api/v4/main-account/smart-flex/investments/payment-history)
    Payments(FlexHistoryFilters),
    /// Find out whether a flex investment or withdrawal whose outcome is unknown was made: wait
    /// until no attempt can still be accepted, then look for it in the flex history twice. Its
    /// attempts come from the journal (or --nonce)
    Resolve(FlexResolveArgs),
}

/// `txc flex invest`.
#[derive(Debug, Args)]
pub(crate) struct FlexInvestArgs {
    #[command(flatten)]
    pub(crate) moved: MoveArgs,
    /// Send withReinvest: whether the investment adds its earnings to itself (left out, the
    /// exchange decides)
    #[arg(long, value_name = "ON_OFF")]
    pub(crate) reinvest: Option<SwitchArg>,
}

/// `txc flex investments`.
#[derive(Debug, Args)]
pub(crate) struct FlexInvestmentsArgs {
    /// Only investments of this currency, e.g. USDT
    #[arg(long, value_name = "T")]
    pub(crate) ticker: Option<String>,
    /// Only the investment in this plan
    #[arg(long, value_name = "ID")]
    pub(crate) plan: Option<String>,
    /// Only the investment with this id
    #[arg(long, value_name = "ID")]
    pub(crate) investment: Option<String>,
    /// Only active or only closed investments
    #[arg(long)]
    pub(crate) status: Option<StatusArg>,
    /// Records a page (each page one request)
    #[arg(long, value_name = "N")]
    pub(crate) page_size: Option<u64>,
}

/// The filters both histories take.
#[derive(Debug, Args)]
pub(crate) struct FlexHistoryFilters {
    /// Only records of the investment in this plan
    #[arg(long, value_name = "ID")]
    pub(crate) plan: Option<String>,
    /// Only records of this investment
    #[arg(long, value_name = "ID")]
    pub(crate) investment: Option<String>,
    /// Only the records of this transaction
    #[arg(long, value_name = "ID")]
    pub(crate) transaction: Option<String>,
    /// Only records from this Unix second on
    #[arg(long, value_name = "SECONDS")]
    pub(crate) from: Option<u64>,
    /// Only records up to this Unix second
    #[arg(long, value_name = "SECONDS")]
    pub(crate) to: Option<u64>,
    /// Records a page (each page one request)
    #[arg(long, value_name = "N")]
    pub(crate) page_size: Option<u64>,
}

/// `txc flex history`.
#[derive(Debug, Args)]
pub(crate) struct FlexHistoryArgs {
    #[command(flatten)]
    pub(crate) filters: FlexHistoryFilters,
    /// Only records of these actions; repeat for several
    #[arg(long, value_name = "ACTION")]
    pub(crate) action: Vec<FlexActionArg>,
}

/// What a history record did.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum FlexActionArg {
    /// Money invested: a creation or a top-up (1)
    Invest,
    /// An earning added to the investment (2)
    Reinvest,
    /// A partial withdrawal (3)
    Withdraw,
    /// The day's interest (4)
    Earning,
    /// The investment closed (5)
    Close,
    /// The investment (re)opened (6)
    Open,
}

/// Which operation `txc flex resolve` resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FlexMoveKind {
    /// A flex investment
    Invest,
    /// A flex withdrawal
    Withdraw,
}

/// `txc flex resolve`: a flex investment or withdrawal whose outcome is unknown, as `txc`
/// printed it.
#[derive(Debug, Args)]
pub(crate) struct FlexResolveArgs {
    /// What was sent
    pub(crate) kind: FlexMoveKind,
    #[command(flatten)]
    pub(crate) unknown: UnknownMoveArgs,
}

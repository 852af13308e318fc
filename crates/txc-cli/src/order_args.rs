//! What every order command takes — its market, side, amount and the options every
//! collateral order shares ([`OrderArgs`]) — and the values those options name.

use clap::{Args, ValueEnum};

/// Buy or sell.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum SideArg {
    /// Buy
    Buy,
    /// Sell
    Sell,
}

/// A hedge-mode position side.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PositionSideArg {
    /// Long
    Long,
    /// Short
    Short,
    /// Both (one-way mode)
    Both,
}

/// Self-trade prevention.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum StpArg {
    /// None
    No,
    /// Cancel both
    Cb,
    /// Cancel new
    Cn,
    /// Cancel old
    Co,
}

/// What both order commands take.
#[derive(Debug, Args)]
pub(crate) struct OrderArgs {
    /// The market, e.g. BTC_USDT
    pub(crate) market: String,
    /// buy or sell
    pub(crate) side: SideArg,
    /// The amount in the market's stock currency, e.g. 0.01
    pub(crate) amount: String,
    /// Stop-loss price
    #[arg(long, value_name = "P")]
    pub(crate) stop_loss: Option<String>,
    /// Take-profit price
    #[arg(long, value_name = "P")]
    pub(crate) take_profit: Option<String>,
    /// Your id for the order (one is generated when none is given)
    #[arg(long, value_name = "ID")]
    pub(crate) client_order_id: Option<String>,
    /// Position side (hedge mode)
    #[arg(long, value_name = "SIDE")]
    pub(crate) position_side: Option<PositionSideArg>,
    /// Only reduce a position
    #[arg(long)]
    pub(crate) reduce_only: bool,
    /// Self-trade prevention
    #[arg(long, value_name = "MODE")]
    pub(crate) stp: Option<StpArg>,
    /// Place exactly once: on an unknown outcome resolve it, and send again only when it was
    /// not placed. An unresolved record of the clientOrderId in the journal is resolved first
    /// (without --once it stops the command: exit 4, nothing sent)
    #[arg(long)]
    pub(crate) once: bool,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

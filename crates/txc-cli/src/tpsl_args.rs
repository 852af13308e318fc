//! What `txc tpsl` takes: the market of the open position, the two trigger prices, the
//! position side and self-trade prevention. The command is `via.rs`'s (the WebSocket only).

use clap::Args;

use crate::order_args::{PositionSideArg, StpArg};

/// What `txc tpsl` takes.
#[derive(Debug, Args)]
pub(crate) struct TpslArgs {
    /// The market of the open position, e.g. BTC_PERP
    pub(crate) market: String,
    /// The take-profit's trigger price: on a long above the market, on a short below
    #[arg(long, value_name = "P")]
    pub(crate) take_profit: Option<String>,
    /// The stop-loss's trigger price: on a long below the market, on a short above
    #[arg(long, value_name = "P")]
    pub(crate) stop_loss: Option<String>,
    /// Which position (hedge mode)
    #[arg(long, value_name = "SIDE")]
    pub(crate) position_side: Option<PositionSideArg>,
    /// Self-trade prevention
    #[arg(long, value_name = "MODE")]
    pub(crate) stp: Option<StpArg>,
}

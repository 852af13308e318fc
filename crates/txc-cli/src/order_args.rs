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

/// What every order command takes beside its terms — `market`, `trigger`, `limit`,
/// `stop-limit` and `oco`: its id, position side, reduce-only, self-trade prevention and
/// `--once`.
#[derive(Debug, Args)]
pub(crate) struct OrderOptions {
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

/// What the single-order commands take — `market`, `trigger`, `limit`, `stop-limit`: the
/// market, side and amount (positional, in the spec's order), stop-loss and take-profit, and
/// the [`OrderOptions`].
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
    #[command(flatten)]
    pub(crate) options: OrderOptions,
}

/// The activation price of `trigger` and `stop-limit`: positional, after the prices before
/// it in the spec; `--activation-price P`, its spelling before txc 0.5, still works (hidden).
#[derive(Debug, Args)]
pub(crate) struct ActivationPriceArg {
    /// The price that activates the order, required (a buy when the market rises to it or
    /// above, a sell when it falls to it or below)
    #[arg(
        value_name = "ACTIVATION_PRICE",
        required_unless_present = "activation_price_flag"
    )]
    activation_price: Option<String>,
    /// ACTIVATION_PRICE as a flag: the spelling before txc 0.5
    #[arg(
        long = "activation-price",
        value_name = "P",
        hide = true,
        conflicts_with = "activation_price"
    )]
    activation_price_flag: Option<String>,
}

impl ActivationPriceArg {
    /// The activation price, however it was given (clap requires one).
    pub(crate) fn get(&self) -> &str {
        self.activation_price
            .as_deref()
            .or(self.activation_price_flag.as_deref())
            .unwrap_or_default()
    }
}

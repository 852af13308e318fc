//! What the commands of the order types beyond market orders take: `trigger`, `limit`,
//! `stop-limit`, `bulk`, `oco`, `oco-orders`, `cancel-oco`, `cancel-conditional`,
//! `cancel-oto`, `modify`, `conditional-orders`, `cancel-bulk` and `markets`.

use std::path::PathBuf;

use clap::Args;

use crate::order_args::{ActivationPriceArg, OrderArgs, OrderOptions, SideArg, StpArg};

/// `txc limit`.
#[derive(Debug, Args)]
pub(crate) struct LimitArgs {
    #[command(flatten)]
    pub(crate) order: OrderArgs,
    /// The limit price, in the market's money currency
    pub(crate) price: String,
    /// Maker only: refused if it would take
    #[arg(long)]
    pub(crate) post_only: bool,
    /// Immediate or cancel: what does not execute at once is canceled
    #[arg(long)]
    pub(crate) ioc: bool,
    /// A Retail Price Improvement order (post-only)
    #[arg(long)]
    pub(crate) rpi: bool,
}

/// `txc trigger`.
#[derive(Debug, Args)]
pub(crate) struct TriggerArgs {
    #[command(flatten)]
    pub(crate) order: OrderArgs,
    #[command(flatten)]
    pub(crate) activation_price: ActivationPriceArg,
}

/// `txc stop-limit`.
#[derive(Debug, Args)]
pub(crate) struct StopLimitArgs {
    #[command(flatten)]
    pub(crate) order: OrderArgs,
    /// The limit price once activated
    pub(crate) price: String,
    #[command(flatten)]
    pub(crate) activation_price: ActivationPriceArg,
}

/// `txc bulk`.
#[derive(Debug, Args)]
pub(crate) struct BulkArgs {
    /// A file of limit orders, one JSON object a line with the spec's field names (`market`,
    /// `side`, `amount`, `price`, and any of `clientOrderId`, `postOnly`, `ioc`, `rpi`,
    /// `stopLoss`, `takeProfit`, `positionSide`, `reduceOnly`); `-` or none: standard input
    pub(crate) file: Option<PathBuf>,
    /// Stop at the first item that fails: the rest are not processed
    #[arg(long)]
    pub(crate) stop_on_fail: bool,
    /// Place exactly once, item by item: a lost answer is resolved item by item, and only the
    /// items proven not placed are sent again
    #[arg(long)]
    pub(crate) once: bool,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

/// `txc oco`.
#[derive(Debug, Args)]
pub(crate) struct OcoArgs {
    /// The market, e.g. BTC_USDT
    pub(crate) market: String,
    /// buy or sell (both legs)
    pub(crate) side: SideArg,
    /// The amount of both legs
    pub(crate) amount: String,
    /// The take-profit leg's limit price
    pub(crate) price: String,
    /// The stop-loss leg's activation price
    pub(crate) activation_price: String,
    /// The stop-loss leg's limit price once activated
    pub(crate) stop_limit_price: String,
    #[command(flatten)]
    pub(crate) options: OrderOptions,
}

/// `--market` and `--offset` of the OCO and conditional-order listings.
#[derive(Debug, Args)]
pub(crate) struct PageArgs {
    /// Only this market
    #[arg(long, value_name = "M")]
    pub(crate) market: Option<String>,
    /// Skip this many (with --market)
    #[arg(long, value_name = "N", requires = "market")]
    pub(crate) offset: Option<u64>,
}

/// `txc cancel-oco`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("target").required(true).args(["order_id", "client_order_id"]))]
pub(crate) struct CancelOcoArgs {
    /// The pair's market
    pub(crate) market: String,
    /// The pair's id
    #[arg(long, value_name = "N")]
    pub(crate) order_id: Option<u64>,
    /// The pair's clientOrderId
    #[arg(long, value_name = "ID")]
    pub(crate) client_order_id: Option<String>,
    /// Settle a lost answer by asking again: "not found" then means nothing of it is active
    #[arg(long)]
    pub(crate) once: bool,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

/// `txc cancel-conditional` and `txc cancel-oto`.
#[derive(Debug, Args)]
pub(crate) struct CancelGroupArgs {
    /// The market
    pub(crate) market: String,
    /// The id `txc conditional-orders` lists (an OCO's id or an OTO's otoId)
    pub(crate) id: u64,
    /// Settle a lost answer by asking again: "not found" then means nothing of it is active
    #[arg(long)]
    pub(crate) once: bool,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

/// `txc modify`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("target").required(true).args(["order_id", "client_order_id"]))]
pub(crate) struct ModifyArgs {
    /// The order's market
    pub(crate) market: String,
    /// The exchange's id of the order (the replacement gets a new one)
    #[arg(long, value_name = "N")]
    pub(crate) order_id: Option<u64>,
    /// Your id of the order (carried over to the replacement)
    #[arg(long, value_name = "ID")]
    pub(crate) client_order_id: Option<String>,
    /// The new amount
    #[arg(long, value_name = "A")]
    pub(crate) amount: Option<String>,
    /// The new total (a buy stop-market order's size)
    #[arg(long, value_name = "T")]
    pub(crate) total: Option<String>,
    /// The new limit price
    #[arg(long, value_name = "P")]
    pub(crate) price: Option<String>,
    /// The new activation price
    #[arg(long, value_name = "P")]
    pub(crate) activation_price: Option<String>,
    /// The new self-trade prevention
    #[arg(long, value_name = "MODE")]
    pub(crate) stp: Option<StpArg>,
    /// Modify exactly once: a lost answer is resolved by reading the order and comparing it
    /// with the request; sent again only when the order is proven unchanged
    #[arg(long)]
    pub(crate) once: bool,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

/// `txc cancel-bulk`.
#[derive(Debug, Args)]
pub(crate) struct CancelBulkArgs {
    /// The orders' market
    pub(crate) market: String,
    /// An order's exchange id (repeat it)
    #[arg(long = "order-id", value_name = "N")]
    pub(crate) order_ids: Vec<u64>,
    /// An order's clientOrderId (repeat it)
    #[arg(long = "client-order-id", value_name = "ID")]
    pub(crate) client_order_ids: Vec<String>,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

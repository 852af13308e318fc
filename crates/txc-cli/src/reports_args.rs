//! The options of the report commands — `txc pnl`, `funding` and `deals` — and the paging
//! options they share (`--limit`, `--offset`, `--all`). What the commands do is `reports.rs`.

use clap::Args;

/// `--limit`, `--offset` and `--all` of a paged report.
#[derive(Debug, Args)]
pub(crate) struct PageArgs {
    /// At most this many records a page
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Skip this many records
    #[arg(long, value_name = "N")]
    pub(crate) offset: Option<u64>,
    /// Follow the pages to the last one (by the endpoint's rule); past the exchange's offset
    /// cap it fails, saying how many records were read
    #[arg(long)]
    pub(crate) all: bool,
}

/// `txc pnl`.
#[derive(Debug, Args)]
pub(crate) struct PnlArgs {
    /// Only positions closed from this Unix second on
    #[arg(long, value_name = "S")]
    pub(crate) start_date: Option<u64>,
    /// Only positions closed up to this Unix second (at most a second from now)
    #[arg(long, value_name = "S")]
    pub(crate) end_date: Option<u64>,
    /// The pages: 1 to 100 records a page (default 50), offset + limit at most 10 000
    #[command(flatten)]
    pub(crate) page: PageArgs,
}

/// `txc funding`.
#[derive(Debug, Args)]
pub(crate) struct FundingArgs {
    /// Only this perpetual market's payments, e.g. BTC_PERP
    #[arg(long, value_name = "M")]
    pub(crate) market: Option<String>,
    /// The pages: 1 to 100 records a page (default 100)
    #[command(flatten)]
    pub(crate) page: PageArgs,
}

/// `txc deals`.
#[derive(Debug, Args)]
pub(crate) struct DealsArgs {
    /// The order whose deals to list (POST /api/v4/trade-account/order); without it, the
    /// account's executed deals (POST /api/v4/trade-account/executed-history)
    #[arg(value_name = "ORDER_ID")]
    pub(crate) order_id: Option<u64>,
    /// Only this market's deals (without ORDER_ID)
    #[arg(long, value_name = "M", conflicts_with = "order_id")]
    pub(crate) market: Option<String>,
    /// Only the deals of the order with this clientOrderId (without ORDER_ID)
    #[arg(long, value_name = "ID", conflicts_with = "order_id")]
    pub(crate) client_order_id: Option<String>,
    /// Only deals from this Unix second on (without ORDER_ID)
    #[arg(long, value_name = "S", conflicts_with = "order_id")]
    pub(crate) start_date: Option<u64>,
    /// Only deals up to this Unix second (without ORDER_ID)
    #[arg(long, value_name = "S", conflicts_with = "order_id")]
    pub(crate) end_date: Option<u64>,
    /// The pages: up to 500 deals a page for the executed history (default 50)
    #[command(flatten)]
    pub(crate) page: PageArgs,
}

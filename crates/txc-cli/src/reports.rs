//! The account's report commands: `pnl` (closed positions' PnL), `funding` (the funding
//! history), `adl` (the ADL quantiles) and `deals` (one order's deals, or the executed
//! history) — a page each, or with `--all` every page, followed by the endpoint's own
//! last-page rule and stopped with an error at its offset cap (never silently). Reads only:
//! `--dry-run` signs the first page's request and stops.

use clap::Args;
use txc_blocking::lookups::{
    ExecutedDeal, ExecutedHistoryQuery, ExecutedHistoryQueryBuilder, OrderDealsQuery,
    OrderDealsQueryBuilder,
};
use txc_blocking::paging::Paged;
use txc_blocking::positions::{
    AdlQuantileQuery, ClosedPnlQuery, ClosedPnlQueryBuilder, ClosedPosition, FundingHistoryQuery,
    FundingHistoryQueryBuilder, FundingPayment, MarketAdlQuantile,
};

use crate::args::GlobalArgs;
use crate::config;
use crate::exit::CliError;
use crate::run::{Outcome, client_for, given, read};

/// What a report command read.
#[derive(Debug)]
pub(crate) enum ReportOutcome {
    /// `pnl`: closed positions, newest close first.
    ClosedPnl(Vec<ClosedPosition>),
    /// `funding`: funding payments, newest first.
    Funding(Vec<FundingPayment>),
    /// `adl`: each perpetual market's quantiles.
    Adl(Vec<MarketAdlQuantile>),
    /// `deals`: executed deals.
    Deals(Vec<ExecutedDeal>),
}

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

fn wrap(outcome: ReportOutcome) -> Outcome {
    Outcome::Report(Box::new(outcome))
}

/// Reads `query`'s page — or with `--all` every page from it on — and wraps its records.
fn paged<Q: Paged>(
    global: &GlobalArgs,
    all: bool,
    query: Q,
    records: fn(Vec<Q::Record>) -> ReportOutcome,
) -> Result<Outcome, CliError> {
    if !all || global.dry_run {
        let page = query.clone();
        return read(global, &query, move |answer| {
            wrap(records(page.records(answer)))
        });
    }
    let client = client_for(global, &config::target(global)?)?;
    let mut read = Vec::new();
    for page in client.pages(query) {
        read.extend(page.map_err(CliError::read)?);
    }
    Ok(wrap(records(read)))
}

/// `txc pnl`.
pub(crate) fn pnl(global: &GlobalArgs, args: &PnlArgs) -> Result<Outcome, CliError> {
    type B = ClosedPnlQueryBuilder;
    let builder = given(ClosedPnlQuery::builder(), args.start_date, B::start_date);
    let builder = given(builder, args.end_date, B::end_date);
    let builder = given(builder, args.page.limit, B::limit);
    let builder = given(builder, args.page.offset, B::offset);
    paged(
        global,
        args.page.all,
        builder.build()?,
        ReportOutcome::ClosedPnl,
    )
}

/// `txc funding`.
pub(crate) fn funding(global: &GlobalArgs, args: &FundingArgs) -> Result<Outcome, CliError> {
    type B = FundingHistoryQueryBuilder;
    let market = args.market.as_deref();
    let builder = given(FundingHistoryQuery::builder(), market, B::market);
    let builder = given(builder, args.page.limit, B::limit);
    let builder = given(builder, args.page.offset, B::offset);
    paged(
        global,
        args.page.all,
        builder.build()?,
        ReportOutcome::Funding,
    )
}

/// `txc adl`.
pub(crate) fn adl(global: &GlobalArgs) -> Result<Outcome, CliError> {
    read(global, &AdlQuantileQuery, |answer| {
        wrap(ReportOutcome::Adl(answer))
    })
}

/// `txc deals [ORDER_ID]`.
pub(crate) fn deals(global: &GlobalArgs, args: &DealsArgs) -> Result<Outcome, CliError> {
    let all = args.page.all;
    if let Some(order_id) = args.order_id {
        type B = OrderDealsQueryBuilder;
        let builder = OrderDealsQuery::builder().order_id(order_id);
        let builder = given(builder, args.page.limit, B::limit);
        let builder = given(builder, args.page.offset, B::offset);
        return paged(global, all, builder.build()?, ReportOutcome::Deals);
    }
    type B = ExecutedHistoryQueryBuilder;
    let builder = given(
        ExecutedHistoryQuery::builder(),
        args.market.as_deref(),
        B::market,
    );
    let builder = given(builder, args.client_order_id.as_deref(), B::client_order_id);
    let builder = given(builder, args.start_date, B::start_date);
    let builder = given(builder, args.end_date, B::end_date);
    let builder = given(builder, args.page.limit, B::limit);
    let builder = given(builder, args.page.offset, B::offset);
    paged(global, all, builder.build()?, ReportOutcome::Deals)
}

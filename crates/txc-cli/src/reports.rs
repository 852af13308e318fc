//! The account's report commands: `pnl` (closed positions' PnL), `funding` (the funding
//! history), `adl` (the ADL quantiles) and `deals` (one order's deals, or the executed
//! history) — a page each, or with `--all` every page, followed by the endpoint's own
//! last-page rule and stopped with an error at its offset cap (never silently). Reads only:
//! `--dry-run` signs the first page's request and stops.

use txc_blocking::lookups::{
    ExecutedHistoryQuery, ExecutedHistoryQueryBuilder, OrderDealsQuery, OrderDealsQueryBuilder,
};
use txc_blocking::paging::Paged;
use txc_blocking::positions::{
    AdlQuantileQuery, ClosedPnlQuery, ClosedPnlQueryBuilder, FundingHistoryQuery,
    FundingHistoryQueryBuilder,
};

use crate::args::GlobalArgs;
use crate::config;
use crate::exit::CliError;
use crate::report_outcome::ReportOutcome;
use crate::reports_args::{DealsArgs, FundingArgs, PnlArgs};
use crate::run::{Outcome, client_for, given, read};

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

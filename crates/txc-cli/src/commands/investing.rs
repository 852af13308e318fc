//! The smart-investment commands: `txc invest`, `txc investments`, `txc close-investment`,
//! `txc interest` and `txc resolve-investment`, with the blocking client.

use txc_blocking::investments::{
    CloseInvestment, InterestPaymentsQuery, InterestPaymentsQueryBuilder, Invest, InvestmentStatus,
    InvestmentsQuery, InvestmentsQueryBuilder, SmartPlansQuery,
};
use txc_blocking::outcomes::{InvestResolution, Invested, PendingInvestment};

use txc_blocking::{Client, Error};

use super::moving::{Resolving, ToResolve, attempt_options, held_first, resolve_move};
use crate::args::{
    GlobalArgs, InterestArgs, InvestmentsArgs, MoveArgs, ResolveInvestmentArgs, StatusArg,
};
use crate::config;
use crate::exit::CliError;
use crate::run::{Outcome, change, check_live, client_for, dry_run, given, ordering_client, read};

/// `txc invest`: the journal is checked first — an unresolved investment of the same plan and
/// amount stops it (exit 4, naming the record and the command that resolves it) unless
/// `--once`, which resolves it first, before the plans are read ([`held_first`]) — then the
/// plan is read, and the amount checked against its status and bounds before anything is
/// invested (a dry run reads nothing and checks the amount's form only).
pub(crate) fn invest(global: &GlobalArgs, args: &MoveArgs) -> Result<Outcome, CliError> {
    let unchecked = Invest::new(&args.plan_id, args.amount.as_str())?;
    let target = config::target(global)?;
    check_live(global, &target)?;
    if global.dry_run {
        return dry_run(&client_for(global, &target)?, &unchecked);
    }
    let client = ordering_client(global, &target)?;
    if let Some(invested) = held_first(&client, &unchecked, args.once)? {
        return Ok(Outcome::Invested(Box::new(invested)));
    }
    let plans = client
        .smart_plans(&SmartPlansQuery::new())
        .map_err(CliError::read)?;
    let plan = plans.iter().find(|p| p.id == args.plan_id).ok_or_else(|| {
        CliError::invalid(format!(
            "no plan {} among the plans this key may invest in (txc plans lists them); \
                 nothing was invested",
            args.plan_id
        ))
    })?;
    let invest = Invest::in_plan(plan, args.amount.as_str())?;
    let result = if args.once {
        client.invest_once(&invest)
    } else {
        client.invest(&invest).map(Invested::Answered)
    };
    result
        .map(|invested| Outcome::Invested(Box::new(invested)))
        .map_err(|error| {
            let check = error.pending_investment().map(resolve_investment_command);
            CliError::changing(error, check)
        })
}

/// The `txc resolve-investment` command that finds out what became of `pending`.
pub(crate) fn resolve_investment_command(pending: &PendingInvestment) -> String {
    let invest = pending.invest();
    let mut command = format!(
        "txc resolve-investment {} {}{}",
        invest.plan_id(),
        invest.amount().as_str(),
        attempt_options(pending)
    );
    if let Some(ticker) = invest.ticker() {
        command.push_str(&format!(" --ticker {ticker}"));
    }
    command
}

/// `txc investments`.
pub(crate) fn investments(
    global: &GlobalArgs,
    args: &InvestmentsArgs,
) -> Result<Outcome, CliError> {
    type B = InvestmentsQueryBuilder;
    let status = |status| match status {
        StatusArg::Active => InvestmentStatus::Active,
        StatusArg::Closed => InvestmentStatus::Closed,
    };
    let builder = given(InvestmentsQuery::builder(), args.id.as_deref(), B::id);
    let builder = given(builder, args.ticker.as_deref(), B::ticker);
    let builder = given(builder, args.status.map(status), B::status);
    let builder = given(builder, args.page.limit, B::limit);
    let builder = given(builder, args.page.offset, B::offset);
    read(global, &builder.build()?, Outcome::Investments)
}

/// `txc close-investment`.
pub(crate) fn close_investment(global: &GlobalArgs, id: &str) -> Result<Outcome, CliError> {
    let close = CloseInvestment::new(id)?;
    let check = |_: &txc_blocking::Error| {
        Some(format!(
            "txc investments --id {id}  (status closed: it was closed)"
        ))
    };
    let send = |client: &Client, close: &CloseInvestment| {
        client.close_investment(close)?;
        Ok(Outcome::InvestmentClosed(id.to_owned()))
    };
    change(global, &close, send, check)
}

/// `txc interest`.
pub(crate) fn interest(global: &GlobalArgs, args: &InterestArgs) -> Result<Outcome, CliError> {
    type B = InterestPaymentsQueryBuilder;
    let builder = given(
        InterestPaymentsQuery::builder(),
        args.plan_id.as_deref(),
        B::plan_id,
    );
    let builder = given(builder, args.ticker.as_deref(), B::ticker);
    let builder = given(builder, args.page.limit, B::limit);
    let builder = given(builder, args.page.offset, B::offset);
    read(global, &builder.build()?, Outcome::InterestPayments)
}

/// `txc resolve-investment`: the investment's records from the journal (or `--nonce`), each
/// resolved in turn ([`resolve_move`]).
pub(crate) fn resolve_investment(
    global: &GlobalArgs,
    args: &ResolveInvestmentArgs,
) -> Result<Outcome, CliError> {
    let unknown = &args.unknown;
    let mut invest = Invest::new(&unknown.plan_id, unknown.amount.as_str())?;
    if let Some(ticker) = &args.ticker {
        let ticker = ticker
            .parse()
            .map_err(|e| CliError::invalid(format!("invalid ticker: {e}")))?;
        invest = invest.with_ticker(ticker);
    }
    let ask = ToResolve::of(unknown, invest, "resolve-investment");
    let resolution = InvestResolution::from(resolve_move(global, ask)?);
    Ok(Outcome::InvestResolved(Box::new(resolution)))
}

impl Resolving for Invest {
    fn held(client: &Client) -> Vec<PendingInvestment> {
        client.pending_investments()
    }

    fn resolve(client: &Client, pending: &PendingInvestment) -> Result<InvestResolution, Error> {
        client.resolve_investment(pending)
    }

    fn command(pending: &PendingInvestment) -> String {
        resolve_investment_command(pending)
    }
}

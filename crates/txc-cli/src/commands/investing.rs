//! The smart-investment commands: `txc invest`, `txc investments`, `txc close-investment`,
//! `txc interest` and `txc resolve-investment`, with the blocking client.

use txc_blocking::investments::{
    CloseInvestment, InterestPaymentsQuery, InterestPaymentsQueryBuilder, Invest, InvestmentStatus,
    InvestmentsQuery, InvestmentsQueryBuilder, SmartPlansQuery,
};
use txc_blocking::outcomes::{InvestResolution, Invested, NonceMode, PendingInvestment};

use txc_blocking::Client;

use super::{Outcome, attempt, change, client_for, given, live_client, read, reads_only};
use crate::args::{
    GlobalArgs, InterestArgs, InvestArgs, InvestmentStatusArg, InvestmentsArgs,
    ResolveInvestmentArgs,
};
use crate::config;
use crate::exit::CliError;

/// `txc invest`: the plan is read first, and the amount checked against its status and bounds
/// before anything is invested (a dry run reads nothing and checks the amount's form only).
pub(crate) fn invest(global: &GlobalArgs, args: &InvestArgs) -> Result<Outcome, CliError> {
    let unchecked = Invest::new(&args.plan_id, args.amount.as_str())?;
    let client = match live_client(global, &unchecked)? {
        Ok(client) => client,
        Err(dry) => return Ok(dry),
    };
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
        "txc resolve-investment {} {}",
        invest.plan_id(),
        invest.amount().as_str()
    );
    for attempt in pending.attempts() {
        command.push_str(&format!(" --nonce {}", attempt.nonce));
    }
    if pending.nonce_mode() == NonceMode::Strict {
        command.push_str(" --strict");
    }
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
        InvestmentStatusArg::Active => InvestmentStatus::Active,
        InvestmentStatusArg::Closed => InvestmentStatus::Closed,
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

/// `txc resolve-investment`: "cannot tell" exits 4 with what was found.
pub(crate) fn resolve_investment(
    global: &GlobalArgs,
    args: &ResolveInvestmentArgs,
) -> Result<Outcome, CliError> {
    let mut invest = Invest::new(&args.plan_id, args.amount.as_str())?;
    if let Some(ticker) = &args.ticker {
        let ticker = ticker
            .parse()
            .map_err(|e| CliError::invalid(format!("invalid ticker: {e}")))?;
        invest = invest.with_ticker(ticker);
    }
    let mode = if args.strict {
        NonceMode::Strict
    } else {
        NonceMode::Window
    };
    let attempts = args.nonce.iter().map(|&n| attempt(n, n)).collect();
    let pending = PendingInvestment::new(invest, mode, attempts);
    reads_only(global, "resolve-investment")?;
    let target = config::target(global)?;
    match client_for(global, &target)?.resolve_investment(&pending) {
        Ok(InvestResolution::CannotTell {
            candidates,
            evidence,
        }) => {
            let ids: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
            Err(CliError::Unknown(format!(
                "cannot tell: {} investments of plan {} and amount {} were created in the \
                 attempts' window ({}); one may be this one: do not invest again ({evidence})",
                ids.len(),
                args.plan_id,
                args.amount,
                ids.join(", ")
            )))
        }
        Ok(resolution) => Ok(Outcome::InvestResolved(Box::new(resolution))),
        Err(error) => Err(CliError::changing(
            error,
            Some(resolve_investment_command(&pending)),
        )),
    }
}

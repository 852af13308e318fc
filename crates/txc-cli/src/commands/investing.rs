//! The smart-investment commands: `txc invest`, `txc investments`, `txc close-investment`,
//! `txc interest` and `txc resolve-investment`, with the blocking client.

use txc_blocking::investments::{
    CloseInvestment, InterestPaymentsQuery, InterestPaymentsQueryBuilder, Invest, InvestmentStatus,
    InvestmentsQuery, InvestmentsQueryBuilder, SmartPlansQuery,
};
use txc_blocking::outcomes::{
    InvestResolution, Invested, NonceMode, PendingInvestment, PendingRecord,
};
use txc_blocking::values::ExactDecimal;

use txc_blocking::{Client, Error};

use super::{chosen, sent_elsewhere};
use crate::args::{
    GlobalArgs, InterestArgs, InvestArgs, InvestmentStatusArg, InvestmentsArgs,
    ResolveInvestmentArgs,
};
use crate::config;
use crate::exit::CliError;
use crate::journal::{Entry, What};
use crate::run::{
    Outcome, change, check_live, client_for, credentials, dry_run, given, journal,
    journaled_client, ordering_client, read, reads_only,
};

/// `txc invest`: the journal is checked first — an unresolved investment of the same plan and
/// amount stops it (exit 4, naming the record and the command that resolves it) unless
/// `--once`, which resolves it first — then the plan is read, and the amount checked against
/// its status and bounds before anything is invested (a dry run reads nothing and checks the
/// amount's form only).
pub(crate) fn invest(global: &GlobalArgs, args: &InvestArgs) -> Result<Outcome, CliError> {
    let unchecked = Invest::new(&args.plan_id, args.amount.as_str())?;
    let target = config::target(global)?;
    check_live(global, &target)?;
    if global.dry_run {
        return dry_run(&client_for(global, &target)?, &unchecked);
    }
    let client = ordering_client(global, &target)?;
    if !args.once
        && let Some(earlier) = client
            .pending_investments()
            .into_iter()
            .find(|p| same_investment(p.invest(), &unchecked))
    {
        let check = resolve_investment_command(&earlier);
        let refused = Error::ResolveFirst(Box::new(PendingRecord::Investment(earlier)));
        return Err(CliError::changing(refused, Some(check)));
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

/// Whether `a` and `b` invest the same amount (by value) in the same plan: what resolving
/// cannot tell apart.
fn same_investment(a: &Invest, b: &Invest) -> bool {
    let amount = |i: &Invest| ExactDecimal::new(i.amount().as_str()).ok();
    a.plan_id() == b.plan_id() && amount(a).is_some() && amount(a) == amount(b)
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

/// `txc resolve-investment`: the investment's records from the journal (or `--nonce`), each
/// resolved in turn; a definite answer clears its record; "cannot tell" exits 4 with what was
/// found (the record stays: `txc discard` forgets it once settled by hand).
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
    reads_only(global, "resolve-investment")?;
    let target = config::target(global)?;
    let credentials = credentials(&target)?;
    let journal = journal(global, &target, &credentials)?;
    let this = |e: &Entry| {
        matches!(&e.what, What::Investment { plan_id, amount, .. }
            if Invest::new(plan_id, amount.as_str()).is_ok_and(|i| same_investment(&i, &invest)))
    };
    let what = format!("investment of {} in plan {}", args.amount, args.plan_id);
    sent_elsewhere(&journal, this, &what)?;
    let client = journaled_client(global, &target, credentials, journal)?;
    let held: Vec<PendingInvestment> = client
        .pending_investments()
        .into_iter()
        .filter(|p| same_investment(p.invest(), &invest))
        .collect();
    let records = chosen(held, &args.nonce, PendingInvestment::attempts, |attempts| {
        PendingInvestment::new(invest.clone(), mode, attempts)
    });
    if records.is_empty() {
        return Err(CliError::invalid(format!(
            "the journal holds no {what}, and no --nonce was given: without its attempts' \
             nonces the investment's window is unknown (see `txc pending`, or the failed \
             command's message)"
        )));
    }
    let mut answer = None;
    for pending in &records {
        match client.resolve_investment(pending) {
            Ok(InvestResolution::CannotTell {
                candidates,
                evidence,
            }) => {
                let ids: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
                return Err(CliError::Unknown(format!(
                    "cannot tell: {} investment(s) of plan {} and amount {} were created in the \
                     attempts' window ({}), and other writers may invest with this key: one may \
                     be this one, or none; do not invest again before checking by hand (then \
                     `txc discard {}`) ({evidence})",
                    ids.len(),
                    args.plan_id,
                    args.amount,
                    ids.join(", "),
                    pending.attempts().first().map_or(0, |a| a.nonce.get()),
                )));
            }
            Ok(resolution) => {
                let invested = matches!(resolution, InvestResolution::Invested { .. });
                if invested || answer.is_none() {
                    answer = Some(resolution);
                }
            }
            Err(error) => {
                return Err(CliError::changing(
                    error,
                    Some(resolve_investment_command(pending)),
                ));
            }
        }
    }
    answer
        .map(|resolution| Outcome::InvestResolved(Box::new(resolution)))
        .ok_or_else(|| CliError::invalid("nothing to resolve"))
}

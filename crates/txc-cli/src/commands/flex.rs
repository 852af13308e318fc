//! `txc flex …`: flexible lending with the blocking client — the plans, the investments and
//! both histories (every page), investing and withdrawing (once, or exactly once with
//! `--once`, journaled before the first byte, bounds checked from the plan and investment read
//! before anything is sent), resolving either, and closing or switching the auto-reinvestment
//! (a lost answer resolved by the investment's state).

use txc_blocking::endpoint::Endpoint;
use txc_blocking::investments::flex::{
    CloseFlexInvestment, FlexAction, FlexHistoryQuery, FlexHistoryQueryBuilder, FlexHistoryRecord,
    FlexInvest, FlexInvestment, FlexInvestmentStatus, FlexInvestmentsQuery,
    FlexInvestmentsQueryBuilder, FlexPaymentsQuery, FlexPaymentsQueryBuilder, FlexPlan,
    FlexPlansQuery, FlexPlansQueryBuilder, FlexTransaction, FlexWithdraw, SetFlexAutoInvest,
};
use txc_blocking::outcomes::{FlexDone, FlexResolution, PendingMove};
use txc_blocking::paging::Paged;
use txc_blocking::{Client, Error};

use super::moving::{Resolving, ToResolve, attempt_options, held_first, resolve_move};
use crate::args::GlobalArgs;
use crate::config;
use crate::exit::CliError;
use crate::flex_args::{
    FlexActionArg, FlexArgs, FlexCommand, FlexHistoryArgs, FlexHistoryFilters, FlexInvestArgs,
    FlexInvestmentsArgs, FlexMoveKind, FlexResolveArgs,
};
use crate::flex_outcome::FlexOutcome;
use crate::run::{Outcome, change, check_live, client_for, dry_run, given, ordering_client};
use crate::shared_args::{MoveArgs, StatusArg, SwitchArg};

/// Runs `txc flex …`: the command's name (for `--json`) and what it produced.
pub(crate) fn flex(
    global: &GlobalArgs,
    args: &FlexArgs,
) -> (&'static str, Result<Outcome, CliError>) {
    match &args.command {
        FlexCommand::Plans { ticker } => ("flex plans", plans(global, ticker.as_deref())),
        FlexCommand::Invest(args) => ("flex invest", invest(global, args)),
        FlexCommand::Withdraw(args) => ("flex withdraw", withdraw(global, args)),
        FlexCommand::Close { plan_id } => ("flex close", close(global, plan_id)),
        FlexCommand::AutoInvest { plan_id, switch } => (
            "flex auto-invest",
            auto_invest(global, plan_id, *switch == SwitchArg::On),
        ),
        FlexCommand::Investments(args) => ("flex investments", investments(global, args)),
        FlexCommand::History(args) => ("flex history", history(global, args)),
        FlexCommand::Payments(filters) => ("flex payments", payments(global, filters)),
        FlexCommand::Resolve(args) => ("flex resolve", resolve(global, args)),
    }
}

/// Reads every page of `query` (or, with `--dry-run`, signs its first and sends nothing).
fn every_page<Q: Paged + Endpoint>(
    global: &GlobalArgs,
    query: Q,
    wrap: impl FnOnce(Vec<Q::Record>) -> FlexOutcome,
) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let client = client_for(global, &target)?;
    if global.dry_run {
        return dry_run(&client, &query);
    }
    let pages = client.pages(query).collect::<Result<Vec<_>, _>>();
    let records = pages
        .map_err(CliError::read)?
        .into_iter()
        .flatten()
        .collect();
    Ok(Outcome::Flex(Box::new(wrap(records))))
}

/// `txc flex plans`.
fn plans(global: &GlobalArgs, ticker: Option<&str>) -> Result<Outcome, CliError> {
    let builder = given(
        FlexPlansQuery::builder(),
        ticker,
        FlexPlansQueryBuilder::ticker,
    );
    every_page(global, builder.build()?, FlexOutcome::Plans)
}

/// `txc flex investments`.
fn investments(global: &GlobalArgs, args: &FlexInvestmentsArgs) -> Result<Outcome, CliError> {
    type B = FlexInvestmentsQueryBuilder;
    let status = |status| match status {
        StatusArg::Active => FlexInvestmentStatus::Active,
        StatusArg::Closed => FlexInvestmentStatus::Closed,
    };
    let builder = given(
        FlexInvestmentsQuery::builder(),
        args.ticker.as_deref(),
        B::ticker,
    );
    let builder = given(builder, args.plan.as_deref(), B::plan);
    let builder = given(builder, args.investment.as_deref(), B::investment);
    let builder = given(builder, args.status.map(status), B::investment_status);
    let builder = given(builder, args.page_size, B::limit);
    every_page(global, builder.build()?, FlexOutcome::Investments)
}

/// The history's action an `--action` names.
fn action(action: FlexActionArg) -> FlexAction {
    match action {
        FlexActionArg::Invest => FlexAction::Invest,
        FlexActionArg::Reinvest => FlexAction::Reinvest,
        FlexActionArg::Withdraw => FlexAction::Withdraw,
        FlexActionArg::Earning => FlexAction::DailyEarning,
        FlexActionArg::Close => FlexAction::Close,
        FlexActionArg::Open => FlexAction::Open,
    }
}

/// `txc flex history`.
fn history(global: &GlobalArgs, args: &FlexHistoryArgs) -> Result<Outcome, CliError> {
    type B = FlexHistoryQueryBuilder;
    let f = &args.filters;
    let builder = given(FlexHistoryQuery::builder(), f.plan.as_deref(), B::plan);
    let builder = given(builder, f.investment.as_deref(), B::investment);
    let builder = given(builder, f.transaction.as_deref(), B::transaction);
    let builder = given(builder, f.from, B::date_from);
    let builder = given(builder, f.to, B::date_to);
    let actions = (!args.action.is_empty()).then(|| args.action.iter().map(|a| action(*a)));
    let builder = given(builder, actions, B::action_types);
    let builder = given(builder, f.page_size, B::limit);
    every_page(global, builder.build()?, FlexOutcome::History)
}

/// `txc flex payments`.
fn payments(global: &GlobalArgs, f: &FlexHistoryFilters) -> Result<Outcome, CliError> {
    type B = FlexPaymentsQueryBuilder;
    let builder = given(FlexPaymentsQuery::builder(), f.plan.as_deref(), B::plan);
    let builder = given(builder, f.investment.as_deref(), B::investment);
    let builder = given(builder, f.transaction.as_deref(), B::transaction);
    let builder = given(builder, f.from, B::date_from);
    let builder = given(builder, f.to, B::date_to);
    let builder = given(builder, f.page_size, B::limit);
    every_page(global, builder.build()?, FlexOutcome::History)
}

/// A flex investment or a flex withdrawal, as the commands send and resolve it.
pub(crate) trait FlexMove:
    Resolving<Record = FlexHistoryRecord, Done = FlexDone> + Endpoint<Response = FlexTransaction>
{
    /// Its `txc flex resolve` kind: `invest`, `withdraw`.
    const VERB: &'static str;

    /// The client's plain call: once, never resent after an ambiguous answer.
    fn send(client: &Client, request: &Self) -> Result<FlexTransaction, Error>;

    /// The client's exactly-once call.
    fn once(client: &Client, request: &Self) -> Result<FlexDone, Error>;

    /// The operation behind `error`'s unknown or "not done" outcome (or the unresolved one it
    /// names).
    fn pending_of(error: &Error) -> Option<&PendingMove<Self>>;
}

impl FlexMove for FlexInvest {
    const VERB: &'static str = "invest";

    fn send(client: &Client, request: &Self) -> Result<FlexTransaction, Error> {
        client.flex_invest(request)
    }

    fn once(client: &Client, request: &Self) -> Result<FlexDone, Error> {
        client.flex_invest_once(request)
    }

    fn pending_of(error: &Error) -> Option<&PendingMove<Self>> {
        error.pending_flex_invest()
    }
}

impl Resolving for FlexInvest {
    fn held(client: &Client) -> Vec<PendingMove<Self>> {
        client.pending_flex_investments()
    }

    fn resolve(client: &Client, pending: &PendingMove<Self>) -> Result<FlexResolution, Error> {
        client.resolve_flex_invest(pending)
    }

    fn command(pending: &PendingMove<Self>) -> String {
        resolve_flex_command(pending)
    }
}

impl FlexMove for FlexWithdraw {
    const VERB: &'static str = "withdraw";

    fn send(client: &Client, request: &Self) -> Result<FlexTransaction, Error> {
        client.flex_withdraw(request)
    }

    fn once(client: &Client, request: &Self) -> Result<FlexDone, Error> {
        client.flex_withdraw_once(request)
    }

    fn pending_of(error: &Error) -> Option<&PendingMove<Self>> {
        error.pending_flex_withdraw()
    }
}

impl Resolving for FlexWithdraw {
    fn held(client: &Client) -> Vec<PendingMove<Self>> {
        client.pending_flex_withdrawals()
    }

    fn resolve(client: &Client, pending: &PendingMove<Self>) -> Result<FlexResolution, Error> {
        client.resolve_flex_withdraw(pending)
    }

    fn command(pending: &PendingMove<Self>) -> String {
        resolve_flex_command(pending)
    }
}

/// The `txc flex resolve` command that finds out what became of `pending`.
pub(crate) fn resolve_flex_command<R: FlexMove>(pending: &PendingMove<R>) -> String {
    let request = pending.request();
    format!(
        "txc flex resolve {} {} {}{}",
        R::VERB,
        request.plan_id(),
        request.amount().as_str(),
        attempt_options(pending)
    )
}

/// The flex plan `plan_id` (among every page of plans offered) and the account's investment in
/// it, if there is one (active or closed) — what the bounds are checked against.
fn plan_and_investment(
    client: &Client,
    plan_id: &str,
) -> Result<(FlexPlan, Option<FlexInvestment>), CliError> {
    let plans = client
        .pages(FlexPlansQuery::new())
        .collect::<Result<Vec<_>, _>>();
    let plan = plans
        .map_err(CliError::read)?
        .concat()
        .into_iter()
        .find(|p| p.id == plan_id)
        .ok_or_else(|| {
            CliError::invalid(format!(
                "no flex plan {plan_id} among the plans offered to this account (txc flex \
                 plans lists them); nothing was sent"
            ))
        })?;
    let query = FlexInvestmentsQuery::builder().plan(plan_id).build()?;
    let investment = client
        .flex_investments(&query)
        .map_err(CliError::read)?
        .data
        .into_iter()
        .find(|i| i.plan_id == plan_id);
    Ok((plan, investment))
}

/// Sends a flex investment or withdrawal: the journal checked first — an unresolved record of
/// the same kind, plan and amount stops it (exit 4, naming the record and the command that
/// resolves it) unless `--once`, which resolves it first ([`held_first`]) — then the plan and
/// the investment read, and `checked` builds the request from them, checking its bounds before anything is
/// sent. A dry run reads nothing and checks the form only (`unchecked`).
fn send_move<R: FlexMove>(
    global: &GlobalArgs,
    args: &MoveArgs,
    unchecked: &R,
    checked: impl FnOnce(&FlexPlan, Option<&FlexInvestment>) -> Result<R, CliError>,
) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    check_live(global, &target)?;
    if global.dry_run {
        return dry_run(&client_for(global, &target)?, unchecked);
    }
    let client = ordering_client(global, &target)?;
    let moved = |done| Outcome::Flex(Box::new(FlexOutcome::Moved(R::VERB, done)));
    if let Some(done) = held_first(&client, unchecked, args.once)? {
        return Ok(moved(done));
    }
    let (plan, investment) = plan_and_investment(&client, &args.plan_id)?;
    let request = checked(&plan, investment.as_ref())?;
    let result = if args.once {
        R::once(&client, &request)
    } else {
        R::send(&client, &request).map(FlexDone::Answered)
    };
    result.map(moved).map_err(|error| {
        let check = R::pending_of(&error).map(R::command);
        CliError::changing(error, check)
    })
}

/// `txc flex invest`: a new investment checked against the plan, a top-up (or the reopening of
/// a closed investment) against the plan and the investment.
fn invest(global: &GlobalArgs, args: &FlexInvestArgs) -> Result<Outcome, CliError> {
    let moved = &args.moved;
    let reinvest = |invest: FlexInvest| match args.reinvest {
        Some(switch) => invest.with_reinvest(switch == SwitchArg::On),
        None => invest,
    };
    let unchecked = reinvest(FlexInvest::new(&moved.plan_id, moved.amount.as_str())?);
    send_move(global, moved, &unchecked, |plan, investment| {
        let amount = moved.amount.as_str();
        let invest = match investment {
            Some(investment) => FlexInvest::top_up(plan, investment, amount)?,
            None => FlexInvest::in_plan(plan, amount)?,
        };
        Ok(reinvest(invest))
    })
}

/// `txc flex withdraw`: checked against the plan and the investment.
fn withdraw(global: &GlobalArgs, args: &MoveArgs) -> Result<Outcome, CliError> {
    let unchecked = FlexWithdraw::new(&args.plan_id, args.amount.as_str())?;
    send_move(global, args, &unchecked, |plan, investment| {
        let investment = investment.ok_or_else(|| {
            CliError::invalid(format!(
                "the account has no investment in flex plan {} to withdraw from (txc flex \
                 investments lists them); nothing was sent",
                args.plan_id
            ))
        })?;
        Ok(FlexWithdraw::from_investment(
            plan,
            investment,
            args.amount.as_str(),
        )?)
    })
}

/// How to see the investment's state after a close or a switch whose outcome `error` left
/// unknown (none for a refusal).
fn state_check(error: &Error, plan_id: &str, shows: &str) -> Option<String> {
    error.outcome_unknown().then(|| {
        format!("txc flex investments --plan {plan_id}  ({shows}); sending it again is safe")
    })
}

/// `txc flex close`.
fn close(global: &GlobalArgs, plan_id: &str) -> Result<Outcome, CliError> {
    let close = CloseFlexInvestment::new(plan_id)?;
    let send = |client: &Client, close: &CloseFlexInvestment| {
        let reached = client.close_flex_investment(close)?;
        let closed = FlexOutcome::Closed {
            plan_id: plan_id.to_owned(),
            reached,
        };
        Ok(Outcome::Flex(Box::new(closed)))
    };
    let check = |error: &Error| state_check(error, plan_id, "status closed: it was closed");
    change(global, &close, send, check)
}

/// `txc flex auto-invest`.
fn auto_invest(global: &GlobalArgs, plan_id: &str, on: bool) -> Result<Outcome, CliError> {
    let set = SetFlexAutoInvest::new(plan_id, on)?;
    let send = |client: &Client, set: &SetFlexAutoInvest| {
        let reached = client.set_flex_auto_invest(set)?;
        let switched = FlexOutcome::AutoInvest {
            plan_id: plan_id.to_owned(),
            on,
            reached,
        };
        Ok(Outcome::Flex(Box::new(switched)))
    };
    let shows = format!("withAutoReinvest {on}: it was switched");
    let check = |error: &Error| state_check(error, plan_id, &shows);
    change(global, &set, send, check)
}

/// `txc flex resolve`.
fn resolve(global: &GlobalArgs, args: &FlexResolveArgs) -> Result<Outcome, CliError> {
    let unknown = &args.unknown;
    let (plan, amount) = (&unknown.plan_id, unknown.amount.as_str());
    let resolution = match args.kind {
        FlexMoveKind::Invest => resolve_move(
            global,
            ToResolve::of(unknown, FlexInvest::new(plan, amount)?, "flex resolve"),
        )?,
        FlexMoveKind::Withdraw => resolve_move(
            global,
            ToResolve::of(unknown, FlexWithdraw::new(plan, amount)?, "flex resolve"),
        )?,
    };
    let kind = match args.kind {
        FlexMoveKind::Invest => <FlexInvest as FlexMove>::VERB,
        FlexMoveKind::Withdraw => <FlexWithdraw as FlexMove>::VERB,
    };
    Ok(Outcome::Flex(Box::new(FlexOutcome::Resolved(
        kind, resolution,
    ))))
}

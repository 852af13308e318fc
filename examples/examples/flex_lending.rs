//! Flexible lending with the blocking client (`txc-blocking`), for any account: read every
//! flex plan page by page, invest within a plan's bounds — an amount outside them refused
//! before anything is sent —, top up exactly once even when the answer is lost, switch on
//! the auto-reinvestment, watch a day's earnings arrive, withdraw exactly once, read the
//! history and the payments, and close the investment.
//!
//! ```text
//! cargo run -p txc-examples --example flex_lending
//! ```
//!
//! Runs against the embedded sandbox — whose flex day lasts half a second here, so earnings
//! show at once, and which loses one answer on purpose — or the server named by
//! `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET` (a non-loopback one only with
//! `-- --live`: it invests real money, the plan's minimum, and closes the investment again).

#![allow(clippy::print_stdout)]

use std::error::Error;
use std::time::Duration;

use txc_blocking::investments::flex::{
    CloseFlexInvestment, FlexAction, FlexHistoryQuery, FlexInvest, FlexInvestment,
    FlexInvestmentsQuery, FlexPaymentsQuery, FlexPlansQuery, FlexWithdraw, SetFlexAutoInvest,
};
use txc_blocking::outcomes::{FlexDone, InvestmentWriters, StateReached};
use txc_examples::{Target, parse_live, remote_from_env};
use txc_sandbox::{Fault, Route, Sandbox, demo};

fn main() -> Result<(), Box<dyn Error>> {
    let target = target()?;
    let mut builder = target.blocking();
    if target.sandbox.is_some() {
        // The sandbox shares this host's clock and shows its records at once, and this program
        // is its only investor: resolving need not wait out a real exchange's window (10 s
        // and more). Never against the exchange.
        builder = builder
            .unproven_settle_delay(Duration::from_millis(200))
            .unproven_acceptance_window(Duration::from_millis(500))
            .investment_writers(InvestmentWriters::Sole);
    }
    let client = builder.build()?;

    // 1. Every plan, a page of two at a time through the shared page cursor.
    let mut plans = Vec::new();
    for page in client.pages(FlexPlansQuery::builder().limit(2).build()?) {
        plans.extend(page?);
    }
    for plan in &plans {
        println!(
            "plan {} {}: {}..{}, up to {} a year",
            plan.id, plan.ticker, plan.min_investment, plan.max_investment, plan.max_rate
        );
    }
    let Some(plan) = plans.iter().find(|p| p.ticker.as_str() == "USDT") else {
        println!("no USDT flex plan on offer");
        return Ok(());
    };

    // 2. Below the plan's minimum: refused before any I/O, naming the bound.
    match FlexInvest::in_plan(plan, "0.5") {
        Err(refused) => println!("refused before sending: {refused}"),
        Ok(_) => return Err("an amount below the plan's minimum was accepted".into()),
    }

    // 3. The plan's minimum, exactly once.
    let invest = FlexInvest::in_plan(plan, plan.min_investment.as_str())?;
    let invested = client.flex_invest_once(&invest)?;
    println!(
        "invested {}: {}",
        invest.amount(),
        invested.transaction_id()
    );

    // 4. A top-up whose answer is lost (on the sandbox): resolved from the flex history, never
    //    invested twice.
    let investment = read_investment(&client, &plan.id)?;
    if let Some(sandbox) = &target.sandbox {
        sandbox.inject_fault(Route::FlexInvest, Fault::DropAfterProcessing, Some(1));
    }
    let top_up = FlexInvest::top_up(plan, &investment, "25")?;
    match client.flex_invest_once(&top_up)? {
        FlexDone::Found { record, evidence } => println!(
            "topped up (the answer was lost; found in the history: {evidence}): {}",
            record.transaction_id
        ),
        done => println!("topped up: {}", done.transaction_id()),
    }
    let investment = read_investment(&client, &plan.id)?;
    println!("invested now: {}", investment.invested);

    // 5. Earnings reinvested from now on.
    client.set_flex_auto_invest(&SetFlexAutoInvest::new(&plan.id, true)?)?;
    if target.sandbox.is_some() {
        std::thread::sleep(Duration::from_millis(1_200)); // two of the sandbox's flex days
    }

    // 6. Withdraw what the plan lets go, exactly once: at least its minimum stays invested.
    let investment = read_investment(&client, &plan.id)?;
    let withdraw = FlexWithdraw::from_investment(plan, &investment, "25")?;
    let withdrawn = client.flex_withdraw_once(&withdraw)?;
    println!("withdrew 25: {}", withdrawn.transaction_id());

    // 7. The history and the earnings, every page.
    let history = FlexHistoryQuery::builder().plan(&plan.id).build()?;
    for page in client.pages(history) {
        for record in page? {
            println!(
                "{} {:?} {} {} ({})",
                record.created_at,
                record.action_type,
                record.amount,
                record.currency,
                record.transaction_id
            );
        }
    }
    let earnings = FlexPaymentsQuery::builder().plan(&plan.id).build()?;
    let paid: usize = client
        .pages(earnings)
        .map(|p| p.map(|e| e.len()))
        .sum::<Result<_, _>>()?;
    println!("{paid} daily earning(s) paid");

    // 8. Closed: everything comes back; a lost answer would be resolved by the state.
    match client.close_flex_investment(&CloseFlexInvestment::new(&plan.id)?)? {
        StateReached::Answered(closed) => println!("closed: {}", closed.transaction_id()),
        other => println!("closed: {other:?}"),
    }
    let closes = FlexHistoryQuery::builder()
        .plan(&plan.id)
        .action_types([FlexAction::Close])
        .build()?;
    println!(
        "{} close(s) in the history",
        client.flex_history(&closes)?.data.len()
    );
    Ok(())
}

/// The account's investment in `plan`.
fn read_investment(
    client: &txc_blocking::Client,
    plan: &str,
) -> Result<FlexInvestment, Box<dyn Error>> {
    let query = FlexInvestmentsQuery::builder().plan(plan).build()?;
    let page = client.flex_investments(&query)?;
    page.data
        .into_iter()
        .next()
        .ok_or_else(|| format!("no investment in plan {plan}").into())
}

/// The server: the one the environment names, or an embedded sandbox whose flex day lasts
/// half a second.
fn target() -> Result<Target, Box<dyn Error>> {
    let live = parse_live(std::env::args().skip(1))?;
    if let Some(remote) = remote_from_env(|name| std::env::var(name).ok())? {
        return Ok(Target::new(live, Some(remote))?);
    }
    let sandbox = Sandbox::builder()
        .flex_accrual_interval(Duration::from_millis(500))
        .start()?;
    Ok(Target {
        base_url: sandbox.base_url().to_owned(),
        credentials: txc_blocking::Credentials::new(
            demo::REGULAR_API_KEY,
            demo::REGULAR_API_SECRET,
        )?,
        sandbox: Some(sandbox),
    })
}

//! Smart investments for a B2B partner with the blocking client (`txc-blocking`): list the USDT
//! plans, pick an active one, invest within its bounds — exactly once — see an amount above
//! its bound refused before anything is sent, find the investment in the list, close it and
//! show the interest paid.
//!
//! ```text
//! cargo run -p txc-examples --example partner_investments
//! ```
//!
//! Only keys of B2B partner services may list plans and invest; other keys get HTTP 403, and
//! the example stops after saying so. Runs against the embedded sandbox, or the server named
//! by `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET` (a non-loopback one only with
//! `-- --live`: it invests real money, the plan's minimum, and closes the investment again at
//! once).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_blocking::errors::ApiErrorClass;
use txc_blocking::investments::{
    CloseInvestment, InterestPaymentsQuery, Invest, InvestmentsQuery, PlanStatus, SmartPlansQuery,
};
use txc_blocking::outcomes::Invested;
use txc_blocking::values::Decimal;
use txc_examples::Target;

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.blocking().build()?;

    // 1. The USDT plans, and an active one with room for its minimum.
    let query = SmartPlansQuery::builder().ticker("USDT").build()?;
    let plans = match client.smart_plans(&query) {
        Ok(plans) => plans,
        Err(e)
            if e.api()
                .is_some_and(|a| a.class == ApiErrorClass::Permission) =>
        {
            println!("this key may not list plans (B2B partners only): {e}");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    for plan in &plans {
        println!(
            "plan {} {:?}: {}% over {} days, {}..{} USDT, {} left",
            plan.id,
            plan.status,
            plan.percent,
            plan.duration().as_secs() / 86_400,
            plan.min_investment,
            plan.max_investment,
            plan.max_possible_investment,
        );
    }
    let Some(plan) = plans
        .iter()
        .find(|p| p.status == PlanStatus::Active && p.max_possible_investment >= p.min_investment)
    else {
        println!("no active USDT plan with room left");
        return Ok(());
    };
    println!("investing in {}", plan.id);

    // 2. An amount above what the plan has left is refused before any I/O, naming the bound.
    let too_much = plan.max_possible_investment.to_decimal()? + Decimal::ONE;
    match Invest::in_plan(plan, too_much) {
        Err(refused) => println!("refused before sending: {refused}"),
        Ok(_) => return Err("an amount above the plan's bound was accepted".into()),
    }

    // 3. The plan's minimum, exactly once: an ambiguous answer is resolved from the
    //    investments list, never invested twice.
    let invest = Invest::in_plan(plan, plan.min_investment.as_str())?;
    let invested = client.invest_once(&invest)?;
    match &invested {
        Invested::Answered(new) => println!("invested {} USDT: {}", invest.amount(), new.id),
        Invested::Found {
            investment,
            evidence,
        } => {
            println!(
                "invested (found in the list: {evidence}): {}",
                investment.id
            );
        }
        other => println!("invested: {}", other.id()),
    }

    // 4. The investment in the list.
    let mine = InvestmentsQuery::builder().id(invested.id()).build()?;
    for investment in client.investments(&mine)?.records {
        println!(
            "investment {}: {} {} in {}, status {:?}, created {}, paid at {}",
            investment.id,
            investment.amount,
            investment.plan.ticker,
            investment.plan.id,
            investment.status,
            investment.created,
            investment.payment_time,
        );
    }

    // 5. Closed: the principal comes back with the interest accrued so far.
    client.close_investment(&CloseInvestment::new(invested.id())?)?;
    let closed = client.investments(&mine)?.records;
    if let Some(investment) = closed.first() {
        println!(
            "closed {}: status {:?}, interest paid {}",
            investment.id, investment.status, investment.interest_paid
        );
    }

    // 6. The interest payments of the plan.
    let payments = InterestPaymentsQuery::builder().plan_id(&plan.id).build()?;
    for payment in client.interest_payments(&payments)?.records {
        println!(
            "interest {} {} on {} at {}",
            payment.amount, payment.ticker, payment.investment_id, payment.timestamp
        );
    }
    Ok(())
}

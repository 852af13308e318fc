//! The smart investment plans with the async client (`txc-async`), with exact decimals.
//!
//! ```text
//! cargo run -p txc-examples --example async_smart_plans
//! ```
//!
//! Only keys of B2B partner services may list plans; other keys get HTTP 403. Runs against
//! the embedded sandbox, or the server named by `TXC_BASE_URL`, `TXC_API_KEY` and
//! `TXC_API_SECRET` (a non-loopback one only with `-- --live`).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_async::investments::{PlanStatus, SmartPlansQuery};
use txc_async::values::Decimal;
use txc_examples::Target;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.asynchronous().build()?;

    for plan in client.smart_plans(&SmartPlansQuery::new()).await? {
        if plan.status != PlanStatus::Active {
            continue;
        }
        // Interest on the largest investment still possible, in the plan's interest currency.
        let interest = plan.max_possible_investment.to_decimal()? * plan.percent.to_decimal()?
            / Decimal::ONE_HUNDRED
            * plan.interest_ratio.to_decimal()?;
        println!(
            "{} {}: up to {} {} earns {} {}",
            plan.id,
            plan.ticker,
            plan.max_possible_investment,
            plan.ticker,
            interest,
            plan.interest_ticker
        );
    }
    Ok(())
}

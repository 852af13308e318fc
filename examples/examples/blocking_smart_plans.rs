//! The smart investment plans of one currency with the blocking client (`txc-blocking`).
//!
//! ```text
//! cargo run -p txc-examples --example blocking_smart_plans
//! ```
//!
//! Only keys of B2B partner services may list plans; other keys get HTTP 403. Runs against
//! the embedded sandbox, or the server named by `TXC_BASE_URL`, `TXC_API_KEY` and
//! `TXC_API_SECRET` (a non-loopback one only with `-- --live`).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_blocking::Client;
use txc_blocking::errors::ApiErrorClass;
use txc_blocking::investments::SmartPlansQuery;
use txc_examples::Target;

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = Client::builder(target.credentials.clone())
        .base_url(&target.base_url)
        .build()?;

    let query = SmartPlansQuery::builder().ticker("USDT").build()?;
    match client.smart_plans(&query) {
        Ok(plans) => {
            for plan in plans {
                println!(
                    "{} {:?}: {}% for {} days, invest {}..{} {} (now up to {})",
                    plan.id,
                    plan.status,
                    plan.percent,
                    plan.duration().as_secs() / 86_400,
                    plan.min_investment,
                    plan.max_investment,
                    plan.ticker,
                    plan.max_possible_investment,
                );
            }
        }
        Err(e)
            if e.api()
                .is_some_and(|a| a.class == ApiErrorClass::Permission) =>
        {
            println!("this key may not list plans (B2B partners only): {e}");
        }
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

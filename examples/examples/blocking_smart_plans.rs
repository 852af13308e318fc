//! The smart investment plans of one currency with the blocking client (`txc-blocking`).
//!
//! ```text
//! cargo run -p txc-examples --example blocking_smart_plans
//! ```
//!
//! Only keys of B2B partner services may list plans; other keys get HTTP 403. On the embedded
//! sandbox the example also shows that refusal with the demo key that is no partner. Runs
//! against the server named by `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET` if set
//! (a non-loopback one only with `-- --live`).

use std::error::Error;

use txc_blocking::{ApiErrorClass, Client, Credentials, SmartPlansQuery};
use txc_examples::{Target, api_error_summary, print_plans, rejected};
use txc_sandbox::demo;

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    target.print_banner("blocking smart plans");

    let client = Client::builder(target.credentials())
        .base_url(target.base_url())
        .build()?;

    let query = SmartPlansQuery::builder().ticker("USDT").build()?;
    let plans = client.smart_plans(&query)?;
    print_plans("USDT", &plans);

    // Sandbox only: the same query with a key that has no plans permission.
    if target.sandbox().is_some() {
        let regular = Credentials::new(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET)?;
        let client = Client::builder(regular)
            .base_url(target.base_url())
            .build()?;
        match client.smart_plans(&query) {
            Err(e) => match e.api() {
                Some(answer) if answer.class == ApiErrorClass::Permission => {
                    rejected("non-partner key", &api_error_summary(answer));
                }
                _ => return Err(e.into()),
            },
            Ok(_) => return Err("a key without plans permission listed plans".into()),
        }
    }
    Ok(())
}

//! `txc sandbox`: the embedded exchange, with its address and demo credentials printed so
//! that every other command can be pointed at it.
//!
//! Printing is this module's purpose.
#![allow(clippy::print_stdout)]

use std::io::Write as _;

use txc_sandbox::{Sandbox, demo};

use crate::exit::CliError;

/// Starts the sandbox on 127.0.0.1:`port`, prints how to use it, and serves until the process
/// is interrupted. The demo credentials are public test data of the sandbox, printed on
/// purpose.
pub(crate) fn run(port: u16, json: bool) -> Result<(), CliError> {
    let sandbox = Sandbox::builder()
        .port(port)
        .start()
        .map_err(|e| CliError::Sandbox(format!("the sandbox could not start: {e}")))?;
    let url = sandbox.base_url();
    let (key, secret) = (demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET);
    let flex_plans = [("USDT", demo::FLEX_USDT_PLAN), ("BTC", demo::FLEX_BTC_PLAN)];
    if json {
        let plans: Vec<&str> = flex_plans.iter().map(|(_, id)| *id).collect();
        println!(
            "{}",
            serde_json::json!({
                "command": "sandbox",
                "result": {
                    "baseUrl": url, "apiKey": key, "apiSecret": secret, "flexPlans": plans,
                },
            })
        );
    } else {
        println!("txc sandbox listening on {url}");
        println!("demo credentials (public test data, for this sandbox only):");
        println!("export TXC_BASE_URL={url} TXC_API_KEY={key} TXC_API_SECRET={secret}");
        for (ticker, id) in flex_plans {
            println!("demo flex plan ({ticker}): {id}  (txc flex plans lists every plan)");
        }
        println!("serving until interrupted (Ctrl-C)");
    }
    std::io::stdout()
        .flush()
        .map_err(|e| CliError::Sandbox(format!("cannot write: {e}")))?;
    loop {
        std::thread::park();
    }
}

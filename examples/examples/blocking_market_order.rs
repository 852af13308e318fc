//! One collateral market order with the blocking client (`txc-blocking`).
//!
//! ```text
//! cargo run -p txc-examples --example blocking_market_order
//! ```
//!
//! Runs against the embedded sandbox, or the server named by `TXC_BASE_URL`, `TXC_API_KEY`
//! and `TXC_API_SECRET` (a non-loopback one only with `-- --live`: the order is real).

use std::error::Error;

use txc_blocking::{Client, CollateralMarketOrder, Side};
use txc_examples::{Target, note, ok, order_summary};

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    target.print_banner("blocking market order");

    let client = Client::builder(target.credentials())
        .base_url(target.base_url())
        .build()?;

    // Every field is validated here; an invalid one is an error naming it, and nothing is sent.
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("50000")
        .take_profit("80000")
        .client_order_id("example-market-1")
        .build()?;

    match client.collateral_market_order(&order) {
        Ok(placed) => ok("market order", &order_summary(&placed)),
        // A timeout, reset or 5xx after sending: the order may have been placed. Find out
        // before resending it — the client never resends an order in this state itself.
        Err(e) if e.outcome_unknown() => {
            note(
                "market order",
                "outcome unknown: check the account before resending",
            );
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

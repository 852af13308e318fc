//! One collateral trigger market order with the async client (`txc-async`).
//!
//! ```text
//! cargo run -p txc-examples --example async_trigger_market_order
//! ```
//!
//! The order rests until the market price reaches its activation price (a sell: price ≤
//! activation), then executes as a market order. On the embedded sandbox the example moves
//! the price to fire it; elsewhere (`TXC_BASE_URL`, `TXC_API_KEY`, `TXC_API_SECRET`, and
//! `-- --live` for a non-loopback server) that step is skipped and the order keeps resting.

use std::error::Error;

use txc_async::{Client, CollateralTriggerMarketOrder, Side};
use txc_examples::{Target, ok, order_summary};

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    target.print_banner("async trigger market order");

    let client = Client::builder(target.credentials())
        .base_url(target.base_url())
        .build()?;

    // Sell 0.01 BTC_PERP once the price falls to 62000 or below (the sandbox starts at 65000).
    let order = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "62000")
        .client_order_id("example-trigger-2")
        .build()?;
    let resting = client.collateral_trigger_market_order(&order).await?;
    ok("trigger order", &order_summary(&resting));

    // Sandbox only: the price falls to 61000, the order fires and fills.
    target.fire_trigger("BTC_PERP", "61000", &resting)?;
    Ok(())
}

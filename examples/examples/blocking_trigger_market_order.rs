//! A collateral trigger market order with the blocking client (`txc-blocking`): placed,
//! found among the open orders, then canceled.
//!
//! ```text
//! cargo run -p txc-examples --example blocking_trigger_market_order
//! ```
//!
//! The order rests until the market reaches its activation price (a sell: price ≤ activation).
//! Runs against the embedded sandbox, or the server named by `TXC_BASE_URL`, `TXC_API_KEY`
//! and `TXC_API_SECRET` (a non-loopback one only with `-- --live`: the order is real).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_blocking::lookups::OpenOrdersQuery;
use txc_blocking::orders::{CancelOrder, Cancellation, CollateralTriggerMarketOrder, Side};
use txc_examples::Target;

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.blocking().build()?;

    // Sell 0.01 BTC_PERP once the price falls to 50000 or below (the sandbox is at 65000).
    let order =
        CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "50000").build()?;
    let resting = client.collateral_trigger_market_order(&order)?;
    let activation = resting.activation_price.as_ref().map(ToString::to_string);
    println!(
        "trigger order {} resting at {} ({:?})",
        resting.order_id,
        activation.as_deref().unwrap_or("-"),
        resting.status
    );

    let open = client.open_orders(&OpenOrdersQuery::builder().market("BTC_PERP").build()?)?;
    println!("{} open order(s) on BTC_PERP", open.len());

    match client.cancel_order(&CancelOrder::by_order_id("BTC_PERP", resting.order_id)?)? {
        Cancellation::Canceled(order) => println!("canceled: {:?}", order.status),
        Cancellation::NotFound => println!("not open any more (filled or canceled already)"),
        other => println!("{other:?}"),
    }
    Ok(())
}

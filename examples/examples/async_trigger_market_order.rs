//! A collateral trigger market order with the async client (`txc-async`), canceled by its
//! `clientOrderId`.
//!
//! ```text
//! cargo run -p txc-examples --example async_trigger_market_order
//! ```
//!
//! Runs against the embedded sandbox, or the server named by `TXC_BASE_URL`, `TXC_API_KEY`
//! and `TXC_API_SECRET` (a non-loopback one only with `-- --live`: the order is real).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_async::orders::{CancelOrder, Cancellation, CollateralTriggerMarketOrder, Side};
use txc_examples::Target;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.asynchronous().build()?;

    // Buy 0.01 BTC_PERP once the price rises to 80000 or above (the sandbox is at 65000).
    let order = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Buy, "0.01", "80000")
        .client_order_id("example-trigger-1")
        .build()?;
    let resting = client.collateral_trigger_market_order(&order).await?;
    println!(
        "trigger order {} resting ({:?})",
        resting.order_id, resting.activation_condition
    );

    let cancel = CancelOrder::by_client_order_id("BTC_PERP", "example-trigger-1")?;
    match client.cancel_order(&cancel).await? {
        Cancellation::Canceled(order) => println!("canceled, left {}", order.left),
        Cancellation::NotFound => println!("not open any more"),
        other => println!("{other:?}"),
    }
    Ok(())
}

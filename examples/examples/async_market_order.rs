//! One collateral market order with the async client (`txc-async`), placed exactly once.
//!
//! ```text
//! cargo run -p txc-examples --example async_market_order
//! ```
//!
//! `place_once` resolves an unknown outcome by itself and sends the order again only when it
//! was not placed. Runs against the embedded sandbox, or the server named by `TXC_BASE_URL`,
//! `TXC_API_KEY` and `TXC_API_SECRET` (a non-loopback one only with `-- --live`).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_async::orders::{CollateralMarketOrder, Side};
use txc_async::outcomes::PlacedOrder;
use txc_examples::Target;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.asynchronous().build()?;

    // The order's clientOrderId is generated here, before anything is sent.
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Sell, "0.01").build()?;
    println!("placing {}", order.fields().client_order_id());
    let placed = client.place_once(&order).await?;
    match &placed.record {
        PlacedOrder::Answered(answered) => println!(
            "order {} placed: {} {} for {}",
            answered.order_id, answered.side, answered.deal_stock, answered.deal_money
        ),
        // After an unknown outcome, the order as the look-ups found it, and what proved it.
        found => println!(
            "order {} found placed: {found:?}; proved by {}",
            placed.order_id(),
            placed.evidence
        ),
    }
    Ok(())
}

//! The quickstart: every operation of txc, with the blocking and the async client.
//!
//! ```text
//! cargo run -p txc-examples --example quickstart
//! ```
//!
//! With no configuration it starts the embedded sandbox (a WhiteBIT-compatible server on
//! loopback, with public demo keys) and, once with `txc-blocking` and once with `txc-async`:
//!
//! 1. places a collateral market order with stop-loss and take-profit;
//! 2. places a collateral trigger market order, then moves the sandbox's price so that it
//!    fires, and shows it `FILLED` and activated in the sandbox's order list;
//! 3. lists the smart investment plans of one ticker;
//! 4. shows a rejection by the server (amount below the market's minimum: code 32, with the
//!    field's messages) and one by the request builder (amount `1e5`: nothing is sent).
//!
//! To use your own server set `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET`. A server
//! that is not on loopback is refused unless you add `-- --live`: the orders are real. The
//! prices below suit the sandbox (BTC at 65000); adjust them for a real market. The
//! sandbox-only step (moving the price) is skipped elsewhere, so trigger orders stay resting —
//! this SDK has no cancel operation; cancel them in the exchange's interface.

use std::error::Error;

use txc_examples::{
    Target, api_error_summary, heading, note, ok, order_summary, print_plans, rejected,
    validation_summary,
};
use txc_types::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, Order, Side, SmartPlansQuery,
};

fn main() -> Result<(), Box<dyn Error>> {
    // Decides the server, and refuses a non-loopback one without `--live`, before any I/O.
    let target = Target::from_env()?;
    target.print_banner("txc quickstart");

    blocking_tour(&target)?;

    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async_tour(&target))?;

    target.print_sandbox_stats();
    Ok(())
}

/// Every operation with the blocking client.
fn blocking_tour(target: &Target) -> Result<(), Box<dyn Error>> {
    heading("blocking client (txc-blocking)");
    let client = txc_blocking::Client::builder(target.credentials())
        .base_url(target.base_url())
        .build()?;

    // 1. A market order; stop-loss and take-profit make it an OTO order.
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("50000")
        .take_profit("80000")
        .client_order_id("qs-blocking-1")
        .build()?;
    let placed = client.collateral_market_order(&order)?;
    ok("market order", &order_summary(&placed));

    // 2. A trigger order: sell once the price falls to 62000 or below...
    let trigger = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "62000")
        .client_order_id("qs-blocking-2")
        .build()?;
    let resting = client.collateral_trigger_market_order(&trigger)?;
    ok("trigger order", &order_summary(&resting));
    // ...which the sandbox makes happen.
    target.fire_trigger("BTC_PERP", "61000", &resting)?;

    // 3. Smart investment plans of one source currency.
    let query = SmartPlansQuery::builder().ticker("USDT").build()?;
    print_plans("USDT", &client.smart_plans(&query)?);

    // 4. Rejections: by the server, then by the builder.
    let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001").build()?;
    server_rejection(client.collateral_market_order(&too_small))?;
    local_rejection()
}

/// The same with the async client; this trigger order buys once the price rises to 63000.
async fn async_tour(target: &Target) -> Result<(), Box<dyn Error>> {
    heading("async client (txc-async)");
    let client = txc_async::Client::builder(target.credentials())
        .base_url(target.base_url())
        .build()?;

    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("50000")
        .take_profit("80000")
        .client_order_id("qs-async-1")
        .build()?;
    let placed = client.collateral_market_order(&order).await?;
    ok("market order", &order_summary(&placed));

    let trigger = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Buy, "0.01", "63000")
        .client_order_id("qs-async-2")
        .build()?;
    let resting = client.collateral_trigger_market_order(&trigger).await?;
    ok("trigger order", &order_summary(&resting));
    target.fire_trigger("BTC_PERP", "64000", &resting)?;

    let query = SmartPlansQuery::builder().ticker("USDT").build()?;
    print_plans("USDT", &client.smart_plans(&query).await?);

    let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001").build()?;
    server_rejection(client.collateral_market_order(&too_small).await)?;
    local_rejection()
}

/// Shows the server's answer to an order below the market's minimum amount. Only an error
/// answer is expected here; any other failure (transport, undecodable answer) is returned.
fn server_rejection(result: Result<Order, txc_sign::Error>) -> Result<(), txc_sign::Error> {
    match result {
        Err(e) => match e.api() {
            Some(answer) => rejected("rejected by server", &api_error_summary(answer)),
            None => return Err(e),
        },
        Ok(order) => note(
            "rejected by server",
            &format!(
                "not rejected: this server accepted {}",
                order_summary(&order)
            ),
        ),
    }
    Ok(())
}

/// Shows the builder refusing an amount in exponent notation: no request exists to send.
fn local_rejection() -> Result<(), Box<dyn Error>> {
    match CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1e5").build() {
        Err(e) => rejected("rejected locally", &validation_summary("1e5", &e)),
        Ok(_) => return Err("the builder accepted the amount 1e5".into()),
    }
    Ok(())
}

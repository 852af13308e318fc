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
//! 2. places a collateral trigger market order, finds it among the open orders, and cancels it;
//! 3. lists the smart investment plans of one currency;
//! 4. shows a rejection by the exchange (amount below the market's minimum) and one by the
//!    request builder (amount `1e5`: nothing is sent).
//!
//! On the sandbox the blocking tour also loses a response on purpose — the order executes, the
//! connection drops — and resolves the unknown outcome by the order's `clientOrderId`.
//!
//! To use your own server set `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET`. A server
//! that is not on loopback is refused unless you add `-- --live`: the orders are real. The
//! prices suit the sandbox (BTC at 65000); the trigger orders are canceled before the tour
//! ends, wherever it runs.

#![allow(clippy::print_stdout)]

use std::error::Error;
use std::time::Duration;

use txc_blocking::investments::SmartPlansQuery;
use txc_blocking::lookups::OpenOrdersQuery;
use txc_blocking::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, Order, Side,
};
use txc_blocking::outcomes::Resolution;
use txc_examples::Target;
use txc_sandbox::{Fault, Route};

fn main() -> Result<(), Box<dyn Error>> {
    // Decides the server, and refuses a non-loopback one without `--live`, before any I/O.
    let target = Target::from_env()?;
    println!("txc quickstart against {}", target.base_url);

    blocking_tour(&target)?;
    tokio::runtime::Runtime::new()?.block_on(async_tour(&target))?;

    if let Some(sandbox) = &target.sandbox {
        let stats = sandbox.stats();
        println!(
            "\nsandbox: {} requests, {} orders accepted, {} rejected",
            stats.requests, stats.accepted_orders, stats.rejections
        );
    }
    Ok(())
}

fn print_order(label: &str, order: &Order) {
    println!(
        "  {label}: #{} {} {} {} {} — filled {} for {} ({})",
        order.order_id,
        order.client_order_id.as_deref().unwrap_or("-"),
        order.side,
        order.amount,
        order.market,
        order.deal_stock,
        order.deal_money,
        order
            .status
            .as_ref()
            .map_or("-".into(), ToString::to_string),
    );
}

/// Every operation with the blocking client.
fn blocking_tour(target: &Target) -> Result<(), Box<dyn Error>> {
    println!("\nblocking client (txc-blocking)");
    let client = txc_blocking::Client::builder(target.credentials.clone())
        .base_url(&target.base_url)
        // The sandbox shares this host's clock: a short settling delay is safe there.
        .settle_delay(Duration::from_secs(6))
        .build()?;

    // 1. A market order; stop-loss and take-profit make it an OTO order. No clientOrderId is
    //    given, so the client generates one (that is what makes resolving possible).
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("50000")
        .take_profit("80000")
        .build()?;
    print_order("market order", &client.collateral_market_order(&order)?);

    // 2. A trigger order: sell once the price falls to 50000; then find it and cancel it.
    let trigger =
        CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "50000").build()?;
    let resting = client.collateral_trigger_market_order(&trigger)?;
    print_order("trigger order", &resting);
    let open = client.open_orders(&OpenOrdersQuery::builder().market("BTC_PERP").build()?)?;
    println!("  open orders on BTC_PERP: {}", open.len());
    let cancel = CancelOrder::by_order_id("BTC_PERP", resting.order_id)?;
    match client.cancel_order(&cancel)? {
        Cancellation::Canceled(order) => print_order("canceled", &order),
        other => println!("  cancel: {other:?}"),
    }

    // 3. Smart investment plans of one source currency.
    let plans = client.smart_plans(&SmartPlansQuery::builder().ticker("USDT").build()?)?;
    for plan in &plans {
        println!("  plan {} {}%: {:?}", plan.id, plan.percent, plan.status);
    }

    // 4. Rejections: by the exchange, then by the builder.
    let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001").build()?;
    rejection(client.collateral_market_order(&too_small))?;
    local_rejection()?;

    // 5. Sandbox only: a lost response, resolved.
    if let Some(sandbox) = &target.sandbox {
        sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
        let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
        let Err(error) = client.collateral_market_order(&order) else {
            return Err("the response was not lost".into());
        };
        let pending = error.pending_order().ok_or("expected an unknown outcome")?;
        println!("  lost response: {error}");
        println!("  resolving {} …", pending.client_order_id());
        match client.resolve(pending)? {
            Resolution::Placed(placed) => println!(
                "  it was placed: order #{} ({})",
                placed.order_id(),
                placed.evidence
            ),
            other => println!("  {other:?}"),
        }
    }
    Ok(())
}

/// The same with the async client; its trigger order is canceled by `clientOrderId`.
async fn async_tour(target: &Target) -> Result<(), Box<dyn Error>> {
    println!("\nasync client (txc-async)");
    let client = txc_async::Client::builder(target.credentials.clone())
        .base_url(&target.base_url)
        .build()?;

    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("50000")
        .take_profit("80000")
        .build()?;
    print_order(
        "market order",
        &client.collateral_market_order(&order).await?,
    );

    let trigger = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Buy, "0.01", "80000")
        .client_order_id("quickstart-async-trigger")
        .build()?;
    print_order(
        "trigger order",
        &client.collateral_trigger_market_order(&trigger).await?,
    );
    let cancel = CancelOrder::by_client_order_id("BTC_PERP", "quickstart-async-trigger")?;
    match client.cancel_order(&cancel).await? {
        Cancellation::Canceled(order) => print_order("canceled", &order),
        other => println!("  cancel: {other:?}"),
    }

    let plans = client
        .smart_plans(&SmartPlansQuery::builder().ticker("USDT").build()?)
        .await?;
    println!("  {} USDT plans", plans.len());

    let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001").build()?;
    rejection(client.collateral_market_order(&too_small).await)?;
    local_rejection()
}

/// Shows the exchange's refusal of an order below the market's minimum amount.
fn rejection(result: Result<Order, txc_blocking::Error>) -> Result<(), Box<dyn Error>> {
    let error = match result {
        Ok(order) => return Err(format!("not rejected: {}", order.order_id).into()),
        Err(e) => e,
    };
    let api = error
        .api()
        .ok_or_else(|| format!("not an exchange error: {error}"))?;
    println!(
        "  rejected by the exchange: HTTP {} code {:?} ({}): {:?}",
        api.status,
        api.code,
        api.class,
        api.field_errors("amount")
    );
    Ok(())
}

/// Shows the builder refusing an amount in exponent notation: no request exists to send.
fn local_rejection() -> Result<(), Box<dyn Error>> {
    match CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1e5").build() {
        Err(e) => println!("  rejected before sending: {e}"),
        Ok(_) => return Err("the builder accepted the amount 1e5".into()),
    }
    Ok(())
}

//! One collateral market order with the blocking client (`txc-blocking`).
//!
//! ```text
//! cargo run -p txc-examples --example blocking_market_order
//! ```
//!
//! Runs against the embedded sandbox, or the server named by `TXC_BASE_URL`, `TXC_API_KEY`
//! and `TXC_API_SECRET` (a non-loopback one only with `-- --live`: the order is real).

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_examples::Target;

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.blocking().build()?;

    // Every field is checked here; an invalid one is an error naming it, and nothing is sent.
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("50000")
        .take_profit("80000")
        .build()?;

    match client.collateral_market_order(&order) {
        Ok(placed) => {
            println!(
                "order {} ({}): {} {} {} filled {} for {} {}, fee {}",
                placed.order_id,
                placed.client_order_id.as_deref().unwrap_or("-"),
                placed.side,
                placed.amount,
                placed.market,
                placed.deal_stock,
                placed.deal_money,
                placed.status.map_or("-".to_owned(), |s| s.to_string()),
                placed.deal_fee.map_or("-".to_owned(), |f| f.to_string()),
            );
            if let Some(oto) = placed.oto {
                println!("  stop-loss/take-profit group {}", oto.oto_id);
            }
        }
        // The request may have reached the exchange and no response says what became of it.
        // The client never resends such an order; find out first.
        Err(e) if e.outcome_unknown() => {
            let pending = e.pending_order().ok_or("no pending order")?;
            println!(
                "outcome unknown, resolving {:?}…",
                pending.client_order_id()
            );
            println!("{:?}", client.resolve(pending)?);
        }
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

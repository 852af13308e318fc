//! The private event stream: the account's orders, executions, deals, balance and positions
//! as they happen, with a disconnection in the middle that the stream recovers from.
//!
//! ```text
//! cargo run -p txc-examples --example events
//! ```
//!
//! With no configuration it starts the embedded sandbox and, with `txc-async`'s
//! [`EventStream`](txc_async::events::EventStream):
//!
//! 1. subscribes the order, execution and deal channels of `BTC_USDT`, the `USDT` balance
//!    and the positions; the first [`Resync`](txc_async::events::StreamEvent::Resync) reads
//!    the open orders over REST;
//! 2. places a market order and a resting trigger order, and prints their events;
//! 3. drops the connection (a sandbox fault), places an order while the stream is away, and
//!    shows the reconnection, the resync that reports the missed order, and the events after;
//! 4. loses the answer to an order (another fault: the sandbox places it, then drops the
//!    connection): `place_once` settles it at the order's event on the stream — the client's
//!    own stream publishes to the client's `OrderSightings` — instead of after the look-ups'
//!    rounds, and says so in its evidence.
//!
//! To use your own server set `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET`: then it
//! only watches, for 30 s, and places nothing.

#![allow(clippy::print_stdout)]

use std::error::Error;
use std::time::{Duration, Instant};

use txc_async::events::{AccountEvent, StreamEvent, Subscription};
use txc_async::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder, Side};
use txc_examples::Target;
use txc_sandbox::{Fault, Route, WsFault};

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    println!("txc events against {}", target.base_url);
    tokio::runtime::Runtime::new()?.block_on(watch(&target))
}

async fn watch(target: &Target) -> Result<(), Box<dyn Error>> {
    let client = target.asynchronous().build()?;
    let subscriptions = [
        Subscription::orders_pending(["BTC_USDT"])?,
        Subscription::orders_executed(["BTC_USDT"], Default::default())?,
        Subscription::deals(["BTC_USDT"])?,
        Subscription::balance_margin(["USDT"])?,
        Subscription::positions(),
    ];
    let mut events = client.events(subscriptions).start()?;
    let Some(sandbox) = &target.sandbox else {
        // A real exchange: watch only.
        let _ = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(event) = events.next().await {
                print_event(&event);
            }
        })
        .await;
        return Ok(());
    };

    next_until(&mut events, |e| matches!(e, StreamEvent::ResyncDone(_))).await;
    println!("\n-- a market order and a resting trigger order");
    let market = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("events-market")
        .build()?;
    client.collateral_market_order(&market).await?;
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Sell, "0.01", "60000")
        .client_order_id("events-trigger")
        .build()?;
    client.collateral_trigger_market_order(&trigger).await?;
    next_until(&mut events, |e| {
        matches!(e, StreamEvent::Account(AccountEvent::Order(o)) if o.order.client_order_id.as_deref() == Some("events-trigger"))
    })
    .await;

    println!("\n-- the connection drops; an order is placed while the stream is away");
    sandbox.ws_fault(WsFault::Drop);
    let away = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.02")
        .client_order_id("events-while-away")
        .build()?;
    client.collateral_market_order(&away).await?;
    next_until(&mut events, |e| matches!(e, StreamEvent::ResyncDone(_))).await;

    println!("\n-- the price falls: the trigger order fires");
    sandbox.set_price("BTC_USDT", "59000")?;
    next_until(&mut events, |e| {
        matches!(e, StreamEvent::Account(AccountEvent::Deal(_)))
    })
    .await;

    println!("\n-- the answer to an order is lost: resolved by its event");
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    let lost = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("events-lost")
        .build()?;
    let started = Instant::now();
    let placed = client.place_once(&lost).await?;
    println!(
        "  placed #{} in {:?}; proved by an event: {}\n  evidence: {}",
        placed.order_id(),
        started.elapsed(),
        placed.evidence.by_event(),
        placed.evidence
    );

    events.stop();
    while let Some(event) = events.next().await {
        print_event(&event);
    }
    Ok(())
}

/// Prints events until one matches `done` (at most 10 s).
async fn next_until(
    events: &mut txc_async::events::EventStream,
    done: impl Fn(&StreamEvent) -> bool,
) {
    let wait = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(event) = events.next().await {
            print_event(&event);
            if done(&event) {
                return;
            }
        }
    });
    if wait.await.is_err() {
        println!("  (no such event within 10 s)");
    }
}

fn print_event(event: &StreamEvent) {
    match event {
        StreamEvent::Account(AccountEvent::Order(e)) => println!(
            "  order {:?}: #{} {} {} {:?}",
            e.kind,
            e.order.id,
            e.order.client_order_id.as_deref().unwrap_or("-"),
            e.order.market,
            e.order.status.as_ref().map(|s| s.as_str()),
        ),
        StreamEvent::Account(AccountEvent::Executed(e)) => {
            for o in &e.orders {
                println!(
                    "  executed: #{} {} for {}",
                    o.id, o.deal_stock, o.deal_money
                );
            }
        }
        StreamEvent::Account(AccountEvent::Deal(d)) => println!(
            "  deal #{}: order #{} {} at {} (fee {})",
            d.id,
            d.order_id,
            d.amount,
            d.price,
            d.fee.as_ref().map_or("-", |f| f.as_str())
        ),
        StreamEvent::Account(AccountEvent::Balances(b)) => {
            for b in &b.balances {
                println!("  balance {}: {}", b.asset, b.balance);
            }
        }
        StreamEvent::Account(AccountEvent::Positions(p)) => {
            let list: Vec<String> = p
                .records
                .iter()
                .map(|r| format!("{} {}", r.market, r.amount))
                .collect();
            println!("  positions: [{}]", list.join(", "));
        }
        StreamEvent::Resync(r) => println!(
            "  connection {} established: resyncing{}",
            r.connection,
            if r.is_initial() { "" } else { " after a gap" }
        ),
        StreamEvent::Resynced(change) => println!(
            "  resync found: #{} {} finished={}",
            change.order_id(),
            change.client_order_id().map_or("-", |c| c.as_str()),
            change.is_finished()
        ),
        StreamEvent::ResyncedPositions(p) => {
            let list: Vec<String> = p
                .iter()
                .map(|p| {
                    let amount = p.amount.as_ref().map_or("-", |a| a.as_str());
                    format!("{} {amount}", p.market)
                })
                .collect();
            println!("  resync read the positions: [{}]", list.join(", "));
        }
        StreamEvent::ResyncDone(r) => println!(
            "  resync done: {} opened, {} finished, {} look-ups",
            r.opened, r.finished, r.lookups
        ),
        StreamEvent::Disconnected(d) => println!(
            "  disconnected (connection {}), reconnecting in {:?}",
            d.connection, d.reconnect_in
        ),
        StreamEvent::Error(e) => println!("  error: {e}"),
        StreamEvent::Stopped(r) => println!("  stopped: {r:?}"),
        _ => {}
    }
}

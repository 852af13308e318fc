//! Every collateral order type beyond the market order, with the blocking client against the
//! embedded sandbox's market:
//!
//! ```text
//! cargo run -p txc-examples --example limit_orders
//! ```
//!
//! 1. reads the market's published rules and rounds a price to its step (explicitly: an order
//!    that breaks a rule is refused before anything is sent);
//! 2. rests a limit order below the market, moves the sandbox's price through it, and sees it
//!    fill by its event on the private stream;
//! 3. brackets the position it opened with an OCO pair — a take-profit above the market, a
//!    stop-loss below — and lists it;
//! 4. modifies a resting order: the exchange replaces it, with a new `orderId`;
//! 5. places a bulk of quotes exactly once.
//!
//! To use your own server set `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET`: then it only
//! reads the markets' rules and the OCO pairs, and places nothing.

#![allow(clippy::print_stdout)]

use std::error::Error;
use std::time::Duration;

use txc_blocking::Client;
use txc_blocking::events::{AccountEvent, StreamEvent, Subscription};
use txc_blocking::orders::{
    CollateralBulkOrder, CollateralLimitOrder, CollateralOcoOrder, ModifyOrder, OcoOrdersQuery,
    Side,
};
use txc_blocking::values::Price;
use txc_examples::Target;
use txc_sandbox::Sandbox;

const MARKET: &str = "BTC_USDT";

/// What the tour saw, for its test.
#[derive(Debug)]
pub(crate) struct Tour {
    /// The price as rounded to the market's step.
    pub(crate) rounded_price: String,
    /// Whether the resting order's fill came as an event.
    pub(crate) filled_by_event: bool,
    /// The OCO pair's legs.
    pub(crate) oco_legs: usize,
    /// The OCO pairs listed after it was placed.
    pub(crate) oco_listed: usize,
    /// The modified order's old and new `orderId`.
    pub(crate) modified: (u64, u64),
    /// How many quotes of the bulk were placed.
    pub(crate) quotes_placed: usize,
}

#[allow(dead_code)] // The limit_orders test includes this file for `tour`.
fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    println!("txc limit orders against {}", target.base_url);
    let client = target.blocking().build()?;
    let Some(sandbox) = &target.sandbox else {
        // A real exchange: read only.
        let rules = client.market_rules()?;
        if let Some(btc) = rules.get(MARKET) {
            println!("{MARKET}: {btc:?}");
        }
        let pairs = client.oco_orders(&OcoOrdersQuery::new())?;
        println!("{} active OCO pairs", pairs.len());
        return Ok(());
    };
    let tour = tour(&client, sandbox)?;
    println!(
        "\nrounded to {}; filled by event: {}; OCO legs {} ({} listed); #{} modified into #{}; \
         {} quotes placed",
        tour.rounded_price,
        tour.filled_by_event,
        tour.oco_legs,
        tour.oco_listed,
        tour.modified.0,
        tour.modified.1,
        tour.quotes_placed
    );
    Ok(())
}

/// The tour, against `sandbox` (whose price it moves).
pub(crate) fn tour(client: &Client, sandbox: &Sandbox) -> Result<Tour, Box<dyn Error>> {
    println!("-- the market's rules: a price rounded to its step");
    let rules = client.market_rules()?;
    let btc = rules
        .get(MARKET)
        .ok_or("the market info does not list BTC_USDT")?;
    let asked: Price = "60000.129".parse()?;
    let price = btc.round_price(&asked, Side::Buy, None)?;
    println!(
        "  {asked} rounds to {price} for a buy (moneyPrec {})",
        btc.price_precision()
    );

    println!("\n-- a limit order rests below the market; the price falls through it");
    let mut events = client
        .events([
            Subscription::orders_pending([MARKET])?,
            Subscription::orders_executed([MARKET], Default::default())?,
        ])
        .start()?;
    // The stream ends (with `Stopped`) if no event comes for ten seconds.
    let stop = events.stop_handle();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(10));
        stop.stop();
    });
    let ready = events
        .by_ref()
        .any(|e| matches!(e, StreamEvent::ResyncDone(_)));
    let order = CollateralLimitOrder::builder(MARKET, Side::Buy, "0.01", price.clone())
        .client_order_id("tour-rest")
        .build()?;
    let resting = client.collateral_limit_order(&order)?;
    println!(
        "  #{} resting: {:?} at {}",
        resting.order_id, resting.status, price
    );
    sandbox.set_price(MARKET, "59000")?;
    let filled_by_event = ready
        && events.by_ref().any(|event| match event {
            StreamEvent::Account(AccountEvent::Executed(executed)) => {
                executed.orders.iter().any(|o| o.id == resting.order_id)
            }
            _ => false,
        });
    println!("  filled, seen by its event: {filled_by_event}");
    events.stop();
    drop(events);
    drop(watchdog);

    println!("\n-- the position bracketed: take-profit at 61000, stop-loss from 57000");
    let bracket =
        CollateralOcoOrder::builder(MARKET, Side::Sell, "0.01", "61000", "57000", "56900")
            .client_order_id("tour-bracket")
            .reduce_only(true)
            .build()?;
    let pair = client.collateral_oco_order(&bracket)?;
    let oco_legs = pair.legs().count();
    let oco_listed = client.oco_orders(&OcoOrdersQuery::new())?.len();
    println!(
        "  OCO pair #{}: {oco_legs} legs; {oco_listed} listed",
        pair.id
    );

    println!("\n-- a resting order modified: replaced, with a new orderId");
    let quote = CollateralLimitOrder::builder(MARKET, Side::Buy, "0.01", "58000")
        .client_order_id("tour-quote")
        .build()?;
    let original = client.collateral_limit_order(&quote)?;
    let modify = ModifyOrder::by_client_order_id(MARKET, "tour-quote")
        .price("58100")
        .build()?;
    let modified = client.modify_order(&modify)?;
    println!(
        "  #{} replaced by #{} at {}",
        original.order_id,
        modified.new_order_id,
        modified
            .replacement
            .price
            .as_ref()
            .map_or("-", |p| p.as_str())
    );

    println!("\n-- a bulk of quotes, placed exactly once");
    let quotes = ["57900", "57800", "57700"]
        .into_iter()
        .map(|p| {
            CollateralLimitOrder::builder(MARKET, Side::Buy, "0.01", p)
                .post_only(true)
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let placed = client.place_bulk_once(&CollateralBulkOrder::new(quotes)?)?;
    let quotes_placed = placed.placed().count();
    for (i, quote) in placed.placed() {
        println!("  quote {i}: #{}", quote.order_id());
    }

    Ok(Tour {
        rounded_price: price.to_string(),
        filled_by_event,
        oco_legs,
        oco_listed,
        modified: (original.order_id, modified.new_order_id),
        quotes_placed,
    })
}

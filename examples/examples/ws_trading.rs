//! Orders over the exchange's authorized WebSocket, with the blocking client against the
//! embedded sandbox: the same typed orders as REST, sent as the socket's order methods.
//!
//! ```text
//! cargo run -p txc-examples --example ws_trading
//! ```
//!
//! 1. places a limit order below the market exactly once (`place_once`: journaled before its
//!    frame is written; a lost answer would be resolved, never blindly resent);
//! 2. modifies it: the exchange replaces it, with a new id;
//! 3. cancels the replacement;
//! 4. opens a position with a market order and attaches a take-profit and a stop-loss to it
//!    (`collateral_order_tpsl_place`, which only the socket serves);
//! 5. cancels everything left on the market (`order_cancel_all`).
//!
//! Each answer's outcome is printed. To use your own server set `TXC_BASE_URL`, `TXC_API_KEY`
//! and `TXC_API_SECRET`: then it only connects and authorizes, and places nothing.

#![allow(clippy::print_stdout)]

use std::error::Error;

use txc_blocking::Client;
use txc_blocking::orders::{
    CancelAllOrders, CancelOrder, CollateralLimitOrder, CollateralMarketOrder, ModifyOrder, Side,
};
use txc_blocking::socket::{CollateralTpslOrder, SocketAnswer, SocketPlaced, SocketTrading};
use txc_examples::Target;

const MARKET: &str = "BTC_PERP";

/// What the tour saw, for its test.
#[derive(Debug)]
pub(crate) struct Tour {
    /// The limit order's id as placed, and its replacement's after the modify.
    pub(crate) modified: (u64, u64),
    /// The replacement's status once canceled.
    pub(crate) canceled_status: String,
    /// The market order's status.
    pub(crate) market_status: String,
    /// The TPSL legs' trigger prices (take-profit, stop-loss).
    pub(crate) tpsl_triggers: (String, String),
    /// Whether `order_cancel_all` answered.
    pub(crate) canceled_all: bool,
}

#[allow(dead_code)] // The ws_trading test includes this file for `tour`.
fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    println!("txc over the WebSocket against {}", target.base_url);
    let client = target.blocking().build()?;
    if target.sandbox.is_none() {
        // A real exchange: connect and authorize with a cancel of nothing, place nothing.
        let mut session = client.socket_trading()?;
        println!("session to {}", session.url());
        let none = CancelOrder::by_client_order_id(MARKET, "txc-example-none")?;
        match session.order_cancel(&none) {
            Ok(answer) => println!("canceled: {:?}", answer.orders()),
            Err(error) => println!("as expected, nothing to cancel: {error}"),
        }
        session.close();
        return Ok(());
    }
    let tour = tour(&client)?;
    println!(
        "\n#{} modified into #{} ({}); market order {}; take-profit at {}, stop-loss at {}; \
         canceled all: {}",
        tour.modified.0,
        tour.modified.1,
        tour.canceled_status,
        tour.market_status,
        tour.tpsl_triggers.0,
        tour.tpsl_triggers.1,
        tour.canceled_all
    );
    Ok(())
}

/// The tour, on a sandbox.
pub(crate) fn tour(client: &Client) -> Result<Tour, Box<dyn Error>> {
    let mut session = client.socket_trading()?;
    let result = steps(&mut session);
    session.close();
    result
}

/// The steps on one session.
fn steps(session: &mut SocketTrading) -> Result<Tour, Box<dyn Error>> {
    // 1. A limit order, exactly once.
    let limit = CollateralLimitOrder::builder(MARKET, Side::Buy, "0.001", "60000")
        .client_order_id("ws-example-1")
        .build()?;
    let placed = session.place_once(&limit)?;
    let first = placed.record.order_id().ok_or("no order id")?;
    println!("placed #{first} ({})", placed.evidence);
    if let SocketPlaced::Answered(answer) = &placed.record {
        print_answer("  ", answer);
    }
    // 2. Modified: a new id.
    let modify = ModifyOrder::by_client_order_id(MARKET, "ws-example-1")
        .price("60500")
        .build()?;
    let replaced = session.order_modify(&modify)?;
    let second = order_id(&replaced)?;
    println!("modified #{first} into #{second}");
    print_answer("  ", &replaced);
    // 3. Canceled.
    let canceled = session.order_cancel(&CancelOrder::by_order_id(MARKET, second)?)?;
    println!("canceled #{second}");
    print_answer("  ", &canceled);
    let canceled_status = status(&canceled);
    // 4. A position, and a take-profit and stop-loss on it.
    let market = CollateralMarketOrder::builder(MARKET, Side::Buy, "0.002")
        .client_order_id("ws-example-2")
        .build()?;
    let bought = session.place(&market)?;
    println!("market order");
    print_answer("  ", &bought);
    let tpsl = CollateralTpslOrder::builder(MARKET)
        .take_profit("70000")
        .stop_loss("60000")
        .build()?;
    let legs = session.place(&tpsl)?;
    println!("take-profit and stop-loss on the position");
    print_answer("  ", &legs);
    let trigger = |leg: Option<&txc_blocking::socket::SocketOrder>| {
        leg.and_then(|o| o.activation_price.as_ref())
            .map_or_else(String::new, ToString::to_string)
    };
    let tpsl_triggers = match &legs {
        SocketAnswer::Tpsl(pair) => (
            trigger(pair.take_profit.as_ref()),
            trigger(pair.stop_loss.as_ref()),
        ),
        _ => (String::new(), String::new()),
    };
    // 5. Everything left on the market.
    let all = session.order_cancel_all(&CancelAllOrders::builder().market(MARKET).build()?)?;
    let canceled_all = matches!(all, SocketAnswer::Done);
    println!("canceled everything on {MARKET}: {canceled_all}");
    Ok(Tour {
        modified: (first, second),
        canceled_status,
        market_status: status(&bought),
        tpsl_triggers,
        canceled_all,
    })
}

/// The id of the order an answer holds.
fn order_id(answer: &SocketAnswer) -> Result<u64, Box<dyn Error>> {
    Ok(answer.orders().first().ok_or("no order in the answer")?.id)
}

/// The status of the (first) order an answer holds.
fn status(answer: &SocketAnswer) -> String {
    answer
        .orders()
        .first()
        .and_then(|o| o.status.as_ref())
        .map_or_else(String::new, |s| s.as_str().to_owned())
}

/// Prints each order of `answer`, one a line.
fn print_answer(indent: &str, answer: &SocketAnswer) {
    for order in answer.orders() {
        println!(
            "{indent}#{} {} {} status {} price {} amount {}",
            order.id,
            order.market.as_ref().map_or("-", |m| m.as_str()),
            order.side.map_or("-", |s| s.as_str()),
            order.status.as_ref().map_or("-", |s| s.as_str()),
            order
                .price
                .as_ref()
                .map_or_else(String::new, ToString::to_string),
            order
                .amount
                .as_ref()
                .map_or_else(String::new, ToString::to_string),
        );
    }
}

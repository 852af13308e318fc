//! The `limit_orders` example's tour against a sandbox of its own: the price rounded to the
//! market's step, a resting limit order filled when the price moves and seen by its event, a
//! position bracketed by an OCO pair, a modify answered with a new `orderId`, a bulk of quotes
//! placed exactly once.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::print_stdout
)]

#[path = "../examples/limit_orders.rs"]
mod limit_orders;

use txc_blocking::Client;
use txc_sandbox::{Sandbox, demo};

#[test]
fn the_tour_rests_fills_brackets_modifies_and_quotes() {
    let sandbox = Sandbox::start().unwrap();
    let credentials =
        txc_blocking::Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap();
    let client = Client::builder(credentials)
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    let tour = limit_orders::tour(&client, &sandbox).unwrap();
    assert_eq!(tour.rounded_price, "60000.12");
    assert!(tour.filled_by_event, "{tour:?}");
    assert_eq!((tour.oco_legs, tour.oco_listed), (2, 1));
    assert_ne!(tour.modified.0, tour.modified.1);
    assert_eq!(tour.quotes_placed, 3);
    // The sandbox agrees: the bracket's two legs and the quotes rest; the resting order filled.
    let open = sandbox
        .orders()
        .into_iter()
        .filter(|o| o.status.as_ref().is_some_and(|s| s.as_str() == "OPEN"))
        .count();
    assert_eq!(
        open,
        2 + 1 + 3,
        "two legs, the modified quote, three quotes"
    );
}

//! The `ws_trading` example's tour against a sandbox of its own: a limit order placed exactly
//! once over the WebSocket, modified into a new id, canceled; a position with a take-profit
//! and a stop-loss attached over the socket; everything canceled — and the sandbox's own
//! records agreeing.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::print_stdout)]

mod common;
#[path = "../examples/ws_trading.rs"]
mod ws_trading;

use common::config;
use txc_sandbox::{Sandbox, demo};

#[test]
fn the_tour_places_modifies_cancels_and_protects_over_the_socket() {
    let sandbox = Sandbox::start().unwrap();
    let partner = config::partner().base_url(sandbox.base_url());
    let client = txc_blocking::ClientBuilder::from(partner).build().unwrap();
    let tour = ws_trading::tour(&client).unwrap();
    assert_ne!(tour.modified.0, tour.modified.1, "{tour:?}");
    assert_eq!(tour.canceled_status, "CANCELED");
    assert_eq!(tour.market_status, "FILLED");
    assert_eq!(tour.tpsl_triggers, ("70000".to_owned(), "60000".to_owned()));
    assert!(tour.canceled_all);
    // The sandbox agrees: the position is open, nothing rests, the replacement canceled.
    let positions = sandbox.positions(demo::PARTNER_API_KEY);
    assert_eq!(positions.len(), 1);
    assert_eq!(positions[0].amount, "0.002");
    let records = sandbox.order_records();
    let replacement = records
        .iter()
        .find(|r| r["orderId"] == tour.modified.1)
        .unwrap();
    assert_eq!(replacement["status"], "CANCELED");
    assert!(
        records.iter().all(|r| r["status"] != "OPEN"),
        "nothing left open: {records:?}"
    );
}

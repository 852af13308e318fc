//! Closing the loop on every order, through both transports against the sandbox: the look-ups
//! and cancel, generated `clientOrderId`s, resolving each kind of unknown outcome, and placing
//! exactly once — checked against the sandbox's own order list.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

use std::time::Duration;

use crate::common::*;
use txc_core::Error;
use txc_core::machine::AttemptRecord;
use txc_core::resolve::{PendingOrder, PlacedOrder, Resolution};
use txc_sandbox::{Fault, Route, Sandbox};
use txc_sign::nonce::Nonce;
use txc_types::lookups::{LookupBuilder, OpenOrdersQuery, OrderHistoryQuery};
use txc_types::orders::{
    CancelOrder, Cancellation, CollateralTriggerMarketOrder, OrderStatus, Side,
};

fn trigger(client_order_id: &str) -> CollateralTriggerMarketOrder {
    // Far below the sandbox's price: it rests.
    CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Sell, "0.01", "30000")
        .client_order_id(client_order_id)
        .build()
        .unwrap()
}

/// `builder`'s query for BTC_USDT's orders with `client_order_id`.
fn on_btc_usdt<B: LookupBuilder>(builder: B, client_order_id: &str) -> B::Query {
    builder
        .market("BTC_USDT")
        .client_order_id(client_order_id)
        .build()
        .unwrap()
}

fn the_look_ups_find_open_and_finished_orders(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let resting = client.trigger(&trigger("look-up-1")).unwrap();
    let filled = client.market(&market("0.01")).unwrap();
    let generated = filled.client_order_id.clone().unwrap();
    assert!(generated.starts_with("txc-"), "{generated}");

    let all = client.open_orders(&OpenOrdersQuery::new()).unwrap();
    assert_eq!(
        all.iter().map(|o| o.order_id).collect::<Vec<_>>(),
        [resting.order_id]
    );
    let mine = on_btc_usdt(OpenOrdersQuery::builder(), "look-up-1");
    assert_eq!(
        client.open_orders(&mine).unwrap()[0].order_id,
        resting.order_id
    );
    let none = on_btc_usdt(OpenOrdersQuery::builder(), "nobody");
    assert!(client.open_orders(&none).unwrap().is_empty());

    let by_id = on_btc_usdt(OrderHistoryQuery::builder(), generated.as_str());
    let history = client.history(&by_id).unwrap();
    let found: Vec<_> = history.orders().collect();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].id, found[0].market.as_str()),
        (filled.order_id, "BTC_USDT")
    );
    assert_eq!(found[0].status, OrderStatus::Filled);
    // The exchange's 422 "OrderHistory was not found." is an empty history, not an error.
    let unknown = on_btc_usdt(OrderHistoryQuery::builder(), "nobody");
    assert!(client.history(&unknown).unwrap().is_empty());
}

fn cancel_by_either_id_and_not_found_is_an_outcome(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let first = client.trigger(&trigger("cancel-1")).unwrap();
    client.trigger(&trigger("cancel-2")).unwrap();

    let by_id = CancelOrder::by_order_id("BTC_USDT", first.order_id).unwrap();
    let Cancellation::Canceled(order) = client.cancel(&by_id).unwrap() else {
        panic!("not canceled")
    };
    assert_eq!(
        (order.order_id, order.status),
        (first.order_id, Some(OrderStatus::Canceled))
    );
    let by_client_id = CancelOrder::by_client_order_id("BTC_USDT", "cancel-2").unwrap();
    assert!(matches!(
        client.cancel(&by_client_id).unwrap(),
        Cancellation::Canceled(_)
    ));
    // Nothing open any more: both are "not found", a typed outcome.
    assert_eq!(client.cancel(&by_id).unwrap(), Cancellation::NotFound);
    assert_eq!(
        client.cancel(&by_client_id).unwrap(),
        Cancellation::NotFound
    );
    assert!(
        client
            .open_orders(&OpenOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    // The partner is a B2B account: its canceled orders are not in the history.
    let history = client
        .history(
            &OrderHistoryQuery::builder()
                .market("BTC_USDT")
                .build()
                .unwrap(),
        )
        .unwrap();
    assert_eq!(
        history
            .orders()
            .filter(|o| o.status == OrderStatus::Canceled)
            .count(),
        0
    );
}

fn a_cancel_whose_outcome_is_unknown_is_not_resent(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let resting = client.trigger(&trigger("cancel-lost")).unwrap();
    sandbox.inject_fault(Route::CancelOrder, Fault::DropAfterProcessing, Some(1));
    let requests = sandbox.stats().requests;
    let cancel = CancelOrder::by_order_id("BTC_USDT", resting.order_id).unwrap();
    let error = client.cancel(&cancel).unwrap_err();
    assert!(error.outcome_unknown() && !error.is_retryable(), "{error}");
    assert_eq!(sandbox.stats().requests, requests + 1, "not resent");
    // Asking again is safe: it was canceled.
    assert_eq!(client.cancel(&cancel).unwrap(), Cancellation::NotFound);
}

fn orders_carry_their_client_order_id_from_the_builder(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let (first, second) = (market("0.01"), market("0.01"));
    let (a, b) = (
        first.fields().client_order_id(),
        second.fields().client_order_id(),
    );
    assert!(a.starts_with("txc-") && b.starts_with("txc-"), "{a} {b}");
    assert_ne!(a, b);
    // What is sent is what the caller held before sending.
    assert_eq!(
        client.market(&first).unwrap().client_order_id.as_ref(),
        Some(a)
    );
    let own = client.trigger(&trigger("mine")).unwrap();
    assert_eq!(own.client_order_id.as_deref(), Some("mine"));
    // An unknown outcome carries the same id.
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    let error = client.market(&second).unwrap_err();
    assert_eq!(error.pending_order().unwrap().client_order_id(), b);
    assert!(matches!(
        client.resolve(error.pending_order().unwrap()).unwrap(),
        Resolution::Placed(_)
    ));
}

/// Places a market order through `fault`, resolves the unknown outcome, and returns the
/// resolution with the number of orders the sandbox holds.
fn resolve_after(driver: &dyn Driver, fault: Fault, setup: ClientConfig) -> (Resolution, usize) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), setup);
    sandbox.inject_fault(Route::CollateralMarket, fault, Some(1));
    let error = client.market(&market("0.01")).unwrap_err();
    assert!(matches!(error, Error::OutcomeUnknown(_)), "{error:?}");
    let resolution = client.resolve(error.pending_order().unwrap()).unwrap();
    (resolution, sandbox.orders().len())
}

fn each_unknown_outcome_resolves_to_what_happened(driver: &dyn Driver) {
    let gateway_503 = || Fault::AnswerAfterProcessing {
        status: 503,
        content_type: String::new(),
        body: Vec::new(),
    };
    // Executed, then the connection dropped before any answer: placed (filled: history).
    let (resolution, orders) = resolve_after(driver, Fault::DropAfterProcessing, config::partner());
    assert!(
        matches!(&resolution, Resolution::Placed(p) if matches!(p.record, PlacedOrder::Finished(_))),
        "{resolution:?}"
    );
    assert_eq!(orders, 1);
    // Executed, then a gateway's 503: placed.
    let (resolution, orders) = resolve_after(driver, gateway_503(), config::partner());
    assert!(
        matches!(resolution, Resolution::Placed(_)),
        "{resolution:?}"
    );
    assert_eq!(orders, 1);
    // A 503 without executing: not placed.
    let (resolution, orders) = resolve_after(driver, Fault::Unavailable, config::partner());
    assert!(
        matches!(resolution, Resolution::NotPlaced(_)),
        "{resolution:?}"
    );
    assert_eq!(orders, 0);
    // The connection reset mid-response after executing: placed.
    let (resolution, _) = resolve_after(driver, Fault::ResetMidBody, config::partner());
    assert!(
        matches!(resolution, Resolution::Placed(_)),
        "{resolution:?}"
    );
}

fn a_resting_trigger_order_is_found_among_the_open_orders(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let error = client.trigger(&trigger("lost-trigger")).unwrap_err();
    let resolution = client.resolve(error.pending_order().unwrap()).unwrap();
    let Resolution::Placed(placed) = resolution else {
        panic!("{resolution:?}")
    };
    let PlacedOrder::Open(order) = placed.record else {
        panic!("{placed:?}")
    };
    assert_eq!(order.client_order_id.as_deref(), Some("lost-trigger"));
}

fn the_settling_delay_covers_an_order_that_shows_up_late(driver: &dyn Driver) {
    // The order stays out of the look-ups for 1 s after it was placed; resolving's rounds are
    // 1.5 s apart.
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(
        sandbox.base_url(),
        config::partner().unproven_settle_delay(Duration::from_millis(1_500)),
    );
    sandbox.inject_fault(
        Route::CollateralMarket,
        Fault::VisibleAfter(Duration::from_secs(1)),
        Some(1),
    );
    let signed_at = std::time::SystemTime::now();
    let placed = client.market(&market("0.01")).unwrap();
    // As if its response had been lost: what an unknown outcome would carry.
    let pending = PendingOrder::new(
        placed.market.parse().unwrap(),
        placed.client_order_id.as_deref().unwrap().parse().unwrap(),
        vec![AttemptRecord {
            nonce: Nonce(txc_sign::nonce::unix_millis(signed_at)),
            signed_at,
        }],
    );
    let Resolution::Placed(found) = client.resolve(&pending).unwrap() else {
        panic!("not found")
    };
    assert_eq!(found.order_id(), placed.order_id);
}

fn a_failing_look_up_is_still_unknown(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(
        sandbox.base_url(),
        config::partner().retry_policy(txc_core::pacing::RetryPolicy::disabled()),
    );
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    let error = client.market(&market("0.01")).unwrap_err();
    sandbox.inject_fault(Route::OrderHistory, Fault::Unavailable, None);
    let still = client.resolve(error.pending_order().unwrap()).unwrap_err();
    assert!(still.outcome_unknown(), "{still}");
    assert_eq!(still.status(), Some(503));
    sandbox.clear_faults();
    assert!(matches!(
        client.resolve(error.pending_order().unwrap()).unwrap(),
        Resolution::Placed(_)
    ));
}

/// `place_once` with `faults` on its first placement each (a fresh sandbox each): one order,
/// and the one the answer names.
fn placed_once_despite(driver: &dyn Driver, faults: &[Option<Fault>]) {
    for fault in faults {
        let sandbox = Sandbox::start().unwrap();
        let client = driver.client(sandbox.base_url(), config::partner());
        if let Some(fault) = fault {
            sandbox.inject_fault(Route::CollateralMarket, fault.clone(), Some(1));
        }
        let placed = client.place_once(&market("0.01")).unwrap();
        let orders = sandbox.orders();
        assert_eq!(orders.len(), 1, "{fault:?}: {orders:?}");
        assert_eq!(placed.order_id(), orders[0].order_id, "{fault:?}");
    }
}

/// Answered, or executed with the answer lost or failed: found, never placed again.
fn placing_exactly_once_never_makes_two_orders(driver: &dyn Driver) {
    placed_once_despite(
        driver,
        &[
            None,
            Some(Fault::DropAfterProcessing),
            Some(Fault::ResetMidBody),
            Some(Fault::AnswerAfterProcessing {
                status: 502,
                content_type: "text/html".to_owned(),
                body: b"<html>bad gateway</html>".to_vec(),
            }),
        ],
    );
}

/// Refused by a 503 before executing: proven absent (which waits out the acceptance window),
/// then placed once. (A case of its own: the tests wait on the clock and run side by side.)
fn a_503_before_executing_is_placed_once_when_proven_absent(driver: &dyn Driver) {
    placed_once_despite(driver, &[Some(Fault::Unavailable)]);
}

/// A gateway's HTML 502 before executing: the same.
fn an_html_bad_gateway_is_placed_once_when_proven_absent(driver: &dyn Driver) {
    placed_once_despite(driver, &[Some(Fault::HtmlBadGateway)]);
}

/// Refused every time: not placed, after the most placements, and nothing on the exchange;
/// then a trigger order whose answer is lost is found open.
fn refused_every_time_is_not_placed_and_a_lost_trigger_is_found(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner().max_placements(2));
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, None);
    let error = client.place_once(&market("0.01")).unwrap_err();
    assert!(matches!(error, Error::NotPlaced(_)), "{error}");
    assert_eq!(error.pending_order().unwrap().attempts().len(), 2);
    assert!(sandbox.orders().is_empty());
    // Trigger orders too.
    sandbox.clear_faults();
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let placed = client.place_trigger_once(&trigger("once")).unwrap();
    assert!(matches!(placed.record, PlacedOrder::Open(_)), "{placed:?}");
    assert_eq!(sandbox.orders().len(), 1);
}

scenarios![
    the_look_ups_find_open_and_finished_orders,
    cancel_by_either_id_and_not_found_is_an_outcome,
    a_cancel_whose_outcome_is_unknown_is_not_resent,
    orders_carry_their_client_order_id_from_the_builder,
    each_unknown_outcome_resolves_to_what_happened,
    a_resting_trigger_order_is_found_among_the_open_orders,
    the_settling_delay_covers_an_order_that_shows_up_late,
    a_failing_look_up_is_still_unknown,
    placing_exactly_once_never_makes_two_orders,
    a_503_before_executing_is_placed_once_when_proven_absent,
    an_html_bad_gateway_is_placed_once_when_proven_absent,
    refused_every_time_is_not_placed_and_a_lost_trigger_is_found,
];

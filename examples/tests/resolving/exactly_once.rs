//! The six ways issue 28 found exactly-once broken, each reproduced against the sandbox with
//! conditions the exchange's spec allows, through both transports — and the B2B cancel gap.
//! Each case ends with the one order it should on the sandbox and a true answer; each runs once
//! per transport (`blocking::…`, `asynchronous::…`).
//!
//! The clients use `unproven_settle_delay` (the sandbox shares this host's clock): each case's
//! lag is set against it, as a real exchange's lag is against `settle_delay`.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

use std::time::{Duration, SystemTime};

use crate::common::*;
use txc_core::Error;
use txc_core::machine::AttemptRecord;
use txc_core::resolve::{PendingOrder, PlacedOrder, Resolution};
use txc_sandbox::{AccountConfig, Fault, Route, Sandbox};
use txc_sign::nonce::Nonce;
use txc_types::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, Side,
};

/// A 503 from a gateway, after the order was placed.
fn gateway_503() -> Fault {
    Fault::AnswerAfterProcessing {
        status: 503,
        content_type: String::new(),
        body: Vec::new(),
    }
}

/// A resting trigger order with a stop-loss (an OTO group).
fn oto_trigger(id: &str) -> CollateralTriggerMarketOrder {
    CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "90000")
        .client_order_id(id)
        .stop_loss("50000")
        .build()
        .unwrap()
}

/// The next trigger order is placed and answered with a gateway's 503, and the look-ups see
/// the exchange 60 s late for their next `looks` answers (`None`: for good).
fn trigger_lost_behind_lagging_lookups(sandbox: &Sandbox, looks: Option<u32>) {
    sandbox.inject_fault(Route::CollateralTriggerMarket, gateway_503(), Some(1));
    for route in [
        Route::OpenOrders,
        Route::OrderHistory,
        Route::ConditionalOrders,
    ] {
        sandbox.inject_fault(route, Fault::Lagging(Duration::from_secs(60)), looks);
    }
}

/// 1. The history lags: the order executed, its answer was lost, and the look-ups show it
///    1.5 s late. The first look misses it; the rounds spaced by the 2 s settling delay find
///    it — never sent again.
fn a_lagging_history_does_not_double_a_market_order(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(
        sandbox.base_url(),
        config::partner().unproven_settle_delay(Duration::from_secs(2)),
    );
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    for route in [Route::OpenOrders, Route::OrderHistory] {
        sandbox.inject_fault(route, Fault::Lagging(Duration::from_millis(1_500)), Some(1));
    }
    let placed = client.place_once(&market_with_id("lag-1")).unwrap();
    assert_eq!(held(&sandbox, "lag-1"), [placed.order_id()], "one order");
    assert!(matches!(placed.record, PlacedOrder::Finished(_)));
    let (look, seen) = placed.evidence.found().unwrap();
    assert_eq!(look.operation, "order_history");
    assert!(seen.ours);
    assert!(
        placed.evidence.rounds.len() >= 2,
        "the first look missed it"
    );
}

/// 2. A resting trigger order seen late — later than the settling delay covers: absence is
///    "proven", the resend meets code 36, which is evidence the first attempt rests on the
///    book: resolving again finds it. Never "rejected".
fn a_resend_refused_with_code_36_finds_the_resting_order(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    // The first three rounds (probe and the two proofs) see nothing; the resend is refused.
    trigger_lost_behind_lagging_lookups(&sandbox, Some(3));
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "90000")
        .client_order_id("late-36")
        .build()
        .unwrap();
    let placed = client.place_trigger_once(&trigger).unwrap();
    assert_eq!(held(&sandbox, "late-36"), [placed.order_id()], "one order");
    assert!(matches!(placed.record, PlacedOrder::Open(_)), "{placed:?}");
    let stats = sandbox.stats();
    assert_eq!(
        stats.rejections_by_code.get(&36),
        Some(&1),
        "the resend met code 36"
    );
}

/// 3. A reused id: an order with the id filled seconds before (another process's); this one
///    refused with a 503 before executing. The old order is outside this one's window: not
///    taken for it. The history is read in full, absence proven, the order sent again.
fn a_reused_id_is_not_taken_for_this_order(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let elsewhere = driver.client(sandbox.base_url(), config::partner());
    let earlier = elsewhere.market(&market_with_id("reused-1")).unwrap();
    // Past the creation allowance of the measured clock (its `Date` has one-second steps).
    std::thread::sleep(Duration::from_millis(2_500));
    let client = driver.client(sandbox.base_url(), config::partner());
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, Some(1));
    let placed = client.place_once(&market_with_id("reused-1")).unwrap();
    assert!(
        matches!(placed.record, PlacedOrder::Answered(_)),
        "{placed:?}"
    );
    assert_ne!(placed.order_id(), earlier.order_id);
    assert_eq!(
        held(&sandbox, "reused-1"),
        [earlier.order_id, placed.order_id()]
    );
}

/// 3, open: an order of someone else still open under the id is not this one either.
fn an_open_order_reusing_the_id_is_not_this_one(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let elsewhere = driver.client(sandbox.base_url(), config::partner());
    let client = driver.client(sandbox.base_url(), config::partner());
    let resting = elsewhere.trigger(&oto_trigger("reused-2")).unwrap();
    std::thread::sleep(Duration::from_millis(2_500));
    let now = SystemTime::now();
    let never_sent = PendingOrder::new(
        "BTC_USDT".parse().unwrap(),
        "reused-2".parse().unwrap(),
        vec![AttemptRecord {
            nonce: Nonce(txc_sign::nonce::unix_millis(now)),
            signed_at: now,
        }],
    );
    let resolution = client.resolve(&never_sent).unwrap();
    assert!(
        matches!(resolution, Resolution::NotPlaced(_)),
        "{resolution:?}"
    );
    let seen = &resolution.evidence().rounds[0].looks[0].seen;
    assert_eq!(
        seen.iter()
            .map(|s| (s.id.as_str(), s.ours))
            .collect::<Vec<_>>(),
        [(resting.order_id.to_string().as_str(), false)]
    );
}

/// 4. The host's clock 90 s ahead of the exchange's, nonces corrected by `sync_clock`: the
///    client's own order, its answer lost, is found — its window is the nonce's, on the
///    exchange's clock.
fn a_host_clock_ahead_still_finds_its_own_order(driver: &dyn Driver) {
    // A key of its own: correcting the nonce clock corrects it for every client of the key in
    // the process, and the other cases' keys must keep the host's clock.
    let (key, secret) = match driver.name() {
        "blocking" => ("drift-blocking-key", "drift-blocking-secret"),
        _ => ("drift-async-key", "drift-async-secret"),
    };
    let sandbox = Sandbox::builder()
        .clock_offset_ms(-90_000)
        .account(AccountConfig::new(key, secret).balance("USDT", "10000"))
        .start()
        .unwrap();
    let client = driver.client(sandbox.base_url(), config::key(key, secret));
    client.sync_clock().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let placed = client.place_once(&market_with_id("drift-1")).unwrap();
    assert_eq!(held(&sandbox, "drift-1"), [placed.order_id()]);
    assert!(!matches!(placed.record, PlacedOrder::Answered(_)));
    let clock = placed.evidence.clock.unwrap();
    assert!(clock.hi().as_millis() < -88_000, "{clock:?}");
}

/// 5. The id before the first byte: the caller holds it when the order is built; a caller
///    that gives up waiting (a dropped future, a thread left behind) leaves the order's record
///    with the client — id and nonce — and resolving it finds the one order.
fn the_id_and_the_record_exist_before_the_answer(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();
    let id = order.fields().client_order_id().clone();
    assert!(id.starts_with("txc-"));
    sandbox.inject_fault(
        Route::CollateralMarket,
        Fault::Delay(Duration::from_secs(2)),
        Some(1),
    );
    client.market_abandoned_after(&order, Duration::from_millis(300));
    let pending = client.pending_orders();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].client_order_id(), &id);
    assert_eq!(pending[0].attempts().len(), 1);
    eventually("the delayed order placed", || sandbox.orders().len() == 1);
    let Resolution::Placed(placed) = client.resolve(&pending[0]).unwrap() else {
        panic!("not found")
    };
    assert_eq!(held(&sandbox, id.as_str()), [placed.order_id()]);
    assert!(
        client.pending_orders().is_empty(),
        "a definite answer clears it"
    );
}

/// 6. A trigger order with a stop-loss makes an OTO group, which this exchange lists only
///    among the conditional orders: resolving reads them too, and finds it.
fn an_oto_trigger_order_is_found_among_the_conditional_orders(driver: &dyn Driver) {
    let sandbox = Sandbox::builder()
        .oto_orders_in_open_orders(false)
        .start()
        .unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let placed = client.place_trigger_once(&oto_trigger("oto-1")).unwrap();
    assert_eq!(held(&sandbox, "oto-1"), [placed.order_id()]);
    let (look, _) = placed.evidence.found().unwrap();
    assert_eq!(look.operation, "conditional_orders");
}

/// The B2B gap: the partner's canceled orders never reach the history. A trigger order placed
/// (its answer lost) and canceled before resolving is invisible: resolving cannot tell, and
/// `place_once` of an order that was never placed does not resend unless told to.
fn a_b2b_account_s_absence_cannot_tell(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner().b2b_account(true));
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let error = client.trigger(&oto_trigger("b2b-1")).unwrap_err();
    let cancel = CancelOrder::by_client_order_id("BTC_USDT", "b2b-1").unwrap();
    assert!(matches!(
        client.cancel(&cancel).unwrap(),
        Cancellation::Canceled(_)
    ));
    let resolution = client.resolve(error.pending_order().unwrap()).unwrap();
    assert!(
        matches!(resolution, Resolution::CannotTell(_)),
        "{resolution:?}"
    );
    assert_eq!(held(&sandbox, "b2b-1").len(), 1, "placed (then canceled)");
}

/// The B2B gap, for `place_once`: an order refused before executing is not resent, since its
/// absence cannot tell ...
fn a_b2b_account_s_order_is_not_resent_on_absence(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner().b2b_account(true));
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, Some(1));
    let error = client.place_once(&market_with_id("b2b-2")).unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    assert!(held(&sandbox, "b2b-2").is_empty(), "not resent");
}

/// ... unless the client is told to resend anyway.
fn a_b2b_account_s_order_is_resent_when_told(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let resend = driver.client(
        sandbox.base_url(),
        config::partner()
            .b2b_account(true)
            .resend_when_cancels_are_invisible(true),
    );
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, Some(1));
    let placed = resend.place_once(&market_with_id("b2b-3")).unwrap();
    assert_eq!(
        held(&sandbox, "b2b-3"),
        [placed.order_id()],
        "resent when told to"
    );
}

/// An error that is not an unknown outcome would be "rejected" to a caller: none of the cases
/// ends so.
fn no_case_reports_a_placed_order_as_rejected(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    // Lagging beyond every round, the resend's 36 included.
    trigger_lost_behind_lagging_lookups(&sandbox, None);
    let trigger = oto_trigger("never-rejected");
    match client.place_trigger_once(&trigger) {
        Ok(placed) => assert_eq!(held(&sandbox, "never-rejected"), [placed.order_id()]),
        Err(error) => {
            assert!(
                error.outcome_unknown(),
                "a placed order reported as {error}"
            );
            assert!(matches!(error, Error::OutcomeUnknown(_)));
            assert_eq!(held(&sandbox, "never-rejected").len(), 1);
        }
    }
}

// Each case is a test of its own, per transport: they wait on the exchange's clock, not the
// CPU, and run side by side.
scenarios![
    a_lagging_history_does_not_double_a_market_order,
    a_resend_refused_with_code_36_finds_the_resting_order,
    a_reused_id_is_not_taken_for_this_order,
    a_host_clock_ahead_still_finds_its_own_order,
    the_id_and_the_record_exist_before_the_answer,
    an_oto_trigger_order_is_found_among_the_conditional_orders,
    an_open_order_reusing_the_id_is_not_this_one,
    a_b2b_account_s_absence_cannot_tell,
    a_b2b_account_s_order_is_not_resent_on_absence,
    a_b2b_account_s_order_is_resent_when_told,
    no_case_reports_a_placed_order_as_rejected,
];

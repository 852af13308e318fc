//! Issue 37's exactly-once cases, against the sandbox's faults on the new routes, through both
//! transports: limit and stop-limit orders through `place_once`; a bulk order whose answer is
//! lost after some items were placed and some refused (`place_bulk_once` resends only what is
//! proven not placed); an OCO pair resolved from `/oco-orders`; a modify resolved by reading
//! the order, never resent blindly; cancels whose "not found" after a lost answer is evidence.
//! Each ends with the orders it should on the sandbox and a true answer.

use crate::common::trading::{TradingApi, TradingDriver};
use crate::common::{config, held};
use txc_core::Error;
use txc_core::resolve::{
    BulkItem, CancelOutcome, ModifyResolution, PlacedOco, PlacedOrder, Resolution,
};
use txc_sandbox::{Fault, Route, Sandbox};
use txc_types::orders::{
    CancelOcoOrder, CancelOrder, CollateralBulkOrder, CollateralLimitOrder, CollateralOcoOrder,
    CollateralStopLimitOrder, ModifyOrder, OcoOrdersQuery, Side,
};

scenarios!(
    a_limit_order_whose_answer_is_lost_is_found_resting_not_resent,
    a_stop_limit_order_refused_unprocessed_is_sent_again_once,
    a_lost_bulk_answer_resends_only_the_items_proven_not_placed,
    a_plain_bulk_s_lost_answer_keeps_every_item_unresolved,
    an_oco_pair_whose_answer_is_lost_is_found_among_the_active_pairs,
    an_oco_pair_not_processed_is_placed_once,
    an_oco_pair_whose_leg_executed_at_once_is_found_by_the_leg,
    a_lost_modify_is_resolved_by_reading_the_order,
    a_modify_not_processed_is_found_unchanged_and_sent_again,
    a_cancel_whose_answer_is_lost_is_settled_by_not_found,
);

fn client(driver: &dyn TradingDriver, sandbox: &Sandbox) -> Box<dyn TradingApi> {
    driver.trading(sandbox.base_url(), config::partner())
}

fn resting(id: &str, price: &str) -> CollateralLimitOrder {
    CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", price)
        .client_order_id(id)
        .build()
        .unwrap()
}

fn a_limit_order_whose_answer_is_lost_is_found_resting_not_resent(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    sandbox.inject_fault(Route::CollateralLimit, Fault::DropAfterProcessing, Some(1));
    let placed = client.limit_once(&resting("lim-once", "60000")).unwrap();
    assert_eq!(held(&sandbox, "lim-once"), [placed.order_id()], "one order");
    assert!(matches!(placed.record, PlacedOrder::Open(_)), "{placed:?}");
    // A plain placement's lost answer is unknown, never resent; resolving finds it.
    sandbox.inject_fault(Route::CollateralLimit, Fault::DropAfterProcessing, Some(1));
    let error = client.limit(&resting("lim-plain", "60000")).unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    let pending = error.pending_order().unwrap().clone();
    let found = client.resolve(&pending).unwrap();
    let Resolution::Placed(found) = found else {
        panic!("{found:?}");
    };
    assert_eq!(held(&sandbox, "lim-plain"), [found.order_id()]);
}

fn a_stop_limit_order_refused_unprocessed_is_sent_again_once(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    sandbox.inject_fault(Route::CollateralStopLimit, Fault::Unavailable, Some(1));
    let stop = CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900", "60000")
        .client_order_id("stop-once")
        .build()
        .unwrap();
    let placed = client.stop_limit_once(&stop).unwrap();
    assert!(
        matches!(placed.record, PlacedOrder::Answered(_)),
        "{placed:?}"
    );
    assert_eq!(
        held(&sandbox, "stop-once"),
        [placed.order_id()],
        "one order"
    );
    // Lost after processing: found, not sent again.
    sandbox.inject_fault(
        Route::CollateralStopLimit,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let stop = CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900", "60000")
        .client_order_id("stop-lost")
        .build()
        .unwrap();
    let placed = client.stop_limit_once(&stop).unwrap();
    assert!(
        !matches!(placed.record, PlacedOrder::Answered(_)),
        "{placed:?}"
    );
    assert_eq!(
        held(&sandbox, "stop-lost"),
        [placed.order_id()],
        "one order"
    );
}

/// Three quotes, the middle one post-only at a price that would take: the sandbox places the
/// outer two and refuses the middle one.
fn quotes(prefix: &str) -> CollateralBulkOrder {
    let middle = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "66000")
        .client_order_id(format!("{prefix}-1"))
        .post_only(true)
        .build()
        .unwrap();
    CollateralBulkOrder::new(vec![
        resting(&format!("{prefix}-0"), "60000"),
        middle,
        resting(&format!("{prefix}-2"), "61000"),
    ])
    .unwrap()
}

fn a_lost_bulk_answer_resends_only_the_items_proven_not_placed(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    // Processed — two placed, one refused — and the answer lost.
    sandbox.inject_fault(Route::CollateralBulk, Fault::DropAfterProcessing, Some(1));
    let placed = client.bulk_once(&quotes("q")).unwrap();
    assert_eq!(placed.items.len(), 3);
    for index in [0, 2] {
        let item = placed.items[index]
            .placed()
            .unwrap_or_else(|| panic!("{placed:?}"));
        assert!(matches!(item.record, PlacedOrder::Open(_)), "{item:?}");
        assert_eq!(
            held(&sandbox, &format!("q-{index}")),
            [item.order_id()],
            "found, never sent again"
        );
    }
    // The refused item was proven absent and sent again alone; refused again, its resend says
    // nothing of the lost attempt: unknown, never "not placed" — and nothing of it exists.
    assert!(placed.items[1].is_unknown(), "{:?}", placed.items[1]);
    assert!(held(&sandbox, "q-1").is_empty());
    let (index, unknown) = placed.unknown().next().unwrap();
    assert_eq!(index, 1);
    assert_eq!(unknown.order.attempts().len(), 2, "sent twice: {unknown:?}");
    assert!(unknown.to_string().contains("refused"), "{unknown}");
    // Not processed at all: every item proven absent, the bulk sent again once.
    sandbox.inject_fault(Route::CollateralBulk, Fault::Unavailable, Some(1));
    let placed = client.bulk_once(&quotes("u")).unwrap();
    assert!(placed.items[0].placed().is_some() && placed.items[2].placed().is_some());
    for id in ["u-0", "u-2"] {
        assert_eq!(held(&sandbox, id).len(), 1, "{id}: one order");
    }
    // With every answer there, each item's own: placed, or refused at its first placement.
    let placed = client.bulk_once(&quotes("a")).unwrap();
    assert!(
        matches!(placed.items[1], BulkItem::Refused(_)),
        "{placed:?}"
    );
    assert!(placed.unknown().next().is_none());
}

fn a_plain_bulk_s_lost_answer_keeps_every_item_unresolved(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    sandbox.inject_fault(Route::CollateralBulk, Fault::DropAfterProcessing, Some(1));
    let error = client.bulk(&quotes("p")).unwrap_err();
    assert!(matches!(error, Error::BulkUnknown(_)), "{error}");
    assert!(error.outcome_unknown() && !error.is_retryable());
    let items = error.pending_bulk().unwrap().to_vec();
    assert_eq!(items.len(), 3);
    assert_eq!(client.pending_orders().len(), 3, "every item unresolved");
    // Each resolves on its own: the outer two placed, the middle one not.
    let verdicts: Vec<bool> = items
        .iter()
        .map(|item| matches!(client.resolve(item).unwrap(), Resolution::Placed(_)))
        .collect();
    assert_eq!(verdicts, [true, false, true]);
    assert!(client.pending_orders().is_empty());
}

fn bracket(id: &str) -> CollateralOcoOrder {
    CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "60000", "70000", "70100")
        .client_order_id(id)
        .build()
        .unwrap()
}

fn an_oco_pair_whose_answer_is_lost_is_found_among_the_active_pairs(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    sandbox.inject_fault(Route::CollateralOco, Fault::DropAfterProcessing, Some(1));
    let placed = client.oco_once(&bracket("oco-lost")).unwrap();
    assert!(matches!(placed.record, PlacedOco::Listed(_)), "{placed:?}");
    let listed = client.oco_orders(&OcoOrdersQuery::new()).unwrap();
    assert_eq!(listed.len(), 1, "one pair");
    assert_eq!(Some(listed[0].id), placed.pair_id());
    assert_eq!(held(&sandbox, "oco-lost").len(), 2, "its two legs, once");
    // A plain placement's lost answer: unknown; resolve_oco finds it.
    sandbox.inject_fault(Route::CollateralOco, Fault::DropAfterProcessing, Some(1));
    let error = client.oco(&bracket("oco-plain")).unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    let found = client.resolve_oco(error.pending_order().unwrap()).unwrap();
    assert!(matches!(found, Resolution::Placed(_)), "{found:?}");
    assert_eq!(held(&sandbox, "oco-plain").len(), 2);
}

fn an_oco_pair_not_processed_is_placed_once(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    sandbox.inject_fault(Route::CollateralOco, Fault::Unavailable, Some(1));
    let placed = client.oco_once(&bracket("oco-503")).unwrap();
    assert!(
        matches!(placed.record, PlacedOco::Answered(_)),
        "{placed:?}"
    );
    assert_eq!(held(&sandbox, "oco-503").len(), 2, "one pair");
}

fn an_oco_pair_whose_leg_executed_at_once_is_found_by_the_leg(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    // A buy pair whose take-profit price (66000) is above the market (65000): that leg executes
    // when placed and the stop-loss leg is canceled, so the pair is never listed.
    let pair =
        CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "66000", "70000", "70100")
            .client_order_id("oco-leg")
            .build()
            .unwrap();
    sandbox.inject_fault(Route::CollateralOco, Fault::DropAfterProcessing, Some(1));
    let placed = client.oco_once(&pair).unwrap();
    assert!(matches!(placed.record, PlacedOco::Leg(_)), "{placed:?}");
    assert!(
        client
            .oco_orders(&OcoOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        held(&sandbox, "oco-leg").len(),
        2,
        "one pair, never sent again"
    );
}

fn a_lost_modify_is_resolved_by_reading_the_order(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let original = client.limit(&resting("mod-lost", "60000")).unwrap();
    let modify = ModifyOrder::by_client_order_id("BTC_USDT", "mod-lost")
        .price("60500")
        .build()
        .unwrap();
    sandbox.inject_fault(Route::ModifyOrder, Fault::DropAfterProcessing, Some(1));
    let error = client.modify(&modify).unwrap_err();
    assert!(matches!(error, Error::ModifyUnknown(_)), "{error}");
    let pending = error.pending_modify().unwrap().clone();
    let unresolved = client.pending_modifies();
    assert_eq!(unresolved.len(), 1);
    assert_eq!(unresolved[0].attempts(), pending.attempts());
    // Never resent blindly: a modify of the same order is refused before any I/O.
    let before = sandbox.stats().requests;
    let again = client.modify(&modify).unwrap_err();
    assert!(matches!(again, Error::ResolveFirst(_)), "{again}");
    assert_eq!(sandbox.stats().requests, before, "nothing sent");
    // Resolving reads the order by its clientOrderId: replaced, with the request's price.
    let resolution = client.resolve_modify(&pending).unwrap();
    let ModifyResolution::Replaced(replaced) = &resolution else {
        panic!("{resolution:?}");
    };
    assert_ne!(replaced.order_id(), original.order_id);
    assert!(client.pending_modifies().is_empty());
    assert_eq!(sandbox.stats().modified_orders, 1, "modified once");
    // modify_once does the same in one call.
    sandbox.inject_fault(Route::ModifyOrder, Fault::DropAfterProcessing, Some(1));
    let modify = ModifyOrder::by_client_order_id("BTC_USDT", "mod-lost")
        .price("60700")
        .build()
        .unwrap();
    let resolution = client.modify_once(&modify).unwrap();
    assert!(resolution.new_order_id().is_some(), "{resolution:?}");
    assert_eq!(sandbox.stats().modified_orders, 2, "modified once more");
    let open = client
        .open_orders(&txc_types::lookups::OpenOrdersQuery::new())
        .unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].price.as_ref().map(|p| p.as_str()), Some("60700"));
}

fn a_modify_not_processed_is_found_unchanged_and_sent_again(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    client.limit(&resting("mod-503", "60000")).unwrap();
    let modify = ModifyOrder::by_client_order_id("BTC_USDT", "mod-503")
        .price("60500")
        .build()
        .unwrap();
    sandbox.inject_fault(Route::ModifyOrder, Fault::Unavailable, Some(1));
    let resolution = client.modify_once(&modify).unwrap();
    assert!(resolution.new_order_id().is_some(), "{resolution:?}");
    assert_eq!(sandbox.stats().modified_orders, 1, "once");
    // The order filled meanwhile: gone, never modified.
    let filler = resting("mod-gone", "60000");
    client.limit(&filler).unwrap();
    sandbox.inject_fault(Route::ModifyOrder, Fault::Unavailable, Some(1));
    sandbox.set_price("BTC_USDT", "59000").unwrap();
    let modify = ModifyOrder::by_client_order_id("BTC_USDT", "mod-gone")
        .price("60500")
        .build()
        .unwrap();
    let outcome = client.modify_once(&modify);
    assert!(
        matches!(outcome, Ok(ModifyResolution::Gone { .. })),
        "{outcome:?}"
    );
    assert_eq!(sandbox.stats().modified_orders, 1);
}

fn a_cancel_whose_answer_is_lost_is_settled_by_not_found(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let order = client.limit(&resting("cancel-lost", "60000")).unwrap();
    sandbox.inject_fault(Route::CancelOrder, Fault::DropAfterProcessing, Some(1));
    let outcome = client
        .cancel_order_once(&CancelOrder::by_order_id("BTC_USDT", order.order_id).unwrap())
        .unwrap();
    assert_eq!(outcome, CancelOutcome::Gone { lost: 1 });
    assert!(
        client
            .open_orders(&txc_types::lookups::OpenOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    // An OCO pair: the same.
    let pair = client.oco(&bracket("cancel-oco")).unwrap();
    sandbox.inject_fault(Route::CancelOco, Fault::DropAfterProcessing, Some(1));
    let outcome = client
        .cancel_oco_once(&CancelOcoOrder::by_order_id("BTC_USDT", pair.id).unwrap())
        .unwrap();
    assert_eq!(outcome, CancelOutcome::Gone { lost: 1 });
    // Not processed: asked again, canceled by this call.
    let pair = client.oco(&bracket("cancel-oco-2")).unwrap();
    sandbox.inject_fault(Route::CancelOco, Fault::Unavailable, Some(1));
    let outcome = client
        .cancel_oco_once(&CancelOcoOrder::by_order_id("BTC_USDT", pair.id).unwrap())
        .unwrap();
    assert!(
        outcome.canceled().is_some_and(|p| p.id == pair.id),
        "{outcome:?}"
    );
    // Nothing active at the first attempt: not found, no guess.
    let outcome = client
        .cancel_oco_once(&CancelOcoOrder::by_order_id("BTC_USDT", pair.id).unwrap())
        .unwrap();
    assert_eq!(outcome, CancelOutcome::NotFound);
    assert!(
        client
            .oco_orders(&OcoOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
}

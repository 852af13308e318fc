//! Faults on the routes of limit, stop-limit, bulk and OCO orders, modify and the conditional
//! cancels, over real HTTP: a 5xx without processing changes nothing; a 5xx after processing
//! and a lost answer (the connection dropped) leave the effect in place; a placed order can
//! stay out of the look-ups for a while; the OCO listing can lag. What an exactly-once client
//! must resolve.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::*;
use serde_json::Value;
use txc_sandbox::{Fault, Route, Sandbox};

/// A gateway's 503 after the exchange did the work.
fn after() -> Fault {
    Fault::AnswerAfterProcessing {
        status: 503,
        content_type: String::new(),
        body: Vec::new(),
    }
}

/// A resting OCO of the partner, `oco-1`.
fn oco(sandbox: &Sandbox) -> Value {
    bracket(sandbox, "BTC_USDT", "oco-1").json()
}

/// A request to one of the new routes and what it changes, seen through the handle.
struct Case {
    route: Route,
    /// Prepares the sandbox; the fields of the request.
    request: fn(&Sandbox) -> (Endpoint, String),
    /// The number that the request, once processed, changes.
    effect: fn(&Sandbox) -> usize,
}

fn open_orders(sandbox: &Sandbox) -> usize {
    sandbox
        .order_records()
        .iter()
        .filter(|o| o["status"] == "OPEN")
        .count()
}

fn records(sandbox: &Sandbox) -> usize {
    sandbox.order_records().len()
}

const CASES: [Case; 8] = [
    Case {
        route: Route::CollateralLimit,
        request: |_| (LIMIT, limit_fields("BTC_USDT", "buy", "0.01", "64000")),
        effect: records,
    },
    Case {
        route: Route::CollateralStopLimit,
        request: |_| {
            (
                STOP_LIMIT,
                format!(
                    r#"{},"activation_price":"66000""#,
                    limit_fields("BTC_USDT", "buy", "0.01", "66100")
                ),
            )
        },
        effect: records,
    },
    Case {
        route: Route::CollateralBulk,
        request: |_| {
            (
                BULK,
                format!(
                    r#""orders":[{{{}}},{{{}}}]"#,
                    limit_fields("BTC_USDT", "buy", "0.01", "64000"),
                    limit_fields("BTC_USDT", "buy", "0.01", "63000")
                ),
            )
        },
        effect: records,
    },
    Case {
        route: Route::CollateralOco,
        request: |_| {
            (
                OCO,
                oco_fields("BTC_USDT", "sell", "66000", "64000", "63900"),
            )
        },
        effect: records,
    },
    Case {
        route: Route::ModifyOrder,
        request: |sandbox| {
            let placed = LIMIT
                .send(
                    sandbox,
                    PARTNER,
                    &limit_fields("BTC_USDT", "buy", "0.01", "64000"),
                )
                .json();
            (
                MODIFY,
                format!(
                    r#""market":"BTC_USDT","orderId":{},"price":"64100""#,
                    placed["orderId"]
                ),
            )
        },
        effect: records,
    },
    Case {
        route: Route::CancelOco,
        request: |sandbox| {
            let placed = oco(sandbox);
            (
                OCO_CANCEL,
                format!(r#""market":"BTC_USDT","orderId":{}"#, placed["id"]),
            )
        },
        effect: |sandbox| 2 - open_orders(sandbox),
    },
    Case {
        route: Route::CancelConditional,
        request: |sandbox| {
            let placed = oco(sandbox);
            (
                CONDITIONAL_CANCEL,
                format!(r#""market":"BTC_USDT","id":{}"#, placed["id"]),
            )
        },
        effect: |sandbox| 2 - open_orders(sandbox),
    },
    Case {
        route: Route::CancelOto,
        request: |sandbox| {
            let placed = resting(
                sandbox,
                PARTNER,
                "BTC_USDT",
                "oto-1",
                r#","stopLoss":"50000""#,
            );
            (
                OTO_CANCEL,
                format!(r#""market":"BTC_USDT","otoId":{}"#, placed["oto"]["otoId"]),
            )
        },
        effect: |sandbox| 1 - open_orders(sandbox),
    },
];

#[test]
fn a_5xx_without_processing_changes_nothing() {
    for case in CASES {
        let sandbox = Sandbox::start().unwrap();
        let (endpoint, fields) = (case.request)(&sandbox);
        let before = (case.effect)(&sandbox);
        sandbox.inject_fault(case.route, Fault::Unavailable, Some(1));
        let reply = endpoint.send(&sandbox, PARTNER, &fields);
        assert_eq!(reply.status, 503, "{:?}", case.route);
        assert_eq!(
            (case.effect)(&sandbox),
            before,
            "{:?} processed",
            case.route
        );
        // Sent again, it is processed.
        let again = endpoint.send(&sandbox, PARTNER, &fields);
        assert_eq!(again.status, 200, "{:?}: {}", case.route, again.text());
        assert!(
            (case.effect)(&sandbox) > before,
            "{:?} not processed",
            case.route
        );
    }
}

#[test]
fn a_5xx_after_processing_and_a_lost_answer_leave_the_effect() {
    for fault in [after(), Fault::DropAfterProcessing] {
        for case in CASES {
            let sandbox = Sandbox::start().unwrap();
            let (endpoint, fields) = (case.request)(&sandbox);
            let before = (case.effect)(&sandbox);
            sandbox.inject_fault(case.route, fault.clone(), Some(1));
            let request = signed_request(&sandbox, PARTNER, endpoint.0, &fields);
            match agent().run(request) {
                Ok(response) => assert_eq!(response.status().as_u16(), 503, "{:?}", case.route),
                Err(_) => assert_eq!(fault, Fault::DropAfterProcessing, "{:?}", case.route),
            }
            assert!(
                (case.effect)(&sandbox) > before,
                "{:?} {fault:?}: not processed",
                case.route
            );
        }
    }
}

#[test]
fn placed_orders_can_stay_out_of_the_look_ups() {
    let sandbox = hidden_once(Route::CollateralLimit);
    let placed = LIMIT.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"clientOrderId":"hidden""#,
            limit_fields("BTC_USDT", "buy", "0.01", "64000")
        ),
    );
    assert_eq!(placed.status, 200);
    let look = OPEN_ORDERS.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"hidden""#,
    );
    assert!(look.json().as_array().unwrap().is_empty(), "hidden");
    // The exchange holds it all the same: the id is taken.
    let again = LIMIT.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"clientOrderId":"hidden""#,
            limit_fields("BTC_USDT", "buy", "0.01", "64000")
        ),
    );
    assert_eq!(again.json()["code"], 36);

    let sandbox = hidden_once(Route::CollateralOco);
    oco(&sandbox);
    assert!(OCO_ORDERS.list(&sandbox, PARTNER, "").is_empty());
    assert_eq!(CONDITIONAL.send(&sandbox, PARTNER, "").json()["total"], 0);

    let sandbox = hidden_once(Route::CollateralBulk);
    let fields = format!(
        r#""orders":[{{{}}}]"#,
        limit_fields("BTC_USDT", "buy", "0.01", "64000")
    );
    assert_eq!(
        BULK.send(&sandbox, PARTNER, &fields).json()[0]["result"]["status"],
        "OPEN"
    );
    assert!(OPEN_ORDERS.list(&sandbox, PARTNER, "").is_empty());
}

#[test]
fn the_oco_listing_can_lag() {
    let sandbox = Sandbox::start().unwrap();
    let placed = oco(&sandbox);
    std::thread::sleep(Duration::from_millis(400));
    let canceled = OCO_CANCEL.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","clientOrderId":"oco-1""#,
    );
    assert_eq!(canceled.status, 200);
    sandbox.inject_fault(
        Route::OcoOrders,
        Fault::Lagging(Duration::from_millis(200)),
        Some(1),
    );
    let lagging = OCO_ORDERS.send(&sandbox, PARTNER, "").json();
    assert_eq!(
        lagging[0]["id"], placed["id"],
        "as it was before the cancel"
    );
    assert_eq!(lagging[0]["take_profit"]["status"], "OPEN");
    assert!(OCO_ORDERS.list(&sandbox, PARTNER, "").is_empty());
    // Lagging further back than the OCO: not yet there.
    sandbox.inject_fault(
        Route::OcoOrders,
        Fault::Lagging(Duration::from_secs(3600)),
        Some(1),
    );
    assert!(OCO_ORDERS.list(&sandbox, PARTNER, "").is_empty());
}

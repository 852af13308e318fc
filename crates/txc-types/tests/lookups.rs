//! The look-up and cancel operations: wire bodies, the docs' response fixtures, the documented
//! "not found" outcomes, and the builders' rules.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;

use proptest::prelude::*;
use txc_types::endpoint::{Endpoint, EndpointKind};
use txc_types::errors::{Reason, ValidationError};
use txc_types::lookups::{HistoryStatus, OpenOrdersQuery, OrderHistory, OrderHistoryQuery};
use txc_types::orders::{ActivationCondition, CancelOrder, Cancellation, Order, OrderStatus};

fn errors(field: &str, message: &str) -> BTreeMap<String, Vec<String>> {
    BTreeMap::from([(field.to_owned(), vec![message.to_owned()])])
}

#[test]
fn paths_kinds_and_wire_bodies() {
    assert_eq!(OpenOrdersQuery::PATH, "/api/v4/orders");
    assert_eq!(
        OrderHistoryQuery::PATH,
        "/api/v4/trade-account/order/history"
    );
    assert_eq!(CancelOrder::PATH, "/api/v4/order/cancel");
    assert_eq!(OpenOrdersQuery::KIND, EndpointKind::Read);
    assert_eq!(OrderHistoryQuery::KIND, EndpointKind::Read);
    assert_eq!(
        CancelOrder::KIND,
        EndpointKind::Order,
        "never resent blindly"
    );
    let bodies = [
        serde_json::to_string(&OpenOrdersQuery::new()).unwrap(),
        serde_json::to_string(
            &OpenOrdersQuery::builder()
                .market("BTC_PERP")
                .order_id(4_180_284_841)
                .limit(100)
                .offset(4_294_967_295)
                .build()
                .unwrap(),
        )
        .unwrap(),
        serde_json::to_string(
            &OrderHistoryQuery::builder()
                .market("BTC_USDT")
                .status(HistoryStatus::PartiallyFilled)
                .start_date(1_700_000_000)
                .end_date(1_700_000_000 + OrderHistoryQuery::MAX_SPAN_SECS)
                .limit(500)
                .offset(10)
                .build()
                .unwrap(),
        )
        .unwrap(),
        serde_json::to_string(&CancelOrder::by_order_id("BTC_USDT", 7).unwrap()).unwrap(),
        serde_json::to_string(&CancelOrder::by_client_order_id("BTC_USDT", "a.b-c_d").unwrap())
            .unwrap(),
    ];
    insta::assert_snapshot!(bodies.join("\n"));
}

#[test]
fn builders_refuse_what_the_exchange_refuses() {
    let e = OpenOrdersQuery::builder()
        .client_order_id("x")
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        ValidationError::InvalidField {
            field: "clientOrderId",
            reason: Reason::Requires("market")
        }
    );
    // Each refused value, and the wire field its error names.
    let refused = [
        (OpenOrdersQuery::builder().limit(0).build().err(), "limit"),
        (OpenOrdersQuery::builder().limit(101).build().err(), "limit"),
        (
            OpenOrdersQuery::builder()
                .offset(4_294_967_296)
                .build()
                .err(),
            "offset",
        ),
        (
            OrderHistoryQuery::builder().limit(501).build().err(),
            "limit",
        ),
        (
            OrderHistoryQuery::builder()
                .start_date(10)
                .end_date(9)
                .build()
                .err(),
            "endDate",
        ),
        (
            OrderHistoryQuery::builder()
                .start_date(0)
                .end_date(OrderHistoryQuery::MAX_SPAN_SECS + 1)
                .build()
                .err(),
            "endDate",
        ),
    ];
    for (i, (error, field)) in refused.into_iter().enumerate() {
        assert_eq!(error.map(|e| e.field()), Some(field), "case {i}");
    }
    assert!(matches!(
        OrderHistoryQuery::builder()
            .order_id(1)
            .client_order_id("x")
            .build(),
        Err(ValidationError::Conflict {
            field: "clientOrderId",
            other: "orderId"
        })
    ));
    assert_eq!(
        CancelOrder::by_order_id("btc", 1).unwrap_err().field(),
        "market"
    );
    assert_eq!(
        CancelOrder::by_client_order_id("BTC_USDT", "")
            .unwrap_err()
            .field(),
        "clientOrderId"
    );
}

#[test]
fn documented_responses_decode() {
    let open: Vec<Order> =
        serde_json::from_str(include_str!("fixtures/open_orders_documented.json")).unwrap();
    insta::assert_debug_snapshot!("open_orders_documented", open);
    assert_eq!(open[0].status, Some(OrderStatus::Open));
    assert_eq!(open[0].price.as_ref().unwrap().as_str(), "40000");
    assert_eq!(open[1].activated, Some(false));
    assert_eq!(open[0].post_only, Some(false));
    assert!(!open[0].extra.contains_key("postOnly"));

    let history: OrderHistory =
        serde_json::from_str(include_str!("fixtures/order_history_documented.json")).unwrap();
    insta::assert_debug_snapshot!("order_history_documented", history);
    let orders: Vec<_> = history.orders().collect();
    assert_eq!(orders.len(), 2);
    let perp = orders.iter().find(|o| o.market == "BTC_PERP").unwrap();
    assert_eq!(perp.activation_condition, Some(ActivationCondition::Gte));
    assert_eq!(perp.activated.as_ref().unwrap().as_str(), "1597486999.2");
    assert_eq!(perp.activation_price.as_ref().unwrap().as_str(), "65000");
    assert_eq!(perp.client_order_id, None);

    let cancel: Cancellation =
        serde_json::from_str(include_str!("fixtures/cancel_documented.json")).unwrap();
    let Cancellation::Canceled(order) = cancel else {
        panic!()
    };
    assert_eq!(order.status, Some(OrderStatus::Canceled));
    assert_eq!(
        order.deal_fee, None,
        "the documented cancel answer has no dealFee"
    );
}

#[test]
fn empty_histories_in_every_spelling() {
    for text in ["{}", "[]", " [ ] ", r#"{"BTC_USDT":[]}"#] {
        let h: OrderHistory = serde_json::from_str(text).unwrap();
        assert!(h.is_empty(), "{text}");
    }
    assert!(serde_json::from_str::<OrderHistory>("[1]").is_err());
}

#[test]
fn not_found_is_an_outcome_recognized_by_code_and_field() {
    let not_found = errors("orderHistory", "OrderHistory was not found.");
    assert_eq!(
        OrderHistoryQuery::error_outcome(422, Some(30), &not_found),
        Some(OrderHistory::default())
    );
    // Another code-30 validation error is an error; so is anything but a 4xx.
    assert_eq!(
        OrderHistoryQuery::error_outcome(422, Some(30), &errors("limit", "too big")),
        None
    );
    assert_eq!(
        OrderHistoryQuery::error_outcome(503, Some(30), &not_found),
        None
    );

    let unexecuted = errors("orderId", "Unexecuted order was not found.");
    assert_eq!(
        CancelOrder::error_outcome(400, Some(2), &unexecuted),
        Some(Cancellation::NotFound)
    );
    assert_eq!(
        CancelOrder::error_outcome(422, Some(2), &errors("clientOrderId", "x")),
        Some(Cancellation::NotFound)
    );
    // Code 2 without field errors is the disabled key; code 30 is validation.
    assert_eq!(
        CancelOrder::error_outcome(403, Some(2), &BTreeMap::new()),
        None
    );
    assert_eq!(CancelOrder::error_outcome(422, Some(30), &unexecuted), None);
    assert_eq!(
        OpenOrdersQuery::error_outcome(422, Some(30), &not_found),
        None
    );
}

proptest! {
    #[test]
    fn limits_are_accepted_exactly_in_their_documented_range(limit in 0u64..1_000) {
        prop_assert_eq!(OpenOrdersQuery::builder().limit(limit).build().is_ok(), (1..=100).contains(&limit));
        prop_assert_eq!(OrderHistoryQuery::builder().limit(limit).build().is_ok(), (1..=500).contains(&limit));
    }

    #[test]
    fn a_cancel_body_names_exactly_one_order(id in any::<u64>(), cid in "[A-Za-z0-9._-]{1,64}") {
        for cancel in [
            CancelOrder::by_order_id("BTC_USDT", id).unwrap(),
            CancelOrder::by_client_order_id("BTC_USDT", cid.as_str()).unwrap(),
        ] {
            let v = serde_json::to_value(&cancel).unwrap();
            let ids = ["orderId", "clientOrderId"].iter().filter(|k| v.get(**k).is_some()).count();
            prop_assert_eq!(ids, 1);
            prop_assert_eq!(v["market"].as_str(), Some("BTC_USDT"));
        }
    }
}

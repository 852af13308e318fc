//! The order operations of issue 37 against the exchange's spec: every documented answer
//! decodes (snapshots pin what to), every request body the builders make conforms to the
//! spec's request schema, and the builders make the spec's own request examples.
//!
//! The fixtures are the spec's examples and its request schemas' facts (required fields,
//! types, enums, bounds: `fixtures/request_schemas.json`), copied into the repository; the
//! market info and the modify answer, which the spec gives no whole example of, are its
//! fields' examples put together.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{assert_conforms, conforms, schemas};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use txc_types::endpoint::{ENDPOINT_PATHS, Endpoint, EndpointKind};
use txc_types::errors::{Reason, ValidationError};
use txc_types::markets::{
    CollateralMarkets, CollateralMarketsQuery, FuturesMarkets, FuturesMarketsQuery, MarketInfo,
    MarketsQuery,
};
use txc_types::orders::{
    BulkOrderResult, CancelConditionalOrder, CancelOcoOrder, CancelOtoOrder, CollateralBulkOrder,
    CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder, CollateralStopLimitOrder,
    CollateralTriggerMarketOrder, GroupCancellation, Modified, ModifyOrder, OcoCancellation,
    OcoOrder, OcoOrdersQuery, Order, OrderRefusal, OrderStatus, OrderType, PositionSide, Side, Stp,
};

fn decode<T: DeserializeOwned>(name: &str, text: &str) -> T {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn body<T: serde::Serialize>(request: &T) -> Value {
    serde_json::to_value(request).unwrap()
}

/// `request`'s body as written, in wire order.
fn text<T: serde::Serialize>(request: &T) -> String {
    serde_json::to_string(request).unwrap()
}

#[test]
fn the_schema_check_takes_the_specs_own_examples_and_can_fail() {
    let schemas = schemas();
    for (path, example) in [
        (
            "/api/v4/order/collateral/limit",
            include_str!("fixtures/request_limit_documented.json"),
        ),
        (
            "/api/v4/order/collateral/stop-limit",
            include_str!("fixtures/request_stop_limit_documented.json"),
        ),
        (
            "/api/v4/order/collateral/bulk",
            include_str!("fixtures/request_bulk_documented.json"),
        ),
        (
            "/api/v4/order/collateral/oco",
            include_str!("fixtures/request_oco_documented.json"),
        ),
        (
            "/api/v4/oco-orders",
            include_str!("fixtures/request_oco_orders_documented.json"),
        ),
        (
            "/api/v4/order/oco-cancel",
            include_str!("fixtures/request_oco_cancel_documented.json"),
        ),
        (
            "/api/v4/order/conditional-cancel",
            include_str!("fixtures/request_conditional_cancel_documented.json"),
        ),
        (
            "/api/v4/order/oto-cancel",
            include_str!("fixtures/request_oto_cancel_documented.json"),
        ),
    ] {
        let example: Value = decode(path, example);
        conforms(&schemas[path], &example, path).unwrap();
    }
    let limit = &schemas["/api/v4/order/collateral/limit"];
    let good = json!({"market": "BTC_USDT", "side": "buy", "amount": "1", "price": "2"});
    assert!(conforms(limit, &good, "limit").is_ok());
    for (bad, says) in [
        (
            json!({"market": "BTC_USDT", "side": "buy", "amount": "1"}),
            "price is required",
        ),
        (
            json!({"market": "BTC_USDT", "side": "up", "amount": "1", "price": "2"}),
            "not one of",
        ),
        (
            json!({"market": "BTC_USDT", "side": "buy", "amount": 1, "price": "2"}),
            "not of type",
        ),
        (
            json!({"market": "BTC_USDT", "side": "buy", "amount": "1", "price": "2", "x": 1}),
            "not a property",
        ),
        (
            json!({"market": "BTC_USDT", "side": "buy", "amount": "1", "price": "2", "stp": "cancel"}),
            "not one of",
        ),
    ] {
        let error = conforms(limit, &bad, "limit").unwrap_err();
        assert!(error.contains(says), "{error}");
    }
    let page = json!({"limit": 101});
    assert!(
        conforms(&schemas["/api/v4/oco-orders"], &page, "oco")
            .unwrap_err()
            .contains("above")
    );
}

#[test]
fn the_builders_make_the_specs_request_examples() {
    let limit = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "40000")
        .post_only(false)
        .ioc(false)
        .client_order_id("order1987111")
        .stop_loss("50000")
        .take_profit("30000")
        .position_side(PositionSide::Long)
        .rpi(true)
        .reduce_only(false)
        .build()
        .unwrap();
    let documented: Value = decode(
        "limit",
        include_str!("fixtures/request_limit_documented.json"),
    );
    assert_eq!(body(&limit), documented);

    let stop_limit =
        CollateralStopLimitOrder::builder("BTC_USDT", Side::Buy, "0.001", "40000", "40000")
            .stop_loss("30000")
            .take_profit("50000")
            .client_order_id("order1987111")
            .position_side(PositionSide::Long)
            .reduce_only(false)
            .build()
            .unwrap();
    let documented: Value = decode(
        "stop-limit",
        include_str!("fixtures/request_stop_limit_documented.json"),
    );
    assert_eq!(body(&stop_limit), documented);

    let oco =
        CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "40000", "41000", "42000")
            .client_order_id("order1987111")
            .reduce_only(false)
            .position_side(PositionSide::Long)
            .build()
            .unwrap();
    let documented: Value = decode("oco", include_str!("fixtures/request_oco_documented.json"));
    assert_eq!(body(&oco), documented);

    // The spec's bulk items send `clientOrderId: ""`; this crate gives each item an id.
    let mut documented: Value = decode(
        "bulk",
        include_str!("fixtures/request_bulk_documented.json"),
    );
    let items = documented["orders"].as_array_mut().unwrap();
    let orders: Vec<CollateralLimitOrder> = items
        .iter_mut()
        .enumerate()
        .map(|(i, item)| {
            let object = item.as_object_mut().unwrap();
            object.insert("clientOrderId".into(), json!(format!("item-{i}")));
            let text = |k: &str| object[k].as_str().unwrap().to_owned();
            let flag = |k: &str| object[k].as_bool().unwrap();
            let side: Side = text("side").parse().unwrap();
            CollateralLimitOrder::builder(text("market"), side, text("amount"), text("price"))
                .post_only(flag("postOnly"))
                .ioc(flag("ioc"))
                .client_order_id(text("clientOrderId"))
                .position_side(text("positionSide").parse().unwrap())
                .rpi(flag("rpi"))
                .reduce_only(flag("reduceOnly"))
                .build()
                .unwrap()
        })
        .collect();
    let bulk = CollateralBulkOrder::new(orders)
        .unwrap()
        .with_stop_on_fail(true);
    assert_eq!(body(&bulk), documented);

    for (request, documented) in [
        (
            body(
                &OcoOrdersQuery::builder()
                    .market("BTC_USDT")
                    .offset(0)
                    .limit(100)
                    .build()
                    .unwrap(),
            ),
            include_str!("fixtures/request_oco_orders_documented.json"),
        ),
        (
            body(&CancelOcoOrder::by_order_id("BTC_USDT", 117_703_764_513).unwrap()),
            include_str!("fixtures/request_oco_cancel_documented.json"),
        ),
        (
            body(&CancelConditionalOrder::new("BTC_USDT", 117_703_764_514).unwrap()),
            include_str!("fixtures/request_conditional_cancel_documented.json"),
        ),
        (
            body(&CancelOtoOrder::new("BTC_USDT", 117_703_764_514).unwrap()),
            include_str!("fixtures/request_oto_cancel_documented.json"),
        ),
    ] {
        assert_eq!(request, decode::<Value>("example", documented));
    }
}

#[test]
fn every_body_the_builders_make_conforms_to_the_schema() {
    let limit = || CollateralLimitOrder::builder("BTC_PERP", Side::Sell, "0.5", "41000.5");
    for order in [
        limit().build().unwrap(),
        limit()
            .post_only(true)
            .rpi(true)
            .stp(Stp::CancelOld)
            .build()
            .unwrap(),
        limit()
            .ioc(true)
            .reduce_only(true)
            .position_side(PositionSide::Short)
            .build()
            .unwrap(),
        limit()
            .stop_loss("42000")
            .take_profit("39000")
            .build()
            .unwrap(),
    ] {
        assert_conforms(&order);
    }
    assert_conforms(
        &CollateralStopLimitOrder::builder("BTC_PERP", Side::Sell, "1", "39000", "39500")
            .stp(Stp::CancelBoth)
            .position_side(PositionSide::Both)
            .build()
            .unwrap(),
    );
    assert_conforms(
        &CollateralBulkOrder::new(vec![
            limit().build().unwrap(),
            limit().rpi(true).build().unwrap(),
        ])
        .unwrap()
        .with_stop_on_fail(false),
    );
    assert_conforms(
        &CollateralOcoOrder::builder("BTC_USDT", Side::Sell, "1", "42000", "39000", "38900")
            .stp(Stp::No)
            .build()
            .unwrap(),
    );
    assert_conforms(&OcoOrdersQuery::new());
    assert_conforms(&OcoOrdersQuery::page("BTC_USDT".parse().unwrap(), 200));
    assert_conforms(&CancelOcoOrder::by_client_order_id("BTC_USDT", "bracket-1").unwrap());
    assert_conforms(&CancelConditionalOrder::new("BTC_USDT", 1).unwrap());
    assert_conforms(&CancelOtoOrder::new("BTC_USDT", 1).unwrap());
    for modify in [
        ModifyOrder::by_order_id("BTC_USDT", 7)
            .amount("1")
            .price("2")
            .stp(Stp::CancelNew),
        ModifyOrder::by_client_order_id("BTC_USDT", "x").total("100"),
        ModifyOrder::by_client_order_id("BTC_USDT", "x").activation_price("10000"),
    ] {
        assert_conforms(&modify.build().unwrap());
    }
    // The orders of before too.
    assert_conforms(
        &CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
            .stop_loss("1")
            .stp(Stp::No)
            .build()
            .unwrap(),
    );
    assert_conforms(
        &CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "1", "2")
            .build()
            .unwrap(),
    );
}

#[test]
fn wire_bodies_of_the_new_operations() {
    let lines = [
        text(
            &CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.01", "40000")
                .client_order_id("q-1")
                .post_only(true)
                .stp(Stp::CancelBoth)
                .build()
                .unwrap(),
        ),
        text(
            &CollateralStopLimitOrder::builder("BTC_PERP", Side::Sell, "0.01", "39000", "39100")
                .client_order_id("s-1")
                .reduce_only(true)
                .build()
                .unwrap(),
        ),
        text(
            &CollateralOcoOrder::builder("BTC_PERP", Side::Sell, "0.01", "42000", "39000", "38900")
                .client_order_id("b-1")
                .position_side(PositionSide::Long)
                .stp(Stp::CancelNew)
                .build()
                .unwrap(),
        ),
        text(
            &ModifyOrder::by_order_id("BTC_PERP", 42)
                .amount("0.02")
                .price("40100")
                .build()
                .unwrap(),
        ),
        text(&CancelOcoOrder::by_client_order_id("BTC_PERP", "b-1").unwrap()),
        text(&MarketsQuery),
        text(&CollateralMarketsQuery),
    ];
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn endpoints_name_their_paths_kinds_and_limits() {
    let rows = [
        (
            CollateralLimitOrder::PATH,
            CollateralLimitOrder::KIND,
            CollateralLimitOrder::SIGNED,
        ),
        (
            CollateralStopLimitOrder::PATH,
            CollateralStopLimitOrder::KIND,
            CollateralStopLimitOrder::SIGNED,
        ),
        (
            CollateralBulkOrder::PATH,
            CollateralBulkOrder::KIND,
            CollateralBulkOrder::SIGNED,
        ),
        (
            CollateralOcoOrder::PATH,
            CollateralOcoOrder::KIND,
            CollateralOcoOrder::SIGNED,
        ),
        (
            OcoOrdersQuery::PATH,
            OcoOrdersQuery::KIND,
            OcoOrdersQuery::SIGNED,
        ),
        (
            CancelOcoOrder::PATH,
            CancelOcoOrder::KIND,
            CancelOcoOrder::SIGNED,
        ),
        (
            CancelConditionalOrder::PATH,
            CancelConditionalOrder::KIND,
            CancelConditionalOrder::SIGNED,
        ),
        (
            CancelOtoOrder::PATH,
            CancelOtoOrder::KIND,
            CancelOtoOrder::SIGNED,
        ),
        (ModifyOrder::PATH, ModifyOrder::KIND, ModifyOrder::SIGNED),
        (MarketsQuery::PATH, MarketsQuery::KIND, MarketsQuery::SIGNED),
        (
            FuturesMarketsQuery::PATH,
            FuturesMarketsQuery::KIND,
            FuturesMarketsQuery::SIGNED,
        ),
        (
            CollateralMarketsQuery::PATH,
            CollateralMarketsQuery::KIND,
            CollateralMarketsQuery::SIGNED,
        ),
    ];
    for (path, kind, signed) in rows {
        let public = path.starts_with("/api/v4/public/");
        assert_eq!(signed, !public, "{path}");
        let read = path == OcoOrdersQuery::PATH || public;
        assert_eq!(
            kind,
            if read {
                EndpointKind::Read
            } else {
                EndpointKind::Order
            },
            "{path}"
        );
        if !public {
            assert!(ENDPOINT_PATHS.contains(&path), "{path}");
            assert!(schemas()[path].is_object(), "{path} has a schema");
        }
    }
    assert_eq!(OcoOrdersQuery::RATE_LIMIT.unwrap().requests, 12_000);
    assert_eq!(ModifyOrder::RATE_LIMIT.unwrap().requests, 10_000);
    assert_eq!(MarketsQuery::RATE_LIMIT.unwrap().requests, 2_000);
}

#[test]
fn documented_answers_decode() {
    let limit: Order = decode("limit", include_str!("fixtures/limit_documented.json"));
    assert_eq!(
        (
            limit.order_type.clone(),
            limit.rpi,
            limit.ioc,
            limit.post_only
        ),
        (OrderType::Limit, Some(true), Some(false), Some(false))
    );
    assert!(limit.extra.is_empty(), "{:?}", limit.extra);
    insta::assert_debug_snapshot!("limit_documented", limit);

    let stop: Order = decode(
        "stop-limit",
        include_str!("fixtures/stop_limit_documented.json"),
    );
    assert_eq!(stop.order_type, OrderType::StopLimit);
    assert_eq!(stop.activation_price.as_ref().unwrap().as_str(), "40000");
    assert!(stop.extra.is_empty(), "{:?}", stop.extra);
    insta::assert_debug_snapshot!("stop_limit_documented", stop);

    let bulk: Vec<BulkOrderResult> = decode("bulk", include_str!("fixtures/bulk_documented.json"));
    assert_eq!(bulk.len(), 3);
    assert!(bulk[0].placed().is_some() && bulk[2].placed().is_some());
    let refused = bulk[1].refused().unwrap();
    assert_eq!(refused.refusal(), Some(OrderRefusal::Amount));
    assert_eq!(
        refused.field_errors()["amount"],
        ["Given amount is less than min amount 0.001."]
    );
    insta::assert_debug_snapshot!("bulk_documented", bulk);

    let oco: OcoOrder = decode("oco", include_str!("fixtures/oco_documented.json"));
    assert_eq!(oco.legs().count(), 2);
    assert_eq!(oco.reduce_only, Some(false));
    let stop_loss = oco.stop_loss.as_ref().unwrap();
    assert_eq!(stop_loss.order_type, OrderType::StopLimit);
    assert_eq!(stop_loss.post_only, Some(false));
    assert!(
        stop_loss.mtime.is_some() && stop_loss.extra.is_empty(),
        "{:?}",
        stop_loss.extra
    );
    insta::assert_debug_snapshot!("oco_documented", oco);

    let listed: Vec<OcoOrder> = decode(
        "oco-orders",
        include_str!("fixtures/oco_orders_documented.json"),
    );
    let leg = listed[0].take_profit.as_ref().unwrap();
    assert_eq!(
        (leg.order_type.clone(), leg.status.clone()),
        (OrderType::MarginLimit, Some(OrderStatus::Open))
    );
    insta::assert_debug_snapshot!("oco_orders_documented", listed);

    let canceled: OcoCancellation = decode(
        "oco-cancel",
        include_str!("fixtures/oco_cancel_documented.json"),
    );
    let OcoCancellation::Canceled(pair) = &canceled else {
        panic!("{canceled:?}")
    };
    assert!(
        pair.legs()
            .all(|leg| leg.status == Some(OrderStatus::Canceled))
    );

    for text in [
        include_str!("fixtures/conditional_cancel_documented.json"),
        include_str!("fixtures/oto_cancel_documented.json"),
    ] {
        let canceled: GroupCancellation = decode("group cancel", text);
        assert!(
            matches!(canceled, GroupCancellation::Canceled(_)),
            "{canceled:?}"
        );
    }
    assert!(serde_json::from_str::<GroupCancellation>(r#"{"code":30,"message":"x"}"#).is_err());

    let modified: Modified = decode("modify", include_str!("fixtures/modify_documented.json"));
    assert_eq!(modified.new_order_id, modified.replacement.order_id);
    assert_eq!(modified.replacement.retail, Some(true));
    assert!(
        modified.replacement.extra.is_empty(),
        "{:?}",
        modified.replacement.extra
    );
    insta::assert_debug_snapshot!("modify_documented", modified);

    let markets: Vec<MarketInfo> =
        decode("markets", include_str!("fixtures/markets_documented.json"));
    assert!(markets[0].extra.is_empty(), "{:?}", markets[0].extra);
    insta::assert_debug_snapshot!("markets_documented", markets);

    let collateral: CollateralMarkets = decode(
        "collateral markets",
        include_str!("fixtures/collateral_markets_documented.json"),
    );
    assert!(collateral.contains("BTC_USDT") && !collateral.contains("BTC_PERP"));

    let futures: FuturesMarkets =
        decode("futures", include_str!("fixtures/futures_documented.json"));
    let perp = &futures.result[0];
    assert_eq!(
        (perp.ticker_id.as_str(), perp.max_leverage),
        ("BTC_PERP", Some(100))
    );
    assert_eq!(perp.next_funding_rate_timestamp, Some(1_660_665_600_000));
    assert!(perp.extra.is_empty(), "{:?}", perp.extra);
    insta::assert_debug_snapshot!("futures_documented", futures);
}

#[test]
fn a_cancels_not_found_is_an_outcome() {
    let errors = [(
        "id".to_owned(),
        vec!["Unexecuted order was not found.".to_owned()],
    )]
    .into_iter()
    .collect();
    assert_eq!(
        CancelOcoOrder::error_outcome(422, Some(2), &errors),
        Some(OcoCancellation::NotFound)
    );
    assert_eq!(
        CancelConditionalOrder::error_outcome(400, Some(2), &errors),
        Some(GroupCancellation::NotFound)
    );
    assert_eq!(
        CancelOtoOrder::error_outcome(422, Some(2), &errors),
        Some(GroupCancellation::NotFound)
    );
    // A 5xx never means "not found", nor does code 2 without field errors (a disabled key).
    assert_eq!(CancelOtoOrder::error_outcome(503, Some(2), &errors), None);
    assert_eq!(
        CancelOtoOrder::error_outcome(422, Some(2), &Default::default()),
        None
    );
    assert_eq!(ModifyOrder::error_outcome(422, Some(2), &errors), None);
}

#[test]
fn bulk_items_are_answered_in_order_and_unreadable_ones_kept() {
    let orders: Vec<CollateralLimitOrder> = (0..3)
        .map(|i| {
            CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "1", "100")
                .client_order_id(format!("q-{i}"))
                .build()
                .unwrap()
        })
        .collect();
    let bulk = CollateralBulkOrder::new(orders)
        .unwrap()
        .with_stop_on_fail(true);
    // stopOnFail: the second failed, the third was not processed.
    let answer: Vec<BulkOrderResult> = decode(
        "answer",
        r#"[{"result":{"orderId":1,"clientOrderId":"q-0","market":"BTC_PERP","side":"buy","type":"limit",
              "timestamp":1,"dealMoney":"0","dealStock":"0","amount":"1","left":"1"},"error":null},
            {"result":null,"error":{"code":116,"message":"Validation failed"}}]"#,
    );
    let paired: Vec<_> = bulk.pair(&answer).collect();
    assert_eq!(paired.len(), 3);
    assert_eq!(
        paired[0]
            .1
            .and_then(BulkOrderResult::placed)
            .unwrap()
            .order_id,
        1
    );
    assert_eq!(
        paired[1]
            .1
            .and_then(BulkOrderResult::refused)
            .and_then(|e| e.refusal()),
        Some(OrderRefusal::ReduceOnly)
    );
    assert!(paired[2].1.is_none());
    // A result that is not an order, and an item of neither shape, are kept: outcome unknown.
    let odd: Vec<BulkOrderResult> = decode(
        "odd",
        r#"[{"result":{"orderId":"x"},"error":null},{"status":"?"}]"#,
    );
    for item in &odd {
        assert!(matches!(item, BulkOrderResult::Unreadable(_)), "{item:?}");
    }
    let BulkOrderResult::Unreadable(kept) = &odd[0] else {
        unreachable!()
    };
    assert_eq!(kept["result"]["orderId"], "x");
    // Written back in the exchange's shape.
    for item in answer.iter().chain(&odd) {
        let again: BulkOrderResult = decode("again", &serde_json::to_string(item).unwrap());
        assert_eq!(&again, item);
    }
}

#[test]
fn refusal_codes_of_the_order_pages_each_have_their_class() {
    let codes = [
        30, 31, 32, 33, 36, 37, 40, 43, 10, 111, 112, 113, 114, 115, 116,
    ];
    let classes: Vec<OrderRefusal> = codes
        .iter()
        .map(|&c| OrderRefusal::from_code(c).unwrap())
        .collect();
    assert_eq!(classes, OrderRefusal::ALL);
    for class in classes {
        assert_eq!(OrderRefusal::from_code(class.code()), Some(class));
        assert!(class.to_string().contains(&class.code().to_string()));
    }
    for other in [0, 1, 2, 5, 17, 404, 500] {
        assert_eq!(OrderRefusal::from_code(other), None, "{other}");
    }
}

#[test]
fn the_combinations_the_exchange_refuses_are_refused_before_a_request_exists() {
    let limit = || CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "1", "2");
    let cases: Vec<(ValidationError, &str)> = vec![
        (
            limit().ioc(true).post_only(true).build().unwrap_err(),
            "ioc",
        ),
        (limit().rpi(true).ioc(true).build().unwrap_err(), "ioc"),
        (
            limit()
                .stop_loss("1")
                .reduce_only(true)
                .build()
                .unwrap_err(),
            "reduceOnly",
        ),
        (
            CollateralStopLimitOrder::builder("BTC_USDT", Side::Buy, "1", "2", "x")
                .build()
                .unwrap_err(),
            "activation_price",
        ),
        (
            CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "1", "2", "3", "-4")
                .build()
                .unwrap_err(),
            "stop_limit_price",
        ),
        (
            ModifyOrder::by_order_id("BTC_USDT", 1).build().unwrap_err(),
            "amount",
        ),
        (
            ModifyOrder::by_order_id("BTC_USDT", 1)
                .amount("1")
                .total("2")
                .build()
                .unwrap_err(),
            "total",
        ),
        (
            ModifyOrder::by_client_order_id("BTC_USDT", "a b")
                .price("1")
                .build()
                .unwrap_err(),
            "clientOrderId",
        ),
        (CollateralBulkOrder::new(Vec::new()).unwrap_err(), "orders"),
        (
            CollateralBulkOrder::new(vec![limit().stp(Stp::No).build().unwrap()]).unwrap_err(),
            "stp",
        ),
        (
            CollateralBulkOrder::new(vec![
                limit().client_order_id("same").build().unwrap(),
                limit().client_order_id("same").build().unwrap(),
            ])
            .unwrap_err(),
            "clientOrderId",
        ),
        (
            OcoOrdersQuery::builder().limit(101).build().unwrap_err(),
            "limit",
        ),
    ];
    let rendered: Vec<String> = cases
        .iter()
        .map(|(e, field)| {
            assert_eq!(e.field(), *field, "{e}");
            e.to_string()
        })
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
    assert!(matches!(
        ModifyOrder::by_order_id("BTC_USDT", 1).build().unwrap_err(),
        ValidationError::InvalidField {
            reason: Reason::NeedsOneOf(_),
            ..
        }
    ));
    // Flags set `false` conflict with nothing; rpi with postOnly is allowed.
    assert!(
        limit()
            .ioc(true)
            .post_only(false)
            .rpi(false)
            .build()
            .is_ok()
    );
    assert!(limit().rpi(true).post_only(true).build().is_ok());
    // The same id on two markets is two orders.
    let on = |m: &str| {
        CollateralLimitOrder::builder(m, Side::Buy, "1", "2")
            .client_order_id("same")
            .build()
            .unwrap()
    };
    assert!(CollateralBulkOrder::new(vec![on("BTC_USDT"), on("ETH_USDT")]).is_ok());
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A decimal field's text: valid most of the time, sometimes not.
    fn decimal() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => "[1-9][0-9]{0,5}(\\.[0-9]{1,6})?",
            1 => "0|-1|1e5|NaN|1\\.|\\.5|01|[ a-z]{0,3}",
        ]
    }

    fn valid(text: &str) -> bool {
        text.parse::<txc_types::values::Amount>().is_ok()
    }

    fn flag() -> impl Strategy<Value = Option<bool>> {
        proptest::option::of(any::<bool>())
    }

    proptest! {
        #[test]
        fn a_limit_order_is_built_iff_every_rule_holds_and_then_conforms(
            amount in decimal(),
            price in decimal(),
            stop_loss in proptest::option::of(decimal()),
            (post_only, ioc, rpi, reduce_only) in (flag(), flag(), flag(), flag()),
            buy in any::<bool>(),
        ) {
            let side = if buy { Side::Buy } else { Side::Sell };
            let mut builder = CollateralLimitOrder::builder("BTC_PERP", side, amount.as_str(), price.as_str());
            if let Some(price) = &stop_loss {
                builder = builder.stop_loss(price.as_str());
            }
            if let Some(v) = post_only { builder = builder.post_only(v); }
            if let Some(v) = ioc { builder = builder.ioc(v); }
            if let Some(v) = rpi { builder = builder.rpi(v); }
            if let Some(v) = reduce_only { builder = builder.reduce_only(v); }
            let built = builder.build();
            let values_ok = valid(&amount) && valid(&price) && stop_loss.as_deref().is_none_or(valid);
            let ioc_on = ioc == Some(true);
            // The shared rule first, then the limit order's own.
            let combination = if reduce_only == Some(true) && stop_loss.is_some() {
                Some(("reduceOnly", "stopLoss"))
            } else if ioc_on && post_only == Some(true) {
                Some(("ioc", "postOnly"))
            } else if ioc_on && rpi == Some(true) {
                Some(("ioc", "rpi"))
            } else {
                None
            };
            match (&built, values_ok, combination) {
                (Ok(order), true, None) => assert_conforms(order),
                (Err(ValidationError::Conflict { field, other }), true, Some((f, o))) => {
                    prop_assert_eq!((*field, *other), (f, o));
                }
                (Err(ValidationError::InvalidField { .. }), false, _) => {}
                (got, ok, combination) => prop_assert!(false, "{:?} (values ok: {}, {:?})", got, ok, combination),
            }
        }

        #[test]
        fn a_bulk_order_takes_1_to_20_items_of_distinct_ids(
            items in proptest::collection::vec((0..3usize, 0..4usize, any::<bool>()), 0..26),
            stop_on_fail in flag(),
        ) {
            let markets = ["BTC_PERP", "ETH_PERP", "BTC_USDT"];
            let orders: Vec<CollateralLimitOrder> = items
                .iter()
                .map(|&(market, id, post_only)| {
                    CollateralLimitOrder::builder(markets[market], Side::Buy, "1", "100")
                        .client_order_id(format!("id-{id}"))
                        .post_only(post_only)
                        .build()
                        .unwrap()
                })
                .collect();
            let mut seen = std::collections::BTreeSet::new();
            let distinct = items.iter().all(|&(market, id, _)| seen.insert((market, id)));
            let built = CollateralBulkOrder::new(orders);
            prop_assert_eq!(built.is_ok(), (1..=20).contains(&items.len()) && distinct, "{:?}", built);
            if let Ok(mut bulk) = built {
                if let Some(flag) = stop_on_fail {
                    bulk = bulk.with_stop_on_fail(flag);
                }
                assert_conforms(&bulk);
                prop_assert_eq!(body(&bulk)["orders"].as_array().unwrap().len(), items.len());
            }
        }

        #[test]
        fn a_modify_changes_something_and_not_both_amount_and_total(
            amount in proptest::option::of(decimal()),
            total in proptest::option::of(decimal()),
            price in proptest::option::of(decimal()),
            activation in proptest::option::of(decimal()),
            by_id in any::<bool>(),
        ) {
            let mut builder = if by_id {
                ModifyOrder::by_order_id("BTC_USDT", 4_180_284_841)
            } else {
                ModifyOrder::by_client_order_id("BTC_USDT", "quote-1")
            };
            if let Some(v) = &amount { builder = builder.amount(v.as_str()); }
            if let Some(v) = &total { builder = builder.total(v.as_str()); }
            if let Some(v) = &price { builder = builder.price(v.as_str()); }
            if let Some(v) = &activation { builder = builder.activation_price(v.as_str()); }
            let given = [&amount, &total, &price, &activation];
            let values_ok = given.iter().all(|v| v.as_deref().is_none_or(valid));
            let rules_ok = !(amount.is_some() && total.is_some()) && given.iter().any(|v| v.is_some());
            match builder.build() {
                Ok(modify) => {
                    prop_assert!(values_ok && rules_ok);
                    assert_conforms(&modify);
                }
                Err(_) => prop_assert!(!(values_ok && rules_ok)),
            }
        }

        #[test]
        fn an_oco_pair_conforms_whatever_its_options(
            (amount, price, activation, stop) in (decimal(), decimal(), decimal(), decimal()),
            reduce_only in flag(),
            hedge in proptest::option::of(any::<bool>()),
        ) {
            let mut builder = CollateralOcoOrder::builder(
                "BTC_USDT", Side::Sell, amount.as_str(), price.as_str(), activation.as_str(), stop.as_str(),
            );
            if let Some(v) = reduce_only { builder = builder.reduce_only(v); }
            if let Some(long) = hedge {
                builder = builder.position_side(if long { PositionSide::Long } else { PositionSide::Short });
            }
            let all_valid = [&amount, &price, &activation, &stop].iter().all(|v| valid(v));
            match builder.build() {
                Ok(oco) => {
                    prop_assert!(all_valid);
                    prop_assert!(oco.client_order_id().as_str().starts_with("txc-"));
                    assert_conforms(&oco);
                }
                Err(e) => prop_assert!(!all_valid, "{}", e),
            }
        }
    }
}

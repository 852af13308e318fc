//! Order management over the WebSocket: the docs' request examples are what the typed REST
//! requests become ([`ToSocket`]), their answers decode (numeric `side`, every status), the
//! docs' error table reads code by code to [`SocketRefusal`], what one transport takes and the
//! other does not is refused before anything is sent, and the two new channels decode.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use serde_json::{Value, json};
use txc_types::endpoint::Endpoint;
use txc_types::errors::ValidationError;
use txc_types::events::{AdlQuantiles, PremiumIndexes};
use txc_types::orders::{
    BboRole, CancelAllOrders, CancelConditionalOrder, CancelOrder, CollateralBboOrder,
    CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder, CollateralStopBboOrder,
    CollateralStopLimitOrder, CollateralTriggerMarketOrder, ModifyOrder, OrderClass, OrderStatus,
    PositionSide, Side, Stp,
};
use txc_types::socket::{
    CollateralTpslOrder, Fate, SocketAnswer, SocketCall, SocketMethod, SocketOrder, SocketRefusal,
    SocketRequest, ToSocket,
};

/// The docs' example of `method`: its request and its answer.
fn fixture(method: &str) -> (Value, Value) {
    let text = match method {
        "collateral_order_limit_place" => {
            include_str!("fixtures/socket/collateral_order_limit_place.json")
        }
        "collateral_order_market_place" => {
            include_str!("fixtures/socket/collateral_order_market_place.json")
        }
        "collateral_order_stop_limit_place" => {
            include_str!("fixtures/socket/collateral_order_stop_limit_place.json")
        }
        "collateral_order_stop_market_place" => {
            include_str!("fixtures/socket/collateral_order_stop_market_place.json")
        }
        "collateral_order_bbo_place" => {
            include_str!("fixtures/socket/collateral_order_bbo_place.json")
        }
        "collateral_order_stop_bbo_place" => {
            include_str!("fixtures/socket/collateral_order_stop_bbo_place.json")
        }
        "collateral_order_oco_place" => {
            include_str!("fixtures/socket/collateral_order_oco_place.json")
        }
        "collateral_order_oto_place" => {
            include_str!("fixtures/socket/collateral_order_oto_place.json")
        }
        "collateral_order_tpsl_place" => {
            include_str!("fixtures/socket/collateral_order_tpsl_place.json")
        }
        "order_modify" => include_str!("fixtures/socket/order_modify.json"),
        "order_cancel" => include_str!("fixtures/socket/order_cancel.json"),
        "order_cancel_conditional" => include_str!("fixtures/socket/order_cancel_conditional.json"),
        "order_cancel_all" => include_str!("fixtures/socket/order_cancel_all.json"),
        other => panic!("no fixture for {other}"),
    };
    let value: Value = serde_json::from_str(text).unwrap();
    (value["request"].clone(), value["response"].clone())
}

/// The typed request — built by the same builders REST uses — for each docs' example.
fn typed_examples() -> Vec<(SocketMethod, SocketRequest)> {
    let limit = CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "63385.90")
        .stp(Stp::No)
        .build()
        .unwrap();
    let market = CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "0.001")
        .stp(Stp::No)
        .build()
        .unwrap();
    let stop_limit =
        CollateralStopLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "66263.38", "65298.38")
            .stp(Stp::No)
            .build()
            .unwrap();
    let stop_market =
        CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.001", "63385.76")
            .stp(Stp::No)
            .build()
            .unwrap();
    let bbo = CollateralBboOrder::builder("BTC_PERP", Side::Buy, "0.001", BboRole::Maker)
        .stp(Stp::No)
        .build()
        .unwrap();
    let stop_bbo = CollateralStopBboOrder::builder(
        "BTC_PERP",
        Side::Sell,
        "0.001",
        "63385.76",
        BboRole::Maker,
    )
    .stp(Stp::No)
    .build()
    .unwrap();
    let oco = CollateralOcoOrder::builder(
        "BTC_PERP",
        Side::Sell,
        "0.001",
        "65301.08",
        "63370.99",
        "62405.95",
    )
    .stp(Stp::No)
    .build()
    .unwrap();
    let oto = CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "63370.99")
        .stp(Stp::No)
        .take_profit("66266.12")
        .stop_loss("62405.95")
        .build()
        .unwrap();
    let tpsl = CollateralTpslOrder::builder("BTC_PERP")
        .stop_loss("63388.57")
        .take_profit("65319.18")
        .stp(Stp::No)
        .build()
        .unwrap();
    let modify = ModifyOrder::by_order_id("ETH_USDT", 2423735905491)
        .amount("0.00216")
        .price("1831.41")
        .build()
        .unwrap();
    let cancel = CancelOrder::by_order_id("ETH_USDT", 2423735868673).unwrap();
    let cancel_conditional = CancelConditionalOrder::new("BTC_PERP", 2423735892717).unwrap();
    let cancel_all = CancelAllOrders::builder()
        .market("ETH_USDT")
        .types([OrderClass::Spot, OrderClass::Futures, OrderClass::Margin])
        .build()
        .unwrap();
    let calls = [
        limit.to_socket(),
        market.to_socket(),
        stop_limit.to_socket(),
        stop_market.to_socket(),
        bbo.to_socket(),
        stop_bbo.to_socket(),
        oco.to_socket(),
        oto.to_socket(),
        tpsl.to_socket(),
        modify.to_socket(),
        cancel.to_socket(),
        cancel_conditional.to_socket(),
        cancel_all.to_socket(),
    ];
    SocketMethod::ALL
        .into_iter()
        .zip(calls)
        .map(|(method, call)| (method, call.unwrap()))
        .collect()
}

/// `frame` without the client order ids the builders always set (the docs' examples send
/// none); the ids removed are returned.
fn without_ids(frame: &str) -> (Value, Vec<String>) {
    let mut value: Value = serde_json::from_str(frame).unwrap();
    let mut ids = Vec::new();
    let params = value["params"][0].as_object_mut().unwrap();
    for key in ["client_order_id", "limit_client_order_id"] {
        if let Some(Value::String(id)) = params.remove(key) {
            ids.push(id);
        }
    }
    if let Some(trigger) = params
        .get_mut("trigger_order")
        .and_then(Value::as_object_mut)
        && let Some(Value::String(id)) = trigger.remove("client_order_id")
    {
        ids.push(id);
    }
    (value, ids)
}

#[test]
fn every_docs_request_is_what_the_typed_request_becomes() {
    for (method, call) in typed_examples() {
        let (request, _) = fixture(method.name());
        assert_eq!(call.method(), method);
        let id = request["id"].as_u64().unwrap();
        let (frame, ids) = without_ids(&call.frame(id));
        assert_eq!(frame, request, "{method}");
        // Every placement that takes a client order id carries the built order's.
        let carried: Vec<String> = call
            .client_order_id()
            .map(|id| id.as_str().to_owned())
            .into_iter()
            .collect();
        assert_eq!(ids, carried, "{method}");
        for (name, _) in call.params() {
            assert!(method.params().contains(name), "{method}: {name}");
        }
    }
}

#[test]
fn every_docs_answer_decodes_with_its_side_and_status() {
    let mut decoded = Vec::new();
    for method in SocketMethod::ALL {
        let (request, response) = fixture(method.name());
        assert_eq!(response["id"], request["id"]);
        assert!(response["error"].is_null());
        let answer = SocketAnswer::decode(method, &response["result"].to_string())
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        for order in answer.orders() {
            // Every documented key is known: nothing left over.
            assert!(order.extra.is_empty(), "{method}: {:?}", order.extra);
            if let Some(side) = order.side {
                let code = match side {
                    Side::Sell => 1,
                    Side::Buy => 2,
                };
                let raw = find_order(&response["result"], order.id);
                assert_eq!(raw["side"], code, "{method}");
            }
        }
        decoded.push((method.name(), answer));
    }
    insta::assert_debug_snapshot!("socket_answers", decoded);
}

/// The raw order object with `id` in a result (itself or a leg).
fn find_order(result: &Value, id: u64) -> &Value {
    if result["id"] == id && !result["type"].is_string() {
        return result;
    }
    ["take_profit", "stop_loss", "trigger_order"]
        .iter()
        .map(|leg| &result[*leg])
        .find(|leg| leg["id"] == id)
        .unwrap()
}

#[test]
fn an_answered_order_writes_back_the_docs_object() {
    for method in [
        SocketMethod::LimitPlace,
        SocketMethod::MarketPlace,
        SocketMethod::StopLimitPlace,
        SocketMethod::StopMarketPlace,
        SocketMethod::Modify,
        SocketMethod::Cancel,
    ] {
        let (_, response) = fixture(method.name());
        let order: SocketOrder = serde_json::from_str(&response["result"].to_string()).unwrap();
        let written = serde_json::to_value(&order).unwrap();
        for (key, value) in response["result"].as_object().unwrap() {
            assert_eq!(&written[key], value, "{method}: {key}");
        }
    }
}

#[test]
fn every_documented_status_reads_to_its_own_variant() {
    let statuses = [
        ("OPEN", OrderStatus::Open),
        ("PARTIALLY_FILLED", OrderStatus::PartiallyFilled),
        ("FILLED", OrderStatus::Filled),
        ("CANCELED", OrderStatus::Canceled),
        ("CANCELED_STP", OrderStatus::CanceledStp),
        ("CANCELED_TAKER_BAND", OrderStatus::CanceledTakerBand),
        ("CANCELED_RPI", OrderStatus::CanceledRpi),
        (
            "AUTO_CANCELED_REDUCE_ONLY",
            OrderStatus::AutoCanceledReduceOnly,
        ),
        (
            "AUTO_CANCELED_LIQUIDATION",
            OrderStatus::AutoCanceledLiquidation,
        ),
        ("DELISTING", OrderStatus::Delisting),
    ];
    for (word, status) in statuses {
        let order: SocketOrder =
            serde_json::from_str(&json!({"id": 1, "status": word, "side": 2}).to_string()).unwrap();
        assert_eq!(order.status, Some(status), "{word}");
        assert_eq!(order.side, Some(Side::Buy));
    }
    // A side code the docs do not list is kept, never guessed.
    let odd: SocketOrder = serde_json::from_str(r#"{"id":1,"side":3}"#).unwrap();
    assert_eq!(odd.side, None);
    assert_eq!(odd.extra["side"], 3);
}

fn call_of(text: &str) -> SocketCall {
    match text {
        "authorize" => SocketCall::Authorize,
        "other" => SocketCall::Other,
        order => SocketCall::Order(
            SocketMethod::from_name(order.strip_prefix("order:").unwrap()).unwrap(),
        ),
    }
}

#[test]
fn the_docs_error_table_reads_code_by_code() {
    let table: Value = serde_json::from_str(include_str!("fixtures/socket/errors.json")).unwrap();
    let mut seen = Vec::new();
    for row in table["errors"].as_array().unwrap() {
        let code = row["code"].as_i64().unwrap();
        let call = call_of(row["call"].as_str().unwrap());
        let class = SocketRefusal::from_code(code, call)
            .unwrap_or_else(|| panic!("code {code} is not read"));
        assert_eq!(
            format!("{class:?}"),
            row["class"].as_str().unwrap(),
            "code {code}"
        );
        assert_eq!(class.code(), code);
        seen.push(class);
    }
    // Every class the enum has is in the docs' table (none invented, none missing).
    for class in SocketRefusal::ALL {
        assert!(seen.contains(class), "{class:?} is not in the table");
    }
    assert_eq!(SocketRefusal::from_code(18, SocketCall::Other), None);
}

#[test]
fn a_refusal_says_what_it_means_for_the_order() {
    let place = SocketCall::Order(SocketMethod::LimitPlace);
    let fate = |code| SocketRefusal::from_code(code, place).unwrap().fate();
    for code in [2, 3, 5] {
        assert_eq!(fate(code), Fate::Unknown, "{code}");
    }
    assert_eq!(fate(43), Fate::Duplicate);
    for code in [7, 10000, 10001] {
        assert_eq!(fate(code), Fate::RateLimited, "{code}");
    }
    for code in [1, 6, 11, 17, 19, 40, 51, 114, 250, 601, 10006, 10010] {
        assert_eq!(fate(code), Fate::NotDone, "{code}");
    }
    assert!(SocketRefusal::RegionNoFutures.is_region());
    assert!(!SocketRefusal::UserRateLimit.is_region());
}

#[test]
fn what_one_transport_takes_and_the_other_does_not_is_refused_before_sending() {
    let modify = ModifyOrder::by_order_id("BTC_PERP", 1)
        .price("1")
        .stp(Stp::CancelBoth)
        .build()
        .unwrap();
    assert_eq!(modify.to_socket().unwrap_err().field(), "stp");

    let spotless = CancelAllOrders::builder().build().unwrap();
    assert_eq!(spotless.to_socket().unwrap_err().field(), "market");
    let sided = CancelAllOrders::builder()
        .market("BTC_PERP")
        .position_side(PositionSide::Long)
        .build()
        .unwrap();
    assert_eq!(sided.to_socket().unwrap_err().field(), "positionSide");
    // No kinds on REST is every kind: the socket gets all three.
    let every = CancelAllOrders::builder()
        .market("BTC_PERP")
        .build()
        .unwrap();
    assert_eq!(
        every.to_socket().unwrap().param("type"),
        Some(&json!(["spot", "margin", "futures"]))
    );

    let rpi_entry = CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "1", "10")
        .rpi(true)
        .stop_loss("9")
        .build()
        .unwrap();
    assert_eq!(
        rpi_entry.to_socket().unwrap_err(),
        ValidationError::Conflict {
            field: "rpi",
            other: "stopLoss"
        }
    );
}

#[test]
fn an_order_with_one_exit_is_an_oto_with_that_exit() {
    let take = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "1")
        .take_profit("70000")
        .client_order_id("entry-1")
        .build()
        .unwrap()
        .to_socket()
        .unwrap();
    assert_eq!(take.method(), SocketMethod::OtoPlace);
    assert_eq!(
        take.param("trigger_order_type"),
        Some(&json!("margin_market"))
    );
    assert_eq!(
        take.param("conditional_order_type"),
        Some(&json!("margin_take_profit"))
    );
    assert_eq!(take.param("stop_loss"), None);
    assert_eq!(take.market(), Some("BTC_PERP"));
    assert_eq!(take.client_order_id().unwrap().as_str(), "entry-1");
    let stop = CollateralStopBboOrder::builder("BTC_PERP", Side::Buy, "1", "65000", BboRole::Taker)
        .stop_loss("60000")
        .build()
        .unwrap()
        .to_socket()
        .unwrap();
    assert_eq!(
        stop.param("trigger_order_type"),
        Some(&json!("margin_stop_bbo"))
    );
    assert_eq!(
        stop.param("conditional_order_type"),
        Some(&json!("margin_stop_loss"))
    );
}

#[test]
fn the_bbo_orders_go_to_rest_paths_with_bbo_role() {
    assert_eq!(CollateralBboOrder::PATH, "/api/v4/order/collateral/limit");
    assert_eq!(
        CollateralStopBboOrder::PATH,
        "/api/v4/order/collateral/stop-limit"
    );
    let err = CollateralStopBboOrder::builder("BTC_PERP", Side::Buy, "1", "2", BboRole::Maker)
        .build()
        .map(|_| ());
    assert!(err.is_ok());
}

#[test]
fn the_new_channels_decode_the_docs_examples() {
    let channels: Value =
        serde_json::from_str(include_str!("fixtures/socket/channels.json")).unwrap();
    let adl = AdlQuantiles::from_params(&channels["adl_update"]["params"].to_string()).unwrap();
    assert_eq!(adl.records.len(), 1);
    assert_eq!(adl.records[0].market.as_str(), "BTC_PERP");
    assert_eq!(adl.records[0].long, None);
    assert_eq!(adl.records[0].short.map(|q| q.get()), Some(4));
    let all =
        PremiumIndexes::from_params(&channels["premium_update_all"]["params"].to_string()).unwrap();
    assert_eq!(all.records.len(), 2);
    assert_eq!(all.records[1].market.as_str(), "ADA_PERP");
    assert_eq!(all.records[1].funding_rate.as_str(), "-0.1");
    assert_eq!(all.records[1].next_funding_seconds(), Some(123123124));
    assert_eq!(all.records[0].server_time, None);
    let one =
        PremiumIndexes::from_params(&channels["premium_update_one"]["params"].to_string()).unwrap();
    assert_eq!(one.records.len(), 1);
    assert_eq!(one.records[0].index_price.as_str(), "10003");
    assert!(one.records[0].server_time.is_some());
    insta::assert_debug_snapshot!("socket_channels", (adl, all, one));
    // A record without its required elements says which.
    let err = PremiumIndexes::from_params(r#"[["BTC_PERP","1"]]"#).unwrap_err();
    assert!(err.to_string().contains("futures_index_price"), "{err}");
    // Milliseconds where the page says seconds (one probe saw them) read the same.
    let ms = PremiumIndexes::from_params(r#"["BTC_PERP","1","1","0",1786452691000]"#).unwrap();
    assert_eq!(ms.records[0].next_funding_seconds(), Some(1786452691));
}

/// The REST body of `order`, as JSON.
fn rest_body<E: Endpoint>(order: &E) -> serde_json::Map<String, Value> {
    match serde_json::to_value(order).unwrap() {
        Value::Object(map) => map,
        other => panic!("{other}"),
    }
}

fn snake(rest: &str) -> String {
    let mut out = String::new();
    for c in rest.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

proptest! {
    /// One builder, two transports: every field of a limit order's REST body is in its socket
    /// call under the snake-case name, with the same value, and nothing else is.
    #[test]
    fn a_limit_order_sends_the_same_values_over_both(
        buy in any::<bool>(),
        amount in 1u32..100_000,
        price in 1u32..1_000_000,
        post_only in proptest::option::of(any::<bool>()),
        ioc in proptest::option::of(Just(false)),
        reduce_only in proptest::option::of(any::<bool>()),
        position in proptest::option::of(prop_oneof![Just(PositionSide::Long), Just(PositionSide::Short), Just(PositionSide::Both)]),
        stp in proptest::option::of(prop_oneof![Just(Stp::No), Just(Stp::CancelBoth), Just(Stp::CancelNew), Just(Stp::CancelOld)]),
        id in "[a-z0-9._-]{1,64}",
    ) {
        let side = if buy { Side::Buy } else { Side::Sell };
        let mut builder = CollateralLimitOrder::builder(
            "BTC_PERP", side, format!("0.{amount:05}"), format!("{price}.5"),
        )
        .client_order_id(id.as_str());
        if let Some(flag) = post_only { builder = builder.post_only(flag); }
        if let Some(flag) = ioc { builder = builder.ioc(flag); }
        if let Some(flag) = reduce_only { builder = builder.reduce_only(flag); }
        if let Some(side) = position { builder = builder.position_side(side); }
        if let Some(stp) = stp { builder = builder.stp(stp); }
        let order = builder.build().unwrap();
        let call = order.to_socket().unwrap();
        prop_assert_eq!(call.method(), SocketMethod::LimitPlace);
        let body = rest_body(&order);
        prop_assert_eq!(body.len(), call.params().len());
        for (rest, value) in &body {
            prop_assert_eq!(call.param(&snake(rest)), Some(value), "{}", rest);
        }
        prop_assert_eq!(call.client_order_id().unwrap().as_str(), id.as_str());
    }

    /// The answer's side code reads back to the side and writes back to the code.
    #[test]
    fn the_answer_side_code_round_trips(code in 1u8..=2, id in any::<u64>()) {
        let order: SocketOrder = serde_json::from_str(&json!({"id": id, "side": code}).to_string()).unwrap();
        prop_assert_eq!(order.side, Some(if code == 1 { Side::Sell } else { Side::Buy }));
        prop_assert_eq!(serde_json::to_value(&order).unwrap()["side"].as_u64(), Some(u64::from(code)));
    }
}

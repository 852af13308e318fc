//! Conformance of issue 37's endpoints — limit, stop-limit, bulk, OCO, the OCO listing, the
//! OCO, conditional and OTO cancels, modify, the public markets — with the exchange's spec:
//!
//! - every answer example the spec gives passes its own schema (which checks the checker) and
//!   decodes **through both transports** (served verbatim by the sandbox), every order field
//!   in its own place (nothing left in an order's `extra`);
//! - every error the endpoints' descriptions list decodes through both transports to the
//!   exchange's status and code — an order endpoint's refusal to its own class;
//! - every request body txc signs, each optional field set, fits the spec's request schema.
//!
//! The schemas and examples are copied from the spec into `fixtures/trading_spec.json` (its
//! `_source` says how).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[macro_use]
mod common;

use common::config;
use common::openapi::fits;
use common::trading::{TradingApi, TradingDriver};
use serde_json::Value;
use txc_core::Error;
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_types::endpoint::Endpoint;
use txc_types::markets::MarketsQuery;
use txc_types::orders::{
    CancelConditionalOrder, CancelOcoOrder, CancelOtoOrder, Cancellation, CollateralBulkOrder,
    CollateralLimitOrder, CollateralOcoOrder, CollateralStopLimitOrder, ModifyOrder,
    OcoOrdersQuery, Order, OrderRefusal, PositionSide, Side, Stp,
};

const SPEC: &str = include_str!("fixtures/trading_spec.json");

fn endpoints() -> Vec<Value> {
    let spec: Value = serde_json::from_str(SPEC).unwrap();
    spec["endpoints"].as_array().unwrap().clone()
}

scenarios!(
    every_answer_example_decodes_through_the_client,
    every_listed_error_decodes_to_its_code_and_class,
);

fn limit() -> CollateralLimitOrder {
    CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000")
        .build()
        .unwrap()
}

/// Whether an order decoded with every field in its place.
fn whole(order: &Order, name: &str) {
    assert!(
        order.extra.is_empty(),
        "{name}: left over {:?}",
        order.extra
    );
}

/// Calls the client's method for `path` (the sandbox serving its route: [`route_of`]); what it
/// decoded, reduced to what the test compares: the answer's id(s), or the error.
fn call(client: &dyn TradingApi, path: &str) -> Result<Vec<u64>, Error> {
    let oco = || {
        CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "60000", "70000", "70100")
            .build()
            .unwrap()
    };
    let ids = |order: Order| {
        whole(&order, path);
        vec![order.order_id]
    };
    let group = |cancel: Cancellation<_>| match cancel {
        Cancellation::Canceled(_) => vec![1],
        _ => vec![0],
    };
    match path {
        "/api/v4/order/collateral/limit" => client.limit(&limit()).map(ids),
        "/api/v4/order/collateral/stop-limit" => {
            let stop =
                CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900", "60000")
                    .build()
                    .unwrap();
            client.stop_limit(&stop).map(ids)
        }
        "/api/v4/order/collateral/bulk" => {
            let bulk = CollateralBulkOrder::new(vec![limit(), limit()]).unwrap();
            client.bulk(&bulk).map(|items| {
                items
                    .iter()
                    .map(|item| {
                        item.placed().map_or(0, |order| {
                            whole(order, path);
                            order.order_id
                        })
                    })
                    .collect()
            })
        }
        "/api/v4/order/collateral/oco" => client.oco(&oco()).map(|pair| {
            pair.legs().for_each(|leg| whole(leg, path));
            vec![pair.id]
        }),
        "/api/v4/oco-orders" => client
            .oco_orders(&OcoOrdersQuery::new())
            .map(|pairs| pairs.iter().map(|pair| pair.id).collect()),
        "/api/v4/order/oco-cancel" => {
            let cancel = CancelOcoOrder::by_order_id("BTC_USDT", 117_703_764_513).unwrap();
            client.cancel_oco(&cancel).map(|c| match c {
                Cancellation::Canceled(pair) => vec![pair.id],
                _ => Vec::new(),
            })
        }
        "/api/v4/order/conditional-cancel" => {
            let cancel = CancelConditionalOrder::new("BTC_USDT", 1).unwrap();
            client.cancel_conditional(&cancel).map(group)
        }
        "/api/v4/order/oto-cancel" => {
            let cancel = CancelOtoOrder::new("BTC_USDT", 1).unwrap();
            client.cancel_oto(&cancel).map(group)
        }
        "/api/v4/order/modify" => {
            let modify = ModifyOrder::by_order_id("BTC_USDT", 4_180_284_841)
                .price("9800")
                .build()
                .unwrap();
            client.modify(&modify).map(|modified| {
                whole(&modified.replacement, path);
                vec![modified.new_order_id]
            })
        }
        "/api/v4/public/markets" => client.markets().map(|markets| {
            markets
                .iter()
                .map(|m| m.name.as_str().len() as u64)
                .collect()
        }),
        other => panic!("no call for {other}"),
    }
}

/// What the test expects `call` to reduce `example` to.
fn expected(path: &str, example: &Value) -> Vec<u64> {
    let id = |v: &Value| v["orderId"].as_u64().unwrap_or(0);
    match path {
        "/api/v4/order/collateral/bulk" => example
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["result"]["orderId"].as_u64().unwrap_or(0))
            .collect(),
        "/api/v4/order/collateral/oco" | "/api/v4/order/oco-cancel" => {
            vec![example["id"].as_u64().unwrap()]
        }
        "/api/v4/oco-orders" => example
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| pair["id"].as_u64().unwrap())
            .collect(),
        "/api/v4/order/conditional-cancel" | "/api/v4/order/oto-cancel" => vec![1],
        "/api/v4/public/markets" => example
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().len() as u64)
            .collect(),
        _ => vec![id(example)],
    }
}

fn serve(sandbox: &Sandbox, route: Route, status: u16, body: &Value) {
    let fault = Fault::Answer {
        status,
        content_type: "application/json".into(),
        body: body.to_string().into_bytes(),
    };
    sandbox.inject_fault(route, fault, Some(1));
}

fn every_answer_example_decodes_through_the_client(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.trading(sandbox.base_url(), config::partner().no_rate_limit());
    let endpoints = endpoints();
    assert_eq!(endpoints.len(), 10);
    for endpoint in endpoints {
        let path = endpoint["path"].as_str().unwrap();
        for example in endpoint["examples"].as_array().unwrap() {
            fits(&endpoint["schema"], example, path).unwrap();
            serve(&sandbox, route_of(path), 200, example);
            let decoded = call(client.as_ref(), path);
            let decoded = decoded.unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(decoded, expected(path, example), "{path}");
        }
    }
}

fn route_of(path: &str) -> Route {
    match path {
        "/api/v4/order/collateral/limit" => Route::CollateralLimit,
        "/api/v4/order/collateral/stop-limit" => Route::CollateralStopLimit,
        "/api/v4/order/collateral/bulk" => Route::CollateralBulk,
        "/api/v4/order/collateral/oco" => Route::CollateralOco,
        "/api/v4/oco-orders" => Route::OcoOrders,
        "/api/v4/order/oco-cancel" => Route::CancelOco,
        "/api/v4/order/conditional-cancel" => Route::CancelConditional,
        "/api/v4/order/oto-cancel" => Route::CancelOto,
        "/api/v4/order/modify" => Route::ModifyOrder,
        "/api/v4/public/markets" => Route::Markets,
        other => panic!("no route for {other}"),
    }
}

fn every_listed_error_decodes_to_its_code_and_class(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.trading(sandbox.base_url(), config::partner().no_rate_limit());
    let mut seen = 0;
    for endpoint in endpoints() {
        let path = endpoint["path"].as_str().unwrap();
        let order = path.starts_with("/api/v4/order/collateral/");
        for example in endpoint["error_examples"].as_array().unwrap() {
            let code = example["code"].as_i64().unwrap();
            serve(&sandbox, route_of(path), 422, example);
            let decoded = call(client.as_ref(), path);
            seen += 1;
            match decoded {
                Err(error) => {
                    let api = error
                        .api()
                        .unwrap_or_else(|| panic!("{path} {code}: {error}"));
                    assert_eq!((api.status, api.code), (422, Some(code)), "{path}");
                    assert!(!error.outcome_unknown(), "{path} {code}");
                    if order {
                        let refusal = OrderRefusal::from_code(code);
                        assert_eq!(api.refusal, refusal, "{path} {code}");
                        assert!(refusal.is_some(), "{path}: code {code} has no refusal");
                    }
                }
                // A cancel's code 2 is "not found": an answer, not an error.
                Ok(ids) if code == 2 && path.contains("cancel") => {
                    assert!(ids.iter().all(|&id| id == 0), "{path}: {ids:?}");
                }
                Ok(other) => panic!("{path} {code}: decoded {other:?}"),
            }
        }
    }
    assert!(seen >= 60, "{seen}");
}

/// The body the client sends for `endpoint` (`Null` for none: a public `GET`).
fn body<E: Endpoint>(endpoint: &E) -> Value {
    let credentials =
        txc_sign::Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap();
    let client = txc_blocking::Client::builder(credentials)
        .base_url("http://127.0.0.1:1")
        .build()
        .unwrap();
    let prepared = client.prepare(endpoint).unwrap();
    if prepared.body().is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(prepared.body()).unwrap()
}

#[test]
fn every_request_body_fits_the_spec_s_request_schema() {
    let full_limit = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000")
        .client_order_id("quote-1")
        .post_only(true)
        .rpi(true)
        .stop_loss("50000")
        .take_profit("70000")
        .position_side(PositionSide::Long)
        .stp(Stp::CancelBoth)
        .build()
        .unwrap();
    let ioc = CollateralLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "60000")
        .ioc(true)
        .reduce_only(true)
        .build()
        .unwrap();
    // A bulk item takes every field but `stp`.
    let bulk_item = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000")
        .client_order_id("quote-2")
        .post_only(true)
        .rpi(true)
        .stop_loss("50000")
        .take_profit("70000")
        .position_side(PositionSide::Long)
        .build()
        .unwrap();
    let stop = CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900", "60000")
        .client_order_id("stop-1")
        .stop_loss("65000")
        .position_side(PositionSide::Short)
        .stp(Stp::CancelNew)
        .build()
        .unwrap();
    let oco =
        CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "60000", "70000", "70100")
            .client_order_id("bracket-1")
            .reduce_only(false)
            .position_side(PositionSide::Long)
            .stp(Stp::CancelOld)
            .build()
            .unwrap();
    let bodies: Vec<(&str, Value)> = vec![
        ("/api/v4/order/collateral/limit", body(&full_limit)),
        ("/api/v4/order/collateral/limit", body(&ioc)),
        ("/api/v4/order/collateral/stop-limit", body(&stop)),
        (
            "/api/v4/order/collateral/bulk",
            body(
                &CollateralBulkOrder::new(vec![bulk_item, ioc.clone()])
                    .unwrap()
                    .with_stop_on_fail(true),
            ),
        ),
        ("/api/v4/order/collateral/oco", body(&oco)),
        ("/api/v4/oco-orders", body(&OcoOrdersQuery::new())),
        (
            "/api/v4/oco-orders",
            body(&OcoOrdersQuery::page("BTC_USDT".parse().unwrap(), 100)),
        ),
        (
            "/api/v4/order/oco-cancel",
            body(&CancelOcoOrder::by_order_id("BTC_USDT", 1).unwrap()),
        ),
        (
            "/api/v4/order/oco-cancel",
            body(&CancelOcoOrder::by_client_order_id("BTC_USDT", "bracket-1").unwrap()),
        ),
        (
            "/api/v4/order/conditional-cancel",
            body(&CancelConditionalOrder::new("BTC_USDT", 1).unwrap()),
        ),
        (
            "/api/v4/order/oto-cancel",
            body(&CancelOtoOrder::new("BTC_USDT", 1).unwrap()),
        ),
        (
            "/api/v4/order/modify",
            body(
                &ModifyOrder::by_order_id("BTC_USDT", 4_180_284_841)
                    .amount("0.02")
                    .price("9800")
                    .activation_price("10000")
                    .stp(Stp::CancelBoth)
                    .build()
                    .unwrap(),
            ),
        ),
        (
            "/api/v4/order/modify",
            body(
                &ModifyOrder::by_client_order_id("BTC_USDT", "quote-1")
                    .total("100")
                    .build()
                    .unwrap(),
            ),
        ),
        ("/api/v4/public/markets", body(&MarketsQuery)),
    ];
    let endpoints = endpoints();
    for (path, body) in &bodies {
        let endpoint = endpoints.iter().find(|e| e["path"] == *path).unwrap();
        let schema = &endpoint["request_schema"];
        if schema.is_null() {
            assert!(
                body.is_null(),
                "{path}: a body where the spec has none: {body}"
            );
            continue;
        }
        fits(schema, body, path).unwrap_or_else(|misfit| panic!("{misfit}\n{body}"));
        // Every field sent is one the spec names — but `nonceWindow`, the authentication's
        // (every private endpoint takes it; the endpoints' schemas leave it out).
        let named = schema["properties"].as_object().unwrap();
        for key in body
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "nonceWindow")
        {
            assert!(
                named.contains_key(key),
                "{path}: `{key}` is not in the spec"
            );
        }
    }
    // Every endpoint's body was checked.
    for endpoint in &endpoints {
        let path = endpoint["path"].as_str().unwrap();
        assert!(bodies.iter().any(|(p, _)| *p == path), "{path} unchecked");
    }
}

//! Conformance with the exchange's spec for the positions and risk-control endpoints:
//!
//! - every answer example the spec gives (success, error, bulk cancel's per-item answers)
//!   decodes with the SDK's types, every field into its own place (no record keeps anything in
//!   its `extra`), and the success examples pass their own schema (which checks the checker);
//! - every success answer the sandbox gives passes the spec's schema for it.
//!
//! The schemas and examples are copied from the spec into `fixtures/risk_spec.json` (its
//! `_source` says how); the checker is the small one below, for the OpenAPI 3.0 subset those
//! schemas use (`nullable` is not JSON Schema, so a JSON Schema crate would not read them
//! as written).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::openapi::fits;

use serde_json::Value;
use txc_core::Error;
use txc_core::decode::{Response, api_error, decode};
use txc_sandbox::{Sandbox, demo};
use txc_types::endpoint::Endpoint;
use txc_types::orders::{
    CancelAllOrders, CancelOrder, CancelOrders, CollateralMarketOrder,
    CollateralTriggerMarketOrder, KillSwitchAnswer, KillSwitchStatusQuery, SetKillSwitch, Side,
};
use txc_types::positions::{
    AccountSummaryQuery, BalanceSummaryQuery, ClosePosition, CollateralBalanceQuery,
    HedgeModeQuery, OpenPositionsQuery, PositionHistoryQuery, PositionMode, SetHedgeMode,
    SetLeverage,
};

const SPEC: &str = include_str!("fixtures/risk_spec.json");

/// The fixture's entry for `path`.
fn entry(path: &str) -> Value {
    let spec: Value = serde_json::from_str(SPEC).unwrap();
    spec["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == path)
        .unwrap_or_else(|| panic!("no fixture for {path}"))
        .clone()
}

#[test]
fn the_checker_refuses_what_does_not_fit() {
    let schema = serde_json::json!({"type":"object","required":["a"],"properties":{
        "a":{"type":"integer"},"b":{"type":"string","nullable":true,"enum":["x","y"]},
        "c":{"type":"array","maxItems":0,"items":{}}}});
    assert!(fits(&schema, &serde_json::json!({"a":1,"b":null,"c":[]}), "$").is_ok());
    for bad in [
        serde_json::json!({"b":"x"}),
        serde_json::json!({"a":"1"}),
        serde_json::json!({"a":1,"b":"z"}),
        serde_json::json!({"a":1,"c":[1]}),
        serde_json::json!([]),
    ] {
        assert!(fits(&schema, &bad, "$").is_err(), "{bad}");
    }
    let either = serde_json::json!({"oneOf":[{"type":"object"},{"type":"array","maxItems":0}]});
    assert!(fits(&either, &serde_json::json!([]), "$").is_ok());
    assert!(fits(&either, &serde_json::json!([1]), "$").is_err());
}

// ---------------------------------------------------------------------------------------------
// The spec's examples.

/// Decodes `body` as the 200 answer of `E`.
fn decoded<E: Endpoint>(body: &Value) -> Result<E::Response, Error> {
    decode::<E>(&Response::new(200, body.to_string().as_bytes()))
}

#[test]
fn every_example_the_spec_gives_decodes_with_nothing_left_over() {
    macro_rules! decodes {
        ($path:expr, $endpoint:ty, $check:expr) => {{
            let entry = entry($path);
            let schema = &entry["schema"];
            for example in entry["examples"].as_array().unwrap() {
                fits(schema, example, $path).unwrap();
                let answer =
                    decoded::<$endpoint>(example).unwrap_or_else(|e| panic!("{}: {e}", $path));
                // Each check also asserts that no record kept a field it does not know (or
                // whose value it could not read) in its `extra`.
                let check: &dyn Fn(&<$endpoint as Endpoint>::Response) = &$check;
                check(&answer);
            }
        }};
    }
    decodes!(
        "/api/v4/collateral-account/balance",
        CollateralBalanceQuery,
        |b| {
            assert_eq!(b.get("ETH").unwrap().as_str(), "5.5");
            assert_eq!(b.balances.len(), 3);
            assert!(b.extra.is_empty());
        }
    );
    decodes!(
        "/api/v4/collateral-account/balance-summary",
        BalanceSummaryQuery,
        |a| {
            assert_eq!(a.len(), 2);
            assert!(a.iter().all(|a| a.extra.is_empty()));
        }
    );
    decodes!(
        "/api/v4/collateral-account/summary",
        AccountSummaryQuery,
        |s| {
            assert_eq!(s.leverage, 3);
            assert!(s.extra.is_empty());
        }
    );
    decodes!(
        "/api/v4/collateral-account/positions/open",
        OpenPositionsQuery,
        |p| {
            assert_eq!(p[0].position_id, 527);
            assert_eq!(p[0].tpsl.as_ref().and_then(|t| t.stop_loss_id), Some(124));
            assert_eq!(
                p[0].open_date.as_ref().unwrap().as_str(),
                "1651568067.789679"
            );
            assert!(p.iter().all(|p| p.extra.is_empty()
                && p.liquidation_state.is_some()
                && p.tpsl.iter().all(|t| t.extra.is_empty())));
        }
    );
    decodes!(
        "/api/v4/collateral-account/positions/history",
        PositionHistoryQuery,
        |h| {
            let detail = h[0].order_detail.as_ref().unwrap();
            assert_eq!(detail.trade_fee.as_ref().unwrap().as_str(), "415.07");
            assert!(h[0].extra.is_empty() && detail.extra.is_empty());
            assert_eq!(
                (h[0].side, h[0].is_hedge),
                (Some(txc_types::orders::PositionSide::Long), Some(false))
            );
        }
    );
    decodes!("/api/v4/collateral-account/leverage", SetLeverage, |l| {
        assert_eq!(l.leverage, 5);
        assert!(l.extra.is_empty());
    });
    decodes!(
        "/api/v4/collateral-account/hedge-mode",
        HedgeModeQuery,
        |m| {
            assert_eq!(m.mode(), PositionMode::Hedge);
            assert!(m.extra.is_empty());
        }
    );
    decodes!("/api/v4/order/cancel/all", CancelAllOrders, |a| {
        assert_eq!(a.body, Some(serde_json::json!([])));
    });
    decodes!("/api/v4/order/kill-switch", SetKillSwitch, |a| match a {
        KillSwitchAnswer::Armed(t) => {
            assert!(t.extra.is_empty());
            assert_eq!(t.types.as_ref().map(Vec::len), Some(2));
        }
        KillSwitchAnswer::Deleted => {}
        other => panic!("{other:?}"),
    });
    decodes!(
        "/api/v4/order/kill-switch/status",
        KillSwitchStatusQuery,
        |t| {
            assert_eq!(t[0].timeout().as_secs(), 100);
            assert!(t[0].extra.is_empty());
        }
    );
    // No body documented: an empty answer decodes.
    for path in [
        "/api/v4/collateral-account/position/close",
        "/api/v4/collateral-account/hedge-mode/update",
    ] {
        assert!(entry(path)["schema"].is_null(), "{path}");
    }
    assert!(decode::<ClosePosition>(&Response::new(200, b"")).is_ok());
    assert!(decode::<SetHedgeMode>(&Response::new(200, b"")).is_ok());
}

#[test]
fn bulk_cancel_s_item_examples_decode_one_by_one() {
    let entry = entry("/api/v4/order/cancel/bulk");
    let items = entry["item_examples"].as_array().unwrap();
    assert_eq!(items.len(), 7);
    let answer = Value::Array(items.clone());
    fits(&entry["schema"], &answer, "bulk").unwrap();
    let decoded = decoded::<CancelOrders>(&answer).unwrap();
    assert_eq!(decoded.len(), items.len());
    for (item, example) in decoded.iter().zip(items) {
        let error = item.error.as_ref().unwrap();
        assert_eq!(error.code, example["error"]["code"].as_i64());
        assert!(item.canceled().is_none());
        let class = txc_core::decode::classify(200, error.code, "", &error.field_errors());
        let expected = match error.code {
            Some(404) => txc_core::decode::ApiErrorClass::NotFound,
            Some(500) => txc_core::decode::ApiErrorClass::Unavailable,
            _ => txc_core::decode::ApiErrorClass::Validation,
        };
        assert_eq!(class, expected, "{example}");
    }
}

#[test]
fn every_error_example_the_spec_gives_is_an_api_error_with_its_code() {
    let spec: Value = serde_json::from_str(SPEC).unwrap();
    let mut seen = 0;
    for entry in spec["endpoints"].as_array().unwrap() {
        for example in entry["error_examples"].as_array().unwrap() {
            let body = example.to_string();
            let api = api_error(422, body.as_bytes())
                .unwrap_or_else(|| panic!("{}: not an error: {body}", entry["path"]));
            assert_eq!(api.code, example["code"].as_i64(), "{body}");
            assert_eq!(
                api.class,
                txc_core::decode::ApiErrorClass::Validation,
                "{body}"
            );
            assert!(!api.errors.is_empty(), "{body}");
            seen += 1;
        }
    }
    assert_eq!(seen, 11);
}

// ---------------------------------------------------------------------------------------------
// The sandbox's answers.

/// Sends `endpoint` signed by `client` and returns the sandbox's raw 200 answer.
fn raw<E: Endpoint>(client: &txc_blocking::Client, endpoint: &E) -> Value {
    let agent: txc_blocking::ureq::Agent = txc_blocking::ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let request = client.prepare(endpoint).unwrap().into_http();
    let mut response = agent.run(request).unwrap();
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_vec().unwrap();
    assert_eq!(
        status,
        200,
        "{}: {}",
        E::PATH,
        String::from_utf8_lossy(&body)
    );
    if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).unwrap()
    }
}

/// Asserts that the sandbox's answer to `endpoint` fits the spec's schema for it.
fn conforms<E: Endpoint>(client: &txc_blocking::Client, endpoint: &E) -> Value {
    let answer = raw(client, endpoint);
    let entry = entry(E::PATH);
    if entry["schema"].is_null() {
        // No body documented; the sandbox sends none.
        assert!(answer.is_null(), "{}: {answer}", E::PATH);
    } else {
        fits(&entry["schema"], &answer, E::PATH).unwrap();
    }
    answer
}

#[test]
fn every_answer_the_sandbox_gives_fits_the_spec_s_schema() {
    let sandbox = Sandbox::start().unwrap();
    let client =
        txc_blocking::ClientBuilder::from(common::config::partner().base_url(sandbox.base_url()))
            .build()
            .unwrap();
    let market = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();
    client.collateral_market_order(&market).unwrap();
    // Each placement is its own order, with its own clientOrderId.
    let trigger = || {
        CollateralTriggerMarketOrder::builder("ETH_USDT", Side::Buy, "0.1", "4000")
            .build()
            .unwrap()
    };
    let resting = client.collateral_trigger_market_order(&trigger()).unwrap();

    let balance = conforms(&client, &CollateralBalanceQuery::new());
    assert!(balance["USDT"].is_number());
    conforms(&client, &CollateralBalanceQuery::of_ticker("USDT").unwrap());
    conforms(&client, &BalanceSummaryQuery::new());
    conforms(&client, &AccountSummaryQuery);
    let open = conforms(&client, &OpenPositionsQuery::new());
    let position_id = open[0]["positionId"].as_u64().unwrap();
    conforms(&client, &HedgeModeQuery);
    conforms(&client, &KillSwitchStatusQuery::new());
    let armed = SetKillSwitch::arm("ETH_USDT", 60).unwrap();
    let timer = conforms(&client, &armed);
    assert!(timer.is_object());
    let status = conforms(
        &client,
        &KillSwitchStatusQuery::of_market("ETH_USDT").unwrap(),
    );
    assert_eq!(status.as_array().unwrap().len(), 1);
    let deleted = conforms(&client, &SetKillSwitch::disarm("ETH_USDT").unwrap());
    assert_eq!(deleted, serde_json::json!([]));
    let bulk = CancelOrders::new(vec![
        CancelOrder::by_order_id("ETH_USDT", resting.order_id).unwrap(),
        CancelOrder::by_order_id("ETH_USDT", resting.order_id).unwrap(),
    ])
    .unwrap();
    let items = conforms(&client, &bulk);
    assert!(items[0]["result"].is_object() && items[1]["error"].is_object());
    client.collateral_trigger_market_order(&trigger()).unwrap();
    conforms(&client, &CancelAllOrders::new());
    conforms(
        &client,
        &ClosePosition::new("BTC_USDT", position_id).unwrap(),
    );
    let history = conforms(&client, &PositionHistoryQuery::new());
    assert_eq!(history.as_array().unwrap().len(), 2);
    conforms(&client, &SetLeverage::new(5).unwrap());
    conforms(&client, &SetHedgeMode::new(PositionMode::Hedge));
    assert!(sandbox.positions(demo::PARTNER_API_KEY).is_empty());
}

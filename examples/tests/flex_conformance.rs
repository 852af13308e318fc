//! Conformance of flexible lending to the exchange's spec, through both transports: every
//! answer example the spec gives for the eight "Crypto Lending - Flex" endpoints (the
//! sandbox's copy of them, `txc-sandbox/tests/fixtures/flex_documented.json`) decodes through
//! the client — a success to records that serialize back to the example, a refusal to the
//! exchange's status, code, message, field errors and its class — and every request the client
//! signs, built as the spec's request examples are, carries the example's body exactly inside
//! the signed envelope and conforms to the spec's request schema (`txc-types`' fixtures and
//! schema check).

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;
#[path = "../../crates/txc-types/tests/common/flex_requests.rs"]
mod flex_requests;

use common::config;
use common::flex::{FlexApi, FlexDriver, FlexRequest};
use serde_json::Value;
use txc_core::Error;
use txc_core::decode::ApiErrorClass;
use txc_sandbox::{Fault, Route, Sandbox};
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexHistoryQuery, FlexInvest, FlexInvestmentsQuery, FlexPaymentsQuery,
    FlexPlansQuery, FlexWithdraw, SetFlexAutoInvest,
};

/// The spec's answer and refusal examples, by path.
fn documented() -> Value {
    serde_json::from_str(include_str!(
        "../../crates/txc-sandbox/tests/fixtures/flex_documented.json"
    ))
    .unwrap()
}

use flex_requests::PLAN;

/// Serializing the decoded records back, to compare them with the examples.
fn json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

/// The route of the endpoint at `path`, and a call of it (what it decoded, as JSON).
fn call(path: &str, client: &dyn FlexApi) -> (Route, Result<Value, Error>) {
    let plan = PLAN;
    match path.trim_start_matches("/api/v4/main-account/smart-flex") {
        "/plans" => (
            Route::FlexPlans,
            client.flex_plans(&FlexPlansQuery::new()).map(json),
        ),
        "/investments" => (
            Route::FlexInvestments,
            client
                .flex_investments(&FlexInvestmentsQuery::new())
                .map(json),
        ),
        "/investments/history" => (
            Route::FlexHistory,
            client.flex_history(&FlexHistoryQuery::new()).map(json),
        ),
        "/investments/payment-history" => (
            Route::FlexPayments,
            client.flex_payments(&FlexPaymentsQuery::new()).map(json),
        ),
        "/investments/invest" => (
            Route::FlexInvest,
            client
                .flex_invest(&FlexInvest::new(plan, "100").unwrap())
                .map(json),
        ),
        "/investments/withdraw" => (
            Route::FlexWithdraw,
            client
                .flex_withdraw(&FlexWithdraw::new(plan, "100").unwrap())
                .map(json),
        ),
        "/investments/close" => (
            Route::FlexClose,
            // Answered: the state machine hands the exchange's answer on.
            client
                .close_flex_investment(&CloseFlexInvestment::new(plan).unwrap())
                .map(|reached| match reached {
                    txc_core::resolve::StateReached::Answered(answer) => json(answer),
                    other => panic!("answered, not {other:?}"),
                }),
        ),
        "/investments/auto-invest" => (
            Route::FlexAutoInvest,
            client
                .set_flex_auto_invest(&SetFlexAutoInvest::new(plan, true).unwrap())
                .map(|reached| match reached {
                    // `{"data":[]}` carries nothing: acknowledged.
                    txc_core::resolve::StateReached::Answered(_) => {
                        serde_json::json!({"data": []})
                    }
                    other => panic!("answered, not {other:?}"),
                }),
        ),
        other => panic!("no endpoint {other}"),
    }
}

/// The class each documented refusal reads as: an operation's refusals their own (see
/// `txc-core`'s flex refusals), a field's validation or the account's permission otherwise.
fn class_of(name: &str, path: &str, status: u16) -> ApiErrorClass {
    let operation = path.rsplit('/').next().unwrap_or_default();
    match (operation, name, status) {
        (_, _, 403) => ApiErrorClass::Permission,
        ("invest", "planUnavailable", _) => ApiErrorClass::PlanInactive,
        ("invest", "planPaused", _) => ApiErrorClass::PlanPaused,
        ("invest", "amountTooLow" | "amountTooSmall", _) => ApiErrorClass::BelowMinimum,
        ("invest", "amountTooHigh" | "investmentLimit", _) => ApiErrorClass::AboveMaximum,
        ("invest", "insufficientBalance", _) => ApiErrorClass::InsufficientBalance,
        ("invest", "privatePlan", _) => ApiErrorClass::Permission,
        ("withdraw" | "close", "investmentNotFound", _) | ("auto-invest", _, 422) => {
            ApiErrorClass::InvestmentNotFound
        }
        ("withdraw", "investmentClosed", _) | ("close", "alreadyClosed", _) => {
            ApiErrorClass::InvestmentClosed
        }
        ("withdraw", "amountTooSmall" | "belowMinLeft" | "belowMinPossible", _) => {
            ApiErrorClass::BelowMinimum
        }
        ("withdraw", "exceedsInvested", _) => ApiErrorClass::AboveMaximum,
        _ => ApiErrorClass::Validation,
    }
}

/// Every answer example, sent verbatim by the sandbox (a fault answering it), decodes through
/// the transport: a success to records that serialize back to the example; a refusal to the
/// exchange's status, code, message and field errors, and its class.
fn the_spec_s_examples_decode(driver: &dyn FlexDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.flexer(sandbox.base_url(), config::partner().no_rate_limit());
    let documented = documented();
    let mut answers = Vec::new();
    for (path, answer) in documented["answers"].as_object().unwrap() {
        answers.push((
            path.clone(),
            "success".to_owned(),
            answer["status"].as_u64(),
            answer["body"].clone(),
        ));
    }
    for (path, by_status) in documented["refusals"].as_object().unwrap() {
        for (status, examples) in by_status.as_object().unwrap() {
            for (name, body) in examples.as_object().unwrap() {
                answers.push((
                    path.clone(),
                    name.clone(),
                    status.parse().ok(),
                    body.clone(),
                ));
            }
        }
    }
    assert!(answers.len() >= 40, "{} examples", answers.len());
    for (path, name, status, example) in answers {
        let status = u16::try_from(status.unwrap()).unwrap();
        let fault = Fault::Answer {
            status,
            content_type: "application/json".into(),
            body: example.to_string().into_bytes(),
        };
        let (route, _) = call(&path, client.as_ref());
        sandbox.inject_fault(route, fault, Some(1));
        let (_, result) = call(&path, client.as_ref());
        match (status < 300, result) {
            (true, Ok(decoded)) => assert_eq!(decoded, example, "{path}"),
            (false, Err(error)) => {
                let api = error
                    .api()
                    .unwrap_or_else(|| panic!("{path} {name}: {error:?}"));
                assert_eq!(api.status, status, "{path} {name}");
                assert_eq!(api.code, example["code"].as_i64(), "{path} {name}");
                assert_eq!(
                    api.message,
                    example["message"].as_str().unwrap(),
                    "{path} {name}"
                );
                for (field, messages) in example["errors"].as_object().into_iter().flatten() {
                    assert_eq!(
                        Value::from(api.field_errors(field).to_vec()),
                        *messages,
                        "{path} {name} {field}"
                    );
                }
                assert_eq!(api.class, class_of(&name, &path, status), "{path} {name}");
                assert!(!error.outcome_unknown(), "{path} {name}: a refusal");
            }
            (ok, other) => panic!("{path} {name}: expected ok={ok}, got {other:?}"),
        }
    }
}

/// The requests the spec's request examples show, built with the builders (txc-types' list).
fn documented_requests() -> Vec<FlexRequest> {
    let d = flex_requests::documented_requests();
    vec![
        FlexRequest::Plans(d.plans),
        FlexRequest::Investments(d.investments),
        FlexRequest::History(d.history),
        FlexRequest::Payments(d.payments),
        FlexRequest::Invest(d.invest),
        FlexRequest::Withdraw(d.withdraw),
        FlexRequest::Close(d.close),
        FlexRequest::AutoInvest(d.auto_invest),
    ]
}

/// Every body the client signs is the spec's example inside the signed envelope (`request`,
/// `nonce`, `nonceWindow`), and conforms to the spec's schema.
fn the_signed_bodies_are_the_spec_s(driver: &dyn FlexDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.flexer(sandbox.base_url(), config::partner());
    let schemas = common::openapi::request_schemas();
    for request in documented_requests() {
        let signed = client.prepare_flex(&request).unwrap();
        let (path, body) = common::unsigned_body(&signed);
        assert_eq!(
            body,
            flex_requests::request_example(&path),
            "{path}: the spec's example"
        );
        common::openapi::conforms(&schemas[path.as_str()], &body, &path).unwrap();
    }
    assert_eq!(sandbox.stats().requests, 0, "signed, nothing sent");
}

scenarios!(the_spec_s_examples_decode, the_signed_bodies_are_the_spec_s);

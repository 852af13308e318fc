//! Conformance of the account's reports to the exchange's spec, through both transports: the
//! spec's answer examples for closed PnL, the funding history, the ADL quantiles, the executed
//! history (both shapes) and an order's deals (`txc-types`' copies of them) — each sent
//! verbatim by the sandbox — decode through the client into records that serialize back to the
//! example, nothing left in an `extra`; a refusal (code 31, an unknown market) is the
//! exchange's status, code and class; and every request the client signs — built as the spec's
//! request examples are, or with every field the schema lists — carries the example's body
//! inside the signed envelope and conforms to the spec's request schema.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use common::config;
use common::reports::{ReportRequest, ReportsApi, ReportsDriver};
use serde_json::Value;
use txc_core::Error;
use txc_core::decode::ApiErrorClass;
use txc_sandbox::{Fault, Route, Sandbox};
use txc_types::lookups::{ExecutedHistoryQuery, OrderDealsQuery};
use txc_types::positions::{ClosedPnlQuery, FundingHistoryQuery};

fn fixture(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// A call of an endpoint: what it decoded, as JSON, and how many fields its records left in
/// their `extra` (fields not decoded into their own place).
type Call = fn(&dyn ReportsApi) -> Result<(Value, usize), Error>;

fn json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

/// The spec's answer examples: the route, the example, and a call of the endpoint.
fn examples() -> Vec<(&'static str, Route, Value, Call)> {
    vec![
        (
            "closed-pnl",
            Route::ClosedPnl,
            fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/closed_pnl_documented.json"
            )),
            |c| {
                let records = c.closed_pnl(&ClosedPnlQuery::new())?;
                Ok((json(&records), records.iter().map(|r| r.extra.len()).sum()))
            },
        ),
        (
            "funding-history",
            Route::FundingHistory,
            fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/funding_history_documented.json"
            )),
            |c| {
                let page = c.funding_history(&FundingHistoryQuery::new())?;
                let extra =
                    page.extra.len() + page.records.iter().map(|r| r.extra.len()).sum::<usize>();
                Ok((json(&page), extra))
            },
        ),
        (
            "adl-quantile",
            Route::AdlQuantile,
            fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/adl_quantile_documented.json"
            )),
            |c| {
                let records = c.adl_quantile()?;
                Ok((json(&records), records.iter().map(|r| r.extra.len()).sum()))
            },
        ),
        (
            "executed-history, one market",
            Route::ExecutedHistory,
            fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/executed_history_flat.json"
            )),
            |c| {
                let query = ExecutedHistoryQuery::builder().market("BTC_USDT").build();
                let deals = c.executed_history(&query.unwrap())?;
                Ok((
                    json(&deals),
                    deals.deals.iter().map(|d| d.extra.len()).sum(),
                ))
            },
        ),
        (
            "executed-history, every market",
            Route::ExecutedHistory,
            fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/executed_history_grouped.json"
            )),
            |c| {
                let deals = c.executed_history(&ExecutedHistoryQuery::new())?;
                Ok((
                    json(&deals),
                    deals.deals.iter().map(|d| d.extra.len()).sum(),
                ))
            },
        ),
        (
            "order deals",
            Route::OrderDeals,
            fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/order_deals_documented.json"
            )),
            |c| {
                let page = c.order_deals(&OrderDealsQuery::new(3_134_995_325))?;
                let extra =
                    page.extra.len() + page.records.iter().map(|r| r.extra.len()).sum::<usize>();
                Ok((json(&page), extra))
            },
        ),
    ]
}

/// Whether `decoded` (written back) holds what `example` holds: the same values where they
/// stand, a time the example writes as a numeric string written back as the number, a
/// `null` left out.
fn same(decoded: &Value, example: &Value) -> bool {
    match (decoded, example) {
        (Value::Object(a), Value::Object(b)) => {
            a.keys().all(|k| b.contains_key(k))
                && b.iter().all(|(k, v)| match a.get(k) {
                    Some(mine) => same(mine, v),
                    None => v.is_null(),
                })
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Number(n), Value::String(text)) => n.to_string() == *text,
        _ => decoded == example,
    }
}

/// Each answer example, sent verbatim, decodes through the transport into records that
/// serialize back to the example.
fn the_spec_s_answer_examples_decode(driver: &dyn ReportsDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.reporter(sandbox.base_url(), config::partner().no_rate_limit());
    let examples = examples();
    assert_eq!(examples.len(), 6);
    for (name, route, example, call) in examples {
        let fault = Fault::Answer {
            status: 200,
            content_type: "application/json".into(),
            body: example.to_string().into_bytes(),
        };
        sandbox.inject_fault(route, fault, Some(1));
        let (decoded, extra) = call(client.as_ref()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(
            same(&decoded, &example),
            "{name}: decoded and written back\n{decoded}\n{example}"
        );
        assert_eq!(extra, 0, "{name}: every field in its own place");
    }
}

/// A refusal of the exchange's reaches the caller with its status, code and class.
fn a_refusal_is_the_exchange_s_code(driver: &dyn ReportsDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.reporter(sandbox.base_url(), config::partner().no_rate_limit());
    let query = FundingHistoryQuery::builder().market("DOGE_PERP").build();
    let error = client.funding_history(&query.unwrap()).unwrap_err();
    let api = error.api().unwrap_or_else(|| panic!("{error:?}"));
    assert_eq!((api.status, api.code), (422, Some(31)), "{api:?}");
    assert_eq!(api.class, ApiErrorClass::Validation);
    assert!(!error.outcome_unknown() && !error.is_retryable());
}

/// The requests the spec's request examples show, built with the builders, beside the
/// example (`txc-types`' fixtures) — or, where the spec gives none, with every field the
/// schema lists.
fn documented_requests() -> Vec<(ReportRequest, Option<Value>)> {
    vec![
        (
            ReportRequest::ClosedPnl(
                ClosedPnlQuery::builder()
                    .start_date(1_778_000_000)
                    .end_date(1_778_100_000)
                    .limit(50)
                    .offset(0)
                    .build()
                    .unwrap(),
            ),
            Some(fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/request_closed_pnl_documented.json"
            ))),
        ),
        (
            ReportRequest::Funding(
                FundingHistoryQuery::builder()
                    .market("BTC_PERP")
                    .limit(100)
                    .offset(0)
                    .build()
                    .unwrap(),
            ),
            Some(fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/request_funding_history_documented.json"
            ))),
        ),
        (
            ReportRequest::Adl,
            Some(fixture(include_str!(
                "../../crates/txc-types/tests/fixtures/request_adl_quantile_documented.json"
            ))),
        ),
        (
            ReportRequest::Executed(
                ExecutedHistoryQuery::builder()
                    .market("BTC_PERP")
                    .client_order_id("customId11")
                    .start_date(1_778_000_000)
                    .end_date(1_778_100_000)
                    .limit(100)
                    .offset(0)
                    .build()
                    .unwrap(),
            ),
            None,
        ),
        (
            ReportRequest::Deals(
                OrderDealsQuery::builder()
                    .order_id(3_134_995_325)
                    .limit(50)
                    .offset(0)
                    .build()
                    .unwrap(),
            ),
            None,
        ),
    ]
}

/// Every body the client signs is the spec's example inside the signed envelope (`request`,
/// `nonce`, `nonceWindow`) and conforms to the spec's schema.
fn the_signed_bodies_conform_to_the_spec(driver: &dyn ReportsDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.reporter(sandbox.base_url(), config::partner());
    let schemas = common::openapi::request_schemas();
    let requests = documented_requests();
    assert_eq!(requests.len(), 5);
    for (request, example) in requests {
        let signed = client.prepare_report(&request).unwrap();
        let (path, body) = common::unsigned_body(&signed);
        if let Some(example) = example {
            assert_eq!(body, example, "{path}: the spec's example");
        }
        let schema = schemas
            .get(path.as_str())
            .unwrap_or_else(|| panic!("no schema for {path}"));
        common::openapi::conforms(schema, &body, &path).unwrap();
    }
    assert_eq!(sandbox.stats().requests, 0, "signed, nothing sent");
}

scenarios!(
    the_spec_s_answer_examples_decode,
    a_refusal_is_the_exchange_s_code,
    the_signed_bodies_conform_to_the_spec,
);

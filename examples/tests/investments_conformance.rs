//! Conformance of the smart-investment endpoints to the exchange's spec: every answer example
//! the spec gives (copied into `fixtures/smart_investments_spec.json` with the answer schemas)
//! conforms to its schema and decodes through both transports — successes to their records,
//! errors to the exchange's status, code and field errors — and every answer the sandbox gives
//! conforms to the same schemas.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use common::config;
use common::invest::{InvestApi, InvestDriver};
use serde_json::{Map, Value};
use txc_core::Error;
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_sign::Signer;
use txc_types::endpoint::Endpoint;
use txc_types::investments::{
    CloseInvestment, InterestPaymentsQuery, Invest, InvestmentsQuery, SmartPlansQuery,
};

const SPEC: &str = include_str!("fixtures/smart_investments_spec.json");

fn spec() -> Value {
    serde_json::from_str(SPEC).unwrap()
}

/// The problems of `value` against `schema` (the fixture's subset of JSON Schema), each with
/// its path.
fn check(value: &Value, schema: &Value, defs: &Map<String, Value>, path: &str) -> Vec<String> {
    if let Some(name) = schema.get("$ref").and_then(Value::as_str) {
        return check(value, &defs[name], defs, path);
    }
    let kind = schema["type"].as_str().unwrap_or_default();
    let fits = match kind {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        other => panic!("the checker reads no type {other:?}"),
    };
    if !fits {
        return vec![format!("{path}: {value} is not of type {kind}")];
    }
    let mut problems = Vec::new();
    match (value, kind) {
        (Value::Array(items), "array") => {
            for (n, item) in items.iter().enumerate() {
                problems.extend(check(item, &schema["items"], defs, &format!("{path}[{n}]")));
            }
        }
        (Value::Object(fields), "object") => {
            let empty = Map::new();
            let properties = schema["properties"].as_object().unwrap_or(&empty);
            let optional: Vec<&str> = schema["optional"]
                .as_array()
                .map(|o| o.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for name in properties.keys() {
                if !fields.contains_key(name) && !optional.contains(&name.as_str()) {
                    problems.push(format!("{path}: no {name}"));
                }
            }
            for (name, field) in fields {
                let at = format!("{path}.{name}");
                match (properties.get(name), schema.get("additionalProperties")) {
                    (Some(property), _) | (None, Some(property)) => {
                        problems.extend(check(field, property, defs, &at));
                    }
                    (None, None) => problems.push(format!("{at}: not in the spec")),
                }
            }
        }
        _ => {}
    }
    problems
}

/// The problems of an answer of `endpoint` with `status`: the success schema for the
/// documented success status, the error schema for any other.
fn answer_problems(endpoint: &str, status: u16, body: &Value) -> Vec<String> {
    let spec = spec();
    let defs = spec["schemas"].as_object().unwrap().clone();
    let success = &spec["endpoints"][endpoint]["success"];
    let schema = if u64::from(status) == success["status"].as_u64().unwrap() {
        &defs[success["schema"].as_str().unwrap()]
    } else {
        &defs["Error"]
    };
    check(body, schema, &defs, endpoint)
}

#[test]
fn the_spec_s_examples_conform_to_its_schemas_and_the_checker_can_tell() {
    let spec = spec();
    for (name, endpoint) in spec["endpoints"].as_object().unwrap() {
        let success = &endpoint["success"];
        let status = u16::try_from(success["status"].as_u64().unwrap()).unwrap();
        assert_eq!(
            answer_problems(name, status, &success["example"]),
            Vec::<String>::new()
        );
        for error in endpoint["errors"].as_array().unwrap() {
            let status = u16::try_from(error["status"].as_u64().unwrap()).unwrap();
            let problems = answer_problems(name, status, &error["example"]);
            assert!(
                problems.is_empty(),
                "{name} {}: {problems:?}",
                error["name"]
            );
        }
    }
    // A wrong type, a missing field and an undocumented one are each caught.
    let mut wrong = spec["endpoints"]["investments"]["success"]["example"].clone();
    wrong["records"][0]["created"] = Value::from("1646825196");
    wrong["records"][0]["plan"]
        .as_object_mut()
        .unwrap()
        .remove("duration");
    wrong["records"][0]["extra"] = Value::from(1);
    let problems = answer_problems("investments", 200, &wrong);
    assert_eq!(problems.len(), 3, "{problems:?}");
}

/// The fault route and a call of the endpoint named in the fixture.
fn call(name: &str, client: &dyn InvestApi) -> (Route, Result<Value, Error>) {
    let json = |v: &dyn erased_serialize::Ser| v.value();
    match name {
        "smart_plans" => (
            Route::SmartPlans,
            client.plans(&SmartPlansQuery::new()).map(|v| json(&v)),
        ),
        "invest" => (
            Route::Invest,
            client
                .invest(&Invest::new("8e667b4a", "100").unwrap())
                .map(|v| json(&v)),
        ),
        "close_investment" => (
            Route::CloseInvestment,
            client
                .close_investment(&CloseInvestment::new("0d7b66ff").unwrap())
                .map(|v| json(&v)),
        ),
        "investments" => (
            Route::Investments,
            client
                .investments(&InvestmentsQuery::new())
                .map(|v| json(&v)),
        ),
        "interest_payments" => (
            Route::InterestPayments,
            client
                .interest_payments(&InterestPaymentsQuery::new())
                .map(|v| json(&v)),
        ),
        other => panic!("no endpoint {other}"),
    }
}

/// Serializing the decoded records back, to compare them with the examples.
mod erased_serialize {
    pub(super) trait Ser {
        fn value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Ser for T {
        fn value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap()
        }
    }
}

/// Every example answer, sent verbatim by the sandbox (a fault answering it), decodes through
/// the transport: a success to records that serialize back to the example; an error to the
/// exchange's status, code, message and field errors.
fn the_spec_s_examples_decode(driver: &dyn InvestDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.investor(sandbox.base_url(), config::partner().no_rate_limit());
    let spec = spec();
    for (name, endpoint) in spec["endpoints"].as_object().unwrap() {
        let success = &endpoint["success"];
        let mut answers = vec![(
            success["status"].as_u64().unwrap(),
            &success["example"],
            true,
        )];
        for error in endpoint["errors"].as_array().unwrap() {
            answers.push((error["status"].as_u64().unwrap(), &error["example"], false));
        }
        for (status, example, ok) in answers {
            let fault = Fault::Answer {
                status: u16::try_from(status).unwrap(),
                content_type: "application/json".into(),
                body: example.to_string().into_bytes(),
            };
            let (route, _) = call(name, client.as_ref());
            sandbox.inject_fault(route, fault, Some(1));
            let (_, result) = call(name, client.as_ref());
            match (ok, result) {
                (true, Ok(decoded)) => assert_eq!(&decoded, example, "{name}"),
                (false, Err(error)) => {
                    let api = error.api().unwrap_or_else(|| panic!("{name}: {error:?}"));
                    assert_eq!(u64::from(api.status), status, "{name}");
                    assert_eq!(api.code, example["code"].as_i64(), "{name}");
                    assert_eq!(api.message, example["message"].as_str().unwrap(), "{name}");
                    for (field, messages) in example["errors"].as_object().into_iter().flatten() {
                        assert_eq!(
                            Value::from(api.field_errors(field).to_vec()),
                            *messages,
                            "{name} {field}"
                        );
                    }
                }
                (ok, other) => panic!("{name} {status}: expected ok={ok}, got {other:?}"),
            }
        }
    }
}

/// Sends `endpoint` signed with the partner's key and returns the raw status and JSON body.
fn raw<E: Endpoint>(sandbox: &Sandbox, key: (&str, &str), endpoint: &E) -> (u16, Value) {
    let credentials = txc_sign::Credentials::new(key.0, key.1).unwrap();
    let signer = Signer::new(credentials, sandbox.base_url()).unwrap();
    let nonce = txc_sign::nonce::Nonce(
        common::now_ms() + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
    );
    let request = signer
        .sign(endpoint, nonce, txc_sign::nonce::NonceMode::Window)
        .unwrap()
        .into_http();
    let agent: txc_blocking::ureq::Agent = txc_blocking::ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent.run(request).unwrap();
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_vec().unwrap();
    (status, serde_json::from_slice(&body).unwrap())
}

/// The sandbox's answers, each under the spec's name of its endpoint.
struct Answers<'s> {
    sandbox: &'s Sandbox,
    list: Vec<(&'static str, u16, Value)>,
}

impl Answers<'_> {
    /// Sends `endpoint` signed with `key` ([`raw`]) and keeps its answer under `name`.
    fn send<E: Endpoint>(
        &mut self,
        name: &'static str,
        key: (&str, &str),
        endpoint: &E,
    ) -> (u16, Value) {
        let (status, body) = raw(self.sandbox, key, endpoint);
        self.list.push((name, status, body.clone()));
        (status, body)
    }
}

static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[test]
fn the_sandbox_s_answers_conform_to_the_spec_s_schemas() {
    let sandbox = Sandbox::builder()
        .investment_minute(std::time::Duration::from_millis(1))
        .start()
        .unwrap();
    let partner = (demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET);
    let regular = (demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET);
    let plan = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";
    let mut answers = Answers {
        sandbox: &sandbox,
        list: Vec::new(),
    };
    answers.send("smart_plans", partner, &SmartPlansQuery::new());
    let invest = Invest::new(plan, "250").unwrap();
    let (status, new) = answers.send("invest", partner, &invest);
    assert_eq!(status, 201, "{new}");
    let id = new["id"].as_str().unwrap().to_owned();
    answers.send("investments", partner, &InvestmentsQuery::new());
    std::thread::sleep(std::time::Duration::from_millis(50));
    let close = CloseInvestment::new(&id).unwrap();
    answers.send("close_investment", partner, &close);
    answers.send("investments", partner, &InvestmentsQuery::new());
    answers.send("interest_payments", partner, &InterestPaymentsQuery::new());
    // Refusals: field errors (400), inner ones (422), the permission (403).
    let no_plan = Invest::new("no-such-plan", "250").unwrap();
    answers.send("invest", partner, &no_plan);
    answers.send("invest", partner, &Invest::new(plan, "50").unwrap());
    answers.send("close_investment", partner, &close);
    let nope = CloseInvestment::new("nope").unwrap();
    answers.send("close_investment", partner, &nope);
    let bad_ticker = InvestmentsQuery::builder().ticker("NOPE").build().unwrap();
    answers.send("investments", partner, &bad_ticker);
    answers.send("interest_payments", regular, &InterestPaymentsQuery::new());
    answers.send("smart_plans", regular, &SmartPlansQuery::new());
    let answers = answers.list;

    let spec = spec();
    for (name, status, body) in &answers {
        let problems = answer_problems(name, *status, body);
        assert!(problems.is_empty(), "{name} {status} {body}: {problems:?}");
        let documented = &spec["endpoints"][*name];
        let statuses: Vec<u64> = std::iter::once(&documented["success"])
            .chain(documented["errors"].as_array().unwrap())
            .filter_map(|a| a["status"].as_u64())
            .collect();
        assert!(
            statuses.contains(&u64::from(*status)),
            "{name}: undocumented status {status}"
        );
    }
    // Each endpoint's success answer was among them, with something in the lists.
    let successes: Vec<&str> = answers
        .iter()
        .filter(|(name, status, _)| {
            u64::from(*status)
                == spec["endpoints"][*name]["success"]["status"]
                    .as_u64()
                    .unwrap()
        })
        .map(|(name, ..)| *name)
        .collect();
    for name in [
        "smart_plans",
        "invest",
        "close_investment",
        "investments",
        "interest_payments",
    ] {
        assert!(successes.contains(&name), "{name}");
    }
    let payments = answers
        .iter()
        .find(|(n, s, _)| *n == "interest_payments" && *s == 200);
    assert_eq!(payments.unwrap().2["records"].as_array().unwrap().len(), 1);
}

scenarios!(the_spec_s_examples_decode);

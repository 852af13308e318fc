//! The decimal fields (`amount`, `activation_price`, `stopLoss`, `takeProfit`) over real
//! HTTP, against an independent statement of the docs' rule: "should be numeric string or
//! number", then "should be greater than 0" (exchange-docs-notes §7.5), with "numeric string"
//! read as PHP's `is_numeric` (a regular expression from PHP's manual, not the sandbox's
//! parser), `null` as absent.
//!
//! Values: numeric-looking strings (signs, dots, exponents, whitespace), arbitrary text, JSON
//! integers and doubles of every sign and size, booleans, arrays, objects and `null`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::sync::LazyLock;

use common::*;
use proptest::prelude::*;
use regex_lite::Regex;
use serde_json::{Map, Value, json};
use txc_sandbox::Sandbox;

/// PHP's numeric string: whitespace, sign, `LNUM` or `DNUM`, optional exponent, whitespace.
static NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[ \t\n\r\x0B\x0C]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\x0B\x0C]*$")
        .unwrap()
});

/// What the docs' rule says of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Docs {
    /// Absent: "… field is required." for a required field, nothing for an optional one.
    Absent,
    NotNumeric,
    NotPositive,
    Positive,
}

fn docs(value: &Value) -> Docs {
    match value {
        Value::Null => Docs::Absent,
        Value::Number(n) => {
            if n.as_f64().is_some_and(|f| f > 0.0) {
                Docs::Positive
            } else {
                Docs::NotPositive
            }
        }
        Value::String(s) if NUMERIC.is_match(s) => {
            let t = s.trim_matches(|c| " \t\n\r\x0B\x0C".contains(c));
            let mantissa = t.split(['e', 'E']).next().unwrap_or_default();
            if !t.starts_with('-') && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
                Docs::Positive
            } else {
                Docs::NotPositive
            }
        }
        _ => Docs::NotNumeric,
    }
}

/// One of the four fields: (field, endpoint path, code, required).
fn field() -> impl Strategy<Value = (&'static str, &'static str, i64, bool)> {
    prop_oneof![
        Just(("amount", MARKET_PATH, 32, true)),
        Just(("activation_price", TRIGGER_PATH, 33, true)),
        Just(("stopLoss", MARKET_PATH, 33, false)),
        Just(("takeProfit", TRIGGER_PATH, 33, false)),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => r"[ \t\n]{0,1}[+-]?[0-9]{0,3}(\.[0-9]{0,3})?([eE][+-]?[0-9]{0,2})?[ \t\x0B]{0,1}"
            .prop_map(Value::String),
        1 => r"[0-9]{25,40}(\.[0-9]{0,5})?".prop_map(Value::String),
        2 => "\\PC{0,6}".prop_map(Value::String),
        1 => prop_oneof![Just("0x1A"), Just("1_000"), Just("1,5"), Just("NaN"), Just("INF"),
            Just("١٢"), Just("1e"), Just("."), Just("")]
            .prop_map(|s| Value::String(s.to_owned())),
        2 => any::<i64>().prop_map(Value::from),
        2 => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        1 => prop_oneof![Just(json!(true)), Just(json!(null)), Just(json!([])), Just(json!({})),
            Just(json!([1])), Just(json!({"v":"1"}))],
    ]
}

/// An otherwise valid body for `path` with `field` set to `value`.
fn body_with(path: &str, field: &str, value: &Value) -> String {
    let mut map = Map::new();
    map.insert("request".into(), json!(path));
    map.insert("nonce".into(), json!(next_nonce()));
    map.insert("nonceWindow".into(), json!(true));
    map.insert("market".into(), json!("BTC_USDT"));
    map.insert("side".into(), json!("buy"));
    map.insert("amount".into(), json!("0.001"));
    if path == TRIGGER_PATH {
        // Above the price: the order rests and changes no balance.
        map.insert("activation_price".into(), json!("90000"));
    }
    map.insert(field.into(), value.clone());
    Value::Object(map).to_string()
}

static SANDBOX: LazyLock<Sandbox> = LazyLock::new(|| {
    Sandbox::builder()
        .account(
            txc_sandbox::AccountConfig::new(PARTNER.0, PARTNER.1)
                .partner(true)
                .balance("USDT", "100000000"),
        )
        .start()
        .unwrap()
});

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn sandbox_agrees_with_the_docs((field, path, code, required) in field(), value in value()) {
        let reply = send_hand_signed(&SANDBOX, PARTNER, path, &body_with(path, field, &value));
        let answer = reply.json();
        let messages: Vec<String> = answer["errors"][field]
            .as_array()
            .map(|a| a.iter().map(|m| m.as_str().unwrap_or_default().to_owned()).collect())
            .unwrap_or_default();
        let label = {
            let mut c = field.chars();
            c.next().unwrap().to_ascii_uppercase().to_string() + c.as_str()
        };
        let not_numeric = format!("{label} field should be numeric string or number.");
        let not_positive = format!("{label} should be greater than 0.");
        let context = format!("{field} = {value} → {} {}", reply.status, reply.text());
        match docs(&value) {
            Docs::Absent if required => {
                prop_assert_eq!(reply.status, 422, "{}", context);
                prop_assert_eq!(&answer["code"], &json!(30), "{}", context);
                prop_assert_eq!(messages, vec![format!("{label} field is required.")], "{}", context);
            }
            Docs::NotNumeric => {
                prop_assert_eq!(reply.status, 422, "{}", context);
                prop_assert_eq!(&answer["code"], &json!(code), "{}", context);
                prop_assert_eq!(messages, vec![not_numeric], "{}", context);
            }
            Docs::NotPositive => {
                prop_assert_eq!(reply.status, 422, "{}", context);
                prop_assert_eq!(&answer["code"], &json!(code), "{}", context);
                prop_assert_eq!(messages, vec![not_positive], "{}", context);
            }
            Docs::Absent | Docs::Positive => {
                // Accepted by the field rule: placed, or refused for another reason (minimum,
                // step, balance, a value beyond the sandbox's decimals), never by this rule.
                prop_assert!(!messages.contains(&not_numeric), "{}", context);
                prop_assert!(!messages.contains(&not_positive), "{}", context);
                prop_assert!(reply.status == 200 || answer["code"] != json!(30), "{}", context);
            }
        }
    }
}

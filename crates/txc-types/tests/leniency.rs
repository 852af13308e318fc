//! The one leniency rule, as properties over every field of the response objects: each
//! accepted spelling of a value decodes to that value, `null` is absent, and a value of an
//! unexpected type is kept in `extra` (or, for a field the object cannot do without, is an error
//! naming the field) — never dropped silently, never a panic.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use serde_json::{Value, json};
use txc_types::investments::InvestmentPlan;
use txc_types::orders::Order;

/// How a field is written on the wire.
#[derive(Debug, Clone, Copy)]
enum Spelling {
    /// `"…"`.
    String,
    /// The bare JSON literal (numbers, `true`/`false`).
    Bare,
    /// `0`/`1` for flags.
    Digit,
}

/// A field's canonical value and what kind of value it is.
#[derive(Debug, Clone)]
enum Field {
    Int(u64),
    Decimal(String),
    Flag(bool),
    Text(String),
}

impl Field {
    /// The field written in `spelling` (falling back to the canonical form where a spelling
    /// does not apply).
    fn write(&self, spelling: Spelling) -> String {
        match (self, spelling) {
            (Self::Int(n), Spelling::String) => format!("\"{n}\""),
            (Self::Int(n), _) => n.to_string(),
            (Self::Decimal(d), Spelling::String) => format!("\"{d}\""),
            (Self::Decimal(d), _) => d.clone(),
            (Self::Flag(b), Spelling::String) => format!("\"{b}\""),
            (Self::Flag(b), Spelling::Bare) => b.to_string(),
            (Self::Flag(b), Spelling::Digit) => u8::from(*b).to_string(),
            (Self::Text(t), _) => format!("\"{t}\""),
        }
    }

    /// The canonical JSON of the field, as the exchange documents it.
    fn canonical(&self) -> String {
        match self {
            Self::Int(n) => n.to_string(),
            Self::Flag(b) => b.to_string(),
            Self::Decimal(d) | Self::Text(d) => format!("\"{d}\""),
        }
    }
}

fn spelling() -> impl Strategy<Value = Spelling> {
    prop_oneof![
        Just(Spelling::String),
        Just(Spelling::Bare),
        Just(Spelling::Digit)
    ]
}

fn decimal() -> impl Strategy<Value = String> {
    "(0|[1-9][0-9]{0,12})(\\.[0-9]{1,12})?"
}

/// The fields of an order answer, with values; optional ones may be missing.
fn order_fields() -> impl Strategy<Value = Vec<(&'static str, Option<Field>)>> {
    (
        any::<u64>(),
        "[1-9][0-9]{9}\\.[0-9]{1,9}",
        proptest::array::uniform4(decimal()),
        proptest::option::of(decimal()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(decimal()),
        proptest::option::of("[a-z0-9]{1,10}"),
    )
        .prop_map(
            |(id, ts, [money, stock, amount, left], fee, reduce, activated, act, coid)| {
                vec![
                    ("orderId", Some(Field::Int(id))),
                    ("market", Some(Field::Text("BTC_USDT".into()))),
                    ("side", Some(Field::Text("buy".into()))),
                    ("type", Some(Field::Text("market".into()))),
                    ("timestamp", Some(Field::Decimal(ts))),
                    ("dealMoney", Some(Field::Decimal(money))),
                    ("dealStock", Some(Field::Decimal(stock))),
                    ("amount", Some(Field::Decimal(amount))),
                    ("left", Some(Field::Decimal(left))),
                    ("dealFee", fee.map(Field::Decimal)),
                    ("reduceOnly", reduce.map(Field::Flag)),
                    ("activated", activated.map(Field::Flag)),
                    ("activation_price", act.map(Field::Decimal)),
                    ("clientOrderId", coid.map(Field::Text)),
                ]
            },
        )
}

/// Writes an object from fields; a missing optional field is left out, or written `null`.
fn object(
    fields: &[(&str, Option<Field>)],
    spell: impl Fn(usize, &Field) -> String,
    nulls: &[bool],
) -> String {
    let parts: Vec<String> = fields
        .iter()
        .enumerate()
        .filter_map(|(i, (name, value))| match value {
            Some(v) => Some(format!("\"{name}\":{}", spell(i, v))),
            None if nulls.get(i).copied().unwrap_or(false) => Some(format!("\"{name}\":null")),
            None => None,
        })
        .collect();
    format!("{{{}}}", parts.join(","))
}

proptest! {
    #[test]
    fn every_spelling_of_an_order_decodes_to_the_same_order(
        fields in order_fields(),
        spellings in proptest::collection::vec(spelling(), 14),
        nulls in proptest::collection::vec(any::<bool>(), 14),
        oto in 0..3u8,
    ) {
        let canonical = object(&fields, |_, f| f.canonical(), &[]);
        let varied = object(&fields, |i, f| f.write(spellings[i]), &nulls);
        // PHP's `[]` for an empty object, `null` and absence all mean "no OTO group".
        let oto_text = ["", ",\"oto\":null", ",\"oto\":[]"][usize::from(oto)];
        let varied = format!("{}{oto_text}}}", varied.trim_end_matches('}'));
        let a: Order = serde_json::from_str(&canonical).unwrap();
        let b: Order = serde_json::from_str(&varied).map_err(|e| TestCaseError::fail(format!("{varied}: {e}")))?;
        prop_assert_eq!(&a, &b, "{}", varied);
        prop_assert!(b.extra.is_empty());
    }

    #[test]
    fn a_value_of_an_unexpected_type_is_kept_or_named_never_dropped(
        field in 0..23usize,
        wrong in prop_oneof![
            Just(json!({"a": 1})),
            Just(json!([1, 2])),
            Just(json!(true)),
            Just(json!("not a number")),
            Just(json!(-7.5)),
        ],
    ) {
        let mut v: Value = serde_json::from_str(DOCUMENTED).unwrap();
        let names = [
            "orderId", "clientOrderId", "market", "side", "type", "timestamp", "dealMoney",
            "dealStock", "amount", "left", "dealFee", "feeAsset", "price", "takerFee", "makerFee",
            "status", "stp", "oto", "positionSide", "reduceOnly", "activation_price", "activated",
            "activationCondition",
        ];
        let name = names[field];
        v[name] = wrong.clone();
        let text = v.to_string();
        let required = [
            "orderId", "market", "side", "type", "timestamp", "dealMoney", "dealStock", "amount",
            "left",
        ];
        match serde_json::from_str::<Order>(&text) {
            Ok(mut order) => {
                // Either some spelling fits (text fields take numbers, open enums take any
                // text), so the order differs from one without the field, or the value is kept
                // under its own key and the order is otherwise the one without the field.
                let kept = order.extra.remove(name);
                v.as_object_mut().unwrap().remove(name);
                let baseline = serde_json::from_str::<Order>(&v.to_string());
                match (kept, baseline) {
                    (Some(kept), Ok(baseline)) => {
                        prop_assert_eq!(&kept, &wrong);
                        prop_assert_eq!(order, baseline, "{}", text);
                    }
                    (None, Ok(baseline)) => prop_assert_ne!(order, baseline, "{} was dropped", name),
                    (None, Err(_)) => prop_assert!(required.contains(&name)),
                    (Some(_), Err(e)) => prop_assert!(false, "{name} kept yet required: {e}"),
                }
            }
            Err(e) => {
                prop_assert!(required.contains(&name), "{name} failed the answer: {e}");
                prop_assert!(e.to_string().contains(name), "{e}");
            }
        }
    }

    #[test]
    fn every_spelling_of_a_plan_decodes_to_the_same_plan(
        duration in any::<u32>(),
        status in 1..10i64,
        figures in proptest::array::uniform5(decimal()),
        spellings in proptest::collection::vec(spelling(), 7),
    ) {
        let [percent, ratio, min, max, possible] = figures;
        let fields = vec![
            ("id", Some(Field::Text("p-1".into()))),
            ("ticker", Some(Field::Text("USDT".into()))),
            ("interestTicker", Some(Field::Text("USDT".into()))),
            ("status", Some(Field::Int(status.unsigned_abs()))),
            ("duration", Some(Field::Int(u64::from(duration)))),
            ("percent", Some(Field::Decimal(percent))),
            ("interestRatio", Some(Field::Decimal(ratio))),
            ("minInvestment", Some(Field::Decimal(min))),
            ("maxInvestment", Some(Field::Decimal(max))),
            ("maxPossibleInvestment", Some(Field::Decimal(possible))),
        ];
        let canonical = object(&fields, |_, f| f.canonical(), &[]);
        let varied = object(&fields, |i, f| f.write(spellings[i % spellings.len()]), &[]);
        let a: InvestmentPlan = serde_json::from_str(&canonical).unwrap();
        let b: InvestmentPlan = serde_json::from_str(&varied).unwrap();
        prop_assert_eq!(a, b);
    }
}

const DOCUMENTED: &str = include_str!("fixtures/order_documented.json");

/// Answer texts have the request types but not their rules: the exchange is the authority on
/// what it sends, so a market, `clientOrderId` or ticker the request side would refuse is kept
/// as sent, and `""` is still "no clientOrderId".
#[test]
fn answer_texts_the_request_rules_refuse_are_kept_as_sent() {
    let mut v: Value = serde_json::from_str(DOCUMENTED).unwrap();
    v["market"] = json!("btc usdt");
    v["clientOrderId"] = json!("a/b with spaces");
    let order: Order = serde_json::from_str(&v.to_string()).unwrap();
    assert!("btc usdt".parse::<txc_types::values::Market>().is_err());
    assert_eq!(order.market, "btc usdt");
    assert_eq!(order.client_order_id.unwrap(), "a/b with spaces");
    assert!(order.extra.is_empty());

    v["clientOrderId"] = json!("");
    let order: Order = serde_json::from_str(&v.to_string()).unwrap();
    assert_eq!(order.client_order_id, None);
    assert!(order.extra.is_empty());

    let plan: InvestmentPlan = serde_json::from_str(
        r#"{"id":"p","ticker":"usdt","status":1,"percent":"1","duration":1,
            "interestTicker":"a-b","interestRatio":"1","minInvestment":"1",
            "maxInvestment":"1","maxPossibleInvestment":"1"}"#,
    )
    .unwrap();
    assert_eq!(
        (plan.ticker.as_str(), plan.interest_ticker.as_str()),
        ("usdt", "a-b")
    );
}

//! Positional records read in place against the way they were read before: [`split`] finds the
//! same elements as serde's parse of the array, and [`Elements::get`] — each element's text
//! converted directly — gives the same value and keeps the same mismatches as the previous
//! reader, a JSON deserializer per element (`deserialize_value`), for every type a record
//! reads; a deal decodes alike from its text and from the frame's raw `params`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fmt::Debug;

use proptest::prelude::*;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::{Elements, Items, split};
use crate::events::codes::SideCode;
use crate::events::{Deal, DealRole, EventDecodeError, OrderEvent, PositionEvent};
use crate::lenient::{FromWire, deserialize_value};
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// The previous reader of element `index`: a deserializer on its text, by the field rule, and
/// the element kept under its position when no spelling fits.
fn before<T: FromWire>(
    items: &[&RawValue],
    extra: &mut Map<String, Value>,
    index: usize,
) -> Option<T> {
    let raw = *items.get(index)?;
    let mut reader = serde_json::Deserializer::from_str(raw.get());
    match deserialize_value::<_, T>(&mut reader) {
        Ok(value) => value,
        Err(_) => {
            let kept = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
            extra.insert(index.to_string(), kept);
            None
        }
    }
}

/// Element `index` read as `T` both ways: the same value (by its `Debug`) and the same kept.
fn same_as_before<T: FromWire + Debug>(text: &str, index: usize) {
    let items: Vec<&RawValue> = serde_json::from_str(text).unwrap();
    let mut kept_before = Map::new();
    let old = before::<T>(&items, &mut kept_before, index);
    let mut elements = Elements::new(text, "probe").unwrap();
    let new = elements.get::<T>(index);
    assert_eq!(format!("{new:?}"), format!("{old:?}"), "{text} [{index}]");
    assert_eq!(elements.extra, kept_before, "{text} [{index}]");
}

/// A JSON value of any shape, strings with escapes and non-ASCII text included.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e12..1e12_f64).prop_map(Value::from),
        "[a-zA-Z0-9_.,\\[\\]{}:\" \\\\/\\-é€\u{1F600}\t\n]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\",\\]]{0,4}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value a deal's element may be sent as: every spelling its fields accept and some none
/// does.
fn element() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_owned()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| format!("\"{n}\"")),
        any::<i32>().prop_map(|n| n.to_string()),
        (0_u32..10_000, 0_u32..1_000_000).prop_map(|(s, f)| format!("{s}.{f}")),
        (0_u32..10_000, 0_u32..1_000_000).prop_map(|(s, f)| format!("\"{s}.{f}\"")),
        Just("7.0".to_owned()),
        Just("1e3".to_owned()),
        Just("\" 12 \"".to_owned()),
        prop_oneof![
            Just("1"),
            Just("2"),
            Just("\"1\""),
            Just("\"2\""),
            Just("3")
        ]
        .prop_map(str::to_owned),
        prop_oneof![
            Just("\"BTC_USDT\""),
            Just("\"ETH\""),
            Just("\"\""),
            Just("\"a\\\"b\""),
            Just("\"\\u0041BC\""),
            Just("\"maker\""),
            Just("\"taker\""),
        ]
        .prop_map(str::to_owned),
        any::<bool>().prop_map(|b| b.to_string()),
        any_json().prop_map(|v| v.to_string()),
    ]
}

/// An array of `elements`, with whitespace around each when `spaced`.
fn array(elements: &[String], spaced: bool) -> String {
    let gap = if spaced { " \n\t" } else { "" };
    let inner: Vec<String> = elements.iter().map(|e| format!("{gap}{e}{gap}")).collect();
    format!("[{}]", inner.join(","))
}

proptest! {
    #[test]
    fn split_finds_the_elements_serde_finds(value in any_json(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            value.to_string()
        };
        let raw: Box<RawValue> = serde_json::from_str(&text).unwrap();
        let by_serde = serde_json::from_str::<Items<'_>>(raw.get()).ok().map(|items| items.0);
        prop_assert_eq!(split(&raw), by_serde);
    }

    #[test]
    fn every_element_reads_as_before(
        elements in prop::collection::vec(element(), 0..14),
        spaced in any::<bool>(),
    ) {
        let text = array(&elements, spaced);
        for index in 0..=elements.len() {
            same_as_before::<u64>(&text, index);
            same_as_before::<i64>(&text, index);
            same_as_before::<bool>(&text, index);
            same_as_before::<String>(&text, index);
            same_as_before::<Timestamp>(&text, index);
            same_as_before::<Market>(&text, index);
            same_as_before::<ExactDecimal>(&text, index);
            same_as_before::<ClientOrderId>(&text, index);
            same_as_before::<SideCode>(&text, index);
            same_as_before::<DealRole>(&text, index);
        }
    }

    #[test]
    fn a_record_decodes_alike_from_its_text_and_from_the_frame(
        elements in prop::collection::vec(element(), 0..14),
        spaced in any::<bool>(),
    ) {
        let text = array(&elements, spaced);
        let raw: Box<RawValue> = serde_json::from_str(&text).unwrap();
        let deal = |r: Result<Deal, EventDecodeError>| r.map_err(|e| e.to_string());
        prop_assert_eq!(deal(Deal::from_params(&text)), deal(Deal::from_raw_params(&raw)));
        let order = |r: Result<OrderEvent, EventDecodeError>| r.map_err(|e| e.to_string());
        prop_assert_eq!(
            order(OrderEvent::from_params(&text)),
            order(OrderEvent::from_raw_params(&raw))
        );
        let position = |r: Result<PositionEvent, EventDecodeError>| r.map_err(|e| e.to_string());
        prop_assert_eq!(position(PositionEvent::from_params(&text)), position(PositionEvent::from_raw_params(&raw)));
    }
}

#[test]
fn what_is_not_an_array_is_refused_alike_both_ways() {
    for text in [r#"{"a":[1,2]}"#, "7", r#""[1,2]""#, "null", "true"] {
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap();
        assert_eq!(split(&raw), None, "{text}");
        assert_eq!(
            Deal::from_params(text).map_err(|e| e.to_string()),
            Deal::from_raw_params(&raw).map_err(|e| e.to_string()),
        );
    }
    let deal = json!([1, "2.5", "BTC_USDT", 4, "1", "2", null, "", 2, 2, "USDT", [5, {"x": "]"}]]);
    let raw = RawValue::from_string(deal.to_string()).unwrap();
    let read = Deal::from_raw_params(&raw).unwrap();
    assert_eq!(read.extra.get("11"), Some(&json!([5, {"x": "]"}])));
    assert_eq!(read, Deal::from_params(raw.get()).unwrap());
}

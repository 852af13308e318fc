//! `#[derive(Answer)]`'s `Serialize` against serde's derive: a record using every way the
//! derive writes a field, and a twin of it deriving serde's `Serialize` with the attributes
//! that said the same before, write the same text for any value.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};
use txc_derive::Answer;

use crate::values::text::Unchecked;
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// Every kind of field the derive writes.
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a probe object")]
struct Probe {
    order_id: u64,
    deal_fee: Option<ExactDecimal>,
    #[serde(rename = "type")]
    order_type: Option<String>,
    #[serde(rename = "activation_price")]
    activation_price: Option<ExactDecimal>,
    #[serde(serialize_with = "as_digit")]
    activated: Option<bool>,
    #[serde(serialize_with = "empty_when_none")]
    #[answer(with = "crate::lenient::empty_is_none", always)]
    client_order_id: Option<ClientOrderId>,
    #[answer(always)]
    note: Option<String>,
    #[serde(skip_serializing)]
    #[answer(missing = "unlisted")]
    market: Market,
    #[serde(serialize_with = "seconds")]
    time: Timestamp,
    #[answer(with = "crate::lenient::object")]
    inner: Option<Inner>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an inner object")]
struct Inner {
    inner_id: u64,
    stop_loss: Option<ExactDecimal>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

/// [`Probe`] as serde's derive writes it, with the attributes the derive's rules replace.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Twin {
    order_id: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    deal_fee: Option<ExactDecimal>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    order_type: Option<String>,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    activation_price: Option<ExactDecimal>,
    #[serde(serialize_with = "as_digit", skip_serializing_if = "Option::is_none")]
    activated: Option<bool>,
    #[serde(serialize_with = "empty_when_none")]
    client_order_id: Option<ClientOrderId>,
    note: Option<String>,
    #[serde(skip_serializing)]
    #[allow(dead_code, reason = "mirrors Probe's field, which neither writes")]
    market: Market,
    #[serde(serialize_with = "seconds")]
    time: Timestamp,
    #[serde(skip_serializing_if = "Option::is_none")]
    inner: Option<InnerTwin>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InnerTwin {
    inner_id: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_loss: Option<ExactDecimal>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

impl From<&Probe> for Twin {
    fn from(p: &Probe) -> Self {
        Self {
            order_id: p.order_id,
            deal_fee: p.deal_fee.clone(),
            order_type: p.order_type.clone(),
            activation_price: p.activation_price.clone(),
            activated: p.activated,
            client_order_id: p.client_order_id.clone(),
            note: p.note.clone(),
            market: p.market.clone(),
            time: p.time.clone(),
            inner: p.inner.as_ref().map(|i| InnerTwin {
                inner_id: i.inner_id,
                stop_loss: i.stop_loss.clone(),
                extra: i.extra.clone(),
            }),
            extra: p.extra.clone(),
        }
    }
}

fn unlisted() -> Market {
    Market::unchecked(String::new())
}

fn as_digit<S: Serializer>(v: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(b) => s.serialize_u8(u8::from(*b)),
        None => s.serialize_none(),
    }
}

fn empty_when_none<S: Serializer>(v: &Option<ClientOrderId>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.as_ref().map_or("", ClientOrderId::as_str))
}

fn seconds<S: Serializer>(time: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(time.unix_seconds())
}

/// A JSON value of any kind, small.
fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u32>().prop_map(|n| json!(n)),
        "[a-z0-9. ]{0,6}".prop_map(Value::String),
        proptest::collection::vec(any::<u8>(), 0..3).prop_map(|v| json!(v)),
    ]
}

/// A probe object: each field absent, of its type, or of any other kind; unknown keys beside.
fn probe_object() -> impl Strategy<Value = Value> {
    let field = |typed: BoxedStrategy<Value>| {
        prop_oneof![2 => typed, 1 => any_value()]
            .prop_map(Some)
            .boxed()
    };
    let maybe =
        |typed: BoxedStrategy<Value>| prop_oneof![1 => Just(None), 3 => field(typed)].boxed();
    let decimal = "-?[0-9]{1,4}(\\.[0-9]{1,3})?"
        .prop_map(Value::String)
        .boxed();
    let text = "[a-z_-]{0,8}".prop_map(Value::String).boxed();
    let flag = any::<bool>().prop_map(Value::Bool).boxed();
    let inner = (
        any::<u32>(),
        proptest::option::of("[0-9]{1,3}"),
        any_value(),
    )
        .prop_map(|(id, sl, x)| json!({"innerId": id, "stopLoss": sl, "zz": x}))
        .boxed();
    (
        (
            maybe(decimal.clone()),
            maybe(text.clone()),
            maybe(decimal),
            maybe(flag),
            maybe(text.clone()),
        ),
        (
            maybe(text.clone()),
            maybe(text),
            maybe(inner),
            proptest::collection::btree_map("[a-z]{1,4}", any_value(), 0..3),
            any::<u32>(),
            any::<u32>(),
        ),
    )
        .prop_map(
            |((fee, kind, activation, activated, id), (note, market, inner, unknown, oid, t))| {
                let known = [
                    ("orderId", Some(json!(oid))),
                    ("time", Some(json!(t))),
                    ("dealFee", fee),
                    ("type", kind),
                    ("activation_price", activation),
                    ("activated", activated),
                    ("clientOrderId", id),
                    ("note", note),
                    ("market", market),
                    ("inner", inner),
                ]
                .into_iter()
                .filter_map(|(key, value)| Some((key.to_owned(), value?)));
                // The unknown keys first: where one is a known key, the known value wins.
                Value::Object(unknown.into_iter().chain(known).collect())
            },
        )
}

proptest! {
    #[test]
    fn the_derived_serialize_writes_what_serde_derive_wrote(object in probe_object()) {
        let text = object.to_string();
        let Ok(probe) = serde_json::from_str::<Probe>(&text) else {
            return Ok(());
        };
        let twin = Twin::from(&probe);
        prop_assert_eq!(
            serde_json::to_string(&probe).unwrap(),
            serde_json::to_string(&twin).unwrap()
        );
        prop_assert_eq!(
            serde_json::to_string_pretty(&probe).unwrap(),
            serde_json::to_string_pretty(&twin).unwrap()
        );
    }
}

#[test]
fn every_way_of_writing_a_field_is_exercised() {
    let probe: Probe = serde_json::from_str(
        r#"{"orderId":1,"dealFee":"0.5","type":"market","activation_price":"7","activated":1,
            "clientOrderId":"","note":null,"market":"BTC_USDT","time":"1631451591.5",
            "inner":{"innerId":2,"zz":3},"zz":[1]}"#,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(&probe).unwrap(),
        r#"{"orderId":1,"dealFee":"0.5","type":"market","activation_price":"7","activated":1,"clientOrderId":"","note":null,"time":1631451591,"inner":{"innerId":2,"zz":3},"zz":[1]}"#
    );
}

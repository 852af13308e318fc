//! Reading the exchange's positional records — a deal is an 11-element array — by the crate's
//! one leniency rule: each element converted by its type's [`FromWire`], `null` meaning
//! absent, and an element no spelling fits (or one past the known positions) kept in `extra`
//! under its position, never dropped.

use std::fmt;

use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::EventDecodeError;
use crate::lenient::{FromWire, Raw};

/// Reads the `params` `[event, record]` of the update `what` from its `elements`: the event's
/// code, the record (named `record` in errors) by its own rule, and the elements past the
/// two, kept.
pub(crate) fn event_and_record<K: FromWire, R: DeserializeOwned>(
    mut elements: Elements<'_>,
    record: &str,
) -> Result<(K, R, Map<String, Value>), EventDecodeError> {
    let what = elements.what;
    let kind = elements.require(0, "event")?;
    let raw = elements
        .raw(1)
        .ok_or_else(|| EventDecodeError::new(what, format!("element 1 ({record}) is required")))?;
    let value = serde_json::from_str(raw)
        .map_err(|e| EventDecodeError::new(what, format!("the {record}: {e}")))?;
    Ok((kind, value, elements.finish(2)))
}

/// The elements of a JSON array, read as exact text, and what was kept of them.
pub(crate) struct Elements<'a> {
    /// Each element's exact JSON text, without surrounding whitespace.
    items: Vec<&'a str>,
    what: &'static str,
    /// Elements that fit no spelling of their type, and those past the known positions, by
    /// position.
    pub(crate) extra: Map<String, Value>,
}

impl<'a> Elements<'a> {
    /// The elements of the array `text`; an error when it is not an array.
    pub(crate) fn new(text: &'a str, what: &'static str) -> Result<Self, EventDecodeError> {
        let Items(items) = serde_json::from_str(text)
            .map_err(|e| EventDecodeError::new(what, format!("not an array: {e}")))?;
        Ok(Self {
            items,
            what,
            extra: Map::new(),
        })
    }

    /// The elements of the array `raw`, already read as JSON (a frame's `params`): split where
    /// they end, without reading the text through a parser a second time. The same elements
    /// as [`Elements::new`] on its text, and the same error when it is not an array.
    pub(crate) fn of(raw: &'a RawValue, what: &'static str) -> Result<Self, EventDecodeError> {
        match split(raw) {
            Some(items) => Ok(Self {
                items,
                what,
                extra: Map::new(),
            }),
            None => Self::new(raw.get(), what),
        }
    }

    /// The element at `index` as `T`: `None` when absent or `null`, or kept in `extra` when
    /// no spelling fits.
    ///
    /// The element's exact text is converted directly — the same [`Raw::scalar`] and
    /// [`FromWire`] an object's field goes through, without a deserializer per element.
    pub(crate) fn get<T: FromWire>(&mut self, index: usize) -> Option<T> {
        let text = *self.items.get(index)?;
        let value = Raw::new(text).scalar()?;
        let converted = T::from_wire(&value);
        if converted.is_none() {
            self.extra.insert(index.to_string(), value.into_value());
        }
        converted
    }

    /// The element at `index` as `T`, which the record cannot do without.
    pub(crate) fn require<T: FromWire>(
        &mut self,
        index: usize,
        name: &'static str,
    ) -> Result<T, EventDecodeError> {
        self.get(index).ok_or_else(|| {
            let found = self
                .extra
                .get(&index.to_string())
                .map_or_else(|| "nothing".to_owned(), Value::to_string);
            EventDecodeError::new(
                self.what,
                format!("element {index} ({name}) is required; found {found}"),
            )
        })
    }

    /// The element at `index` as JSON text, for a nested record.
    pub(crate) fn raw(&self, index: usize) -> Option<&'a str> {
        self.items.get(index).copied()
    }

    /// Keeps every element from `known` on in `extra`, and returns what was kept.
    pub(crate) fn finish(mut self, known: usize) -> Map<String, Value> {
        for (index, text) in self.items.iter().enumerate().skip(known) {
            let kept = serde_json::from_str(text).unwrap_or(Value::Null);
            self.extra.insert(index.to_string(), kept);
        }
        self.extra
    }
}

/// The elements of `raw` when it is an array, as their exact text: its top-level commas
/// found by a scan that skips strings (and their escapes) and nested values. Sound only on
/// valid JSON — which a [`RawValue`] always is.
fn split(raw: &RawValue) -> Option<Vec<&str>> {
    let inner = raw
        .get()
        .trim_ascii()
        .strip_prefix('[')?
        .strip_suffix(']')?;
    let bytes = inner.as_bytes();
    let mut items = Vec::with_capacity(ELEMENTS);
    let (mut depth, mut start, mut at) = (0_usize, 0, 0);
    // Straight to the next byte that matters: anything else is inside a number or a word.
    let structural = |b: &u8| matches!(b, b'"' | b',' | b'[' | b']' | b'{' | b'}');
    while let Some(skip) = bytes
        .get(at..)
        .and_then(|rest| rest.iter().position(structural))
    {
        at = at.saturating_add(skip);
        match bytes.get(at).copied().unwrap_or_default() {
            // A string: on to its closing quote, stepping over each escaped character.
            b'"' => loop {
                let rest = bytes.get(at.saturating_add(1)..)?;
                let stop = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
                at = at.saturating_add(1).saturating_add(stop);
                if bytes.get(at) == Some(&b'"') {
                    break;
                }
                at = at.saturating_add(1);
            },
            b'[' | b'{' => depth = depth.saturating_add(1),
            b']' | b'}' => depth = depth.saturating_sub(1),
            // A comma is one byte: `start..at` and `at + 1` fall on characters' bounds.
            b',' if depth == 0 => {
                items.push(inner.get(start..at)?.trim_ascii());
                start = at.saturating_add(1);
            }
            _ => {}
        }
        at = at.saturating_add(1);
    }
    let last = inner.get(start..)?.trim_ascii();
    if !last.is_empty() || !items.is_empty() {
        items.push(last);
    }
    Some(items)
}

/// The elements of an array as exact text, in a list sized for a record at once: serde's
/// `Vec` starts empty (the parser gives no length) and grew four times for a deal, half of the
/// record's decoding.
struct Items<'a>(Vec<&'a str>);

/// The elements a list is made for; a longer array grows it.
const ELEMENTS: usize = 16;

impl<'de> Deserialize<'de> for Items<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Array;
        impl<'de> Visitor<'de> for Array {
            type Value = Items<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // serde's words for a `Vec`, which read these arrays before.
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items<'de>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(ELEMENTS));
                while let Some(item) = seq.next_element::<&RawValue>()? {
                    items.push(item.get());
                }
                Ok(Items(items))
            }
        }
        d.deserialize_seq(Array)
    }
}

#[cfg(test)]
mod tests {
    use crate::events::{OrderEvent, PositionEvent};

    #[test]
    fn an_event_without_its_record_or_with_a_bad_one_says_which() {
        let reasons = [
            OrderEvent::from_params("[1]").map(|_| ()),
            OrderEvent::from_params("[1,7]").map(|_| ()),
            PositionEvent::from_params("[2]").map(|_| ()),
            PositionEvent::from_params(r#"[null,{"id":1}]"#).map(|_| ()),
        ]
        .map(|r| r.map_err(|e| e.to_string()).err());
        assert_eq!(
            reasons[..3],
            [
                Some("ordersPending_update: element 1 (order) is required".to_owned()),
                Some(
                    "ordersPending_update: the order: invalid type: integer `7`, expected a \
                     stream order object at line 1 column 1"
                        .to_owned()
                ),
                Some("positionsAccountMargin_update: element 1 (position) is required".to_owned()),
            ]
        );
        assert_eq!(
            reasons[3].as_deref(),
            Some("positionsAccountMargin_update: element 0 (event) is required; found nothing")
        );
    }
}

#[cfg(test)]
#[path = "positional_tests.rs"]
mod props;

//! Reading the exchange's positional records — a deal is an 11-element array — by the crate's
//! one leniency rule: each element converted by its type's [`FromWire`], `null` meaning
//! absent, and an element no spelling fits (or one past the known positions) kept in `extra`
//! under its position, never dropped.

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::EventDecodeError;
use crate::lenient::{FromWire, deserialize_value};

/// Reads the `params` `[event, record]` of the update `what`: the event's code, the record
/// (named `record` in errors) by its own rule, and the elements past the two, kept.
pub(crate) fn event_and_record<K: FromWire, R: DeserializeOwned>(
    params: &str,
    what: &'static str,
    record: &str,
) -> Result<(K, R, Map<String, Value>), EventDecodeError> {
    let mut elements = Elements::new(params, what)?;
    let kind = elements.require(0, "event")?;
    let raw = elements
        .raw(1)
        .ok_or_else(|| EventDecodeError::new(what, format!("element 1 ({record}) is required")))?;
    let value = serde_json::from_str(raw.get())
        .map_err(|e| EventDecodeError::new(what, format!("the {record}: {e}")))?;
    Ok((kind, value, elements.finish(2)))
}

/// The elements of a JSON array, read as exact text, and what was kept of them.
pub(crate) struct Elements<'a> {
    items: Vec<&'a RawValue>,
    what: &'static str,
    /// Elements that fit no spelling of their type, and those past the known positions, by
    /// position.
    pub(crate) extra: Map<String, Value>,
}

impl<'a> Elements<'a> {
    /// The elements of the array `text`; an error when it is not an array.
    pub(crate) fn new(text: &'a str, what: &'static str) -> Result<Self, EventDecodeError> {
        let items: Vec<&'a RawValue> = serde_json::from_str(text)
            .map_err(|e| EventDecodeError::new(what, format!("not an array: {e}")))?;
        Ok(Self {
            items,
            what,
            extra: Map::new(),
        })
    }

    /// The element at `index` as `T`: `None` when absent or `null`, or kept in `extra` when
    /// no spelling fits.
    pub(crate) fn get<T: FromWire>(&mut self, index: usize) -> Option<T> {
        let raw = *self.items.get(index)?;
        let mut reader = serde_json::Deserializer::from_str(raw.get());
        match deserialize_value::<_, T>(&mut reader) {
            Ok(value) => value,
            Err(_) => {
                let kept = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
                self.extra.insert(index.to_string(), kept);
                None
            }
        }
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
    pub(crate) fn raw(&self, index: usize) -> Option<&'a RawValue> {
        self.items.get(index).copied()
    }

    /// Keeps every element from `known` on in `extra`, and returns what was kept.
    pub(crate) fn finish(mut self, known: usize) -> Map<String, Value> {
        for (index, raw) in self.items.iter().enumerate().skip(known) {
            let kept = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
            self.extra.insert(index.to_string(), kept);
        }
        self.extra
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

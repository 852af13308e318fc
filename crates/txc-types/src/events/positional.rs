//! Reading the exchange's positional records — a deal is an 11-element array — by the crate's
//! one leniency rule: each element converted by its type's [`FromWire`], `null` meaning
//! absent, and an element no spelling fits (or one past the known positions) kept in `extra`
//! under its position, never dropped.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::EventDecodeError;
use crate::lenient::{FromWire, deserialize_value};

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

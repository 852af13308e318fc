//! One leniency rule for every field of every response object.
//!
//! The exchange is inconsistent about JSON types (PHP writes `[]` for an empty object, numbers
//! arrive as strings and strings as numbers, `null` stands for "absent"), so every known field
//! is read the same way:
//!
//! 1. its value is taken as exact JSON text ([`serde_json::value::RawValue`]), so no number
//!    loses a digit;
//! 2. `null` means absent;
//! 3. the field's type converts that text through [`FromWire`], which accepts every spelling
//!    of the same value (`7`, `"7"`; `true`, `1`, `"1"`; `[]` for an empty object);
//! 4. a value no spelling fits is **kept** in the object's `extra` map under its own key, so
//!    nothing is dropped silently, and the field stays unset;
//! 5. an object that lacks a field it cannot do without (an order without `orderId`) is an
//!    error naming the field.
//!
//! Unknown keys go to `extra` as sent. Objects are decoded in one pass over the input; decode
//! from JSON text (`serde_json::from_str` / `from_slice`), which lets values borrow from it.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A field value read as exact JSON text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Raw<'de>(&'de str);

impl<'de> Raw<'de> {
    /// Reads the next map value.
    fn next<A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        let raw: &'de RawValue = map.next_value()?;
        Ok(Self(raw.get()))
    }

    /// The value as its JSON kind; `None` for `null`.
    pub(crate) fn scalar(self) -> Option<Scalar<'de>> {
        let text = self.0.trim();
        Some(match text.as_bytes().first()? {
            b'n' => return None,
            b'"' => Scalar::Str(serde_json::from_str::<Cow<'de, str>>(text).ok()?),
            b't' => Scalar::Bool(true),
            b'f' => Scalar::Bool(false),
            b'[' => Scalar::Array(text),
            b'{' => Scalar::Object(text),
            _ => Scalar::Num(text),
        })
    }

    /// The value as a [`Value`], for keeping it in `extra`.
    fn value(self) -> Value {
        serde_json::from_str(self.0).unwrap_or(Value::Null)
    }
}

/// A JSON value by kind, with numbers as their exact text.
#[derive(Debug, Clone)]
pub(crate) enum Scalar<'de> {
    /// A string, unescaped.
    Str(Cow<'de, str>),
    /// A number, exactly as written.
    Num(&'de str),
    /// A boolean.
    Bool(bool),
    /// An array, as JSON text.
    Array(&'de str),
    /// An object, as JSON text.
    Object(&'de str),
}

impl Scalar<'_> {
    /// The text of a string or number: what numeric and text fields accept.
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Self::Str(s) => Some(s),
            Self::Num(n) => Some(n),
            _ => None,
        }
    }
}

/// A type a known field converts its value to; `None` when no spelling fits.
pub(crate) trait FromWire: Sized {
    /// Converts a non-null value.
    fn from_wire(value: &Scalar<'_>) -> Option<Self>;
}

impl FromWire for String {
    /// Strings, and numbers as their text.
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        value.text().map(str::to_owned)
    }
}

impl FromWire for u64 {
    /// Non-negative integers, as numbers or digit strings.
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        value.text()?.trim().parse().ok()
    }
}

impl FromWire for i64 {
    /// Integers, as numbers or strings.
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        value.text()?.trim().parse().ok()
    }
}

impl FromWire for bool {
    /// `true`/`false`, `1`/`0`, and their strings.
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        match value {
            Scalar::Bool(b) => Some(*b),
            other => match other.text()?.trim() {
                "true" | "1" => Some(true),
                "false" | "0" => Some(false),
                _ => None,
            },
        }
    }
}

/// Reads `value` (already known not to be `null`) as `T` from its JSON text: for nested
/// objects.
pub(crate) fn nested<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// Where a field's value went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Set {
    /// Stored in its field (or `null`, meaning absent).
    Taken,
    /// A known field whose value fits no spelling: keep it in `extra`.
    Mismatch,
    /// Not a field of this object: keep it in `extra`.
    Unknown,
}

/// Stores the converted `raw` in `slot`; `null` leaves it unset.
pub(crate) fn put<T: FromWire>(slot: &mut Option<T>, raw: Raw<'_>) -> Set {
    put_with(slot, raw, T::from_wire)
}

/// Stores `raw` converted by `convert` in `slot`; `null` leaves it unset.
pub(crate) fn put_with<'de, T>(
    slot: &mut Option<T>,
    raw: Raw<'de>,
    convert: impl FnOnce(&Scalar<'de>) -> Option<T>,
) -> Set {
    match raw.scalar() {
        None => Set::Taken,
        Some(value) => match convert(&value) {
            Some(v) => {
                *slot = Some(v);
                Set::Taken
            }
            None => Set::Mismatch,
        },
    }
}

/// A response object decoded field by field: its known fields collect in `Parts`, which
/// [`ObjectFields::finish`] turns into the object once every key was seen.
pub(crate) trait ObjectFields: Sized {
    /// The fields collected so far (every one optional).
    type Parts: Default;
    /// What the object is, for error messages.
    const EXPECTING: &'static str;
    /// Stores the value of `key`.
    fn set(parts: &mut Self::Parts, key: &str, raw: Raw<'_>) -> Set;
    /// Builds the object, taking `extra` (the unknown and mismatched fields); `Err(field)`
    /// names a field it cannot do without, leaving `extra` in place.
    fn finish(parts: Self::Parts, extra: &mut Map<String, Value>) -> Result<Self, &'static str>;
}

/// Decodes an [`ObjectFields`] type from a JSON object.
pub(crate) fn deserialize_object<'de, D: Deserializer<'de>, T: ObjectFields>(
    d: D,
) -> Result<T, D::Error> {
    d.deserialize_map(ObjectVisitor(PhantomData))
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: ObjectFields> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut parts = T::Parts::default();
        let mut extra = Map::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let raw = Raw::next(&mut map)?;
            if T::set(&mut parts, &key, raw) != Set::Taken {
                extra.insert(key.into_owned(), raw.value());
            }
        }
        T::finish(parts, &mut extra).map_err(|field| match extra.get(field) {
            Some(value) => de::Error::custom(format!("invalid value for `{field}`: {value}")),
            None => de::Error::missing_field(field),
        })
    }
}

/// A map key that borrows from the input when it can.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// A standalone value of type `T` read by the same rule as an object's fields: for `FromWire`
/// types deserialized on their own (e.g. a [`crate::Timestamp`] inside a user's struct).
pub(crate) fn deserialize_value<'de, D: Deserializer<'de>, T: FromWire>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let raw: &'de RawValue = Deserialize::deserialize(d)?;
    match Raw(raw.get()).scalar() {
        None => Ok(None),
        Some(value) => T::from_wire(&value)
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("unexpected value {}", raw.get()))),
    }
}

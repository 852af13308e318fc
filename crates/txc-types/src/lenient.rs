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
//!
//! # One declaration per field
//!
//! Every answer record derives `txc_derive::Answer`, which writes its decoder from the struct —
//! the parts struct, the [`ObjectFields`] impl (one match arm per wire name, then the step that
//! builds the record) and `Deserialize` — and its `Serialize`. A field is declared once — its
//! type says how it is read ([`FromWire`]; enums by [`Word`]), whether it is required (any
//! non-`Option`) and whether it is written when absent (an `Option` is not, unless
//! `#[answer(always)]`), `#[serde(rename…)]` gives its wire name both ways,
//! `#[serde(flatten)]` marks `extra` — so adding a field is one line, and a name cannot differ
//! between the two directions. `#[answer(with = …)]` names the few converters of their own
//! ([`empty_is_none`], [`object`], [`array`]), `#[answer(missing = …)]` a value for an absent
//! required field.
//!
//! Why a derive: the alternatives each keep a second list. serde's own derive with lenient
//! field types cannot keep a mismatched value in `extra` (a field's `Deserialize` sees only its
//! value, not the record's map), nor read a value as exact text, and its missing-field errors
//! would change; one declarative table per struct
//! (`macro_rules!`) would hold the fields apart from the struct and its doc comments, or
//! replace the struct definition with macro syntax rustdoc and rust-analyzer read poorly. The
//! derive generates exactly the code that was written by hand before (the same `put` calls in a
//! `match`), so it decodes as fast: the benchmark `cargo bench -p txc-types --bench decode`
//! runs a copy of the hand-written decoder beside it.

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
    /// The value whose exact JSON text (no surrounding whitespace) is `text`.
    #[inline]
    pub(crate) fn new(text: &'de str) -> Self {
        Self(text)
    }

    /// The value as its JSON kind; `None` for `null`. (serde_json's raw values carry no
    /// surrounding whitespace.)
    #[inline]
    pub(crate) fn scalar(self) -> Option<Scalar<'de>> {
        let text = self.0;
        Some(match text.as_bytes().first()? {
            b'n' => return None,
            b'"' => Scalar::Str(string(text)?),
            b't' => Scalar::Bool(true),
            b'f' => Scalar::Bool(false),
            b'[' => Scalar::Array(text),
            b'{' => Scalar::Object(text),
            _ => Scalar::Num(Cow::Borrowed(text)),
        })
    }
}

/// The value of the JSON string `text` (quotes included): borrowed when it has no escapes,
/// which is nearly always — the exact text between the quotes, no second parse.
#[inline]
fn string(text: &str) -> Option<Cow<'_, str>> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if has_backslash(inner.as_bytes()) {
        serde_json::from_str(text).ok()
    } else {
        Some(Cow::Borrowed(inner))
    }
}

/// Whether `bytes` holds a `\\`, eight bytes at a time (the last word overlapping the one before
/// it; four to seven bytes as their first and last four). The values are a few bytes long,
/// where `contains` (memchr) spent more setting up than searching: 443 of the 16 000
/// instructions of an order's decode.
#[inline]
fn has_backslash(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Nonzero when a byte of `w` is `\\` ("has a zero byte" after an XOR; exact in whether
    // any byte matches).
    let hit = |w: u64| {
        let x = w ^ (ONES * u64::from(b'\\'));
        x.wrapping_sub(ONES) & !x & HIGH
    };
    if let Some(last) = bytes.last_chunk::<8>() {
        let mut hits = hit(u64::from_le_bytes(*last));
        let mut rest = bytes;
        while let Some((word, tail)) = rest.split_first_chunk::<8>() {
            hits |= hit(u64::from_le_bytes(*word));
            rest = tail;
        }
        hits != 0
    } else if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        hit(u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32) != 0
    } else {
        bytes.iter().fold(false, |hit, &b| hit | (b == b'\\'))
    }
}

/// A JSON value by kind, with numbers as their text.
#[derive(Debug, Clone)]
pub(crate) enum Scalar<'de> {
    /// A string, unescaped.
    Str(Cow<'de, str>),
    /// A number, exactly as written.
    Num(Cow<'de, str>),
    /// A boolean.
    Bool(bool),
    /// An array, as JSON text.
    Array(&'de str),
    /// An object, as JSON text.
    Object(&'de str),
}

impl Scalar<'_> {
    /// The text of a string or number: what numeric and text fields accept.
    #[inline]
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Self::Str(s) | Self::Num(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a [`Value`], for keeping it in `extra`.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Self::Str(s) => Value::String(s.into_owned()),
            Self::Num(n) => serde_json::from_str(&n).unwrap_or(Value::String(n.into_owned())),
            Self::Bool(b) => Value::Bool(b),
            Self::Array(t) | Self::Object(t) => serde_json::from_str(t).unwrap_or(Value::Null),
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
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        value.text().map(str::to_owned)
    }
}

impl FromWire for u64 {
    /// Non-negative integers, as numbers or digit strings.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        integer(value)
    }
}

impl FromWire for i64 {
    /// Integers, as numbers or strings.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        integer(value)
    }
}

/// An integer from its text; a bare number that is not written as one (`7.0`, `1e3`) is read
/// as the parser's `f64` writes it (`7`, `1000`), as integer fields always accepted it.
#[inline]
fn integer<T: std::str::FromStr>(value: &Scalar<'_>) -> Option<T> {
    let text = value.text()?.trim();
    match text.parse() {
        Ok(n) => Some(n),
        Err(_) => float_text(value)?.parse().ok(),
    }
}

/// A bare number's text as the parser's `f64` writes it (`7.0` → `7`, `1e3` → `1000`);
/// `None` for anything else. Integer and flag fields took numbers in this form before every
/// value was read as exact text (`Field::read`), and still accept them.
fn float_text(value: &Scalar<'_>) -> Option<String> {
    match value {
        Scalar::Num(text) => text.parse::<f64>().ok().map(|f| f.to_string()),
        _ => None,
    }
}

impl FromWire for bool {
    /// `true`/`false`, `1`/`0`, and their strings.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        let flag = |text: &str| match text.trim() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        };
        match value {
            Scalar::Bool(b) => Some(*b),
            other => flag(other.text()?).or_else(|| flag(&float_text(other)?)),
        }
    }
}

/// A code of the event stream (`1`, `2`, …): a whole number sent as a number or a digit string.
#[inline]
pub(crate) fn code(value: &Scalar<'_>) -> Option<u64> {
    value.text()?.trim().parse().ok()
}

/// An enum-like word: any string (or number) its `FromStr` accepts. Implementing it is all an
/// enum needs to be a field of an answer.
pub(crate) trait Word: std::str::FromStr {}

impl<T: Word> FromWire for T {
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        value.text()?.parse().ok()
    }
}

/// Reads `value` (already known not to be `null`) as `T` from its JSON text: for nested
/// objects.
fn nested<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// Where a field's value went.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Set {
    /// Stored in its field (or `null`, meaning absent).
    Taken,
    /// A known field whose value fits no spelling: keep it in `extra`.
    Keep(Value),
    /// Not a field of this object (its value not read yet): keep it in `extra`.
    Unknown,
}

/// The value of the key being read, not yet consumed.
pub(crate) struct Field<'m, 'de, A: MapAccess<'de>> {
    map: &'m mut A,
    de: PhantomData<&'de ()>,
}

impl<'de, A: MapAccess<'de>> Field<'_, 'de, A> {
    /// As JSON text, `None` for `null`: for a value read with its own rules.
    pub(crate) fn raw_text(self) -> Result<Option<&'de str>, A::Error> {
        let raw: &'de RawValue = self.map.next_value()?;
        Ok((raw.get() != "null").then(|| raw.get()))
    }

    /// The value as exact JSON text, by kind; `None` for `null`.
    ///
    /// Every field is read this way, whatever its type. Until 0.3 text, integer and enum fields
    /// were read through a visitor straight from the parser instead, thought faster: measured
    /// side by side (BENCHMARKS.md, issue 27) that path was the slower one, by about 2 % for an
    /// order and 4–5 % for a 100-plan answer, and wrote every integer into a new `String`.
    fn read(self) -> Result<Option<Scalar<'de>>, A::Error> {
        let raw: &'de RawValue = self.map.next_value()?;
        Ok(Raw(raw.get()).scalar())
    }
}

/// Stores the converted value in `slot`; `null` leaves it unset.
pub(crate) fn put<'de, A: MapAccess<'de>, T: FromWire>(
    slot: &mut Option<T>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let read = field.read()?;
    Ok(store(slot, read, T::from_wire))
}

/// Stores `read`, converted, in `slot`: `null` leaves it unset, a value no spelling fits is
/// kept.
fn store<'de, T>(
    slot: &mut Option<T>,
    read: Option<Scalar<'de>>,
    convert: impl FnOnce(&Scalar<'de>) -> Option<T>,
) -> Set {
    match read {
        None => Set::Taken,
        Some(value) => match convert(&value) {
            Some(v) => {
                *slot = Some(v);
                Set::Taken
            }
            None => Set::Keep(value.into_value()),
        },
    }
}

/// Stores the value like [`put`]; `""` means "none" (the exchange's "not specified", as in
/// `clientOrderId`) and leaves the slot unset.
pub(crate) fn empty_is_none<'de, A: MapAccess<'de>, T: FromWire + AsRef<str>>(
    slot: &mut Option<T>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let set = put(slot, field)?;
    if slot.as_ref().is_some_and(|v| v.as_ref().is_empty()) {
        *slot = None;
    }
    Ok(set)
}

/// Stores a nested object, read with its own rules; PHP's `[]` for an empty object means
/// absent, and an object that does not decode is kept.
pub(crate) fn object<'de, A: MapAccess<'de>, T: serde::de::DeserializeOwned>(
    slot: &mut Option<T>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let keep = |text: &str| Set::Keep(serde_json::from_str(text).unwrap_or(Value::Null));
    Ok(match field.read()? {
        Some(Scalar::Array(text)) if nested::<[(); 0]>(text).is_some() => Set::Taken,
        Some(Scalar::Object(text)) => match nested(text) {
            Some(v) => {
                *slot = Some(v);
                Set::Taken
            }
            None => keep(text),
        },
        None => Set::Taken,
        Some(other) => Set::Keep(other.into_value()),
    })
}

/// Stores an array of records, each read with its own rules (PHP's `{}` for an empty array
/// means empty); an array one of whose records does not decode is kept whole, so the field
/// stays unset — a list is read completely or not at all.
pub(crate) fn array<'de, A: MapAccess<'de>, T: serde::de::DeserializeOwned>(
    slot: &mut Option<Vec<T>>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let keep = |text: &str| Set::Keep(serde_json::from_str(text).unwrap_or(Value::Null));
    Ok(match field.read()? {
        Some(Scalar::Object(text))
            if nested::<Map<String, Value>>(text).is_some_and(|m| m.is_empty()) =>
        {
            *slot = Some(Vec::new());
            Set::Taken
        }
        Some(Scalar::Array(text)) => match nested(text) {
            Some(v) => {
                *slot = Some(v);
                Set::Taken
            }
            None => keep(text),
        },
        None => Set::Taken,
        Some(other) => Set::Keep(other.into_value()),
    })
}

/// A response object decoded field by field: its known fields collect in `Parts`, which
/// [`ObjectFields::finish`] turns into the object once every key was seen.
pub(crate) trait ObjectFields: Sized {
    /// The fields collected so far (every one optional).
    type Parts: Default;
    /// What the object is, for error messages.
    const EXPECTING: &'static str;
    /// Stores the value of `key`, read from `field`; [`Set::Unknown`] leaves it unread.
    fn set<'de, A: MapAccess<'de>>(
        parts: &mut Self::Parts,
        key: &str,
        field: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error>;
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
            let field = Field {
                map: &mut map,
                de: PhantomData,
            };
            match T::set(&mut parts, &key, field)? {
                Set::Taken => {}
                Set::Keep(value) => {
                    extra.insert(key.into_owned(), value);
                }
                Set::Unknown => {
                    let value: Value = map.next_value()?;
                    extra.insert(key.into_owned(), value);
                }
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
/// types deserialized on their own (e.g. a `Timestamp` inside a user's struct).
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

/// A value of type `T` from its exact JSON text by the same rule as a field's: for the values
/// of a map whose keys are data (the collateral balance's tickers). `None` for `null` or a
/// value no spelling fits.
pub(crate) fn from_raw<T: FromWire>(text: &str) -> Option<T> {
    Raw(text).scalar().as_ref().and_then(T::from_wire)
}

/// Stores a list of values read with serde (`[]` for an empty one); a value that is not such a
/// list is kept in `extra`.
pub(crate) fn list<'de, A: MapAccess<'de>, T: serde::de::DeserializeOwned>(
    slot: &mut Option<Vec<T>>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    Ok(match field.read()? {
        None => Set::Taken,
        Some(Scalar::Array(text)) => match nested(text) {
            Some(v) => {
                *slot = Some(v);
                Set::Taken
            }
            None => Set::Keep(serde_json::from_str(text).unwrap_or(Value::Null)),
        },
        Some(other) => Set::Keep(other.into_value()),
    })
}

/// Whether `text` (a JSON value's text) is PHP's `[]` for an empty object or an absent answer:
/// `Ok(true)` for `[]`, an error for any other array, `Ok(false)` for anything else.
pub(crate) fn is_empty_array<E: de::Error>(text: &str) -> Result<bool, E> {
    if !text.trim_start().starts_with('[') {
        return Ok(false);
    }
    let empty: [(); 0] = serde_json::from_str(text).map_err(E::custom)?;
    let [] = empty;
    Ok(true)
}

#[cfg(test)]
mod tests {
    // Paths instead of `use`: the decode bench compiles this file with `cfg(test)` but without
    // the test harness.

    #[test]
    fn a_backslash_is_found_at_every_offset_of_every_length() {
        for len in 0..=24 {
            let plain = vec![b'a'; len];
            assert!(!super::has_backslash(&plain), "{len}");
            for edge in [0x5b, 0x5d, 0xdc, 0x00, 0xff] {
                assert!(!super::has_backslash(&vec![edge; len]), "{edge:#x} x {len}");
            }
            for at in 0..len {
                let mut bytes = plain.clone();
                bytes[at] = b'\\';
                assert!(super::has_backslash(&bytes), "at {at} of {len}");
            }
        }
    }

    #[test]
    fn integer_and_flag_fields_take_numbers_written_as_fractions() {
        let num = |text| super::Scalar::Num(std::borrow::Cow::Borrowed(text));
        let int = |text| <u64 as super::FromWire>::from_wire(&num(text));
        assert_eq!(
            (int("7"), int("7.0"), int("1e3"), int("7.5")),
            (Some(7), Some(7), Some(1000), None)
        );
        assert_eq!(<i64 as super::FromWire>::from_wire(&num("-2.0")), Some(-2));
        assert_eq!(
            <bool as super::FromWire>::from_wire(&num("1.0")),
            Some(true)
        );
        // A string is read as written: "7.0" was never an integer.
        let text = super::Scalar::Str(std::borrow::Cow::Borrowed("7.0"));
        assert_eq!(<u64 as super::FromWire>::from_wire(&text), None);
        // Text fields take the number exactly as written.
        assert_eq!(
            <String as super::FromWire>::from_wire(&num("1.50")).as_deref(),
            Some("1.50")
        );
    }

    #[test]
    fn escaped_strings_are_unescaped_and_plain_ones_borrowed() {
        let escaped = super::string(r#""a\"b\\c\u00e9""#);
        assert_eq!(escaped.as_deref(), Some("a\"b\\c\u{e9}"));
        let plain = super::string(r#""BTC_USDT""#);
        assert!(matches!(
            plain,
            Some(std::borrow::Cow::Borrowed("BTC_USDT"))
        ));
    }
}

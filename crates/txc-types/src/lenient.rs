//! Lenient decoding for response objects: unknown fields are kept, numbers may arrive as
//! strings and strings as numbers, `null` means absent.
//!
//! Responses are decoded field by field in one pass (no intermediate `Value` tree) because
//! decoding sits on every order's hot path.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

/// An object whose known fields are decoded by name and whose other fields are kept.
pub(crate) trait ObjectFields: Default {
    /// What the visitor expects, for error messages.
    const EXPECTING: &'static str;
    /// Decodes the value of `key` if it is a known field; returns `false` for unknown keys
    /// without consuming the value.
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;
    /// Where unknown fields go.
    fn extra_mut(&mut self) -> &mut Map<String, Value>;
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
        let mut out = T::default();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if !out.field(&key, &mut map)? {
                let value: Value = map.next_value()?;
                out.extra_mut().insert(key.into_owned(), value);
            }
        }
        Ok(out)
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

/// A scalar as text: strings as they are, numbers and booleans in their JSON form, `null` as
/// absent; borrowed from the input when it can be (for values that are only matched, such
/// as enum names, and never kept).
pub(crate) struct Word<'de>(pub(crate) Option<Cow<'de, str>>);

impl<'de> Deserialize<'de> for Word<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Word<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string, number or null")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Owned(v.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Owned(v))))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Word<'de>, E> {
                Ok(Word(Some(Cow::Borrowed(if v { "true" } else { "false" }))))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Word<'de>, E> {
                Ok(Word(None))
            }
            fn visit_none<E: de::Error>(self) -> Result<Word<'de>, E> {
                Ok(Word(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// [`Word`], owned: for text that is kept.
pub(crate) struct Text(pub(crate) Option<String>);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Text(Word::deserialize(d)?.0.map(Cow::into_owned)))
    }
}

/// A number given as a JSON number or a numeric string; `null` as absent.
pub(crate) struct Num(pub(crate) Option<f64>);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, numeric string or null")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num(Some(v as f64)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num(Some(v as f64)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num(Some(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
                v.trim()
                    .parse()
                    .map(|n| Num(Some(n)))
                    .map_err(|_| E::custom("not a number"))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Num, E> {
                Ok(Num(None))
            }
            fn visit_none<E: de::Error>(self) -> Result<Num, E> {
                Ok(Num(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// An unsigned integer given as a JSON number or a digit string; `null` as absent.
pub(crate) struct Int(pub(crate) Option<u64>);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an unsigned integer, digit string or null")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Int, E> {
                Ok(Int(Some(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Int, E> {
                u64::try_from(v)
                    .map(|v| Int(Some(v)))
                    .map_err(|_| E::custom("negative integer"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Int, E> {
                v.trim()
                    .parse()
                    .map(|n| Int(Some(n)))
                    .map_err(|_| E::custom("not an integer"))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Int, E> {
                Ok(Int(None))
            }
            fn visit_none<E: de::Error>(self) -> Result<Int, E> {
                Ok(Int(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A flag given as a boolean, `0`/`1` or their strings; `null` as absent.
pub(crate) struct Flag(pub(crate) Option<bool>);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Word::deserialize(d)?.0.as_deref() {
            None => Ok(Flag(None)),
            Some("true" | "1") => Ok(Flag(Some(true))),
            Some("false" | "0") => Ok(Flag(Some(false))),
            Some(_) => Err(de::Error::custom("not a boolean or 0/1")),
        }
    }
}

/// Parses `text` as an enum; a value this version does not know is kept in `extra` under `key`.
pub(crate) fn known_or_extra<T: std::str::FromStr>(
    word: Word<'_>,
    key: &str,
    extra: &mut Map<String, Value>,
) -> Option<T> {
    let text = word.0?;
    match text.parse() {
        Ok(v) => Some(v),
        Err(_) => {
            extra.insert(key.to_owned(), Value::String(text.into_owned()));
            None
        }
    }
}

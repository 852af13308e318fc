//! [`WireValue`]: a request body field's value as it goes on the wire, and the `Serialize`
//! impl every endpoint shares.
//!
//! Each endpoint lists its own body fields once, in [`Endpoint::try_for_each_field`]. Its
//! `Serialize` impl ([`serialize_fields`]) and a signer's body writer both follow that list,
//! so they cannot disagree on names, order or values. This module serializes nothing itself
//! beyond that.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::Endpoint;

/// The value of one request body field: every field the v4 requests of this crate carry is a
/// JSON string, a boolean or a non-negative integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WireValue<'a> {
    /// A JSON string (the text is escaped when written).
    Str(&'a str),
    /// A JSON boolean.
    Bool(bool),
    /// A JSON integer (ids, limits, offsets, dates).
    Int(u64),
}

impl Serialize for WireValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Self::Str(text) => s.serialize_str(text),
            Self::Bool(flag) => s.serialize_bool(flag),
            Self::Int(n) => s.serialize_u64(n),
        }
    }
}

/// Serializes `endpoint`'s own body fields as one JSON object, in wire order.
pub(crate) fn serialize_fields<E: Endpoint, S: Serializer>(
    endpoint: &E,
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut len = 0usize;
    endpoint.for_each_field(|_, _| len += 1);
    let mut map = s.serialize_map(Some(len))?;
    endpoint.try_for_each_field(|name, value| map.serialize_entry(name, &value))?;
    map.end()
}

//! [`WireValue`]: a request body field's value as it goes on the wire, and the `Serialize`
//! impl every endpoint shares.
//!
//! Each endpoint lists its own body fields once, in [`Endpoint::try_for_each_field`] (for this
//! crate's endpoints, the walk `#[derive(Request)]` writes from the struct). Its `Serialize`
//! impl ([`serialize_fields`]) and a signer's body writer both follow that list, so they cannot
//! disagree on names, order or values. This module serializes nothing itself beyond that.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::Endpoint;

/// The value of one request body field: a JSON string, a boolean, a non-negative integer,
/// `null`, or a list or object of such values (cancel-all's `type` list, bulk cancel's
/// `orders`, the kill switch's `timeout: null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WireValue<'a> {
    /// A JSON string (the text is escaped when written).
    Str(&'a str),
    /// A JSON boolean.
    Bool(bool),
    /// A JSON integer (ids, limits, offsets, dates).
    Int(u64),
    /// JSON `null`: a key that must be present without a value (the kill switch's `timeout`
    /// when deleting its timer).
    Null,
    /// A JSON array of values.
    List(&'a [WireValue<'a>]),
    /// A JSON object: its fields' wire names and values, in wire order.
    Object(&'a [(&'a str, WireValue<'a>)]),
}

impl Serialize for WireValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Self::Str(text) => s.serialize_str(text),
            Self::Bool(flag) => s.serialize_bool(flag),
            Self::Int(n) => s.serialize_u64(n),
            Self::Null => s.serialize_unit(),
            Self::List(items) => s.collect_seq(items),
            Self::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (name, value) in fields {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
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

//! The field walk `#[derive(Request)]` writes for each request: [`BodyFields`] visits the
//! body's fields in wire order, each value made by its type's [`ToWire`].
//!
//! [`Endpoint::try_for_each_field`](super::Endpoint::try_for_each_field), the request's
//! `Serialize` ([`serialize_fields`](super::serialize_fields)) and a signer's body writer all
//! follow this one walk. Crate-private: other crates see only the endpoint's field list.

use super::WireValue;

/// What a walk hands each field to: its wire name and value; an error stops the walk.
pub(crate) trait Visit<E>: FnMut(&'static str, WireValue<'_>) -> Result<(), E> {}

impl<E, F: FnMut(&'static str, WireValue<'_>) -> Result<(), E>> Visit<E> for F {}

/// A request, or a group of fields requests share (a page, say): its own body fields.
pub(crate) trait BodyFields {
    /// Calls `visit` with each body field, in wire order, stopping at its first error.
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E>;
}

/// Visits `name` as a list of objects, each given by its fields in wire order (a bulk
/// request's items).
pub(crate) fn visit_objects<'a, E, F: AsRef<[(&'a str, WireValue<'a>)]>>(
    name: &'static str,
    objects: &[F],
    visit: &mut impl Visit<E>,
) -> Result<(), E> {
    let items: Vec<WireValue<'_>> = objects
        .iter()
        .map(|fields| WireValue::Object(fields.as_ref()))
        .collect();
    visit(name, WireValue::List(&items))
}

/// A value that is one body field's value.
pub(crate) trait ToWire {
    /// The value as it goes on the wire, borrowing its text.
    fn to_wire(&self) -> WireValue<'_>;
}

impl ToWire for u64 {
    /// A JSON integer (ids, dates, limits).
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Int(*self)
    }
}

impl ToWire for bool {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Bool(*self)
    }
}

impl ToWire for String {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Str(self)
    }
}

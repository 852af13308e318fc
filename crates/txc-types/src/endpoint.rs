//! The [`Endpoint`] trait that ties a request type to its path and response type.
//!
//! This module is for describing operations; it does not sign or send anything.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Whether repeating an operation could have an effect beyond the first call.
///
/// Retry policies use it: an [`EndpointKind::Order`] is never resent after an ambiguous
/// failure, a [`EndpointKind::Read`] may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndpointKind {
    /// Places or changes something on the exchange; not idempotent.
    Order,
    /// Only reads; safe to repeat.
    Read,
}

/// A private v4 operation: its request body (the implementing type), path and response.
///
/// The request body serializes to a JSON object holding only the endpoint's own fields;
/// the signer adds `request`, `nonce` and `nonceWindow`.
pub trait Endpoint: Serialize {
    /// The request path, e.g. `/api/v4/order/collateral/market`; also the `request` body field.
    const PATH: &'static str;
    /// A short snake_case name of the operation, for logs and spans.
    const OPERATION: &'static str;
    /// Whether the operation is an order (never blindly resent) or a read.
    const KIND: EndpointKind;
    /// The decoded success response.
    type Response: DeserializeOwned;
}

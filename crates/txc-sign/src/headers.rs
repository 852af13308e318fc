//! The header names of a signed request (besides `Content-Type: application/json`).

use http::header::HeaderName;

/// The API key header.
pub const X_TXC_APIKEY: HeaderName = HeaderName::from_static("x-txc-apikey");
/// The base64 payload header.
pub const X_TXC_PAYLOAD: HeaderName = HeaderName::from_static("x-txc-payload");
/// The signature header.
pub const X_TXC_SIGNATURE: HeaderName = HeaderName::from_static("x-txc-signature");

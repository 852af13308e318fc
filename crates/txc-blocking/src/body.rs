//! A response as read from the wire ([`RawResponse`]), its body read with a size cap.
//!
//! A `Content-Length` above the cap is refused without reading anything; a body without one is
//! read up to one byte past the cap. Either way the error is `ResponseTooLarge`, `MaybeSent`:
//! the server answered, so an order's outcome is unknown.

use txc_core::decode::TransportError;

use crate::error_map::{too_large, transport_error};

/// A response as read from the wire: status, headers and at most the capped body.
pub(crate) struct RawResponse {
    pub(crate) status: u16,
    pub(crate) headers: http::HeaderMap,
    pub(crate) body: Vec<u8>,
}

/// The status, headers and at most `max` bytes of body.
pub(crate) fn read_capped(
    response: http::Response<ureq::Body>,
    max: usize,
) -> Result<RawResponse, TransportError> {
    let (parts, mut body) = response.into_parts();
    let limit = u64::try_from(max).unwrap_or(u64::MAX);
    if body
        .content_length()
        .is_some_and(|announced| announced > limit)
    {
        return Err(too_large());
    }
    let bytes = body
        .with_config()
        .limit(limit)
        .read_to_vec()
        .map_err(transport_error)?;
    Ok(RawResponse {
        status: parts.status.as_u16(),
        headers: parts.headers,
        body: bytes,
    })
}

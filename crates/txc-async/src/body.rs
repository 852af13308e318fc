//! A response as read from the wire ([`RawResponse`]), its body read with a size cap, chunk by chunk.
//!
//! A `Content-Length` above the cap is refused without reading anything; otherwise chunks are
//! collected until the cap is passed. Either way the error is `ResponseTooLarge`,
//! `MaybeSent`: the server answered, so an order's outcome is unknown.

use txc_core::decode::TransportError;

use crate::error_map::{too_large, transport_error};

/// A response as read from the wire: status, headers and at most the capped body.
pub(crate) struct RawResponse {
    pub(crate) status: u16,
    pub(crate) headers: http::HeaderMap,
    pub(crate) body: Vec<u8>,
}

/// The status, headers and at most `max` bytes of body.
///
/// A function returning an `async move` block rather than an `async fn`, which would hold
/// the response twice in every call's future (as passed, and moved into its body).
pub(crate) fn read_capped(
    mut response: reqwest::Response,
    max: usize,
) -> impl Future<Output = Result<RawResponse, TransportError>> {
    let status = response.status().as_u16();
    let headers = std::mem::take(response.headers_mut());
    let announced = response.content_length();
    async move {
        if announced.is_some_and(|n| n > u64::try_from(max).unwrap_or(u64::MAX)) {
            return Err(too_large());
        }
        let capacity = announced.map_or(0, |n| usize::try_from(n).unwrap_or(max));
        let mut body = Vec::with_capacity(capacity.min(max));
        while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
            if chunk.len() > max.saturating_sub(body.len()) {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(RawResponse {
            status,
            headers,
            body,
        })
    }
}

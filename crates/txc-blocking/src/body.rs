//! Reading an answer's body with a size cap.
//!
//! A `Content-Length` above the cap is refused without reading anything; a body without one is
//! read up to one byte past the cap. Either way the error is `ResponseTooLarge`, `MaybeSent`:
//! the server answered, so an order's outcome is unknown.

use txc_sign::Error;

use crate::error_map::{too_large, transport_error};

/// The status and at most `max` bytes of body.
pub(crate) fn read_capped(
    response: http::Response<ureq::Body>,
    max: usize,
) -> Result<(u16, Vec<u8>), Error> {
    let status = response.status().as_u16();
    let mut body = response.into_body();
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
    Ok((status, bytes))
}

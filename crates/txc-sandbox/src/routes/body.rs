//! Reading request bodies with a size limit.
//!
//! A body over the limit is still read on and discarded, up to [`DRAIN_LIMIT`], so that the
//! client — which is usually still sending — can read the 413 answer instead of a connection
//! reset. The same drain lets fault answers be sent without processing the request.

use std::pin::Pin;

use axum::body::Body;
use http_body::Body as _;

/// The most bytes read from a body in all, limit included; a larger one is cut off.
pub(super) const DRAIN_LIMIT: usize = 8 << 20;

/// Why a body was not returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BodyError {
    /// Larger than the limit.
    TooLarge,
    /// The connection failed while reading.
    Broken,
}

/// Reads the whole body if it has at most `limit` bytes.
pub(super) async fn read(mut body: Body, limit: usize) -> Result<Vec<u8>, BodyError> {
    let mut bytes = Vec::new();
    let mut total = 0usize;
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let Ok(frame) = frame else {
            return Err(BodyError::Broken);
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total > limit {
            bytes = Vec::new();
            if total > DRAIN_LIMIT {
                break;
            }
        } else {
            bytes.extend_from_slice(&data);
        }
    }
    if total > limit {
        Err(BodyError::TooLarge)
    } else {
        Ok(bytes)
    }
}

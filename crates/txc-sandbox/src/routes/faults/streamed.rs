//! Fault bodies generated while they are sent: [`Fault::OversizedBody`] and
//! [`Fault::Chunked`], handed out in chunks without copying and counted in
//! [`crate::SandboxStats::fault_body_bytes`].
//!
//! [`Fault::OversizedBody`]: super::Fault::OversizedBody
//! [`Fault::Chunked`]: super::Fault::Chunked

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Bytes;
use http_body::{Frame, SizeHint};

use crate::auth::Exchange;

/// The largest chunk a streamed fault body hands to the connection at once.
pub(super) const CHUNK: usize = 64 * 1024;
/// Padding of `Fault::Chunked` bodies: trailing whitespace keeps JSON valid.
static SPACES: [u8; CHUNK] = [b' '; CHUNK];
/// Padding of `Fault::OversizedBody` bodies, inside a JSON string.
static XS: [u8; CHUNK] = [b'x'; CHUNK];

/// The parts of a `Fault::OversizedBody` body: an order record (every documented field of a
/// placement answer) padded inside an extra string field to exactly `size` bytes.
pub(super) fn oversized(size: usize) -> Chunks {
    const HEAD: &[u8] = br#"{"orderId":1,"clientOrderId":"","market":"BTC_USDT","side":"buy","type":"market","timestamp":1595792396.165973,"dealMoney":"0","dealStock":"0","amount":"0.001","left":"0","dealFee":"0","status":"FILLED","padding":""#;
    const TAIL: &[u8] = br#""}"#;
    if size >= HEAD.len() + TAIL.len() {
        Chunks::new(vec![
            Part::Bytes(Bytes::from_static(HEAD)),
            Part::Fill(&XS, size - HEAD.len() - TAIL.len()),
            Part::Bytes(Bytes::from_static(TAIL)),
        ])
    } else {
        Chunks::new(vec![Part::Fill(&SPACES, size)])
    }
}

/// The parts of a `Fault::Chunked` body: `body` padded with spaces to `size` bytes.
pub(super) fn padded(body: Vec<u8>, size: usize) -> Chunks {
    let padding = size.saturating_sub(body.len());
    Chunks::new(vec![
        Part::Bytes(Bytes::from(body)),
        Part::Fill(&SPACES, padding),
    ])
}

/// A piece of a streamed body.
enum Part {
    /// These bytes.
    Bytes(Bytes),
    /// This many bytes of a fill pattern.
    Fill(&'static [u8; CHUNK], usize),
}

/// A body's parts, handed out in chunks of at most [`CHUNK`] bytes without copying.
pub(super) struct Chunks(std::collections::VecDeque<Part>);

impl Chunks {
    fn new(parts: Vec<Part>) -> Self {
        Self(parts.into())
    }

    /// The next chunk, or `None` at the end.
    fn next_chunk(&mut self) -> Option<Bytes> {
        loop {
            let part = self.0.front_mut()?;
            let (chunk, done) = match part {
                Part::Bytes(bytes) => {
                    let chunk = bytes.split_to(bytes.len().min(CHUNK));
                    (chunk, bytes.is_empty())
                }
                Part::Fill(pattern, left) => {
                    let n = (*left).min(CHUNK);
                    *left -= n;
                    let pattern: &'static [u8] = pattern.as_slice();
                    (
                        Bytes::from_static(pattern.get(..n).unwrap_or_default()),
                        *left == 0,
                    )
                }
            };
            if done {
                self.0.pop_front();
            }
            if !chunk.is_empty() {
                return Some(chunk);
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A body generated while it is sent, counting what it hands over in
/// [`crate::SandboxStats::fault_body_bytes`]. With an exact size hyper sends a
/// `Content-Length`; without one, chunked transfer encoding.
pub(super) struct Streamed {
    chunks: Chunks,
    exact: Option<u64>,
    exchange: Arc<Exchange>,
}

impl Streamed {
    pub(super) fn new(chunks: Chunks, exact: Option<usize>, exchange: Arc<Exchange>) -> Self {
        Self {
            chunks,
            exact: exact.map(|n| u64::try_from(n).unwrap_or(u64::MAX)),
            exchange,
        }
    }
}

impl http_body::Body for Streamed {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let chunk = self.chunks.next_chunk();
        if let Some(chunk) = &chunk {
            self.exchange.lock().state.stats.fault_body_bytes +=
                u64::try_from(chunk.len()).unwrap_or(u64::MAX);
        }
        Poll::Ready(chunk.map(|c| Ok(Frame::data(c))))
    }

    fn is_end_stream(&self) -> bool {
        self.chunks.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        self.exact
            .map_or_else(SizeHint::default, SizeHint::with_exact)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(mut chunks: Chunks) -> Vec<u8> {
        let mut body = Vec::new();
        while let Some(chunk) = chunks.next_chunk() {
            assert!(!chunk.is_empty() && chunk.len() <= CHUNK);
            body.extend_from_slice(&chunk);
        }
        assert!(chunks.is_empty());
        body
    }

    #[test]
    fn oversized_has_exact_size() {
        for size in [0, 5, 26, 27, 1000, CHUNK, 3 * CHUNK + 7] {
            assert_eq!(collect(oversized(size)).len(), size);
        }
        let body = collect(oversized(3 * CHUNK + 7));
        assert!(serde_json::from_slice::<serde_json::Value>(&body).is_ok());
    }

    #[test]
    fn padded_keeps_the_answer_and_reaches_the_size() {
        let answer = br#"{"orderId":7}"#.to_vec();
        assert_eq!(collect(padded(answer.clone(), 0)), answer);
        let body = collect(padded(answer.clone(), 2 * CHUNK + 1));
        assert_eq!(body.len(), 2 * CHUNK + 1);
        assert!(body.starts_with(&answer));
        let value: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        assert_eq!(value.get("orderId"), Some(&serde_json::json!(7)));
        let big = vec![b'1'; CHUNK + 3];
        assert_eq!(collect(padded(big.clone(), 10)), big);
    }
}

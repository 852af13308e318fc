//! Fault injection: [`Route`] and [`Fault`], and how a fault changes an answer.
//!
//! A fault is picked when a request arrives at an exchange route (the route's own fault
//! first, else one injected for [`Route::All`]) and counts down its `times`. Faults that say
//! "not processed" answer once the request's body is read, without authenticating or running
//! it; the others let the request be processed as usual (an order is placed, a rejection is
//! still a rejection) and then change the answer, whatever it is. The control API is never
//! faulted.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::response::Response;
use http::StatusCode;
use http::header::{CONTENT_TYPE, HeaderValue};
use http_body::{Frame, SizeHint};

use crate::answer::{self, Answer, JSON};
use crate::app::Shared;
use crate::server::ConnectionControl;

/// Which exchange route a fault (or a rate limit) applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Route {
    /// `POST /api/v4/order/collateral/market`.
    CollateralMarket,
    /// `POST /api/v4/order/collateral/trigger-market`.
    CollateralTriggerMarket,
    /// `POST /api/v4/main-account/smart/plans`.
    SmartPlans,
    /// `POST /api/v4/orders`: open orders.
    OpenOrders,
    /// `POST /api/v4/trade-account/order/history`: finished orders.
    OrderHistory,
    /// `POST /api/v4/order/cancel`.
    CancelOrder,
    /// `GET /api/v4/public/time` (its rate limit only: no faults are injected there).
    ServerTime,
    /// Every exchange route (a route's own fault takes precedence).
    All,
}

/// A failure to inject into a route's answers, for testing clients' error handling.
///
/// "Not processed" faults answer without authenticating or running the request (no order is
/// placed, no nonce is used); the others run it as usual and then change the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// The request **is** processed (an order is placed), then the answer waits this long.
    Delay(Duration),
    /// HTTP 503 with an empty body; the request is **not** processed ("5xx without
    /// executing"; [`Fault::Answer`] sends any other 5xx).
    Unavailable,
    /// HTTP 502 with a proxy's HTML page (`text/html`); the request is **not** processed.
    HtmlBadGateway,
    /// The request is processed; HTTP 200 (whatever the real status) with a correct
    /// `Content-Length`, but the JSON cut in half.
    TruncatedBody,
    /// The request is processed; the headers announce the full `Content-Length`, half the body
    /// is written, then the connection is closed (a clean close: the client reads an early
    /// end of stream).
    CloseMidResponse,
    /// The request is processed; like [`Fault::CloseMidResponse`], but the connection is
    /// aborted with a TCP reset (`RST`) after half the body, so the client's read fails with
    /// "connection reset".
    ResetMidBody,
    /// The request is processed; HTTP 200 with a JSON-looking body of exactly this many bytes
    /// and a `Content-Length` announcing them (for testing clients' response-size caps). The
    /// body is generated while it is sent, so any size costs the sandbox no memory; how much of
    /// it was handed to the connection shows in [`SandboxStats::fault_body_bytes`].
    ///
    /// [`SandboxStats::fault_body_bytes`]: crate::SandboxStats::fault_body_bytes
    OversizedBody(usize),
    /// The request is processed; the real answer (status, content type and body) is sent with
    /// chunked transfer encoding and **no** `Content-Length`, its body padded with trailing
    /// spaces (still valid JSON) to this many bytes — never cut, so `Chunked(0)` sends the
    /// answer as it is. Streamed in chunks of at most 64 KiB; how much was handed to the
    /// connection shows in [`SandboxStats::fault_body_bytes`].
    ///
    /// [`SandboxStats::fault_body_bytes`]: crate::SandboxStats::fault_body_bytes
    Chunked(usize),
    /// The request is read but **not** processed, and never answered: the connection stays
    /// open and silent until the client gives up and hangs up, or the listener stops (a
    /// dropped [`Sandbox`](crate::Sandbox) waits at most its one-second grace period).
    Stall,
    /// The request is **not** processed; this answer is sent verbatim: the status (a value
    /// outside 100–999 is sent as 500), the `Content-Type` (none when empty or not a valid
    /// header value) and the body with its `Content-Length`. For answers the sandbox never
    /// gives by itself: HTTP 453, a 503 with a JSON body, an error-shaped 200, a wrong content
    /// type, malformed or hostile JSON.
    Answer {
        /// The HTTP status.
        status: u16,
        /// The `Content-Type` header; empty for none.
        content_type: String,
        /// The body.
        body: Vec<u8>,
    },
    /// The request is **not** processed; HTTP 429 with the exchange's `Too many requests.` body
    /// and this `Retry-After` header value (delay-seconds or an HTTP date; sent as it is).
    RetryAfter(String),
    /// The request **is** processed (an order is placed or canceled), then this answer is sent
    /// verbatim instead of the real one, like [`Fault::Answer`]: "answer 5xx after executing",
    /// e.g. a gateway's `503` in front of an exchange that did the work.
    AnswerAfterProcessing {
        /// The HTTP status.
        status: u16,
        /// The `Content-Type` header; empty for none.
        content_type: String,
        /// The body.
        body: Vec<u8>,
    },
    /// The request **is** processed, then the connection is closed without a byte of answer:
    /// the client sees the connection end (a clean close) while waiting for the status line.
    DropAfterProcessing,
    /// The request is processed and answered as usual, but an order it places stays invisible
    /// to the look-ups (`POST /api/v4/orders` and the order history) for this long after its
    /// placement. On other routes it changes nothing. Cancellation sees the order at once: the
    /// delay models reads lagging behind the matching engine.
    VisibleAfter(Duration),
}

#[derive(Debug, Clone)]
struct Entry {
    route: Route,
    fault: Fault,
    remaining: Option<u32>,
}

/// The injected faults.
#[derive(Debug, Default)]
pub(crate) struct FaultTable {
    entries: Vec<Entry>,
}

impl FaultTable {
    /// Injects `fault` for `route`, replacing that route's previous fault; `times` = `None`
    /// until cleared, `Some(0)` only removes.
    pub(crate) fn inject(&mut self, route: Route, fault: Fault, times: Option<u32>) {
        self.entries.retain(|e| e.route != route);
        if times != Some(0) {
            self.entries.push(Entry {
                route,
                fault,
                remaining: times,
            });
        }
    }

    /// Removes every fault.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// The fault for a request arriving at `route`, counting it down.
    pub(crate) fn take(&mut self, route: Route) -> Option<Fault> {
        let index = self
            .entries
            .iter()
            .position(|e| e.route == route)
            .or_else(|| self.entries.iter().position(|e| e.route == Route::All))?;
        let entry = self.entries.get_mut(index)?;
        let fault = entry.fault.clone();
        if let Some(n) = &mut entry.remaining {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.entries.remove(index);
            }
        }
        Some(fault)
    }
}

/// The page a proxy sends for 502.
const BAD_GATEWAY_HTML: &str = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/// The largest chunk a streamed fault body hands to the connection at once.
const CHUNK: usize = 64 * 1024;
/// Padding of [`Fault::Chunked`] bodies: trailing whitespace keeps JSON valid.
static SPACES: [u8; CHUNK] = [b' '; CHUNK];
/// Padding of [`Fault::OversizedBody`] bodies, inside a JSON string.
static XS: [u8; CHUNK] = [b'x'; CHUNK];

/// Whether a fault answers without processing the request.
pub(crate) fn skips_processing(fault: &Fault) -> bool {
    matches!(
        fault,
        Fault::Unavailable
            | Fault::HtmlBadGateway
            | Fault::Stall
            | Fault::Answer { .. }
            | Fault::RetryAfter(_)
    )
}

/// The answer of a fault that skips processing; [`Fault::Stall`] never answers.
pub(crate) async fn unprocessed(fault: Fault) -> Response {
    match fault {
        Fault::Unavailable => {
            answer::response(StatusCode::SERVICE_UNAVAILABLE, JSON, Body::empty())
        }
        Fault::HtmlBadGateway => answer::response(
            StatusCode::BAD_GATEWAY,
            "text/html",
            Body::from(BAD_GATEWAY_HTML),
        ),
        Fault::Answer {
            status,
            content_type,
            body,
        } => verbatim(status, &content_type, body),
        Fault::RetryAfter(value) => {
            let mut response = verbatim(
                429,
                JSON,
                br#"{"code":0,"errors":{},"message":"Too many requests."}"#.to_vec(),
            );
            if let Ok(value) = HeaderValue::from_str(&value) {
                response
                    .headers_mut()
                    .insert(http::header::RETRY_AFTER, value);
            }
            response
        }
        // `Fault::Stall` (no other fault gets here, see `skips_processing`): pending until the
        // connection is dropped, because the client hung up or the listener stopped.
        _ => std::future::pending().await,
    }
}

/// Applies a fault to a processed answer. `control` aborts the request's connection (with a
/// TCP reset, or at once without an answer); `shared` counts the bytes of streamed bodies.
pub(crate) async fn processed(
    fault: Fault,
    answer: Answer,
    shared: &Arc<Shared>,
    control: Option<ConnectionControl>,
) -> Response {
    match fault {
        Fault::Delay(delay) => {
            tokio::time::sleep(delay).await;
            answer.into_response()
        }
        Fault::TruncatedBody => {
            let mut body = answer.body;
            body.truncate(body.len() / 2);
            answer::response(StatusCode::OK, JSON, Body::from(body))
        }
        Fault::CloseMidResponse | Fault::ResetMidBody => {
            let total = answer.body.len();
            let mut first = answer.body;
            first.truncate(total / 2);
            let body = CutBody {
                first: Some(Bytes::from(first)),
                total: u64::try_from(total).unwrap_or(u64::MAX),
                pause: None,
                reset: if fault == Fault::ResetMidBody {
                    control
                } else {
                    None
                },
            };
            answer::response(answer.status, JSON, Body::new(body))
        }
        Fault::OversizedBody(size) => {
            let body = Streamed::new(oversized(size), Some(size), Arc::clone(shared));
            answer::response(StatusCode::OK, JSON, Body::new(body))
        }
        Fault::Chunked(size) => {
            let parts = padded(answer.body, size);
            let body = Streamed::new(parts, None, Arc::clone(shared));
            answer::response(answer.status, answer.content_type, Body::new(body))
        }
        Fault::AnswerAfterProcessing {
            status,
            content_type,
            body,
        } => verbatim(status, &content_type, body),
        Fault::DropAfterProcessing => {
            match control {
                Some(control) => control.drop_connection(),
                None => return answer.into_response(),
            }
            // Never answers: the connection is dropped under this handler.
            std::future::pending().await
        }
        Fault::VisibleAfter(_)
        | Fault::Unavailable
        | Fault::HtmlBadGateway
        | Fault::Stall
        | Fault::Answer { .. }
        | Fault::RetryAfter(_) => answer.into_response(),
    }
}

/// A response with exactly this status (a value outside 100–999 is sent as 500), content type
/// (none when empty or not a valid header value) and body.
fn verbatim(status: u16, content_type: &str, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(value) = HeaderValue::from_str(content_type)
        && !content_type.is_empty()
    {
        response.headers_mut().insert(CONTENT_TYPE, value);
    }
    response
}

/// The parts of a [`Fault::OversizedBody`] body: an order record (every documented field of a
/// placement answer) padded inside an extra string field to exactly `size` bytes.
fn oversized(size: usize) -> Chunks {
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

/// The parts of a [`Fault::Chunked`] body: `body` padded with spaces to `size` bytes.
fn padded(body: Vec<u8>, size: usize) -> Chunks {
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
struct Chunks(std::collections::VecDeque<Part>);

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
struct Streamed {
    chunks: Chunks,
    exact: Option<u64>,
    shared: Arc<Shared>,
}

impl Streamed {
    fn new(chunks: Chunks, exact: Option<usize>, shared: Arc<Shared>) -> Self {
        Self {
            chunks,
            exact: exact.map(|n| u64::try_from(n).unwrap_or(u64::MAX)),
            shared,
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
            self.shared.state().stats.fault_body_bytes +=
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

/// A body that announces `total` bytes, sends `first`, lets the server flush it, then fails,
/// which makes hyper close the connection mid-response — with a TCP reset when `reset` is
/// set.
struct CutBody {
    first: Option<Bytes>,
    total: u64,
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
    reset: Option<ConnectionControl>,
}

impl http_body::Body for CutBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        let this = &mut *self;
        if let Some(chunk) = this.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(chunk))));
        }
        // Pausing lets hyper flush the headers and the first half before the failure.
        let pause = this
            .pause
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(Duration::from_millis(50))));
        match pause.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                if let Some(reset) = &this.reset {
                    reset.arm_reset();
                }
                Poll::Ready(Some(Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionAborted,
                    "sandbox fault: connection closed mid-response",
                ))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        false
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_down_and_prefers_the_route() {
        let mut table = FaultTable::default();
        table.inject(Route::All, Fault::Unavailable, None);
        table.inject(Route::SmartPlans, Fault::TruncatedBody, Some(2));
        assert_eq!(table.take(Route::SmartPlans), Some(Fault::TruncatedBody));
        assert_eq!(table.take(Route::SmartPlans), Some(Fault::TruncatedBody));
        assert_eq!(table.take(Route::SmartPlans), Some(Fault::Unavailable));
        assert_eq!(
            table.take(Route::CollateralMarket),
            Some(Fault::Unavailable)
        );
        table.clear();
        assert_eq!(table.take(Route::CollateralMarket), None);
        table.inject(Route::All, Fault::Unavailable, Some(0));
        assert_eq!(table.take(Route::CollateralMarket), None);
    }

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

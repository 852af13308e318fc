//! [`Fault`]: the failures a test can inject into a route's answers.

use std::time::Duration;

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
    /// placement — and an investment it makes, to the investments list. On other routes it
    /// changes nothing. Cancellation sees the order at once: the
    /// delay models reads lagging behind the matching engine.
    VisibleAfter(Duration),
    /// The request is processed, but a look-up (`POST /api/v4/orders`, the order history, the
    /// conditional orders) answers from the orders as they were this long ago — a replica
    /// lagging behind the matching engine: an order created since is missing, one filled or
    /// canceled since still shows open (open orders) or not yet finished (history). Inject it
    /// on each look-up's route to make them lag apart. On other routes it changes nothing.
    Lagging(Duration),
}

impl Fault {
    /// Whether the fault answers without processing the request.
    pub(crate) fn skips_processing(&self) -> bool {
        matches!(
            self,
            Self::Unavailable
                | Self::HtmlBadGateway
                | Self::Stall
                | Self::Answer { .. }
                | Self::RetryAfter(_)
        )
    }
}

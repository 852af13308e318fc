//! Fault injection: [`Route`] and [`Fault`], and how a fault changes an answer.
//!
//! A fault is picked when a request arrives at an exchange route (the route's own fault
//! first, else one injected for [`Route::All`]) and counts down its `times`. Faults that say
//! "not processed" answer before the request is read; the others let the request be processed
//! as usual (an order is placed, a rejection is still a rejection) and then change the answer,
//! whatever it is. The control API is never faulted.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::response::Response;
use http::StatusCode;
use http_body::{Frame, SizeHint};

use crate::answer::{self, Answer, JSON};

/// Which exchange route a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// `POST /api/v4/order/collateral/market`.
    CollateralMarket,
    /// `POST /api/v4/order/collateral/trigger-market`.
    CollateralTriggerMarket,
    /// `POST /api/v4/main-account/smart/plans`.
    SmartPlans,
    /// All three routes (a route's own fault takes precedence).
    All,
}

/// A failure to inject into a route's answers, for testing clients' error handling.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// The request **is** processed (an order is placed), then the answer waits this long.
    Delay(Duration),
    /// HTTP 503 with an empty body; the request is **not** processed.
    Unavailable,
    /// HTTP 502 with a proxy's HTML page (`text/html`); the request is **not** processed.
    HtmlBadGateway,
    /// The request is processed; HTTP 200 (whatever the real status) with a correct
    /// `Content-Length`, but the JSON cut in half.
    TruncatedBody,
    /// The request is processed; the headers announce the full `Content-Length`, half the body
    /// is written, then the connection is closed.
    CloseMidResponse,
    /// The request is processed; HTTP 200 with a JSON-looking body of exactly this many bytes
    /// (for testing clients' response-size caps).
    OversizedBody(usize),
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

/// The answer of a fault that skips processing.
pub(crate) fn unprocessed(fault: &Fault) -> Option<Response> {
    match fault {
        Fault::Unavailable => Some(answer::response(
            StatusCode::SERVICE_UNAVAILABLE,
            JSON,
            Body::empty(),
        )),
        Fault::HtmlBadGateway => Some(answer::response(
            StatusCode::BAD_GATEWAY,
            "text/html",
            Body::from(BAD_GATEWAY_HTML),
        )),
        _ => None,
    }
}

/// Applies a fault to a processed answer.
pub(crate) async fn processed(fault: Fault, answer: Answer) -> Response {
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
        Fault::CloseMidResponse => {
            let total = answer.body.len();
            let mut first = answer.body;
            first.truncate(total / 2);
            let body = CutBody {
                first: Some(Bytes::from(first)),
                total: u64::try_from(total).unwrap_or(u64::MAX),
                pause: None,
            };
            answer::response(answer.status, JSON, Body::new(body))
        }
        Fault::OversizedBody(size) => {
            answer::response(StatusCode::OK, JSON, Body::from(oversized(size)))
        }
        Fault::Unavailable | Fault::HtmlBadGateway => answer.into_response(),
    }
}

/// A JSON-looking body of exactly `size` bytes.
fn oversized(size: usize) -> Vec<u8> {
    const HEAD: &[u8] = br#"{"orderId":1,"padding":""#;
    const TAIL: &[u8] = br#""}"#;
    let mut body = Vec::with_capacity(size);
    if size >= HEAD.len() + TAIL.len() {
        body.extend_from_slice(HEAD);
        body.resize(size - TAIL.len(), b'x');
        body.extend_from_slice(TAIL);
    } else {
        body.resize(size, b' ');
    }
    body
}

/// A body that announces `total` bytes, sends `first`, lets the server flush it, then fails,
/// which makes hyper close the connection mid-response.
struct CutBody {
    first: Option<Bytes>,
    total: u64,
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
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
            Poll::Ready(()) => Poll::Ready(Some(Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionAborted,
                "sandbox fault: connection closed mid-response",
            )))),
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

    #[test]
    fn oversized_has_exact_size() {
        for size in [0, 5, 26, 27, 1000] {
            assert_eq!(oversized(size).len(), size);
        }
        assert!(serde_json::from_slice::<serde_json::Value>(&oversized(1000)).is_ok());
    }
}

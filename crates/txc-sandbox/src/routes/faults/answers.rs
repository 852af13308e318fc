//! How a fault changes an answer: the answers of the faults that skip processing, and what
//! the others do to a processed answer.

use std::sync::Arc;

use axum::body::Body;
use axum::response::Response;
use http::StatusCode;
use http::header::{CONTENT_TYPE, HeaderValue};

use super::cut::CutBody;
use super::fault::Fault;
use super::streamed::{Streamed, oversized, padded};
use crate::auth::Exchange;
use crate::routes::answer::{self, Answer, JSON};
use crate::routes::connection::ConnectionControl;

/// The page a proxy sends for 502.
const BAD_GATEWAY_HTML: &str = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

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
        // `Fault::Stall` (no other fault gets here, see `Fault::skips_processing`): pending until the
        // connection is dropped, because the client hung up or the listener stopped.
        _ => std::future::pending().await,
    }
}

/// Applies a fault to a processed answer. `control` aborts the request's connection (with a
/// TCP reset, or at once without an answer); `exchange` counts the bytes of streamed bodies.
pub(crate) async fn processed(
    fault: Fault,
    answer: Answer,
    exchange: &Arc<Exchange>,
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
            let reset = if fault == Fault::ResetMidBody {
                control
            } else {
                None
            };
            let body = CutBody::new(answer.body, reset);
            answer::response(answer.status, JSON, Body::new(body))
        }
        Fault::OversizedBody(size) => {
            let body = Streamed::new(oversized(size), Some(size), Arc::clone(exchange));
            answer::response(StatusCode::OK, JSON, Body::new(body))
        }
        Fault::Chunked(size) => {
            let parts = padded(answer.body, size);
            let body = Streamed::new(parts, None, Arc::clone(exchange));
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
        | Fault::Lagging(_)
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

//! [`CutBody`]: a body that stops halfway, for [`Fault::CloseMidResponse`] and
//! [`Fault::ResetMidBody`].
//!
//! [`Fault::CloseMidResponse`]: super::Fault::CloseMidResponse
//! [`Fault::ResetMidBody`]: super::Fault::ResetMidBody

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Frame, SizeHint};

use crate::routes::connection::ConnectionControl;

/// A body that announces `total` bytes, sends `first`, lets the server flush it, then fails,
/// which makes hyper close the connection mid-response — with a TCP reset when `reset` is
/// set.
pub(super) struct CutBody {
    first: Option<Bytes>,
    total: u64,
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
    reset: Option<ConnectionControl>,
}

impl CutBody {
    /// The first half of `body`, announced at its full length; `reset` ends the connection
    /// with a TCP reset instead of a clean close.
    pub(super) fn new(body: Vec<u8>, reset: Option<ConnectionControl>) -> Self {
        let total = body.len();
        let mut first = body;
        first.truncate(total / 2);
        Self {
            first: Some(Bytes::from(first)),
            total: u64::try_from(total).unwrap_or(u64::MAX),
            pause: None,
            reset,
        }
    }
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

//! reqwest's errors as [`TransportError`]s, each saying whether the request may have reached
//! the server.
//!
//! The rule: only failures known to come before a byte of the request was written are
//! [`Delivery::NotSent`]; everything else, and anything this module cannot place, is
//! [`Delivery::MaybeSent`], so an order is never resent by mistake. Unlike ureq, reqwest tells
//! a failure while connecting (`is_connect`) from one on an open connection, so every
//! connecting failure — DNS, refused, unreachable, the connect timeout, the TLS handshake — is
//! "not sent".
//!
//! | reqwest error | kind | delivery |
//! |---|---|---|
//! | `is_builder()` (the request could not be built) | other | not sent |
//! | `is_connect()` and `is_timeout()` | timeout | not sent |
//! | `is_connect()` with a rustls error in its chain | tls | not sent |
//! | any other `is_connect()` (DNS, refused, unreachable) | connect | not sent |
//! | `is_timeout()` after connecting | timeout | maybe sent |
//! | `is_request()`, `is_body()`, `is_decode()` (a broken read of the body) | i/o | maybe sent |
//! | anything else | other | maybe sent |
//! | a body over the size cap (this crate's check) | response too large | maybe sent |

use txc_core::decode::{Delivery, TransportError, TransportErrorKind as Kind};

/// Maps an error of sending the request or reading the body.
pub(crate) fn transport_error(error: reqwest::Error) -> TransportError {
    let (kind, delivery) = classify(&error);
    TransportError::new(kind, delivery, Some(Box::new(error)))
}

/// The kind and delivery of a reqwest error.
fn classify(error: &reqwest::Error) -> (Kind, Delivery) {
    if error.is_builder() {
        (Kind::Other, Delivery::NotSent)
    } else if error.is_connect() {
        // Connecting includes DNS and the TLS handshake; the request was not written.
        let kind = if error.is_timeout() {
            Kind::Timeout
        } else if is_tls(error) {
            Kind::Tls
        } else {
            Kind::Connect
        };
        (kind, Delivery::NotSent)
    } else if error.is_timeout() {
        (Kind::Timeout, Delivery::MaybeSent)
    } else if error.is_request() || error.is_body() || error.is_decode() {
        // `Response::chunk` reports a failed body read as a decode error; this crate uses no
        // decoding of reqwest's (no JSON, no compression), so it is always a broken read.
        (Kind::Io, Delivery::MaybeSent)
    } else {
        (Kind::Other, Delivery::MaybeSent)
    }
}

/// Whether a rustls error is in the chain (also wrapped in an `io::Error`, whose `source`
/// skips the error it wraps).
fn is_tls(error: &reqwest::Error) -> bool {
    #[cfg(feature = "rustls-no-provider")]
    {
        let mut next: Option<&(dyn std::error::Error + 'static)> = Some(error);
        while let Some(e) = next {
            let wrapped = e
                .downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::get_ref);
            if e.is::<rustls::Error>() || wrapped.is_some_and(|w| w.is::<rustls::Error>()) {
                return true;
            }
            next = e.source();
        }
    }
    #[cfg(not(feature = "rustls-no-provider"))]
    let _ = error;
    false
}

/// The response was larger than the cap; the server did answer, so an order's outcome is
/// unknown.
pub(crate) fn too_large() -> TransportError {
    TransportError::new(Kind::ResponseTooLarge, Delivery::MaybeSent, None)
}

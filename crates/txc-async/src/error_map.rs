//! reqwest's errors as [`TransportError`]s, each saying whether the request may have reached
//! the server.
//!
//! The rule: only failures that certainly happen before a byte of the request is written —
//! DNS, refused or unreachable connections, the connect timeout, TLS handshake failures,
//! building the request — are [`Delivery::NotSent`]. Everything later, and anything this
//! module cannot place, is [`Delivery::MaybeSent`], so an order is never resent by mistake.

use txc_sign::{Delivery, Error, TransportError, TransportErrorKind as Kind};

/// Maps an error of sending the request or reading the body.
pub(crate) fn transport_error(error: reqwest::Error) -> Error {
    let (kind, delivery) = classify(&error);
    Error::Transport(TransportError::new(kind, delivery, Some(Box::new(error))))
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
    #[cfg(feature = "rustls")]
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
    #[cfg(not(feature = "rustls"))]
    let _ = error;
    false
}

/// The answer was larger than the cap; the server did answer, so an order's outcome is unknown.
pub(crate) fn too_large() -> Error {
    Error::Transport(TransportError::new(
        Kind::ResponseTooLarge,
        Delivery::MaybeSent,
        None,
    ))
}

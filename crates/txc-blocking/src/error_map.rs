//! ureq's errors as [`TransportError`]s, each saying whether the request may have reached the
//! server.
//!
//! The rule: only failures that certainly happen before a byte of the request is written —
//! DNS, refused or unreachable connections, the connect timeout, TLS handshake rejections,
//! building the request — are [`Delivery::NotSent`]. Everything later, and anything this
//! module cannot place, is [`Delivery::MaybeSent`], so an order is never resent by mistake.

use std::io;

use txc_sign::{Delivery, Error, TransportError, TransportErrorKind as Kind};

/// Maps an error of `agent.run` or of reading the body.
pub(crate) fn transport_error(error: ureq::Error) -> Error {
    let (kind, delivery) = classify(&error);
    Error::Transport(TransportError::new(kind, delivery, Some(Box::new(error))))
}

/// The kind and delivery of a ureq error.
fn classify(error: &ureq::Error) -> (Kind, Delivery) {
    use ureq::Error as E;
    match error {
        E::HostNotFound | E::ConnectionFailed | E::ConnectProxyFailed(_) => {
            (Kind::Connect, Delivery::NotSent)
        }
        E::Timeout(ureq::Timeout::Resolve | ureq::Timeout::Connect) => {
            (Kind::Timeout, Delivery::NotSent)
        }
        E::Timeout(_) => (Kind::Timeout, Delivery::MaybeSent),
        E::Io(e) => io_error(e),
        E::BodyExceedsLimit(_) | E::LargeResponseHeader(..) => {
            (Kind::ResponseTooLarge, Delivery::MaybeSent)
        }
        // Raised while setting up TLS, before the request is written.
        E::Tls(_) | E::TlsRequired => (Kind::Tls, Delivery::NotSent),
        // The request could not be built or addressed: nothing was sent.
        E::Http(_) | E::BadUri(_) | E::InvalidProxyUrl | E::RequireHttpsOnly(_) => {
            (Kind::Other, Delivery::NotSent)
        }
        _ => other_error(error),
    }
}

/// Errors of variants that only exist with some TLS features.
fn other_error(error: &ureq::Error) -> (Kind, Delivery) {
    match error {
        #[cfg(feature = "rustls")]
        ureq::Error::Rustls(e) => (Kind::Tls, rustls_delivery(e)),
        #[cfg(feature = "native-tls")]
        ureq::Error::NativeTls(_) | ureq::Error::Der(_) | ureq::Error::Pem(_) => {
            (Kind::Tls, Delivery::NotSent)
        }
        _ => (Kind::Other, Delivery::MaybeSent),
    }
}

/// I/O errors: a connection that could not be made is `NotSent`; a failure on an open one is
/// `MaybeSent`.
fn io_error(e: &io::Error) -> (Kind, Delivery) {
    use io::ErrorKind as K;
    #[cfg(feature = "rustls")]
    if let Some(tls) = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
    {
        return (Kind::Tls, rustls_delivery(tls));
    }
    match e.kind() {
        K::ConnectionRefused
        | K::AddrNotAvailable
        | K::AddrInUse
        | K::NetworkUnreachable
        | K::HostUnreachable
        | K::NetworkDown => (Kind::Connect, Delivery::NotSent),
        K::TimedOut | K::WouldBlock => (Kind::Timeout, Delivery::MaybeSent),
        _ => (Kind::Io, Delivery::MaybeSent),
    }
}

/// Handshake rejections (certificate, protocol mismatch) happen before the request is
/// written; other TLS failures may come mid-exchange.
#[cfg(feature = "rustls")]
fn rustls_delivery(e: &rustls::Error) -> Delivery {
    match e {
        rustls::Error::InvalidCertificate(_)
        | rustls::Error::NoCertificatesPresented
        | rustls::Error::PeerIncompatible(_)
        | rustls::Error::UnsupportedNameType => Delivery::NotSent,
        _ => Delivery::MaybeSent,
    }
}

/// The answer was larger than the cap; the server did answer, so an order's outcome is unknown.
pub(crate) fn too_large() -> Error {
    Error::Transport(TransportError::new(
        Kind::ResponseTooLarge,
        Delivery::MaybeSent,
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classified(error: ureq::Error) -> (Kind, Delivery) {
        match transport_error(error) {
            Error::Transport(e) => (e.kind, e.delivery),
            other => panic!("not a transport error: {other:?}"),
        }
    }

    #[test]
    fn failures_before_sending_are_not_sent() {
        for error in [
            ureq::Error::HostNotFound,
            ureq::Error::ConnectionFailed,
            ureq::Error::Timeout(ureq::Timeout::Connect),
            ureq::Error::Timeout(ureq::Timeout::Resolve),
            ureq::Error::Io(io::ErrorKind::ConnectionRefused.into()),
            ureq::Error::BadUri("x".into()),
        ] {
            assert_eq!(classified(error).1, Delivery::NotSent);
        }
    }

    #[test]
    fn failures_after_sending_may_have_been_sent() {
        for (error, kind) in [
            (ureq::Error::Timeout(ureq::Timeout::Global), Kind::Timeout),
            (
                ureq::Error::Timeout(ureq::Timeout::RecvResponse),
                Kind::Timeout,
            ),
            (
                ureq::Error::Io(io::ErrorKind::ConnectionReset.into()),
                Kind::Io,
            ),
            (
                ureq::Error::Io(io::ErrorKind::UnexpectedEof.into()),
                Kind::Io,
            ),
            (ureq::Error::BodyExceedsLimit(10), Kind::ResponseTooLarge),
            (ureq::Error::StatusCode(500), Kind::Other),
        ] {
            assert_eq!(classified(error), (kind, Delivery::MaybeSent));
        }
    }

    #[cfg(feature = "rustls")]
    #[test]
    fn certificate_rejection_is_tls_not_sent() {
        let inner = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let error = ureq::Error::Io(io::Error::new(io::ErrorKind::InvalidData, inner));
        assert_eq!(classified(error), (Kind::Tls, Delivery::NotSent));
    }
}

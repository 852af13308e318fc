//! ureq's errors as [`TransportError`]s, each saying whether the request may have reached the
//! server.
//!
//! The rule: only failures known to come before a byte of the request was written are
//! [`Delivery::NotSent`]; everything else, and anything this module cannot place, is
//! [`Delivery::MaybeSent`], so an order is never resent by mistake. ureq reports an I/O error
//! on a reused pooled connection exactly as one while connecting, so an error kind counts as
//! "not sent" only if it cannot happen on an open connection.
//!
//! | ureq error | kind | delivery | why |
//! |---|---|---|---|
//! | `HostNotFound` | connect | not sent | DNS, before connecting |
//! | `ConnectionFailed` | connect | not sent | no connection could be made |
//! | `ConnectProxyFailed` | connect | not sent | the proxy refused the tunnel |
//! | `Timeout(Resolve)`, `Timeout(Connect)` | timeout | not sent | before the connection existed |
//! | `Io(ConnectionRefused)` | connect | not sent | only connecting can be refused |
//! | `Io(AddrInUse / AddrNotAvailable)` | connect | not sent | binding the local address |
//! | `Io(NetworkUnreachable / HostUnreachable / NetworkDown)` | connect | **maybe sent** | an open connection reports these too, after writing |
//! | `Io(TimedOut / WouldBlock)` | timeout | maybe sent | |
//! | any other `Io` (reset, broken pipe, EOF) | i/o | maybe sent | |
//! | `Timeout(…)` of sending, awaiting or reading | timeout | maybe sent | |
//! | `BodyExceedsLimit`, `LargeResponseHeader` | response too large | maybe sent | the server answered |
//! | `Tls` / `TlsRequired`; rustls certificate or protocol rejections | tls | not sent | the handshake precedes the request |
//! | other rustls errors | tls | maybe sent | may come mid-exchange |
//! | `Http`, `BadUri`, `InvalidProxyUrl`, `RequireHttpsOnly` | other | not sent | the request could not be built |
//! | anything else | other | maybe sent | |

use std::io;

use txc_core::decode::{Delivery, TransportError, TransportErrorKind as Kind};

/// Maps an error of `agent.run` or of reading the body.
pub(crate) fn transport_error(error: ureq::Error) -> TransportError {
    let (kind, delivery) = classify(&error);
    TransportError::new(kind, delivery, Some(Box::new(error)))
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
        #[cfg(feature = "rustls-no-provider")]
        ureq::Error::Rustls(e) => (Kind::Tls, rustls_delivery(e)),
        #[cfg(feature = "native-tls")]
        ureq::Error::NativeTls(_) | ureq::Error::Der(_) | ureq::Error::Pem(_) => {
            (Kind::Tls, Delivery::NotSent)
        }
        _ => (Kind::Other, Delivery::MaybeSent),
    }
}

/// I/O errors: only kinds that a connection being made can raise, and an open one cannot, are
/// `NotSent`.
fn io_error(e: &io::Error) -> (Kind, Delivery) {
    use io::ErrorKind as K;
    #[cfg(feature = "rustls-no-provider")]
    if let Some(tls) = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
    {
        return (Kind::Tls, rustls_delivery(tls));
    }
    match e.kind() {
        K::ConnectionRefused | K::AddrNotAvailable | K::AddrInUse => {
            (Kind::Connect, Delivery::NotSent)
        }
        K::NetworkUnreachable | K::HostUnreachable | K::NetworkDown => {
            (Kind::Connect, Delivery::MaybeSent)
        }
        K::TimedOut | K::WouldBlock => (Kind::Timeout, Delivery::MaybeSent),
        _ => (Kind::Io, Delivery::MaybeSent),
    }
}

/// Handshake rejections (certificate, protocol mismatch) happen before the request is
/// written; other TLS failures may come mid-exchange.
#[cfg(feature = "rustls-no-provider")]
fn rustls_delivery(e: &rustls::Error) -> Delivery {
    match e {
        rustls::Error::InvalidCertificate(_)
        | rustls::Error::NoCertificatesPresented
        | rustls::Error::PeerIncompatible(_)
        | rustls::Error::UnsupportedNameType => Delivery::NotSent,
        _ => Delivery::MaybeSent,
    }
}

/// The response was larger than the cap; the server did answer, so an order's outcome is
/// unknown.
pub(crate) fn too_large() -> TransportError {
    TransportError::new(Kind::ResponseTooLarge, Delivery::MaybeSent, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classified(error: ureq::Error) -> (Kind, Delivery) {
        let e = transport_error(error);
        (e.kind, e.delivery)
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
            (
                ureq::Error::Io(io::ErrorKind::NetworkUnreachable.into()),
                Kind::Connect,
            ),
            (
                ureq::Error::Io(io::ErrorKind::HostUnreachable.into()),
                Kind::Connect,
            ),
            (
                ureq::Error::Io(io::ErrorKind::NetworkDown.into()),
                Kind::Connect,
            ),
            (ureq::Error::Io(io::ErrorKind::BrokenPipe.into()), Kind::Io),
        ] {
            assert_eq!(classified(error), (kind, Delivery::MaybeSent));
        }
    }

    #[cfg(feature = "rustls-no-provider")]
    #[test]
    fn certificate_rejection_is_tls_not_sent() {
        let inner = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let error = ureq::Error::Io(io::Error::new(io::ErrorKind::InvalidData, inner));
        assert_eq!(classified(error), (Kind::Tls, Delivery::NotSent));
    }
}

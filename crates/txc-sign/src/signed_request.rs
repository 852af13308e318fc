//! [`SignedRequest`]: the signed request value a transport sends.

use std::fmt;

use txc_types::EndpointKind;

use crate::Nonce;
use crate::signer::{X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE};

/// A signed `POST`: URL, the four headers and the exact body bytes the payload encodes.
///
/// `Debug` shows the URL, key and body but redacts the payload and signature headers (they are
/// also marked sensitive for HTTP libraries). The API secret is never part of it.
#[derive(Clone)]
pub struct SignedRequest {
    request: http::Request<Vec<u8>>,
    operation: &'static str,
    kind: EndpointKind,
    nonce: Nonce,
}

impl SignedRequest {
    pub(crate) fn new(
        request: http::Request<Vec<u8>>,
        operation: &'static str,
        kind: EndpointKind,
        nonce: Nonce,
    ) -> Self {
        Self {
            request,
            operation,
            kind,
            nonce,
        }
    }

    /// The request as an `http` value.
    pub fn http(&self) -> &http::Request<Vec<u8>> {
        &self.request
    }

    /// Consumes the value into an `http::Request`, ready for any HTTP client.
    pub fn into_http(self) -> http::Request<Vec<u8>> {
        self.request
    }

    /// The exact body bytes.
    pub fn body(&self) -> &[u8] {
        self.request.body()
    }

    /// The nonce it was signed with.
    pub fn nonce(&self) -> Nonce {
        self.nonce
    }

    /// The operation's name, e.g. `collateral_market_order`.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// Whether it is an order or a read.
    pub fn kind(&self) -> EndpointKind {
        self.kind
    }

    /// The `X-TXC-PAYLOAD` header's value.
    pub fn payload(&self) -> &str {
        header(&self.request, &X_TXC_PAYLOAD)
    }

    /// The `X-TXC-SIGNATURE` header's value.
    pub fn signature(&self) -> &str {
        header(&self.request, &X_TXC_SIGNATURE)
    }
}

fn header<'a>(request: &'a http::Request<Vec<u8>>, name: &http::HeaderName) -> &'a str {
    request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

impl fmt::Debug for SignedRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignedRequest")
            .field("operation", &self.operation)
            .field("method", self.request.method())
            .field("uri", self.request.uri())
            .field("api_key", &header(&self.request, &X_TXC_APIKEY))
            .field("payload", &"<redacted>")
            .field("signature", &"<redacted>")
            .field("nonce", &self.nonce.0)
            .field("body", &String::from_utf8_lossy(self.request.body()))
            .finish()
    }
}

//! [`SignedRequest`]: the signed request value a transport sends.

use std::fmt;
use std::sync::Arc;

use http::header::{HeaderMap, HeaderValue};
use http::{Method, Uri};
use txc_types::endpoint::EndpointKind;

use crate::headers::{X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE};
use crate::nonce::Nonce;

/// A signed `POST`: URL, API key, payload, signature and the exact body bytes the payload
/// encodes. Convert it with [`SignedRequest::into_http`] for any HTTP client.
///
/// `Debug` shows the URL, key and body but redacts the payload and signature (they are also
/// marked sensitive in the `http` headers). The API secret is never part of it.
#[derive(Clone)]
pub struct SignedRequest {
    pub(crate) uri: Uri,
    /// The signer's four headers with an empty payload and signature (shared by every
    /// request of the signer).
    pub(crate) headers: Arc<HeaderMap>,
    /// The body, then the payload, then the signature, in one allocation; the last two are
    /// ASCII by construction.
    pub(crate) buf: Vec<u8>,
    pub(crate) body_len: usize,
    pub(crate) payload_len: usize,
    pub(crate) operation: &'static str,
    pub(crate) kind: EndpointKind,
    pub(crate) nonce: Nonce,
    /// `false` for a public `GET` (no body, no authentication headers).
    pub(crate) signed: bool,
}

impl SignedRequest {
    /// The full URL.
    pub fn uri(&self) -> &Uri {
        &self.uri
    }

    /// The method: `POST` for the private API, `GET` for a public endpoint.
    pub fn method(&self) -> Method {
        if self.signed {
            Method::POST
        } else {
            Method::GET
        }
    }

    /// Whether it is a signed request of the private API (`false`: a public `GET` with no
    /// body, no key and no signature, e.g. the server time).
    pub fn is_signed(&self) -> bool {
        self.signed
    }

    /// The exact body bytes.
    pub fn body(&self) -> &[u8] {
        self.buf.get(..self.body_len).unwrap_or_default()
    }

    /// The payload's bytes (ASCII).
    fn payload_bytes(&self) -> &[u8] {
        self.buf
            .get(self.body_len..self.body_len + self.payload_len)
            .unwrap_or_default()
    }

    /// The signature's bytes (ASCII).
    fn signature_bytes(&self) -> &[u8] {
        self.buf
            .get(self.body_len + self.payload_len..)
            .unwrap_or_default()
    }

    /// The `X-TXC-PAYLOAD` value: base64 of the body.
    pub fn payload(&self) -> &str {
        // Only base64 characters were written there.
        std::str::from_utf8(self.payload_bytes()).unwrap_or_default()
    }

    /// The `X-TXC-SIGNATURE` value: lowercase hex HMAC-SHA512 of the payload.
    pub fn signature(&self) -> &str {
        // Only hex digits were written there.
        std::str::from_utf8(self.signature_bytes()).unwrap_or_default()
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

    /// The four headers: `Content-Type`, `X-TXC-APIKEY`, and `X-TXC-PAYLOAD` and
    /// `X-TXC-SIGNATURE` marked sensitive. Cannot fail: the key was checked to be a header
    /// value when the credentials were made, and the payload and signature are base64 and hex
    /// written by the signer.
    pub fn headers(&self) -> HeaderMap {
        let ascii = |bytes: &[u8]| {
            let mut value = HeaderValue::from_bytes(bytes)
                // Unreachable: base64 and hex digits are visible ASCII.
                .unwrap_or_else(|_| HeaderValue::from_static(""));
            value.set_sensitive(true);
            value
        };
        if !self.signed {
            return HeaderMap::new();
        }
        // The signer's map already holds every name: filling in its two empty values hashes no
        // name, where four inserts would hash each byte by byte (BENCHMARKS.md, issue 27).
        let mut headers = HeaderMap::clone(&self.headers);
        for (name, value) in &mut headers {
            if name == X_TXC_PAYLOAD {
                *value = ascii(self.payload_bytes());
            } else if name == X_TXC_SIGNATURE {
                *value = ascii(self.signature_bytes());
            }
        }
        headers
    }

    /// Consumes the value into its exact body bytes (for clients that take the URL, headers and
    /// body separately; see [`SignedRequest::headers`]).
    pub fn into_body(self) -> Vec<u8> {
        self.into_uri_and_body().1
    }

    fn into_uri_and_body(self) -> (Uri, Vec<u8>) {
        let Self {
            uri,
            mut buf,
            body_len,
            ..
        } = self;
        buf.truncate(body_len);
        (uri, buf)
    }

    /// Consumes the value into an `http::Request`, ready for any HTTP client.
    pub fn into_http(self) -> http::Request<Vec<u8>> {
        let headers = self.headers();
        let method = self.method();
        let (uri, body) = self.into_uri_and_body();
        let mut request = http::Request::new(body);
        *request.method_mut() = method;
        *request.uri_mut() = uri;
        *request.headers_mut() = headers;
        request
    }
}

impl fmt::Debug for SignedRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignedRequest")
            .field("operation", &self.operation)
            .field("method", &self.method())
            .field("uri", &self.uri)
            .field(
                "api_key",
                match self.headers.get(X_TXC_APIKEY) {
                    Some(key) => key as &dyn fmt::Debug,
                    None => &"",
                },
            )
            .field("payload", &"<redacted>")
            .field("signature", &"<redacted>")
            .field("nonce", &self.nonce.0)
            .field("body", &String::from_utf8_lossy(self.body()))
            .finish()
    }
}

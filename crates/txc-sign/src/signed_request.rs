//! [`SignedRequest`]: the signed request value a transport sends.

use std::fmt;

use http::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use http::{Method, Uri};
use txc_types::EndpointKind;

use crate::signer::{X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE};
use crate::{Error, Nonce};

/// A signed `POST`: URL, API key, payload, signature and the exact body bytes the payload
/// encodes. Convert it with [`SignedRequest::into_http`] for any HTTP client.
///
/// `Debug` shows the URL, key and body but redacts the payload and signature (they are also
/// marked sensitive in the `http` headers). The API secret is never part of it.
#[derive(Clone)]
pub struct SignedRequest {
    pub(crate) uri: Uri,
    pub(crate) api_key: HeaderValue,
    /// The body, then the payload, then the signature, in one allocation; the last two are
    /// ASCII by construction.
    pub(crate) buf: Vec<u8>,
    pub(crate) body_len: usize,
    pub(crate) payload_len: usize,
    pub(crate) operation: &'static str,
    pub(crate) kind: EndpointKind,
    pub(crate) nonce: Nonce,
}

impl SignedRequest {
    /// The full URL.
    pub fn uri(&self) -> &Uri {
        &self.uri
    }

    /// The method, always `POST`.
    pub fn method(&self) -> Method {
        Method::POST
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
    /// `X-TXC-SIGNATURE` marked sensitive.
    pub fn headers(&self) -> Result<HeaderMap, Error> {
        let mut payload = HeaderValue::from_bytes(self.payload_bytes())
            .map_err(|_| Error::invalid_config("payload", "not a header value"))?;
        payload.set_sensitive(true);
        let mut signature = HeaderValue::from_bytes(self.signature_bytes())
            .map_err(|_| Error::invalid_config("signature", "not a header value"))?;
        signature.set_sensitive(true);
        let mut headers = HeaderMap::with_capacity(4);
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(X_TXC_APIKEY, self.api_key.clone());
        headers.insert(X_TXC_PAYLOAD, payload);
        headers.insert(X_TXC_SIGNATURE, signature);
        Ok(headers)
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
    pub fn into_http(self) -> Result<http::Request<Vec<u8>>, Error> {
        let headers = self.headers()?;
        let (uri, body) = self.into_uri_and_body();
        let mut request = http::Request::new(body);
        *request.method_mut() = Method::POST;
        *request.uri_mut() = uri;
        *request.headers_mut() = headers;
        Ok(request)
    }
}

impl fmt::Debug for SignedRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignedRequest")
            .field("operation", &self.operation)
            .field("method", &Method::POST)
            .field("uri", &self.uri)
            .field("api_key", &self.api_key)
            .field("payload", &"<redacted>")
            .field("signature", &"<redacted>")
            .field("nonce", &self.nonce.0)
            .field("body", &String::from_utf8_lossy(self.body()))
            .finish()
    }
}

//! Signing in named stages — body bytes → payload → signature → request value — each stage
//! a public function with its own known-answer vectors.
//!
//! The body is serialized once, compactly, and those exact bytes are both base64-encoded into
//! `X-TXC-PAYLOAD` and sent: the server compares them.

use std::io::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::Mac as _;
use http::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use txc_types::Endpoint;

use crate::{Credentials, Error, Nonce, SignedRequest};

/// The API key header.
pub const X_TXC_APIKEY: HeaderName = HeaderName::from_static("x-txc-apikey");
/// The base64 payload header.
pub const X_TXC_PAYLOAD: HeaderName = HeaderName::from_static("x-txc-payload");
/// The signature header.
pub const X_TXC_SIGNATURE: HeaderName = HeaderName::from_static("x-txc-signature");

/// The production base URL.
pub const DEFAULT_BASE_URL: &str = "https://whitebit.com";

/// Stage 1: the exact body bytes — `request`, `nonce` (an integer) and `nonceWindow` first,
/// then the endpoint's own fields, compact JSON.
pub fn body_bytes<E: Endpoint>(
    endpoint: &E,
    nonce: Nonce,
    nonce_window: bool,
) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::with_capacity(256);
    let _ = write!(
        buf,
        "{{\"request\":\"{}\",\"nonce\":{},\"nonceWindow\":{}",
        E::PATH,
        nonce.0,
        nonce_window
    );
    let start = buf.len();
    serde_json::to_writer(&mut buf, endpoint)
        .map_err(|e| Error::config("request body", e.to_string()))?;
    // Splice the endpoint's object into ours: `{...}` becomes `,...}` and `{}` becomes `}`.
    match buf.get(start..) {
        Some([b'{', b'}']) => {
            buf.truncate(start);
            buf.push(b'}');
        }
        Some([b'{', ..]) => {
            if let Some(open) = buf.get_mut(start) {
                *open = b',';
            }
        }
        _ => {
            return Err(Error::config(
                "request body",
                "endpoint did not serialize to a JSON object",
            ));
        }
    }
    Ok(buf)
}

/// Stage 2: the `X-TXC-PAYLOAD` value — standard base64, with padding, of the body bytes.
pub fn payload(body: &[u8]) -> String {
    STANDARD.encode(body)
}

/// Stage 3: the `X-TXC-SIGNATURE` value — lowercase hex of HMAC-SHA512 keyed with the API
/// secret over the ASCII of the payload (not the raw JSON).
pub fn signature(credentials: &Credentials, payload: &str) -> String {
    let mut mac = credentials.mac().clone();
    mac.update(payload.as_bytes());
    crate::hex::encode(&mac.finalize().into_bytes())
}

/// Signs endpoint requests for one credential and base URL.
///
/// ```
/// use txc_sign::{Credentials, Nonce, Signer};
/// use txc_types::{CollateralMarketOrder, Side};
///
/// let signer = Signer::new(Credentials::new("key", "test-secret")?, "https://whitebit.com")?;
/// let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
/// let signed = signer.sign(&order, Nonce(1_700_000_000_000), true)?;
/// assert_eq!(
///     signed.body(),
///     br#"{"request":"/api/v4/order/collateral/market","nonce":1700000000000,"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":"0.01"}"#
/// );
/// assert_eq!(signed.http().uri(), "https://whitebit.com/api/v4/order/collateral/market");
/// # Ok::<(), txc_sign::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Signer {
    credentials: Credentials,
    base_url: String,
    api_key: HeaderValue,
}

impl Signer {
    /// A signer for `credentials` sending to `base_url` (`http://` or `https://`, no path
    /// beyond `/`, no query).
    pub fn new(credentials: Credentials, base_url: &str) -> Result<Self, Error> {
        let base_url = normalize_base_url(base_url)?;
        let api_key = HeaderValue::from_str(credentials.api_key())
            .map_err(|_| Error::config("api_key", "not a valid header value"))?;
        Ok(Self {
            credentials,
            base_url,
            api_key,
        })
    }

    /// The credentials.
    pub fn credentials(&self) -> &Credentials {
        &self.credentials
    }

    /// The base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Signs `endpoint` with `nonce`; `nonce_window` sets the body's `nonceWindow` flag.
    pub fn sign<E: Endpoint>(
        &self,
        endpoint: &E,
        nonce: Nonce,
        nonce_window: bool,
    ) -> Result<SignedRequest, Error> {
        let body = body_bytes(endpoint, nonce, nonce_window)?;
        let payload = payload(&body);
        let signature = signature(&self.credentials, &payload);
        let mut payload = HeaderValue::try_from(payload)
            .map_err(|_| Error::config("payload", "not a header value"))?;
        payload.set_sensitive(true);
        let mut signature = HeaderValue::try_from(signature)
            .map_err(|_| Error::config("signature", "not a header value"))?;
        signature.set_sensitive(true);
        let mut url = String::with_capacity(self.base_url.len() + E::PATH.len());
        url.push_str(&self.base_url);
        url.push_str(E::PATH);
        let request = http::Request::post(url)
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .header(X_TXC_APIKEY, self.api_key.clone())
            .header(X_TXC_PAYLOAD, payload)
            .header(X_TXC_SIGNATURE, signature)
            .body(body)
            .map_err(|e| Error::config("request", e.to_string()))?;
        Ok(SignedRequest::new(request, E::OPERATION, E::KIND, nonce))
    }
}

fn normalize_base_url(base_url: &str) -> Result<String, Error> {
    let trimmed = base_url.trim_end_matches('/');
    let uri: http::Uri = trimmed
        .parse()
        .map_err(|e: http::uri::InvalidUri| Error::config("base_url", e.to_string()))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        _ => {
            return Err(Error::config(
                "base_url",
                "must start with http:// or https://",
            ));
        }
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(Error::config("base_url", "has no host"));
    }
    if uri.query().is_some() || !matches!(uri.path(), "" | "/") {
        return Err(Error::config("base_url", "must not have a path or query"));
    }
    Ok(trimmed.to_owned())
}

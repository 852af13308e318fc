//! Signing in named stages — body bytes → payload → signature → request value — each stage
//! a public function with its own known-answer vectors.
//!
//! The body is serialized once, compactly, and those exact bytes are both base64-encoded into
//! `X-TXC-PAYLOAD` and sent: the server compares them.

use std::sync::Arc;

use hmac::Mac as _;
use http::Uri;
use http::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use http::uri::{Authority, PathAndQuery, Scheme};
use txc_types::endpoint::{ENDPOINT_PATHS, Endpoint};

use crate::body::write_body;
use crate::headers::{X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE};
use crate::nonce::{Nonce, NonceMode};
use crate::{Credentials, Error, SignedRequest};

/// The production base URL.
pub const DEFAULT_BASE_URL: &str = "https://whitebit.com";

/// Stage 1: the exact body bytes — `request`, `nonce` (an integer) and `nonceWindow` first,
/// then the endpoint's own fields ([`Endpoint::for_each_field`]), compact JSON.
pub fn body_bytes<E: Endpoint>(endpoint: &E, nonce: Nonce, mode: NonceMode) -> Vec<u8> {
    let mut buf = Vec::with_capacity(256);
    write_body(&mut buf, endpoint, nonce, mode);
    buf
}

/// Stage 2: the `X-TXC-PAYLOAD` value — standard base64, with padding, of the body bytes.
pub fn payload(body: &[u8]) -> String {
    let mut out = Vec::with_capacity(crate::base64::encoded_len(body.len()));
    crate::base64::encode_into(body, &mut out);
    // Only base64 characters were written.
    String::from_utf8(out).unwrap_or_default()
}

/// Stage 3: the `X-TXC-SIGNATURE` value — lowercase hex of HMAC-SHA512 keyed with the API
/// secret over the ASCII of the payload (not the raw JSON).
pub fn signature(credentials: &Credentials, payload: &str) -> String {
    crate::hex::encode(&tag(credentials, payload.as_bytes()))
}

/// The length of a hex signature: two digits per byte of HMAC-SHA512.
const SIGNATURE_LEN: usize = 128;

/// Room for a typical signed request — body, payload and signature — in one allocation;
/// a larger body grows it once.
const SIGNED_CAPACITY: usize = 1024;

/// HMAC-SHA512 of `payload` under the credentials' pre-keyed MAC.
fn tag(credentials: &Credentials, payload: &[u8]) -> [u8; 64] {
    let mut mac = credentials.mac().clone();
    mac.update(payload);
    mac.finalize().into_bytes().into()
}

/// Signs endpoint requests for one credential and base URL.
///
/// ```
/// use txc_sign::nonce::{Nonce, NonceMode};
/// use txc_sign::{Credentials, Signer};
/// use txc_types::orders::{CollateralMarketOrder, Side};
///
/// let signer = Signer::new(Credentials::new("key", "test-secret")?, "https://whitebit.com")?;
/// let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
///     .client_order_id("order-1")
///     .build()?;
/// let signed = signer.sign(&order, Nonce(1_700_000_000_000), NonceMode::Window)?;
/// assert_eq!(
///     signed.body(),
///     br#"{"request":"/api/v4/order/collateral/market","nonce":1700000000000,"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":"0.01","clientOrderId":"order-1"}"#
/// );
/// assert_eq!(signed.uri(), "https://whitebit.com/api/v4/order/collateral/market");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Signer {
    credentials: Credentials,
    base_url: String,
    /// Parsed once: each request only adds its static path.
    scheme: Scheme,
    authority: Authority,
    /// The full URI of each endpoint txc-types defines, built once: cloning one costs half
    /// of assembling it (which validates the path again).
    known: Vec<(&'static str, Uri)>,
    /// The four headers of a signed request, the payload and signature empty: each request
    /// clones the map and fills in those two, so no header name is hashed per request.
    headers: Arc<HeaderMap>,
}

impl Signer {
    /// A signer for `credentials` sending to `base_url` (`http://` or `https://`, no path
    /// beyond `/`, no query).
    pub fn new(credentials: Credentials, base_url: &str) -> Result<Self, Error> {
        let (base_url, scheme, authority) = parse_base_url(base_url)?;
        let api_key = HeaderValue::from_str(credentials.api_key())
            .map_err(|_| Error::invalid_config("api_key", "not a valid header value"))?;
        let known = ENDPOINT_PATHS
            .into_iter()
            .map(|path| Ok((path, endpoint_uri(&scheme, &authority, path)?)))
            .collect::<Result<_, Error>>()?;
        let mut headers = HeaderMap::with_capacity(4);
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(X_TXC_APIKEY, api_key);
        headers.insert(X_TXC_PAYLOAD, HeaderValue::from_static(""));
        headers.insert(X_TXC_SIGNATURE, HeaderValue::from_static(""));
        Ok(Self {
            credentials,
            base_url,
            scheme,
            authority,
            known,
            headers: Arc::new(headers),
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

    /// Signs `endpoint` with `nonce`, checked by the exchange in `mode`. Fails only for an
    /// endpoint whose path cannot be part of a URL.
    pub fn sign<E: Endpoint>(
        &self,
        endpoint: &E,
        nonce: Nonce,
        mode: NonceMode,
    ) -> Result<SignedRequest, Error> {
        // One buffer holds the body, then its payload, then the signature.
        let mut buf = Vec::with_capacity(SIGNED_CAPACITY);
        write_body(&mut buf, endpoint, nonce, mode);
        let body_len = buf.len();
        let payload_len = crate::base64::encoded_len(body_len);
        buf.resize(body_len + payload_len + SIGNATURE_LEN, 0);
        let (body, rest) = buf
            .split_at_mut_checked(body_len)
            .ok_or_else(|| Error::invalid_config("request body", "buffer too short"))?;
        let (payload, signature) = rest
            .split_at_mut_checked(payload_len)
            .ok_or_else(|| Error::invalid_config("request body", "buffer too short"))?;
        crate::base64::encode_to_slice(body, payload);
        crate::hex::encode_to_slice(&tag(&self.credentials, payload), signature);
        let uri = self.uri_of(E::PATH)?;
        Ok(SignedRequest {
            uri,
            headers: Arc::clone(&self.headers),
            buf,
            body_len,
            payload_len,
            operation: E::OPERATION,
            kind: E::KIND,
            nonce,
            signed: true,
        })
    }

    /// The request of a public endpoint ([`Endpoint::SIGNED`] `false`): a `GET` of its path
    /// with no body, no key and no signature. Its nonce is 0 (none is sent).
    pub fn public<E: Endpoint>(&self) -> Result<SignedRequest, Error> {
        Ok(SignedRequest {
            uri: self.uri_of(E::PATH)?,
            headers: Arc::clone(&self.headers),
            buf: Vec::new(),
            body_len: 0,
            payload_len: 0,
            operation: E::OPERATION,
            kind: E::KIND,
            nonce: Nonce(0),
            signed: false,
        })
    }

    /// The URI of the endpoint at `path`: prebuilt for this crate's endpoints.
    fn uri_of(&self, path: &'static str) -> Result<Uri, Error> {
        match self.known.iter().find(|(known, _)| *known == path) {
            Some((_, uri)) => Ok(uri.clone()),
            None => endpoint_uri(&self.scheme, &self.authority, path),
        }
    }
}

/// The URI of `path` at the base URL's scheme and authority.
fn endpoint_uri(scheme: &Scheme, authority: &Authority, path: &'static str) -> Result<Uri, Error> {
    let mut parts = http::uri::Parts::default();
    parts.scheme = Some(scheme.clone());
    parts.authority = Some(authority.clone());
    parts.path_and_query = Some(PathAndQuery::from_static(path));
    Uri::from_parts(parts).map_err(|e| Error::invalid_config("request path", e.to_string()))
}

/// Whether `base_url`'s host is `localhost`, in `127.0.0.0/8` or `[::1]`; anything
/// unparsable is not. What a `--live` guard asks before sending real orders.
///
/// ```
/// use txc_sign::is_loopback;
/// assert!(is_loopback("http://127.0.0.1:8080") && is_loopback("http://[::1]:9"));
/// assert!(!is_loopback("https://whitebit.com") && !is_loopback("http://127.0.0.1.example.com"));
/// ```
pub fn is_loopback(base_url: &str) -> bool {
    let Some(host) = base_url
        .trim()
        .parse::<Uri>()
        .ok()
        .and_then(|u| u.host().map(str::to_owned))
    else {
        return false;
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn parse_base_url(base_url: &str) -> Result<(String, Scheme, Authority), Error> {
    let trimmed = base_url.trim_end_matches('/');
    let uri: Uri = trimmed
        .parse()
        .map_err(|e: http::uri::InvalidUri| Error::invalid_config("base_url", e.to_string()))?;
    if uri.query().is_some() || !matches!(uri.path(), "" | "/") {
        return Err(Error::invalid_config(
            "base_url",
            "must not have a path or query",
        ));
    }
    let parts = uri.into_parts();
    let scheme = match parts.scheme {
        Some(s) if s == Scheme::HTTP || s == Scheme::HTTPS => s,
        _ => {
            return Err(Error::invalid_config(
                "base_url",
                "must start with http:// or https://",
            ));
        }
    };
    let authority = parts
        .authority
        .filter(|a| !a.host().is_empty())
        .ok_or_else(|| Error::invalid_config("base_url", "has no host"))?;
    Ok((trimmed.to_owned(), scheme, authority))
}

#[cfg(test)]
mod tests {
    use super::is_loopback;

    #[test]
    fn loopback_hosts() {
        for url in [
            "http://127.0.0.1:8080",
            "http://localhost",
            "http://[::1]:9",
            "http://127.1.2.3",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in [
            "https://whitebit.com",
            "http://10.0.0.1:8080",
            "http://127.0.0.1.example.com",
            "http://[::2]",
            "not a url",
        ] {
            assert!(!is_loopback(url), "{url}");
        }
    }
}

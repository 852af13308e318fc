//! Request verification for servers: check a signed request exactly as the exchange does and
//! answer with the exchange's own messages.
//!
//! [`verify`] is stateless; [`NonceGuard`] keeps the per-key nonce state (the caller passes the
//! time). For servers and test doubles; txc's own tests check its signing with them (the
//! sandbox has its own verifier, written from the exchange's docs).

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::Mac as _;
use http::HeaderMap;
use serde::Deserialize;
use serde_json::Value;

use crate::Credentials;
use crate::headers::{X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE};

/// A request that passed authentication.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifiedRequest {
    /// The API key that signed it.
    pub api_key: String,
    /// The nonce, whether sent as an integer or a digit string.
    pub nonce: u64,
    /// Whether `nonceWindow` was `true`.
    pub nonce_window: bool,
}

/// What the key lookup knows about a key.
#[derive(Debug, Clone)]
pub enum KeyStatus {
    /// The key is enabled; verify with these credentials.
    Enabled(Credentials),
    /// The key exists but is disabled.
    Disabled,
}

/// A rejection with the exchange's status, code and message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuthRejection {
    /// HTTP status.
    pub status: u16,
    /// The exchange's code.
    pub code: i64,
    /// The exchange's message, verbatim.
    pub message: &'static str,
}

impl AuthRejection {
    const fn new(status: u16, code: i64, message: &'static str) -> Self {
        Self {
            status,
            code,
            message,
        }
    }

    /// `X-TXC-PAYLOAD` missing or empty.
    pub const PAYLOAD_NOT_PROVIDED: Self = Self::new(400, 9, "Payload not provided.");
    /// The payload does not decode to the body.
    pub const INVALID_PAYLOAD: Self = Self::new(400, 9, "Invalid payload.");
    /// Wrong signature, unknown key, or `request` not the path.
    pub const UNAUTHORIZED: Self = Self::new(401, 10, "Unauthorized request.");
    /// The key is disabled.
    pub const KEY_DISABLED: Self = Self::new(
        403,
        2,
        "This action is unauthorized. Enable your key in API settings",
    );
    /// The key may not use this endpoint (e.g. smart plans for a non-partner key).
    pub const PERMISSION_DENIED: Self = Self::new(
        403,
        0,
        "You don't have permission to use this endpoint. Please contact support for more details",
    );
    /// `nonce` missing or not an integer.
    pub const NONCE_NOT_PROVIDED: Self = Self::new(400, 0, "Nonce not provided.");
    /// `request` missing.
    pub const REQUEST_NOT_PROVIDED: Self = Self::new(400, 0, "Request not provided.");
    /// Nonce not greater than the previous one, or the rate limit.
    pub const TOO_MANY_REQUESTS: Self = Self::new(429, 0, "Too many requests.");
    /// With `nonceWindow`, a nonce outside ±5 s of server time. The message is the docs'
    /// (Authentication and Rate-limits pages, no final period; one user reported a live response
    /// with a period). The status is not documented: 401, the docs' status for "missing or
    /// invalid authentication", which their JWT endpoint also answers for a bad nonce.
    pub const NONCE_OUTSIDE_WINDOW: Self = Self::new(
        401,
        0,
        "Your nonce is more than 5 seconds lesser than the current nonce",
    );
    /// `nonceWindow` is not a boolean.
    pub const INVALID_NONCE_WINDOW: Self = Self::new(400, 0, "Invalid nonceWindow.");

    /// The JSON body the exchange sends with this rejection.
    pub fn body(&self) -> String {
        if *self == Self::TOO_MANY_REQUESTS {
            return r#"{"code":0,"errors":{},"message":"Too many requests."}"#.to_owned();
        }
        serde_json::json!({ "code": self.code, "message": self.message }).to_string()
    }
}

impl fmt::Display for AuthRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "HTTP {} code {}: {}",
            self.status, self.code, self.message
        )
    }
}

impl std::error::Error for AuthRejection {}

#[derive(Deserialize)]
struct Envelope {
    #[serde(default)]
    request: Option<Value>,
    #[serde(default)]
    nonce: Option<Value>,
    #[serde(default, rename = "nonceWindow")]
    nonce_window: Option<Value>,
}

/// Verifies a request to `path` with `headers` and `body`; `lookup` finds a key's status.
///
/// Checks, in order: key header present and known and enabled; payload header present;
/// signature (HMAC-SHA512 over the payload text, compared in constant time); payload decodes
/// to exactly the body; body is a JSON object; `request` present and equal to `path`; `nonce`
/// present as an integer or digit string; `nonceWindow` absent or boolean.
///
/// ```
/// use txc_sign::nonce::{Nonce, NonceMode};
/// use txc_sign::server::{verify, KeyStatus};
/// use txc_sign::{Credentials, Signer};
/// use txc_types::investments::SmartPlansQuery;
///
/// let creds = Credentials::new("key", "secret")?;
/// let signed = Signer::new(creds.clone(), "http://127.0.0.1:1")?.sign(&SmartPlansQuery::new(), Nonce(7), NonceMode::Strict)?;
/// let ok = verify(<SmartPlansQuery as txc_types::endpoint::Endpoint>::PATH, &signed.headers(), signed.body(), |_| {
///     Some(KeyStatus::Enabled(creds.clone()))
/// });
/// assert_eq!(ok.map(|v| v.nonce), Ok(7));
/// # Ok::<(), txc_sign::Error>(())
/// ```
// txc-sandbox repeats these checks in its own code on purpose: it exists to catch txc wrong.
pub fn verify(
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
    lookup: impl FnOnce(&str) -> Option<KeyStatus>,
) -> Result<VerifiedRequest, AuthRejection> {
    let text = |name: http::HeaderName| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let api_key = text(X_TXC_APIKEY);
    let payload = text(X_TXC_PAYLOAD);
    let signature = text(X_TXC_SIGNATURE);
    if api_key.is_empty() {
        return Err(AuthRejection::UNAUTHORIZED);
    }
    if payload.is_empty() {
        return Err(AuthRejection::PAYLOAD_NOT_PROVIDED);
    }
    let credentials = match lookup(api_key) {
        Some(KeyStatus::Enabled(c)) => c,
        Some(KeyStatus::Disabled) => return Err(AuthRejection::KEY_DISABLED),
        None => return Err(AuthRejection::UNAUTHORIZED),
    };
    let sig_bytes = crate::hex::decode(signature.as_bytes()).ok_or(AuthRejection::UNAUTHORIZED)?;
    let mut mac = credentials.mac().clone();
    mac.update(payload.as_bytes());
    mac.verify_slice(&sig_bytes)
        .map_err(|_| AuthRejection::UNAUTHORIZED)?;
    let decoded = STANDARD
        .decode(payload)
        .map_err(|_| AuthRejection::INVALID_PAYLOAD)?;
    if decoded != body {
        return Err(AuthRejection::INVALID_PAYLOAD);
    }
    // UTF-8 throughout (serde_json does not check the strings it skips) and an object (a
    // derived struct would also accept an array).
    let text = std::str::from_utf8(body)
        .ok()
        .filter(|t| t.trim_start().starts_with('{'))
        .ok_or(AuthRejection::INVALID_PAYLOAD)?;
    let envelope: Envelope =
        serde_json::from_str(text).map_err(|_| AuthRejection::INVALID_PAYLOAD)?;
    match envelope.request {
        None | Some(Value::Null) => return Err(AuthRejection::REQUEST_NOT_PROVIDED),
        Some(Value::String(r)) if r == path => {}
        Some(_) => return Err(AuthRejection::UNAUTHORIZED),
    }
    let nonce = match envelope.nonce {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
    .ok_or(AuthRejection::NONCE_NOT_PROVIDED)?;
    let nonce_window = match envelope.nonce_window {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => b,
        Some(_) => return Err(AuthRejection::INVALID_NONCE_WINDOW),
    };
    Ok(VerifiedRequest {
        api_key: api_key.to_owned(),
        nonce,
        nonce_window,
    })
}

/// The exchange's nonce rules, per key: without `nonceWindow` a nonce must be greater than the
/// key's previous one; with it, within ±5 s of `now_ms` and not used before.
///
/// ```
/// use txc_sign::server::{AuthRejection, NonceGuard};
/// let mut guard = NonceGuard::default();
/// assert!(guard.check("k", 10, false, 0).is_ok());
/// assert_eq!(guard.check("k", 10, false, 0), Err(AuthRejection::TOO_MANY_REQUESTS));
/// assert!(guard.check("k", 1_000, true, 1_000).is_ok());
/// assert_eq!(guard.check("k", 1_000, true, 1_000), Err(AuthRejection::TOO_MANY_REQUESTS));
/// assert_eq!(guard.check("k", 1, true, 9_000), Err(AuthRejection::NONCE_OUTSIDE_WINDOW));
/// ```
#[derive(Debug, Default)]
// The sandbox's nonce rules are its own code too (see `verify`).
pub struct NonceGuard {
    keys: HashMap<String, KeyNonces>,
}

#[derive(Debug, Default)]
struct KeyNonces {
    last: u64,
    recent: BTreeSet<u64>,
}

impl NonceGuard {
    /// The window on either side of server time, in milliseconds.
    pub const WINDOW_MS: u64 = 5_000;

    /// Accepts or rejects `nonce` for `api_key` at server time `now_ms`, and records it.
    pub fn check(
        &mut self,
        api_key: &str,
        nonce: u64,
        window: bool,
        now_ms: u64,
    ) -> Result<(), AuthRejection> {
        let entry = match self.keys.get_mut(api_key) {
            Some(e) => e,
            None => self.keys.entry(api_key.to_owned()).or_default(),
        };
        if window {
            if nonce.abs_diff(now_ms) > Self::WINDOW_MS {
                return Err(AuthRejection::NONCE_OUTSIDE_WINDOW);
            }
            let oldest = now_ms.saturating_sub(Self::WINDOW_MS);
            entry.recent = entry.recent.split_off(&oldest);
            if !entry.recent.insert(nonce) {
                return Err(AuthRejection::TOO_MANY_REQUESTS);
            }
        } else if nonce <= entry.last {
            return Err(AuthRejection::TOO_MANY_REQUESTS);
        }
        entry.last = entry.last.max(nonce);
        Ok(())
    }
}

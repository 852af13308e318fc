//! [`Credentials`]: the API key and the secret, with the HMAC keyed once.
//!
//! The secret is never printed (`Debug` redacts it, nothing implements `Display` for it) and
//! its bytes are zeroized when the last clone is dropped.

use std::fmt;
use std::sync::Arc;

use hmac::{Hmac, KeyInit};
use sha2::Sha512;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;

/// HMAC-SHA512, the exchange's signature algorithm.
pub(crate) type HmacSha512 = Hmac<Sha512>;

/// The API secret's bytes, zeroized on drop and never printed.
// `Zeroize` and the drop by hand: zeroize's derive would bring a second major version of `syn`
// into every user's build for these few lines.
#[derive(Clone)]
pub struct ApiSecret(Vec<u8>);

impl Zeroize for ApiSecret {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for ApiSecret {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for ApiSecret {}

impl ApiSecret {
    /// Wraps a secret. The caller's copy is the caller's to zeroize.
    pub fn new(secret: impl Into<Vec<u8>>) -> Self {
        Self(secret.into())
    }

    /// The secret's bytes, for keying a MAC.
    pub fn expose(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for ApiSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiSecret(<redacted>)")
    }
}

struct Inner {
    api_key: String,
    secret: ApiSecret,
    /// Keyed once here; each signature clones this state instead of re-keying.
    mac: HmacSha512,
}

/// An API key with its secret. Cheap to clone (clones share one allocation).
///
/// ```
/// let creds = txc_sign::Credentials::new("public-key", "very-secret")?;
/// assert_eq!(creds.api_key(), "public-key");
/// assert!(!format!("{creds:?}").contains("very-secret"));
/// # Ok::<(), txc_sign::Error>(())
/// ```
#[derive(Clone)]
pub struct Credentials(Arc<Inner>);

impl Credentials {
    /// Creates credentials; fails when the key or the secret is empty, or the key is not a
    /// valid header value.
    pub fn new(api_key: impl Into<String>, api_secret: impl Into<Vec<u8>>) -> Result<Self, Error> {
        let api_key = api_key.into();
        let secret = ApiSecret::new(api_secret);
        if api_key.is_empty() || !api_key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(Error::invalid_config(
                "api_key",
                "must be non-empty visible ASCII",
            ));
        }
        if secret.expose().is_empty() {
            return Err(Error::invalid_config("api_secret", "must not be empty"));
        }
        let mac = <HmacSha512 as KeyInit>::new_from_slice(secret.expose())
            .map_err(|_| Error::invalid_config("api_secret", "cannot key HMAC-SHA512"))?;
        Ok(Self(Arc::new(Inner {
            api_key,
            secret,
            mac,
        })))
    }

    /// The public API key.
    pub fn api_key(&self) -> &str {
        &self.0.api_key
    }

    /// The secret, for code that must key its own MAC.
    pub fn secret(&self) -> &ApiSecret {
        &self.0.secret
    }

    /// A MAC state already keyed with the secret.
    pub(crate) fn mac(&self) -> &HmacSha512 {
        &self.0.mac
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("api_key", &self.0.api_key)
            .field("api_secret", &"<redacted>")
            .finish()
    }
}

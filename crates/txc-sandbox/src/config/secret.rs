//! An account's API secret as configured ([`ApiSecret`]) and as the sandbox verifies with it
//! ([`SigningKey`]). Neither is ever printed; both are zeroized when dropped.
//!
//! The sandbox keeps its own small secret type rather than `txc-sign`'s credentials: it checks
//! signatures with its own code (`crate::auth`), so nothing of the SDK's signing stands
//! between a request and its verdict.

use std::fmt;

use hmac::{Hmac, KeyInit};
use sha2::Sha512;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// HMAC-SHA512, the exchange's signature algorithm.
pub(crate) type HmacSha512 = Hmac<Sha512>;

/// A configured API secret's bytes: zeroized on drop, never printed.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct ApiSecret(Vec<u8>);

impl ApiSecret {
    /// Wraps `secret`.
    pub(crate) fn new(secret: impl Into<Vec<u8>>) -> Self {
        Self(secret.into())
    }

    /// Whether there are no bytes.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The key the signatures are checked with: HMAC-SHA512 keyed once with the secret
    /// (`None` only if HMAC refused the key, which it does for no length).
    pub(crate) fn signing_key(&self) -> Option<SigningKey> {
        <HmacSha512 as KeyInit>::new_from_slice(&self.0)
            .ok()
            .map(SigningKey)
    }
}

impl fmt::Debug for ApiSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// HMAC-SHA512 keyed with an account's secret (its state zeroized on drop by `hmac`'s
/// `zeroize` feature); cloning it costs no re-keying.
#[derive(Clone)]
pub(crate) struct SigningKey(HmacSha512);

impl SigningKey {
    /// A MAC state keyed with the secret, ready for the message.
    pub(crate) fn mac(&self) -> HmacSha512 {
        self.0.clone()
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_printed() {
        let secret = ApiSecret::new("very-secret");
        assert!(!format!("{secret:?}").contains("very-secret"));
        assert!(!format!("{:?}", secret.signing_key()).contains("very-secret"));
    }
}

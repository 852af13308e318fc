//! [`Error`]: a value this crate cannot sign with — credentials, a base URL, a request path, a
//! fleet place. txc-core's `Error` takes it in as its `InvalidConfig` (`From`), with the same
//! message.

/// A value this crate cannot work with: what it is and why. Nothing was signed.
///
/// ```
/// let err = txc_sign::Credentials::new("", "secret").unwrap_err();
/// assert_eq!(err.what, "api_key");
/// assert_eq!(err.to_string(), "invalid configuration of api_key: must be non-empty visible ASCII");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid configuration of {what}: {reason}")]
#[non_exhaustive]
pub struct Error {
    /// What is misconfigured: `api_key`, `api_secret`, `base_url`, `request path`, …
    pub what: &'static str,
    /// Why.
    pub reason: String,
}

impl Error {
    /// An error of `what` for `reason`.
    pub(crate) fn invalid_config(what: &'static str, reason: impl Into<String>) -> Self {
        Self {
            what,
            reason: reason.into(),
        }
    }
}

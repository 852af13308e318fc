//! [`StreamConfigError`]: a setting or subscription refused before anything is sent.

use txc_types::errors::ValidationError;

/// A setting or subscription refused before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamConfigError {
    /// A market or ticker is not valid.
    #[error(transparent)]
    Invalid(ValidationError),
    /// A list that needs at least one item is empty.
    #[error("{what}: at least one is needed")]
    Empty {
        /// The list.
        what: &'static str,
    },
    /// A setting is out of range.
    #[error("{name}: {reason}")]
    Setting {
        /// The setting.
        name: &'static str,
        /// Why.
        reason: &'static str,
    },
}

impl StreamConfigError {
    pub(crate) fn setting(name: &'static str, reason: &'static str) -> Self {
        Self::Setting { name, reason }
    }
}

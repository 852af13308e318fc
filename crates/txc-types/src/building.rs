//! [`Building`]: a request under construction whose first refused value wins — what every
//! request builder holds.

use crate::errors::ValidationError;

/// A request being built: each setter applies its change unless a value was refused already,
/// and the first refusal is what finishing it reports.
#[derive(Debug, Clone)]
pub(crate) struct Building<T> {
    state: Result<T, ValidationError>,
}

impl<T> Building<T> {
    /// Starts from `value`.
    pub(crate) fn new(value: T) -> Self {
        Self { state: Ok(value) }
    }

    /// Starts from a value that was refused already (a builder's required argument).
    pub(crate) fn from_result(state: Result<T, ValidationError>) -> Self {
        Self { state }
    }

    /// Applies `apply` unless a value was already refused; its error is kept.
    pub(crate) fn set(mut self, apply: impl FnOnce(&mut T) -> Result<(), ValidationError>) -> Self {
        if let Ok(value) = &mut self.state
            && let Err(e) = apply(value)
        {
            self.state = Err(e);
        }
        self
    }

    /// The value, or the first refusal.
    pub(crate) fn finish(self) -> Result<T, ValidationError> {
        self.state
    }
}

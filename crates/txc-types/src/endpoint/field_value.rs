//! [`FieldValue`]: lets request builders take either a validated value or its text.
//!
//! `builder("BTC_USDT", Side::Buy, "0.01")` and `builder(market, Side::Buy, amount)` both work;
//! text is validated when the builder finishes, and the error names the wire field.

use crate::errors::ValidationError;

/// A type whose values are validated from text, such as [`Market`](crate::values::Market) or
/// [`Amount`](crate::values::Amount).
pub trait Validated: Sized {
    /// Validates `text` as this type, naming `field` in the error.
    fn validate(text: &str, field: &'static str) -> Result<Self, ValidationError>;
}

/// A value a request builder accepts for a field of type `T`: `T` itself, or text to validate.
pub trait FieldValue<T> {
    /// Converts to `T`, naming `field` (its wire name) in any error.
    fn into_field(self, field: &'static str) -> Result<T, ValidationError>;
}

impl<T: Validated> FieldValue<T> for T {
    fn into_field(self, _field: &'static str) -> Result<T, ValidationError> {
        Ok(self)
    }
}

impl<T: Validated> FieldValue<T> for &str {
    fn into_field(self, field: &'static str) -> Result<T, ValidationError> {
        T::validate(self, field)
    }
}

impl<T: Validated> FieldValue<T> for String {
    fn into_field(self, field: &'static str) -> Result<T, ValidationError> {
        T::validate(&self, field)
    }
}

impl<T: Validated> FieldValue<T> for &String {
    fn into_field(self, field: &'static str) -> Result<T, ValidationError> {
        T::validate(self, field)
    }
}

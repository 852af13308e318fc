//! Positive plain decimals: [`Amount`] and [`Price`].
//!
//! Both keep the exact wire string; only plain notation is accepted (`0.01`, `40000`): no sign,
//! exponent, `NaN`, spaces, hex or leading zeros, and never a float anywhere.

use crate::text::{Text, TextRule};
use crate::{Reason, ValidationError};

/// The longest decimal accepted, in characters.
pub const MAX_DECIMAL_LEN: usize = 40;

/// Marks the [`TextRule`]s that hold positive plain decimals (sealed).
pub trait DecimalRule: TextRule {}

/// Checks that `text` is a positive plain decimal.
pub(crate) fn check_decimal(text: &str, field: &'static str) -> Result<(), ValidationError> {
    crate::text::check_chars(text, field, MAX_DECIMAL_LEN, |b| {
        b.is_ascii_digit() || b == b'.'
    })?;
    let (int, frac) = match text.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (text, None),
    };
    let shape_err = || {
        ValidationError::invalid(
            field,
            Reason::Format("must be a plain decimal such as 0.01 or 40000"),
        )
    };
    if int.is_empty() || frac.is_some_and(|f| f.is_empty() || f.contains('.')) {
        return Err(shape_err());
    }
    if int.len() > 1 && int.starts_with('0') {
        return Err(ValidationError::invalid(
            field,
            Reason::Format("must not have leading zeros"),
        ));
    }
    if text.bytes().all(|b| b == b'0' || b == b'.') {
        return Err(ValidationError::invalid(field, Reason::NotPositive));
    }
    Ok(())
}

/// Rule of [`Amount`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AmountRule;

impl TextRule for AmountRule {
    const FIELD: &'static str = "amount";
    const NAME: &'static str = "Amount";
    fn check(text: &str, field: &'static str) -> Result<(), ValidationError> {
        check_decimal(text, field)
    }
}
impl DecimalRule for AmountRule {}

/// An order amount in the market's stock (base) currency, e.g. `0.01`.
///
/// ```
/// use txc_types::Amount;
/// assert_eq!("0.01".parse::<Amount>()?.as_str(), "0.01");
/// for bad in ["-1", "1e5", "NaN", "0x10", "", " 1", "0", "1."] {
///     assert!(bad.parse::<Amount>().is_err(), "{bad}");
/// }
/// # Ok::<(), txc_types::ValidationError>(())
/// ```
pub type Amount = Text<AmountRule>;

/// Rule of [`Price`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PriceRule;

impl TextRule for PriceRule {
    const FIELD: &'static str = "price";
    const NAME: &'static str = "Price";
    fn check(text: &str, field: &'static str) -> Result<(), ValidationError> {
        check_decimal(text, field)
    }
}
impl DecimalRule for PriceRule {}

/// A price in the market's money (quote) currency: stop-loss, take-profit or activation price.
pub type Price = Text<PriceRule>;

#[cfg(feature = "decimal")]
mod rust_decimal_conv {
    use rust_decimal::Decimal;

    use super::DecimalRule;
    use crate::text::Text;
    use crate::{FieldValue, Reason, Validated, ValidationError};

    /// Writes a positive decimal in plain notation (never an exponent), without trailing zeros.
    fn from_decimal<R: DecimalRule>(
        value: Decimal,
        field: &'static str,
    ) -> Result<Text<R>, ValidationError> {
        if value.is_sign_negative() || value.is_zero() {
            return Err(ValidationError::invalid(field, Reason::NotPositive));
        }
        Text::validate(&value.normalize().to_string(), field)
    }

    impl<R: DecimalRule> TryFrom<Decimal> for Text<R> {
        type Error = ValidationError;
        /// Converts a positive decimal; zero and negative values are rejected.
        fn try_from(value: Decimal) -> Result<Self, Self::Error> {
            from_decimal(value, R::FIELD)
        }
    }

    impl<R: DecimalRule> FieldValue<Text<R>> for Decimal {
        /// Builders take a `Decimal` wherever they take an amount or price.
        fn into_field(self, field: &'static str) -> Result<Text<R>, ValidationError> {
            from_decimal(self, field)
        }
    }

    impl<R: DecimalRule> TryFrom<&Text<R>> for Decimal {
        type Error = ValidationError;
        /// Converts to a `Decimal`; fails only for values beyond its 28-digit range.
        fn try_from(value: &Text<R>) -> Result<Self, Self::Error> {
            value.as_str().parse::<Decimal>().map_err(|_| {
                ValidationError::invalid(
                    R::FIELD,
                    Reason::Format("does not fit rust_decimal::Decimal"),
                )
            })
        }
    }
}

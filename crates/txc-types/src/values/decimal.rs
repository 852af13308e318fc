//! Positive plain decimals of requests: [`Amount`], [`Price`] and [`Total`].
//!
//! Both keep the exact wire string; only plain notation is accepted (`0.01`, `40000`): no sign,
//! exponent, `NaN`, spaces, hex or leading zeros, and never a float anywhere.

use super::text::{check_chars, validated_text};
use crate::errors::{Reason, ValidationError};

/// The longest decimal accepted, in characters.
pub const MAX_DECIMAL_LEN: usize = 40;

/// Checks that `text` is a positive plain decimal.
fn check_decimal(text: &str, field: &'static str) -> Result<(), ValidationError> {
    check_chars(text, field, MAX_DECIMAL_LEN, |b| {
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

validated_text! {
    /// An order amount in the market's stock (base) currency, e.g. `0.01`: a positive plain
    /// decimal of at most [`MAX_DECIMAL_LEN`] characters.
    ///
    /// ```
    /// use txc_types::values::Amount;
    /// assert_eq!("0.01".parse::<Amount>()?.as_str(), "0.01");
    /// for bad in ["-1", "1e5", "NaN", "0x10", "", " 1", "0", "1."] {
    ///     assert!(bad.parse::<Amount>().is_err(), "{bad}");
    /// }
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    Amount, field "amount", rule check_decimal
}

validated_text! {
    /// A price in the market's money (quote) currency — stop-loss, take-profit or activation
    /// price: a positive plain decimal of at most [`MAX_DECIMAL_LEN`] characters.
    ///
    /// ```
    /// use txc_types::values::Price;
    /// assert_eq!("40000".parse::<Price>()?.as_str(), "40000");
    /// assert!("4e4".parse::<Price>().is_err());
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    Price, field "price", rule check_decimal
}

validated_text! {
    /// An order total in the market's money (quote) currency — what modifying a buy stop-market
    /// order takes instead of an amount: a positive plain decimal of at most
    /// [`MAX_DECIMAL_LEN`] characters.
    ///
    /// ```
    /// use txc_types::values::Total;
    /// assert_eq!("100".parse::<Total>()?.as_str(), "100");
    /// assert!("-100".parse::<Total>().is_err());
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    Total, field "total", rule check_decimal
}

#[cfg(feature = "decimal")]
mod rust_decimal_conv {
    use rust_decimal::Decimal;

    use super::{Amount, Price, Total};
    use crate::endpoint::{FieldValue, Validated};
    use crate::errors::{Reason, ValidationError};

    /// Writes a positive decimal in plain notation (never an exponent), without trailing zeros.
    fn from_decimal<T: Validated>(
        value: Decimal,
        field: &'static str,
    ) -> Result<T, ValidationError> {
        if value.is_sign_negative() || value.is_zero() {
            return Err(ValidationError::invalid(field, Reason::NotPositive));
        }
        T::validate(&value.normalize().to_string(), field)
    }

    /// The text as a `Decimal`; fails only for values beyond its 28-digit range.
    fn to_decimal(text: &str, field: &'static str) -> Result<Decimal, ValidationError> {
        text.parse::<Decimal>().map_err(|_| {
            ValidationError::invalid(field, Reason::Format("does not fit rust_decimal::Decimal"))
        })
    }

    /// `Decimal` conversions of a positive decimal newtype: they differ only in the type, and
    /// `TryFrom` between two types of other crates cannot be a blanket impl.
    macro_rules! decimal_conversions {
        ($name:ident) => {
            impl TryFrom<Decimal> for $name {
                type Error = ValidationError;
                /// Converts a positive decimal; zero and negative values are rejected.
                fn try_from(value: Decimal) -> Result<Self, Self::Error> {
                    from_decimal(value, $name::FIELD)
                }
            }

            impl FieldValue<$name> for Decimal {
                /// Builders take a `Decimal` wherever they take this type.
                fn into_field(self, field: &'static str) -> Result<$name, ValidationError> {
                    from_decimal(self, field)
                }
            }

            impl TryFrom<&$name> for Decimal {
                type Error = ValidationError;
                /// Converts to a `Decimal`; fails only for values beyond its 28-digit range.
                fn try_from(value: &$name) -> Result<Self, Self::Error> {
                    to_decimal(value.as_str(), $name::FIELD)
                }
            }
        };
    }

    decimal_conversions!(Amount);
    decimal_conversions!(Price);
    decimal_conversions!(Total);
}

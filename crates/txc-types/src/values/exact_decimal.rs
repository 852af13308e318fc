//! [`ExactDecimal`]: a decimal number of a response, exactly as the exchange wrote it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::errors::{Reason, ValidationError};
use crate::lenient::{FromWire, Scalar};

/// A decimal number from a response — an amount, price, fee, percent or ratio — kept as the
/// exact text the exchange sent, whether it came as a JSON string (`"0.001"`, the usual form)
/// or a JSON number.
///
/// [`as_str`](Self::as_str) gives the text for logging; with the default `decimal` feature,
/// [`to_decimal`](Self::to_decimal) gives a `rust_decimal::Decimal` for arithmetic. Equality
/// compares the text: `"0.10"` and `"0.1"` are different texts of the same number.
///
/// ```
/// let fee: txc_types::values::ExactDecimal = "0.6500".parse()?;
/// assert_eq!(fee.as_str(), "0.6500");
/// # #[cfg(feature = "decimal")]
/// assert_eq!(fee.to_decimal()?, rust_decimal::Decimal::new(65, 2));
/// assert!("1,5".parse::<txc_types::values::ExactDecimal>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExactDecimal(String);

impl ExactDecimal {
    /// Checks that `text` is a number in JSON's notation (`-0.5`, `40000`, `1e-8`) and keeps it.
    pub fn new(text: &str) -> Result<Self, ValidationError> {
        if is_json_number(text) {
            Ok(Self(text.to_owned()))
        } else {
            Err(ValidationError::invalid(
                "decimal",
                Reason::Format("must be a number such as 0.01, -3 or 1e-8"),
            ))
        }
    }

    /// The exact text the exchange sent.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The value as a `rust_decimal::Decimal`; fails only beyond its 28-digit range.
    #[cfg(feature = "decimal")]
    pub fn to_decimal(&self) -> Result<rust_decimal::Decimal, DecimalRangeError> {
        let text = self.0.as_str();
        let parsed = if text.bytes().any(|b| b == b'e' || b == b'E') {
            rust_decimal::Decimal::from_scientific(text)
        } else {
            text.parse()
        };
        parsed.map_err(|_| DecimalRangeError {
            text: self.0.clone(),
        })
    }
}

/// Whether `text` is a number as JSON writes one: `-?(0|[1-9]\d*|\d+)(\.\d+)?([eE][+-]?\d+)?`
/// (leading zeros allowed, as some servers write them in strings).
#[inline]
fn is_json_number(text: &str) -> bool {
    fn digits(b: &[u8]) -> usize {
        b.iter().take_while(|c| c.is_ascii_digit()).count()
    }
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let int = digits(b.get(i..).unwrap_or_default());
    if int == 0 {
        return false;
    }
    i += int;
    if b.get(i) == Some(&b'.') {
        let frac = digits(b.get(i + 1..).unwrap_or_default());
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(b.get(i..).unwrap_or_default());
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

/// A decimal too large or too precise for `rust_decimal::Decimal` (28 significant digits).
#[cfg(feature = "decimal")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text} does not fit rust_decimal::Decimal")]
pub struct DecimalRangeError {
    text: String,
}

impl FromWire for ExactDecimal {
    /// Every digit counts.
    const EXACT: bool = true;

    /// Numbers, and strings holding one.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        let text = value.text()?;
        is_json_number(text).then(|| Self(text.to_owned()))
    }
}

impl FromStr for ExactDecimal {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

impl fmt::Display for ExactDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for ExactDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ExactDecimal({})", self.0)
    }
}

impl AsRef<str> for ExactDecimal {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Serialize for ExactDecimal {
    /// As a JSON string, the exchange's usual form.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ExactDecimal {
    /// From a JSON string or number, by the crate's leniency rule; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::lenient::deserialize_value(d)?
            .ok_or_else(|| serde::de::Error::custom("expected a decimal, got null"))
    }
}

#[cfg(feature = "decimal")]
impl TryFrom<&ExactDecimal> for rust_decimal::Decimal {
    type Error = DecimalRangeError;
    fn try_from(value: &ExactDecimal) -> Result<Self, Self::Error> {
        value.to_decimal()
    }
}

#[cfg(test)]
mod tests {
    use super::is_json_number;

    #[test]
    fn json_number_shapes() {
        for good in [
            "0", "-0", "0.001", "40000", "007", "1e5", "1E-8", "-2.5e+3", "1.0",
        ] {
            assert!(is_json_number(good), "{good}");
        }
        for bad in [
            "", "-", ".5", "1.", "1e", "+1", "1,5", " 1", "1 ", "NaN", "0x10", "1.2.3",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }
}

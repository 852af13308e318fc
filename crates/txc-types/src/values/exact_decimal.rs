//! [`ExactDecimal`]: a decimal number of a response, exactly as the exchange wrote it.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::number::{Number, is_json_number};
use crate::errors::{Reason, ValidationError};
use crate::lenient::{FromWire, Scalar};

/// A decimal number from a response — an amount, price, fee, percent or ratio — kept as the
/// exact text the exchange sent, whether it came as a JSON string (`"0.001"`, the usual form)
/// or a JSON number.
///
/// [`as_str`](Self::as_str) gives the text exactly as sent, for logging; with the default
/// `decimal` feature, `to_decimal` gives a `rust_decimal::Decimal` for arithmetic.
///
/// **Equality, ordering and hashing are by value**, read from the text itself: `"0.10"`,
/// `"0.1"` and `"1e-1"` are equal (and hash alike) though `as_str` returns each as written,
/// `"10"` sorts after `"9"`, and `"-0"` equals `"0"`. No conversion is involved, so numbers
/// beyond `rust_decimal`'s 28 digits compare exactly too; `Eq`, `Ord` and `Hash` agree, so
/// decimals can key maps and sets. (An exponent may have at most 18 digits.)
///
/// ```
/// use txc_types::values::ExactDecimal;
/// let fee: ExactDecimal = "0.6500".parse()?;
/// assert_eq!(fee.as_str(), "0.6500");
/// assert_eq!(fee, "0.65".parse()?);
/// assert!("10".parse::<ExactDecimal>()? > "9".parse()?);
/// # #[cfg(feature = "decimal")]
/// assert_eq!(fee.to_decimal()?, rust_decimal::Decimal::new(65, 2));
/// assert!("1,5".parse::<ExactDecimal>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ExactDecimal(String);

impl ExactDecimal {
    /// The value the text stands for.
    fn value(&self) -> Number<'_> {
        Number::parse(&self.0)
    }
}

impl PartialEq for ExactDecimal {
    /// Equal values, whatever their spelling: `1.0 == 1.00 == 1 == 1e0`.
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}

impl Eq for ExactDecimal {}

impl PartialOrd for ExactDecimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ExactDecimal {
    /// By value: `-1 < 0 < 0.5 < 9 < 10 < 1e300`.
    fn cmp(&self, other: &Self) -> Ordering {
        self.value().cmp(&other.value())
    }
}

impl Hash for ExactDecimal {
    /// By value, like equality: spellings of one number hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value().hash(state);
    }
}

impl ExactDecimal {
    /// Checks that `text` is a number in JSON's notation (`-0.5`, `40000`, `1e-8`) and keeps it
    /// exactly.
    pub fn new(text: &str) -> Result<Self, ValidationError> {
        if is_json_number(text) {
            Ok(Self(text.to_owned()))
        } else {
            Err(ValidationError::invalid(
                "decimal",
                Reason::Format(
                    "must be a number such as 0.01, -3 or 1e-8 (exponent of at most 18 digits)",
                ),
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

/// A decimal too large or too precise for `rust_decimal::Decimal` (28 significant digits).
#[cfg(feature = "decimal")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text} does not fit rust_decimal::Decimal")]
pub struct DecimalRangeError {
    text: String,
}

impl FromWire for ExactDecimal {
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

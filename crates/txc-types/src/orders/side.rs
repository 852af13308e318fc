//! [`Side`]: buy or sell.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::lenient::Word;

/// The order side; `buy` or `sell` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Buy the market's stock currency.
    Buy,
    /// Sell the market's stock currency.
    Sell,
}

impl Side {
    /// The wire form: `buy` or `sell`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Buy => "buy",
            Self::Sell => "sell",
        }
    }

    /// The other side.
    pub fn opposite(self) -> Self {
        match self {
            Self::Buy => Self::Sell,
            Self::Sell => Self::Buy,
        }
    }
}

impl FromStr for Side {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "buy" => Ok(Self::Buy),
            "sell" => Ok(Self::Sell),
            _ => Err(ValidationError::invalid("side", Reason::UnknownVariant)),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Word for Side {}

impl ToWire for Side {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Str(self.as_str())
    }
}

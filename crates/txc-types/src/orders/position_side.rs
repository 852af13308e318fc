//! [`PositionSide`]: which position an order acts on.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::lenient::Word;

/// The position side. Sent upper case (`LONG`, `SHORT`, `BOTH`); parsed in any case, so the
/// seed's `long`/`short` work too. In hedge mode it must be `LONG` or `SHORT`; in one-way mode
/// the exchange ignores it and answers `BOTH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE", try_from = "std::borrow::Cow<'_, str>")]
pub enum PositionSide {
    /// The long position (hedge mode).
    Long,
    /// The short position (hedge mode).
    Short,
    /// The single position of one-way mode.
    Both,
}

impl PositionSide {
    /// The wire form: `LONG`, `SHORT` or `BOTH`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Long => "LONG",
            Self::Short => "SHORT",
            Self::Both => "BOTH",
        }
    }
}

impl FromStr for PositionSide {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("long") {
            Ok(Self::Long)
        } else if s.eq_ignore_ascii_case("short") {
            Ok(Self::Short)
        } else if s.eq_ignore_ascii_case("both") {
            Ok(Self::Both)
        } else {
            Err(ValidationError::invalid(
                "positionSide",
                Reason::UnknownVariant,
            ))
        }
    }
}

impl TryFrom<std::borrow::Cow<'_, str>> for PositionSide {
    type Error = ValidationError;
    fn try_from(s: std::borrow::Cow<'_, str>) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for PositionSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Word for PositionSide {}

impl ToWire for PositionSide {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Str(self.as_str())
    }
}

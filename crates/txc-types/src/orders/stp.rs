//! [`Stp`]: self-trade prevention mode.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::lenient::Word;

/// Self-trade prevention. Sent in the short form (`no`, `cb`, `cn`, `co`); the legacy long
/// names `cancel_both`, `cancel_new`, `cancel_old` are parsed too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "std::borrow::Cow<'_, str>")]
pub enum Stp {
    /// No self-trade prevention (the server default).
    #[default]
    #[serde(rename = "no")]
    No,
    /// Cancel both orders.
    #[serde(rename = "cb")]
    CancelBoth,
    /// Cancel the new (taker) order.
    #[serde(rename = "cn")]
    CancelNew,
    /// Cancel the old (maker) order.
    #[serde(rename = "co")]
    CancelOld,
}

impl Stp {
    /// The short wire form.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::No => "no",
            Self::CancelBoth => "cb",
            Self::CancelNew => "cn",
            Self::CancelOld => "co",
        }
    }
}

impl FromStr for Stp {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "no" => Ok(Self::No),
            "cb" | "cancel_both" => Ok(Self::CancelBoth),
            "cn" | "cancel_new" => Ok(Self::CancelNew),
            "co" | "cancel_old" => Ok(Self::CancelOld),
            _ => Err(ValidationError::invalid("stp", Reason::UnknownVariant)),
        }
    }
}

impl TryFrom<std::borrow::Cow<'_, str>> for Stp {
    type Error = ValidationError;
    fn try_from(s: std::borrow::Cow<'_, str>) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for Stp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Word for Stp {}

impl ToWire for Stp {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Str(self.as_str())
    }
}

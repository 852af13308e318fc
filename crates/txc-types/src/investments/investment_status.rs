//! [`InvestmentStatus`]: the integer status of an investment.

use serde::{Deserialize, Serialize};

use crate::endpoint::{ToWire, WireValue};
use crate::lenient::{FromWire, Scalar};

/// An investment's status: `1` active, `2` closed. Unknown integers are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "i64", into = "i64")]
#[non_exhaustive]
pub enum InvestmentStatus {
    /// `1`: the money is invested.
    Active,
    /// `2`: closed (by the partner, or at the end of its term); the money is back.
    Closed,
    /// An integer this version does not know, kept as sent.
    Unknown(i64),
}

impl InvestmentStatus {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            Self::Active => 1,
            Self::Closed => 2,
            Self::Unknown(n) => n,
        }
    }
}

impl From<i64> for InvestmentStatus {
    fn from(n: i64) -> Self {
        match n {
            1 => Self::Active,
            2 => Self::Closed,
            n => Self::Unknown(n),
        }
    }
}

impl From<InvestmentStatus> for i64 {
    fn from(s: InvestmentStatus) -> Self {
        s.code()
    }
}

impl ToWire for InvestmentStatus {
    /// The integer; a request sends only 1 or 2 (its builder refuses others), anything else
    /// would go as `0`.
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Int(u64::try_from(self.code()).unwrap_or(0))
    }
}

impl FromWire for InvestmentStatus {
    /// An integer, as a number or a string; unknown ones are kept.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        i64::from_wire(value).map(Self::from)
    }
}

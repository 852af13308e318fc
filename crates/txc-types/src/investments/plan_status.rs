//! [`PlanStatus`]: the integer status of a smart investment plan.

use serde::{Deserialize, Serialize};

use crate::lenient::{FromWire, Scalar};

/// A plan's status: `1` active, `2` no coins left, `3` inactive, `4` pause. Unknown integers
/// are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "i64", into = "i64")]
#[non_exhaustive]
pub enum PlanStatus {
    /// `1`: open for investment.
    Active,
    /// `2`: no coins left to invest.
    NoCoinsLeft,
    /// `3`: inactive.
    Inactive,
    /// `4`: paused.
    Pause,
    /// An integer this version does not know, kept as sent.
    Unknown(i64),
}

impl PlanStatus {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            Self::Active => 1,
            Self::NoCoinsLeft => 2,
            Self::Inactive => 3,
            Self::Pause => 4,
            Self::Unknown(n) => n,
        }
    }
}

impl From<i64> for PlanStatus {
    fn from(n: i64) -> Self {
        match n {
            1 => Self::Active,
            2 => Self::NoCoinsLeft,
            3 => Self::Inactive,
            4 => Self::Pause,
            n => Self::Unknown(n),
        }
    }
}

impl From<PlanStatus> for i64 {
    fn from(s: PlanStatus) -> Self {
        s.code()
    }
}

impl FromWire for PlanStatus {
    /// An integer, as a number or a string; unknown ones are kept.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        i64::from_wire(value).map(Self::from)
    }
}

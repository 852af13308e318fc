//! [`PositionMode`]: how an account holds positions.

use std::fmt;

use serde::Serialize;

use crate::endpoint::{ToWire, WireValue};

/// How the collateral account holds positions: the exchange's hedge mode on or off.
///
/// | mode | positions per market | an order's `positionSide` |
/// |---|---|---|
/// | [`OneWay`](Self::OneWay) (the default account mode) | one net position | none, or `BOTH` |
/// | [`Hedge`](Self::Hedge) | a long and a short one | `LONG` or `SHORT`, required |
///
/// ```
/// use txc_types::positions::PositionMode;
/// assert_eq!(PositionMode::from_hedge_mode(true), PositionMode::Hedge);
/// assert!(!PositionMode::OneWay.is_hedge());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PositionMode {
    /// One net position per market (hedge mode off).
    OneWay,
    /// A long and a short position per market (hedge mode on).
    Hedge,
}

impl PositionMode {
    /// The mode for the exchange's `hedgeMode` flag.
    pub fn from_hedge_mode(hedge_mode: bool) -> Self {
        if hedge_mode {
            Self::Hedge
        } else {
            Self::OneWay
        }
    }

    /// The exchange's `hedgeMode` flag.
    pub fn is_hedge(self) -> bool {
        self == Self::Hedge
    }
}

impl fmt::Display for PositionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::OneWay => "one-way mode",
            Self::Hedge => "hedge mode",
        })
    }
}

impl ToWire for PositionMode {
    /// The exchange's `hedgeMode` flag.
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Bool(self.is_hedge())
    }
}

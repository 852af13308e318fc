//! [`OrderStatus`] and [`OrderType`]: open sets of strings the exchange answers with.

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::lenient::Word;

/// The status of an answered order. Unknown values are kept, not rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
#[non_exhaustive]
pub enum OrderStatus {
    /// Fully executed.
    Filled,
    /// Partly executed.
    PartiallyFilled,
    /// Canceled.
    Canceled,
    /// Canceled by the taker price band.
    CanceledTakerBand,
    /// Canceled automatically because it was reduce-only and no longer reduces.
    AutoCanceledReduceOnly,
    /// Canceled automatically by a liquidation.
    AutoCanceledLiquidation,
    /// Canceled by self-trade prevention.
    CanceledStp,
    /// Resting on the book, e.g. a trigger order waiting for its activation price. Not in the
    /// exchange's documented status enums; the docs' staging-captured open-order records show
    /// it.
    Open,
    /// A value this version does not know, kept as sent.
    Unknown(String),
}

impl OrderStatus {
    /// The wire form.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Filled => "FILLED",
            Self::PartiallyFilled => "PARTIALLY_FILLED",
            Self::Canceled => "CANCELED",
            Self::CanceledTakerBand => "CANCELED_TAKER_BAND",
            Self::AutoCanceledReduceOnly => "AUTO_CANCELED_REDUCE_ONLY",
            Self::AutoCanceledLiquidation => "AUTO_CANCELED_LIQUIDATION",
            Self::CanceledStp => "CANCELED_STP",
            Self::Open => "OPEN",
            Self::Unknown(s) => s,
        }
    }
}

impl OrderStatus {
    /// The known value `s` names, if any.
    fn known(s: &str) -> Option<Self> {
        Some(match s {
            "FILLED" => Self::Filled,
            "PARTIALLY_FILLED" => Self::PartiallyFilled,
            "CANCELED" => Self::Canceled,
            "CANCELED_TAKER_BAND" => Self::CanceledTakerBand,
            "AUTO_CANCELED_REDUCE_ONLY" => Self::AutoCanceledReduceOnly,
            "AUTO_CANCELED_LIQUIDATION" => Self::AutoCanceledLiquidation,
            "CANCELED_STP" => Self::CanceledStp,
            "OPEN" => Self::Open,
            _ => return None,
        })
    }
}

impl From<String> for OrderStatus {
    fn from(s: String) -> Self {
        Self::known(&s).unwrap_or(Self::Unknown(s))
    }
}

impl From<&str> for OrderStatus {
    /// Copies the text only when it is not a known value.
    fn from(s: &str) -> Self {
        Self::known(s).unwrap_or_else(|| Self::Unknown(s.to_owned()))
    }
}

impl FromStr for OrderStatus {
    type Err = Infallible;
    /// Every text is a value: a known one, or [`OrderStatus::Unknown`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self::from(s))
    }
}

impl Word for OrderStatus {}

impl From<OrderStatus> for String {
    fn from(s: OrderStatus) -> Self {
        match s {
            OrderStatus::Unknown(s) => s,
            known => known.as_str().to_owned(),
        }
    }
}

impl fmt::Display for OrderStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The type of an answered order. Unknown values are kept, not rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
#[non_exhaustive]
pub enum OrderType {
    /// `market`: the documented type of a collateral market order.
    Market,
    /// `margin market`: an older response's type of a collateral market order.
    MarginMarket,
    /// `stop market`: the documented type of a collateral trigger market order.
    StopMarket,
    /// `trigger margin market`: an older response's type of a trigger market order.
    TriggerMarginMarket,
    /// A value this version does not know, kept as sent.
    Unknown(String),
}

impl OrderType {
    /// The wire form.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Market => "market",
            Self::MarginMarket => "margin market",
            Self::StopMarket => "stop market",
            Self::TriggerMarginMarket => "trigger margin market",
            Self::Unknown(s) => s,
        }
    }
}

impl OrderType {
    /// The known value `s` names, if any.
    fn known(s: &str) -> Option<Self> {
        Some(match s {
            "market" => Self::Market,
            "margin market" => Self::MarginMarket,
            "stop market" => Self::StopMarket,
            "trigger margin market" => Self::TriggerMarginMarket,
            _ => return None,
        })
    }
}

impl From<String> for OrderType {
    fn from(s: String) -> Self {
        Self::known(&s).unwrap_or(Self::Unknown(s))
    }
}

impl From<&str> for OrderType {
    /// Copies the text only when it is not a known value.
    fn from(s: &str) -> Self {
        Self::known(s).unwrap_or_else(|| Self::Unknown(s.to_owned()))
    }
}

impl FromStr for OrderType {
    type Err = Infallible;
    /// Every text is a value: a known one, or [`OrderType::Unknown`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self::from(s))
    }
}

impl Word for OrderType {}

impl From<OrderType> for String {
    fn from(t: OrderType) -> Self {
        match t {
            OrderType::Unknown(s) => s,
            known => known.as_str().to_owned(),
        }
    }
}

impl fmt::Display for OrderType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

//! [`OrderStatus`] and [`OrderType`]: open sets of strings the exchange answers with.

use serde::{Deserialize, Serialize};
use txc_derive::WireEnum;

/// The status of an answered order. Unknown values are kept, not rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, WireEnum)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", from = "String", into = "String")]
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
    /// Removed by the Retail Price Improvement rules (a status the WebSocket's order methods
    /// document).
    CanceledRpi,
    /// Removed because its market was delisted (a status the WebSocket's order methods
    /// document).
    Delisting,
    /// Resting on the book, e.g. a trigger order waiting for its activation price. Not in the
    /// exchange's documented status enums; the docs' staging-captured open-order records show
    /// it.
    Open,
    /// A value this version does not know, kept as sent.
    #[wire(other)]
    Unknown(String),
}

/// The type of an answered order. Unknown values are kept, not rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, WireEnum)]
#[serde(from = "String", into = "String")]
#[non_exhaustive]
pub enum OrderType {
    /// `market`: the documented type of a collateral market order.
    #[serde(rename = "market")]
    Market,
    /// `margin market`: an older response's type of a collateral market order.
    #[serde(rename = "margin market")]
    MarginMarket,
    /// `stop market`: the documented type of a collateral trigger market order.
    #[serde(rename = "stop market")]
    StopMarket,
    /// `trigger margin market`: an older response's type of a trigger market order.
    #[serde(rename = "trigger margin market")]
    TriggerMarginMarket,
    /// `limit`: the documented type of a collateral limit order (and an OCO's take-profit
    /// leg).
    #[serde(rename = "limit")]
    Limit,
    /// `margin limit`: a limit order on a margin market as the OCO listings write it.
    #[serde(rename = "margin limit")]
    MarginLimit,
    /// `stop limit`: the documented type of a collateral stop-limit order (and an OCO's
    /// stop-loss leg).
    #[serde(rename = "stop limit")]
    StopLimit,
    /// `margin stop limit`: a stop-limit order on a margin market as the OCO listings write
    /// it.
    #[serde(rename = "margin stop limit")]
    MarginStopLimit,
    /// A value this version does not know, kept as sent.
    #[wire(other)]
    Unknown(String),
}

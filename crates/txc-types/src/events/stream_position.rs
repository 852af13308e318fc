//! [`StreamPosition`]: the position record of the `positionsMargin` and
//! `positionsAccountMargin` channels.

use std::convert::Infallible;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::lenient::Word;
use crate::orders::PositionSide;
use crate::values::{ExactDecimal, Market, Timestamp};

/// An open position as the stream sends it. Decimals keep their text (an amount is negative
/// for a short), times every digit (the docs' examples write some as integers, some with
/// seven fractional digits); fields this version does not know are kept in
/// [`StreamPosition::extra`].
///
/// ```
/// let p: txc_types::events::StreamPosition = serde_json::from_str(
///     r#"{"id":2,"market":"BTC_USDT","ctime":1704067200,"amount":"-0.01","liq_stage":null,
///         "position_side":"LONG"}"#,
/// )?;
/// assert_eq!((p.id, p.amount.as_str()), (2, "-0.01"));
/// assert_eq!(p.liq_stage, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a position object")]
#[non_exhaustive]
pub struct StreamPosition {
    /// The position's id.
    pub id: u64,
    /// The market.
    pub market: Market,
    /// The size in stock currency: negative for a short.
    pub amount: ExactDecimal,
    /// When it was opened.
    pub ctime: Option<Timestamp>,
    /// When it last changed.
    pub mtime: Option<Timestamp>,
    /// The size in money currency.
    pub amount_in_money: Option<ExactDecimal>,
    /// The base (entry) price.
    pub base_price: Option<ExactDecimal>,
    /// The unrealized profit or loss in money.
    pub pnl: Option<ExactDecimal>,
    /// The liquidation price.
    pub liq_price: Option<ExactDecimal>,
    /// The liquidation stage, if any (`null` when none).
    pub liq_stage: Option<LiquidationStage>,
    /// Funding due at the next change of the position.
    pub unrealized_funding: Option<ExactDecimal>,
    /// Funding already paid.
    pub funding: Option<ExactDecimal>,
    /// The own funds in the position, in money.
    pub margin: Option<ExactDecimal>,
    /// The funds free for trading.
    pub free_margin: Option<ExactDecimal>,
    /// The realized profit or loss in money.
    pub realized_pnl: Option<ExactDecimal>,
    /// The position side (`BOTH` in one-way mode).
    pub position_side: Option<PositionSide>,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// How far a position is towards liquidation. Unknown values are kept.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LiquidationStage {
    /// `margin_call`.
    MarginCall,
    /// `liquidation`.
    Liquidation,
    /// A value this version does not know, kept as sent.
    Unknown(String),
}

impl LiquidationStage {
    /// The wire form.
    pub fn as_str(&self) -> &str {
        match self {
            Self::MarginCall => "margin_call",
            Self::Liquidation => "liquidation",
            Self::Unknown(s) => s,
        }
    }
}

impl FromStr for LiquidationStage {
    type Err = Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "margin_call" => Self::MarginCall,
            "liquidation" => Self::Liquidation,
            other => Self::Unknown(other.to_owned()),
        })
    }
}

impl Word for LiquidationStage {}

impl Serialize for LiquidationStage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

//! [`Position`]: an open position as the open-positions list answers it.

use serde::Serialize;
use serde_json::{Map, Value};
use txc_derive::{Answer, WireEnum};

use crate::orders::PositionSide;
use crate::values::{ExactDecimal, Market, Timestamp};

/// An open position of the collateral account.
///
/// Only the id and the market are required. The figures are `Option`s because the older docs
/// say the exchange sends `null` for `amount`, `basePrice`, `pnl`, `pnlPercent` and
/// `liquidationPrice` while a position is not completely opened ("funds are lending … but
/// activation price hadn't been triggered yet"), and the docs' example has no
/// `unrealizedPnl`; a `null` reads as absent. Decimals keep their exact text, times every
/// digit; anything unknown is kept in [`Position::extra`].
///
/// ```
/// let p: txc_types::positions::Position = serde_json::from_str(r#"{"positionId":527,
///     "market":"BTC_USDT","openDate":1651568067.789679,"modifyDate":1651568067.789679,
///     "amount":"0.1","basePrice":"45658.349","liquidationPrice":null,
///     "liquidationState":"margin_call","pnl":"-168.42","pnlPercent":"-0.43","margin":"8316.74",
///     "freeMargin":"619385.67","funding":"0","unrealizedFunding":"0.0019142920201966",
///     "tpsl":null,"positionSide":"LONG"}"#)?;
/// assert_eq!(p.position_id, 527);
/// assert_eq!(p.amount.as_ref().map(|a| a.as_str()), Some("0.1"));
/// assert_eq!(p.liquidation_state, Some(txc_types::positions::LiquidationState::MarginCall));
/// assert_eq!(p.open_date.as_ref().map(|t| t.as_str()), Some("1651568067.789679"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a position object")]
#[non_exhaustive]
pub struct Position {
    /// The position's id: what closing it takes.
    pub position_id: u64,
    /// The market, as sent.
    pub market: Market,
    /// The position's size.
    pub amount: Option<ExactDecimal>,
    /// The entry (base) price.
    pub base_price: Option<ExactDecimal>,
    /// The profit and loss realized by partial closes, in money currency (the older docs:
    /// unrealized).
    pub pnl: Option<ExactDecimal>,
    /// The unrealized profit and loss in percent.
    pub pnl_percent: Option<ExactDecimal>,
    /// The margin held for it, in money currency.
    pub margin: Option<ExactDecimal>,
    /// The funds free for trading.
    pub free_margin: Option<ExactDecimal>,
    /// The funding paid over the position's life (always `0` on `_PERP` markets).
    pub funding: Option<ExactDecimal>,
    /// The floating (mark-to-market) profit and loss.
    pub unrealized_pnl: Option<ExactDecimal>,
    /// Funding accrued since the last change and not yet realized.
    pub unrealized_funding: Option<ExactDecimal>,
    /// `LONG` or `SHORT` in hedge mode, `BOTH` in one-way mode.
    pub position_side: Option<PositionSide>,
    /// When the position was opened.
    pub open_date: Option<Timestamp>,
    /// When it last changed.
    pub modify_date: Option<Timestamp>,
    /// The liquidation price, when there is one.
    pub liquidation_price: Option<ExactDecimal>,
    /// A margin call or a liquidation under way, if any.
    pub liquidation_state: Option<LiquidationState>,
    /// The take-profit and stop-loss attached, if any.
    #[answer(with = "crate::lenient::object")]
    pub tpsl: Option<Tpsl>,
    /// Fields this version does not know, values of an unexpected type, and enum values it
    /// has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The take-profit and stop-loss orders of a position.
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a tpsl object")]
#[non_exhaustive]
pub struct Tpsl {
    /// The take-profit order's id.
    pub take_profit_id: Option<u64>,
    /// The take-profit price.
    pub take_profit: Option<ExactDecimal>,
    /// The stop-loss order's id.
    pub stop_loss_id: Option<u64>,
    /// The stop-loss price.
    pub stop_loss: Option<ExactDecimal>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A liquidation under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, WireEnum)]
#[serde(rename_all = "snake_case")]
#[wire(field = "liquidationState")]
pub enum LiquidationState {
    /// `margin_call`.
    MarginCall,
    /// `liquidation`.
    Liquidation,
}

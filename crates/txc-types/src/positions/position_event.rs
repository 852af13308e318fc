//! [`PositionEvent`]: one change of a position, as the position history answers it.

use serde_json::{Map, Value};
use txc_derive::Answer;

use super::LiquidationState;
use crate::orders::PositionSide;
use crate::values::{ExactDecimal, Market, Timestamp};

/// One event of a position — opened, partly closed, closed, liquidated — with the order that
/// made it.
///
/// The id and the market are required; the rest are `Option`s (a `null` reads as absent).
/// Since 29 April 2026 the exchange sends `side` and `isHedge` instead of `positionSide`;
/// records from before keep [`position_side`](Self::position_side).
///
/// ```
/// let e: txc_types::positions::PositionEvent = serde_json::from_str(r#"{"positionId":111,
///     "market":"BTC_USDT","openDate":1650400589.882613,"modifyDate":1650400589.882613,
///     "amount":"0.1","basePrice":"45658.349","realizedFunding":"0","liquidationPrice":null,
///     "liquidationState":"margin_call","orderDetail":{"id":97067934,"tradeAmount":"0.1",
///     "price":"41507.59","tradeFee":"415.07","fundingFee":null,"realizedPnl":null},
///     "side":"LONG","isHedge":false}"#)?;
/// assert_eq!(e.order_detail.as_ref().map(|d| d.id), Some(97067934));
/// assert_eq!(e.is_hedge, Some(false));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a position history object")]
#[non_exhaustive]
pub struct PositionEvent {
    /// The position's id.
    pub position_id: u64,
    /// The market, as sent.
    pub market: Market,
    /// When the position was opened.
    pub open_date: Option<Timestamp>,
    /// When this event happened.
    pub modify_date: Option<Timestamp>,
    /// The position's size after the event (`0` once closed).
    pub amount: Option<ExactDecimal>,
    /// The entry (base) price.
    pub base_price: Option<ExactDecimal>,
    /// The funding over the position's life until this event.
    pub realized_funding: Option<ExactDecimal>,
    /// The liquidation price, when there is one.
    pub liquidation_price: Option<ExactDecimal>,
    /// A margin call or a liquidation under way, if any.
    pub liquidation_state: Option<LiquidationState>,
    /// The order that made the change.
    #[answer(with = "crate::lenient::object")]
    pub order_detail: Option<OrderDetail>,
    /// The position's direction: `LONG` or `SHORT` in hedge mode, `BOTH` in one-way mode.
    pub side: Option<PositionSide>,
    /// Whether hedge mode was on when the position was opened.
    pub is_hedge: Option<bool>,
    /// The position side, as records before 29 April 2026 gave it (now [`side`](Self::side)).
    pub position_side: Option<PositionSide>,
    /// Fields this version does not know, values of an unexpected type, and enum values it
    /// has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The order behind a [`PositionEvent`].
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an order detail object")]
#[non_exhaustive]
pub struct OrderDetail {
    /// The order's id.
    pub id: u64,
    /// The amount it traded.
    pub trade_amount: Option<ExactDecimal>,
    /// The price it traded at.
    pub price: Option<ExactDecimal>,
    /// Its trading fee.
    pub trade_fee: Option<ExactDecimal>,
    /// The funding captured by this change, if any.
    pub funding_fee: Option<ExactDecimal>,
    /// The profit and loss it realized, if any.
    pub realized_pnl: Option<ExactDecimal>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

//! [`StreamOrder`]: the order record of the `ordersPending` and `ordersExecuted` channels.

use serde_json::{Map, Value};
use txc_derive::Answer;

use super::codes::serialize_side;
use crate::orders::{OrderStatus, PositionSide, Side, Stp};
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// An order as the WebSocket's order channels send it: `ordersPending_update` (with an
/// [`OrderEventKind`](super::OrderEventKind), see [`OrderEvent`](super::OrderEvent)) and
/// `ordersExecuted_update` (the executed orders, with `ftime`, `source` and `fee_asset`).
///
/// Not the REST [`Order`](crate::orders::Order): the stream writes snake_case names, the side
/// as a code (`1` sell, `2` buy; read into [`Side`]) and the order type as a number (kept as
/// sent, see the exchange's order types table). Decoded by the crate's one leniency rule:
/// decimals keep their text, times every digit, and a value of an unexpected type or a field
/// this version does not know is kept in [`StreamOrder::extra`].
///
/// ```
/// let order: txc_types::events::StreamOrder = serde_json::from_str(
///     r#"{"id":1212904480922,"market":"BTC_USDT","type":1,"side":2,"ctime":1738250982.28914,
///         "amount":"1","left":"1","deal_stock":"0","deal_money":"0","client_order_id":"",
///         "status":"OPEN","rpi":true}"#,
/// )?;
/// assert_eq!(order.id, 1212904480922);
/// assert_eq!(order.side, txc_types::orders::Side::Buy);
/// assert_eq!(order.ctime.as_str(), "1738250982.28914");
/// assert_eq!(order.client_order_id, None);
/// assert_eq!(order.extra["rpi"], true);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a stream order object")]
#[non_exhaustive]
pub struct StreamOrder {
    /// The exchange's order id (it changes when an order is modified; a stop order keeps it
    /// when it activates).
    pub id: u64,
    /// The market, as sent.
    pub market: Market,
    /// Buy or sell (`2` or `1` on the wire).
    #[serde(serialize_with = "serialize_side")]
    #[answer(with = "super::codes::side")]
    pub side: Side,
    /// The order type's number (the exchange's table: 1 limit, 2 market, 9 margin stop-limit,
    /// 10 margin stop-market, …), as sent.
    #[serde(rename = "type")]
    pub order_type: u64,
    /// The ordered amount in stock currency.
    pub amount: ExactDecimal,
    /// The executed amount in stock currency.
    pub deal_stock: ExactDecimal,
    /// The executed value in money currency.
    pub deal_money: ExactDecimal,
    /// When the order was created.
    pub ctime: Timestamp,
    /// When it last changed.
    pub mtime: Option<Timestamp>,
    /// When it finished (executed orders).
    pub ftime: Option<Timestamp>,
    /// The amount not yet executed; the executed orders' query records have none.
    pub left: Option<ExactDecimal>,
    /// The price (`"0"` for market orders).
    pub price: Option<ExactDecimal>,
    /// The fee charged.
    pub deal_fee: Option<ExactDecimal>,
    /// The fee's currency (executed orders).
    pub fee_asset: Option<String>,
    /// The caller's order id; `None` when the record has `""`.
    #[serde(serialize_with = "crate::orders::order::empty_when_none")]
    #[answer(with = "crate::lenient::empty_is_none", always)]
    pub client_order_id: Option<ClientOrderId>,
    /// The status, e.g. `OPEN`, `PARTIALLY_FILLED`, `FILLED`, `CANCELED`.
    pub status: Option<OrderStatus>,
    /// Self-trade prevention, short form.
    pub stp: Option<Stp>,
    /// The position side.
    pub position_side: Option<PositionSide>,
    /// Whether it may only reduce a position.
    pub reduce_only: Option<bool>,
    /// Whether it is post-only.
    pub post_only: Option<bool>,
    /// Whether it is immediate-or-cancel.
    pub ioc: Option<bool>,
    /// Where it came from (executed orders): `web`, `api`, `adl`, `liquidation`, …
    pub source: Option<String>,
    /// Fields this version does not know (`rpi`, `retail`, …), values of an unexpected type
    /// and enum values it has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl StreamOrder {
    /// Whether the record says the order is finished: a final status (filled or any
    /// cancellation), or nothing left to execute. `false` when it cannot tell.
    pub fn is_finished(&self) -> bool {
        match &self.status {
            Some(OrderStatus::Open | OrderStatus::PartiallyFilled) => false,
            Some(OrderStatus::Unknown(_)) | None => self
                .left
                .as_ref()
                .is_some_and(|left| left.as_str().trim_start_matches(['0', '.']).is_empty()),
            Some(_) => true,
        }
    }
}

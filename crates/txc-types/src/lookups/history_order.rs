//! [`HistoryOrder`]: a finished (filled or canceled) order as the order history answers it.

use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::orders::{ActivationCondition, OrderStatus, OrderType, PositionSide, Side};
use crate::values::text::Unchecked;
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// A finished order from `POST /api/v4/trade-account/order/history`.
///
/// Its own record, not an [`Order`](crate::orders::Order): the history names the id `id`, has creation
/// and finishing times (`ctime`, `ftime`), spells the trigger fields differently
/// (`activationPrice`; `activated` is the activation **time**; `activationCondition` is `<=` or
/// `>=`) and carries no market (the response is keyed by market; [`OrderHistory`](super::OrderHistory)
/// fills [`HistoryOrder::market`] in). Decoded by the crate's one leniency rule.
///
/// ```
/// let h: txc_types::lookups::OrderHistory = serde_json::from_str(r#"{"BTC_USDT":[{"amount":"0.0009",
///     "price":"40000","type":"limit","id":4986126152,"clientOrderId":"customId11","side":"sell",
///     "ctime":1597486960.311311,"ftime":1597486960.311332,"dealFee":"0.041258268",
///     "dealStock":"0.0009","dealMoney":"41.258268","status":"CANCELED"}]}"#)?;
/// let order = h.orders().next().unwrap();
/// assert_eq!((order.id, order.market.as_str()), (4986126152, "BTC_USDT"));
/// assert_eq!(order.status, txc_types::orders::OrderStatus::Canceled);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an order history record")]
#[non_exhaustive]
pub struct HistoryOrder {
    /// The exchange's order id (`orderId` elsewhere).
    pub id: u64,
    /// The market: the key of the response's map this record was listed under (empty in a
    /// record decoded on its own, outside an [`OrderHistory`](super::OrderHistory)); as sent,
    /// like [`Order::market`](crate::orders::Order::market).
    #[serde(skip_serializing)]
    #[answer(missing = "unlisted")]
    pub market: Market,
    /// The caller's order id; `None` when the record has `""`. Any other text is kept as
    /// sent, like [`Order::client_order_id`](crate::orders::Order::client_order_id).
    #[serde(serialize_with = "crate::orders::order::empty_when_none")]
    #[answer(with = "crate::lenient::empty_is_none", always)]
    pub client_order_id: Option<ClientOrderId>,
    /// Buy or sell.
    pub side: Side,
    /// The order type, e.g. `market` or `stop market`.
    #[serde(rename = "type")]
    pub order_type: OrderType,
    /// The final status.
    pub status: OrderStatus,
    /// The ordered amount.
    pub amount: ExactDecimal,
    /// The executed amount in stock currency.
    pub deal_stock: ExactDecimal,
    /// The executed value in money currency.
    pub deal_money: ExactDecimal,
    /// When the order was created.
    pub ctime: Timestamp,
    /// When it reached its final status (for a partial fill then cancel, the cancel).
    pub ftime: Timestamp,
    /// The limit price; `"0"` for market orders.
    pub price: Option<ExactDecimal>,
    /// The fee paid.
    pub deal_fee: Option<ExactDecimal>,
    /// The fee's currency.
    pub fee_asset: Option<String>,
    /// The position side, for margin and futures orders.
    pub position_side: Option<PositionSide>,
    /// Whether the order could only reduce a position.
    pub reduce_only: Option<bool>,
    /// The activation price; only stop orders carry it (camelCase here).
    pub activation_price: Option<ExactDecimal>,
    /// When a stop order was activated; only stop orders carry it.
    pub activated: Option<Timestamp>,
    /// When a stop order activates (`<=`, `>=` on the wire); only stop orders carry it.
    pub activation_condition: Option<ActivationCondition>,
    /// Fields this version does not know (`postOnly`, `ioc`, `rpi`, …), values of an
    /// unexpected type and enum values it has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The market of a record read outside an [`OrderHistory`](super::OrderHistory): none yet.
fn unlisted() -> Market {
    Market::unchecked(String::new())
}

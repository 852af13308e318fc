//! [`Order`]: the order record the placement, cancel and open-orders operations answer with.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::{Answer, WireEnum};

use super::{OrderStatus, OrderType, PositionSide, Side, Stp};
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// An order as the exchange answers it.
///
/// Fields present in every documented shape of the record — the placement responses of both
/// order operations, the older captured responses, the cancel response and the open-orders list —
/// are plain values; a record without one of them is not decoded (for a placement that makes
/// the outcome unknown, see `txc_core::Error::outcome_unknown`). Fields that some shapes omit
/// are `Option`s, and each says which shapes. Decimals keep the exact text sent
/// ([`ExactDecimal`]), times every digit ([`Timestamp`]); anything this version does not know —
/// a new field, a value of an unexpected type, an enum value it has no name for — is kept in
/// [`Order::extra`] under its own key.
///
/// The market and the `clientOrderId` have the request's types ([`Market`],
/// [`ClientOrderId`]) so they compare with what was sent, but are read leniently: the exchange
/// is the authority on what it sends, so a text their request rules would refuse is kept as
/// it came, never an error.
///
/// ```
/// let order: txc_types::orders::Order = serde_json::from_str(
///     r#"{"orderId":1,"clientOrderId":"","market":"BTC_USDT","side":"buy","type":"market",
///         "timestamp":1595792396.165973,"dealMoney":"650","dealStock":"0.01","amount":"0.01",
///         "left":"0","dealFee":"0.65","status":"FILLED","newField":7}"#,
/// )?;
/// assert_eq!(order.order_id, 1);
/// assert_eq!(order.market, "BTC_USDT");
/// assert_eq!(order.client_order_id, None);
/// assert_eq!(order.deal_money.as_str(), "650");
/// assert_eq!(order.status, Some(txc_types::orders::OrderStatus::Filled));
/// assert_eq!(order.extra["newField"], 7);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an order object")]
#[non_exhaustive]
pub struct Order {
    /// The exchange's order id.
    pub order_id: u64,
    /// The caller's order id; `None` when the response has `""` (the exchange's "not
    /// specified"). Any other text is kept as sent, even one [`ClientOrderId`]'s request rule
    /// would refuse.
    #[serde(serialize_with = "empty_when_none")]
    #[answer(with = "crate::lenient::empty_is_none", always)]
    pub client_order_id: Option<ClientOrderId>,
    /// The market, e.g. `BTC_USDT`, as sent (not checked by [`Market`]'s request rule).
    pub market: Market,
    /// Buy or sell.
    pub side: Side,
    /// The order type, e.g. `market` or `stop market`.
    #[serde(rename = "type")]
    pub order_type: OrderType,
    /// When the order was created.
    pub timestamp: Timestamp,
    /// Executed value in money (quote) currency.
    pub deal_money: ExactDecimal,
    /// Executed amount in stock (base) currency.
    pub deal_stock: ExactDecimal,
    /// The ordered amount (for a reduce-only order, as reduced to the position by the exchange).
    pub amount: ExactDecimal,
    /// The amount not yet executed.
    pub left: ExactDecimal,
    /// The fee paid; absent from the cancel response's documented example.
    pub deal_fee: Option<ExactDecimal>,
    /// The fee's currency; "omitted when empty".
    pub fee_asset: Option<String>,
    /// The limit price; only limit-shaped records (limit and stop-limit orders, OCO legs, the
    /// open-orders list, cancel) carry it.
    pub price: Option<ExactDecimal>,
    /// Whether the order may only rest as a maker (`postOnly`; OCO legs write `post_only`);
    /// only limit-shaped records carry it.
    #[answer(alias = "post_only")]
    pub post_only: Option<bool>,
    /// Whether the order's unfilled rest was canceled at once (immediate or cancel); only
    /// limit-shaped records carry it.
    pub ioc: Option<bool>,
    /// Whether it is a Retail Price Improvement order; only limit-shaped records carry it.
    pub rpi: Option<bool>,
    /// Whether it is a retail-source taker order, eligible to match RPI makers (the shared
    /// order shape's `retail`, a spot flag); only some records carry it.
    pub retail: Option<bool>,
    /// The taker fee rate; only older captured responses carry it.
    pub taker_fee: Option<ExactDecimal>,
    /// The maker fee rate; only older captured responses carry it.
    pub maker_fee: Option<ExactDecimal>,
    /// The order status; older captured responses have none.
    pub status: Option<OrderStatus>,
    /// Self-trade prevention, always in the short form; older captured responses have none.
    pub stp: Option<Stp>,
    /// The stop-loss/take-profit group, only when the order belongs to one (`null` otherwise).
    #[answer(with = "crate::lenient::object")]
    pub oto: Option<Oto>,
    /// The position side (`BOTH` in one-way mode); older captured responses have none.
    pub position_side: Option<PositionSide>,
    /// Whether the order may only reduce a position; responses before 2026-04 have none.
    pub reduce_only: Option<bool>,
    /// The activation price; only trigger (stop) orders carry it (the conditional orders'
    /// legs write `activationPrice`).
    #[serde(rename = "activation_price")]
    #[answer(alias = "activationPrice")]
    pub activation_price: Option<ExactDecimal>,
    /// Whether a trigger order has been activated (`0`/`1` on the wire); only trigger orders
    /// in the open-orders list carry it.
    #[serde(serialize_with = "as_digit")]
    pub activated: Option<bool>,
    /// When a trigger order activates: `lte` or `gte` the activation price; only trigger
    /// orders in the open-orders list and OCO stop-loss legs (which write
    /// `activation_condition`) carry it.
    #[answer(alias = "activation_condition")]
    pub activation_condition: Option<ActivationCondition>,
    /// When the order was last modified; OCO legs carry it.
    pub mtime: Option<Timestamp>,
    /// Fields this version does not know, values of an unexpected type, and enum values it
    /// has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

pub(crate) fn as_digit<S: Serializer>(v: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(b) => s.serialize_u8(u8::from(*b)),
        None => s.serialize_none(),
    }
}

/// `None` as `""`, the exchange's "not specified".
pub(crate) fn empty_when_none<S: Serializer>(
    v: &Option<ClientOrderId>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.as_ref().map_or("", ClientOrderId::as_str))
}

/// The one-triggers-other group of an order with a stop-loss and/or take-profit.
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an oto object")]
#[non_exhaustive]
pub struct Oto {
    /// The group's id.
    pub oto_id: u64,
    /// The stop-loss price, if one was given.
    pub stop_loss: Option<ExactDecimal>,
    /// The take-profit price, if one was given.
    pub take_profit: Option<ExactDecimal>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// When a trigger order activates relative to its activation price: `lte`/`gte` as the
/// open-orders list writes it, `<=`/`>=` as the history does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, WireEnum)]
#[serde(rename_all = "lowercase")]
#[wire(field = "activationCondition")]
pub enum ActivationCondition {
    /// When the price is less than or equal to the activation price (sell).
    #[wire(alias = "<=")]
    Lte,
    /// When the price is greater than or equal to the activation price (buy).
    #[wire(alias = ">=")]
    Gte,
}

//! What the WebSocket's order methods answer: [`SocketOrder`], the groups
//! ([`SocketOco`], [`SocketOto`], [`SocketTpsl`]) and [`SocketAnswer`], one of them by method.

use serde::Serializer;
use serde_json::{Map, Value};
use txc_derive::Answer;

use super::SocketMethod;
use crate::events::codes::side_code;
use crate::orders::{ActivationCondition, OrderStatus, PositionSide, Side, Stp};
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// The order object every order method answers with (the Orders Pending channel's order):
/// an order placed, modified (its replacement, with a new id) or canceled.
///
/// Read by the crate's leniency rule: only `id` is required — a canceled group's legs carry
/// little more than `id`, `type`, prices, `mtime` and `status` — and a value no spelling fits
/// is kept in [`extra`](Self::extra).
///
/// `side` is numeric in the answer (`1` sell, `2` buy), unlike the request's `"buy"`/`"sell"`;
/// it is read into [`Side`]. `ctime`/`mtime` are numbers (seconds with microseconds),
/// decimals are strings with trailing zeros dropped (`"63385.90"` answers as `"63385.9"`:
/// compare numerically). Every documented status reads to its [`OrderStatus`].
///
/// ```
/// use txc_types::orders::{OrderStatus, Side};
/// use txc_types::socket::SocketOrder;
/// let order: SocketOrder = serde_json::from_str(
///     r#"{"id":7,"market":"BTC_PERP","type":8,"side":1,"amount":"0.001","left":"0",
///         "status":"FILLED","client_order_id":"","ctime":1786452691.765391}"#,
/// )?;
/// assert_eq!(order.side, Some(Side::Sell));
/// assert_eq!(order.status, Some(OrderStatus::Filled));
/// assert_eq!(order.client_order_id, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a socket order object")]
#[non_exhaustive]
pub struct SocketOrder {
    /// The exchange's order id.
    pub id: u64,
    /// The market.
    pub market: Option<Market>,
    /// The side, from the answer's code (`1` sell, `2` buy).
    #[serde(serialize_with = "side_as_code")]
    #[answer(with = "crate::events::codes::side")]
    pub side: Option<Side>,
    /// The numeric order type: `7` margin limit, `8` margin market, `9` margin stop-limit,
    /// `10` margin stop-market (and a TPSL leg); the spot codes elsewhere.
    #[serde(rename = "type")]
    pub order_type: Option<u64>,
    /// Whether the order is post-only.
    pub post_only: Option<bool>,
    /// Whether the order is immediate-or-cancel.
    pub ioc: Option<bool>,
    /// Whether the order may only reduce a position.
    pub reduce_only: Option<bool>,
    /// The position leg (`BOTH` in one-way mode).
    pub position_side: Option<PositionSide>,
    /// When the order was created.
    pub ctime: Option<Timestamp>,
    /// When the order last changed.
    pub mtime: Option<Timestamp>,
    /// A conditional order's trigger price.
    pub activation_price: Option<ExactDecimal>,
    /// Whether the trigger fires at or above (`gte`) or at or below (`lte`) it.
    pub activation_condition: Option<ActivationCondition>,
    /// Whether a conditional order has been activated (`0`/`1`).
    #[serde(serialize_with = "crate::orders::order::as_digit")]
    pub activated: Option<bool>,
    /// The limit price (`"0"` for market and not yet priced orders).
    pub price: Option<ExactDecimal>,
    /// The amount in stock (`"0"` for a TPSL leg: the position's size at trigger time).
    pub amount: Option<ExactDecimal>,
    /// What is left to execute.
    pub left: Option<ExactDecimal>,
    /// The executed amount in stock.
    pub deal_stock: Option<ExactDecimal>,
    /// The executed amount in money.
    pub deal_money: Option<ExactDecimal>,
    /// The fee paid.
    pub deal_fee: Option<ExactDecimal>,
    /// The caller's id; `None` when the answer's is empty.
    #[serde(serialize_with = "crate::orders::order::empty_when_none")]
    #[answer(with = "crate::lenient::empty_is_none", always)]
    pub client_order_id: Option<ClientOrderId>,
    /// The self-trade prevention mode.
    pub stp: Option<Stp>,
    /// The status.
    pub status: Option<OrderStatus>,
    /// Fields this version does not know, or values no spelling fits, kept as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn side_as_code<S: Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_u8(side_code(*side)),
        None => s.serialize_none(),
    }
}

/// An OCO group as placed or canceled: `type` `"oco"`, the group `id`, and its legs — the
/// take-profit a limit order (type `7`), the stop-loss a stop-limit order (type `9`).
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "an OCO group object")]
#[non_exhaustive]
pub struct SocketOco {
    /// The group id (what `order_cancel_conditional` takes).
    pub id: u64,
    /// The take-profit (limit) leg.
    #[answer(with = "crate::lenient::object")]
    pub take_profit: Option<SocketOrder>,
    /// The stop-loss (stop-limit) leg.
    #[answer(with = "crate::lenient::object")]
    pub stop_loss: Option<SocketOrder>,
    /// Fields this version does not know (among them `type`), kept as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An OTO group as placed or canceled: `type` `"oto"`, the group `id`, the exit kind and
/// prices, and the entry order (`trigger_order`); the exits hold no order ids until the entry
/// fills.
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "an OTO group object")]
#[non_exhaustive]
pub struct SocketOto {
    /// The group id (what `order_cancel_conditional` takes).
    pub id: u64,
    /// The exit kind, e.g. `margin_market_oco`.
    pub conditional_order_type: Option<String>,
    /// The take-profit exit's price.
    pub take_profit_price: Option<ExactDecimal>,
    /// The stop-loss exit's price.
    pub stop_loss_price: Option<ExactDecimal>,
    /// The entry order.
    #[answer(with = "crate::lenient::object")]
    pub trigger_order: Option<SocketOrder>,
    /// Fields this version does not know (among them `type`), kept as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A TPSL pair: two independent stop-market legs (type `10`), no group id.
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a TPSL object")]
#[non_exhaustive]
pub struct SocketTpsl {
    /// The take-profit leg, if one was asked for.
    #[answer(with = "crate::lenient::object")]
    pub take_profit: Option<SocketOrder>,
    /// The stop-loss leg, if one was asked for.
    #[answer(with = "crate::lenient::object")]
    pub stop_loss: Option<SocketOrder>,
    /// Fields this version does not know, kept as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `result` of an order method, by the method that was called.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SocketAnswer {
    /// An order: placed, the replacement of a modified one, or canceled.
    Order(SocketOrder),
    /// An OCO group (placed, or canceled by `order_cancel_conditional`).
    Oco(SocketOco),
    /// An OTO group (placed, or canceled by `order_cancel_conditional`).
    Oto(SocketOto),
    /// A TPSL pair.
    Tpsl(SocketTpsl),
    /// `order_cancel_all`'s empty object: nothing is listed; read the open orders to confirm.
    Done,
}

impl SocketAnswer {
    /// Reads `result` (JSON text) as `method` answers it: a group by its `type` (`"oco"`,
    /// `"oto"`) for the group methods, the order object otherwise.
    pub fn decode(method: SocketMethod, result: &str) -> Result<Self, serde_json::Error> {
        match method {
            SocketMethod::CancelAll => {
                let _: Map<String, Value> = serde_json::from_str(result)?;
                Ok(Self::Done)
            }
            SocketMethod::TpslPlace => serde_json::from_str(result).map(Self::Tpsl),
            SocketMethod::OcoPlace | SocketMethod::OtoPlace | SocketMethod::CancelConditional => {
                #[derive(serde::Deserialize)]
                struct Kind<'a> {
                    #[serde(rename = "type", borrow)]
                    kind: Option<std::borrow::Cow<'a, str>>,
                }
                let kind: Kind<'_> = serde_json::from_str(result)?;
                match (kind.kind.as_deref(), method) {
                    (Some("oto"), _) | (None, SocketMethod::OtoPlace) => {
                        serde_json::from_str(result).map(Self::Oto)
                    }
                    _ => serde_json::from_str(result).map(Self::Oco),
                }
            }
            _ => serde_json::from_str(result).map(Self::Order),
        }
    }

    /// The orders in the answer: the order, or a group's legs and entry.
    pub fn orders(&self) -> Vec<&SocketOrder> {
        match self {
            Self::Order(order) => vec![order],
            Self::Oco(group) => group.take_profit.iter().chain(&group.stop_loss).collect(),
            Self::Oto(group) => group.trigger_order.iter().collect(),
            Self::Tpsl(pair) => pair.take_profit.iter().chain(&pair.stop_loss).collect(),
            Self::Done => Vec::new(),
        }
    }
}

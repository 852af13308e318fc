//! [`Order`]: the order record both collateral order operations answer with.

use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::lenient::{self, Flag, Int, Num, ObjectFields, Text, Word};
use crate::{OrderStatus, OrderType, PositionSide, Side, Stp};

/// The order the exchange answers with. Real answers vary (older ones have `takerFee`/
/// `makerFee` and no `status`; `oto` may be `null` or absent), so every field is optional,
/// numbers keep their exact decimal text, and anything unknown is kept in [`Order::extra`].
///
/// ```
/// let order: txc_types::Order = serde_json::from_str(
///     r#"{"orderId":1,"market":"BTC_USDT","side":"buy","status":"FILLED","newField":7}"#,
/// )?;
/// assert_eq!(order.order_id, Some(1));
/// assert_eq!(order.status, Some(txc_types::OrderStatus::Filled));
/// assert_eq!(order.extra["newField"], 7);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Order {
    /// The exchange's order id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_id: Option<u64>,
    /// The caller's order id; `None` when the answer had none or `""`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_order_id: Option<String>,
    /// The market, e.g. `BTC_USDT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<String>,
    /// Buy or sell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// The order type, e.g. `market` or `stop market`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub order_type: Option<OrderType>,
    /// Creation time in Unix seconds with a fraction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<f64>,
    /// Executed value in money (quote) currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal_money: Option<String>,
    /// Executed amount in stock (base) currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal_stock: Option<String>,
    /// The ordered amount.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
    /// The amount not yet executed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<String>,
    /// The fee paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal_fee: Option<String>,
    /// The taker fee rate (older answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taker_fee: Option<String>,
    /// The maker fee rate (older answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maker_fee: Option<String>,
    /// The order status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<OrderStatus>,
    /// Self-trade prevention, always in the short form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stp: Option<Stp>,
    /// The stop-loss/take-profit pair, when the order is an OTO order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oto: Option<Oto>,
    /// The position side (`BOTH` in one-way mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_side: Option<PositionSide>,
    /// Whether the order may only reduce a position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduce_only: Option<bool>,
    /// The activation price of a trigger order.
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    pub activation_price: Option<String>,
    /// Whether a trigger order has been activated (`0`/`1` on the wire).
    #[serde(serialize_with = "as_digit", skip_serializing_if = "Option::is_none")]
    pub activated: Option<bool>,
    /// When a trigger order activates: `lte` or `gte` the activation price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_condition: Option<ActivationCondition>,
    /// Fields this version does not know, and enum values it does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn as_digit<S: Serializer>(v: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(b) => s.serialize_u8(u8::from(*b)),
        None => s.serialize_none(),
    }
}

impl ObjectFields for Order {
    const EXPECTING: &'static str = "an order object";

    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "orderId" => self.order_id = map.next_value::<Int>()?.0,
            "clientOrderId" => {
                self.client_order_id = map.next_value::<Text>()?.0.filter(|s| !s.is_empty());
            }
            "market" => self.market = map.next_value::<Text>()?.0,
            "side" => {
                let word = map.next_value::<Word<'de>>()?;
                self.side = lenient::known_or_extra(word, key, &mut self.extra);
            }
            "type" => {
                self.order_type = map.next_value::<Word<'de>>()?.0.map(OrderType::from);
            }
            "timestamp" => self.timestamp = map.next_value::<Num>()?.0,
            "dealMoney" => self.deal_money = map.next_value::<Text>()?.0,
            "dealStock" => self.deal_stock = map.next_value::<Text>()?.0,
            "amount" => self.amount = map.next_value::<Text>()?.0,
            "left" => self.left = map.next_value::<Text>()?.0,
            "dealFee" => self.deal_fee = map.next_value::<Text>()?.0,
            "takerFee" => self.taker_fee = map.next_value::<Text>()?.0,
            "makerFee" => self.maker_fee = map.next_value::<Text>()?.0,
            "status" => {
                self.status = map.next_value::<Word<'de>>()?.0.map(OrderStatus::from);
            }
            "stp" => {
                let word = map.next_value::<Word<'de>>()?;
                self.stp = lenient::known_or_extra(word, key, &mut self.extra);
            }
            "oto" => self.oto = map.next_value::<Option<Oto>>()?,
            "positionSide" => {
                let word = map.next_value::<Word<'de>>()?;
                self.position_side = lenient::known_or_extra(word, key, &mut self.extra);
            }
            "reduceOnly" => self.reduce_only = map.next_value::<Flag>()?.0,
            "activation_price" => self.activation_price = map.next_value::<Text>()?.0,
            "activated" => self.activated = map.next_value::<Flag>()?.0,
            "activationCondition" => {
                let word = map.next_value::<Word<'de>>()?;
                self.activation_condition = lenient::known_or_extra(word, key, &mut self.extra);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn extra_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.extra
    }
}

impl<'de> Deserialize<'de> for Order {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
    }
}

/// The one-triggers-other part of an order with stop-loss and/or take-profit.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Oto {
    /// The OTO group's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oto_id: Option<u64>,
    /// The stop-loss price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_loss: Option<String>,
    /// The take-profit price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take_profit: Option<String>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ObjectFields for Oto {
    const EXPECTING: &'static str = "an oto object";

    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "otoId" => self.oto_id = map.next_value::<Int>()?.0,
            "stopLoss" => self.stop_loss = map.next_value::<Text>()?.0,
            "takeProfit" => self.take_profit = map.next_value::<Text>()?.0,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn extra_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.extra
    }
}

impl<'de> Deserialize<'de> for Oto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
    }
}

/// When a trigger order activates relative to its activation price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ActivationCondition {
    /// When the price is less than or equal to the activation price (sell).
    Lte,
    /// When the price is greater than or equal to the activation price (buy).
    Gte,
}

impl std::str::FromStr for ActivationCondition {
    type Err = crate::ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lte" => Ok(Self::Lte),
            "gte" => Ok(Self::Gte),
            _ => Err(crate::ValidationError::invalid(
                "activationCondition",
                crate::Reason::UnknownVariant,
            )),
        }
    }
}

//! [`Order`]: the order record the placement, cancel and open-orders operations answer with.

use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::{OrderStatus, OrderType, PositionSide, Side, Stp};
use crate::errors::{Reason, ValidationError};
use crate::lenient::{self, Field, ObjectFields, Scalar, Set, put, put_with};
use crate::values::{ExactDecimal, Timestamp};

/// An order as the exchange answers it.
///
/// Fields present in every documented shape of the record — the placement responses of both
/// order operations, the older captured responses, the cancel response and the open-orders list —
/// are plain values; a record without one of them is not decoded (for a placement that makes
/// the outcome unknown, see `txc_sign::Error::outcome_unknown`). Fields that some shapes omit
/// are `Option`s, and each says which shapes. Decimals keep the exact text sent
/// ([`ExactDecimal`]), times every digit ([`Timestamp`]); anything this version does not know —
/// a new field, a value of an unexpected type, an enum value it has no name for — is kept in
/// [`Order::extra`] under its own key.
///
/// ```
/// let order: txc_types::orders::Order = serde_json::from_str(
///     r#"{"orderId":1,"clientOrderId":"","market":"BTC_USDT","side":"buy","type":"market",
///         "timestamp":1595792396.165973,"dealMoney":"650","dealStock":"0.01","amount":"0.01",
///         "left":"0","dealFee":"0.65","status":"FILLED","newField":7}"#,
/// )?;
/// assert_eq!(order.order_id, 1);
/// assert_eq!(order.client_order_id, None);
/// assert_eq!(order.deal_money.as_str(), "650");
/// assert_eq!(order.status, Some(txc_types::orders::OrderStatus::Filled));
/// assert_eq!(order.extra["newField"], 7);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Order {
    /// The exchange's order id.
    pub order_id: u64,
    /// The caller's order id; `None` when the response has `""` (the exchange's "not specified").
    #[serde(serialize_with = "empty_when_none")]
    pub client_order_id: Option<String>,
    /// The market, e.g. `BTC_USDT`.
    pub market: String,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal_fee: Option<ExactDecimal>,
    /// The fee's currency; "omitted when empty".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fee_asset: Option<String>,
    /// The limit price; only limit-shaped records (open-orders list, cancel) carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price: Option<ExactDecimal>,
    /// The taker fee rate; only older captured responses carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taker_fee: Option<ExactDecimal>,
    /// The maker fee rate; only older captured responses carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maker_fee: Option<ExactDecimal>,
    /// The order status; older captured responses have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<OrderStatus>,
    /// Self-trade prevention, always in the short form; older captured responses have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stp: Option<Stp>,
    /// The stop-loss/take-profit group, only when the order belongs to one (`null` otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oto: Option<Oto>,
    /// The position side (`BOTH` in one-way mode); older captured responses have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_side: Option<PositionSide>,
    /// Whether the order may only reduce a position; responses before 2026-04 have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduce_only: Option<bool>,
    /// The activation price; only trigger (stop) orders carry it.
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    pub activation_price: Option<ExactDecimal>,
    /// Whether a trigger order has been activated (`0`/`1` on the wire); only trigger orders
    /// in the open-orders list carry it.
    #[serde(serialize_with = "as_digit", skip_serializing_if = "Option::is_none")]
    pub activated: Option<bool>,
    /// When a trigger order activates: `lte` or `gte` the activation price; only trigger
    /// orders in the open-orders list carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_condition: Option<ActivationCondition>,
    /// Fields this version does not know, values of an unexpected type, and enum values it
    /// has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn as_digit<S: Serializer>(v: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(b) => s.serialize_u8(u8::from(*b)),
        None => s.serialize_none(),
    }
}

pub(crate) fn empty_when_none<S: Serializer>(v: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.as_deref().unwrap_or_default())
}

/// An enum-like word: any string (or number) its `FromStr` accepts.
pub(crate) fn word<T: std::str::FromStr>(value: &Scalar<'_>) -> Option<T> {
    value.text()?.parse().ok()
}

/// `clientOrderId`: `""` means "not specified".
pub(crate) fn client_order_id<'de, A: MapAccess<'de>>(
    slot: &mut Option<String>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let set = put(slot, field)?;
    if slot.as_deref() == Some("") {
        *slot = None;
    }
    Ok(set)
}

/// A nested object; PHP's `[]` for an empty object means absent.
pub(crate) fn object<'de, A: MapAccess<'de>, T: serde::de::DeserializeOwned>(
    slot: &mut Option<T>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let keep = |text: &str| Set::Keep(serde_json::from_str(text).unwrap_or(Value::Null));
    Ok(match field.raw()? {
        Some(Scalar::Array(text)) if lenient::nested::<[(); 0]>(text).is_some() => Set::Taken,
        Some(Scalar::Object(text)) => match lenient::nested(text) {
            Some(v) => {
                *slot = Some(v);
                Set::Taken
            }
            None => keep(text),
        },
        None => Set::Taken,
        Some(other) => Set::Keep(other.into_value()),
    })
}

/// The fields of an [`Order`] as they are read.
#[derive(Default)]
pub(crate) struct OrderParts {
    order_id: Option<u64>,
    client_order_id: Option<String>,
    market: Option<String>,
    side: Option<Side>,
    order_type: Option<OrderType>,
    timestamp: Option<Timestamp>,
    deal_money: Option<ExactDecimal>,
    deal_stock: Option<ExactDecimal>,
    amount: Option<ExactDecimal>,
    left: Option<ExactDecimal>,
    deal_fee: Option<ExactDecimal>,
    fee_asset: Option<String>,
    price: Option<ExactDecimal>,
    taker_fee: Option<ExactDecimal>,
    maker_fee: Option<ExactDecimal>,
    status: Option<OrderStatus>,
    stp: Option<Stp>,
    oto: Option<Oto>,
    position_side: Option<PositionSide>,
    reduce_only: Option<bool>,
    activation_price: Option<ExactDecimal>,
    activated: Option<bool>,
    activation_condition: Option<ActivationCondition>,
}

impl ObjectFields for Order {
    type Parts = OrderParts;
    const EXPECTING: &'static str = "an order object";

    fn set<'de, A: MapAccess<'de>>(
        p: &mut OrderParts,
        key: &str,
        raw: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error> {
        match key {
            "orderId" => put(&mut p.order_id, raw),
            "clientOrderId" => client_order_id(&mut p.client_order_id, raw),
            "market" => put(&mut p.market, raw),
            "side" => put_with(&mut p.side, raw, word),
            "type" => put_with(&mut p.order_type, raw, |v| v.text().map(OrderType::from)),
            "timestamp" => put(&mut p.timestamp, raw),
            "dealMoney" => put(&mut p.deal_money, raw),
            "dealStock" => put(&mut p.deal_stock, raw),
            "amount" => put(&mut p.amount, raw),
            "left" => put(&mut p.left, raw),
            "dealFee" => put(&mut p.deal_fee, raw),
            "feeAsset" => put(&mut p.fee_asset, raw),
            "price" => put(&mut p.price, raw),
            "takerFee" => put(&mut p.taker_fee, raw),
            "makerFee" => put(&mut p.maker_fee, raw),
            "status" => put_with(&mut p.status, raw, |v| v.text().map(OrderStatus::from)),
            "stp" => put_with(&mut p.stp, raw, word),
            "oto" => object(&mut p.oto, raw),
            "positionSide" => put_with(&mut p.position_side, raw, word),
            "reduceOnly" => put(&mut p.reduce_only, raw),
            "activation_price" => put(&mut p.activation_price, raw),
            "activated" => put(&mut p.activated, raw),
            "activationCondition" => put_with(&mut p.activation_condition, raw, word),
            _ => Ok(Set::Unknown),
        }
    }

    fn finish(p: OrderParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
        Ok(Self {
            order_id: p.order_id.ok_or("orderId")?,
            client_order_id: p.client_order_id,
            market: p.market.ok_or("market")?,
            side: p.side.ok_or("side")?,
            order_type: p.order_type.ok_or("type")?,
            timestamp: p.timestamp.ok_or("timestamp")?,
            deal_money: p.deal_money.ok_or("dealMoney")?,
            deal_stock: p.deal_stock.ok_or("dealStock")?,
            amount: p.amount.ok_or("amount")?,
            left: p.left.ok_or("left")?,
            deal_fee: p.deal_fee,
            fee_asset: p.fee_asset,
            price: p.price,
            taker_fee: p.taker_fee,
            maker_fee: p.maker_fee,
            status: p.status,
            stp: p.stp,
            oto: p.oto,
            position_side: p.position_side,
            reduce_only: p.reduce_only,
            activation_price: p.activation_price,
            activated: p.activated,
            activation_condition: p.activation_condition,
            extra: std::mem::take(extra),
        })
    }
}

impl<'de> Deserialize<'de> for Order {
    /// Decodes by the crate's leniency rule (see the type's docs); decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
    }
}

/// The one-triggers-other group of an order with a stop-loss and/or take-profit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Oto {
    /// The group's id.
    pub oto_id: u64,
    /// The stop-loss price, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_loss: Option<ExactDecimal>,
    /// The take-profit price, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take_profit: Option<ExactDecimal>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The fields of an [`Oto`] as they are read.
#[derive(Default)]
pub(crate) struct OtoParts {
    oto_id: Option<u64>,
    stop_loss: Option<ExactDecimal>,
    take_profit: Option<ExactDecimal>,
}

impl ObjectFields for Oto {
    type Parts = OtoParts;
    const EXPECTING: &'static str = "an oto object";

    fn set<'de, A: MapAccess<'de>>(
        p: &mut OtoParts,
        key: &str,
        raw: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error> {
        match key {
            "otoId" => put(&mut p.oto_id, raw),
            "stopLoss" => put(&mut p.stop_loss, raw),
            "takeProfit" => put(&mut p.take_profit, raw),
            _ => Ok(Set::Unknown),
        }
    }

    fn finish(p: OtoParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
        Ok(Self {
            oto_id: p.oto_id.ok_or("otoId")?,
            stop_loss: p.stop_loss,
            take_profit: p.take_profit,
            extra: std::mem::take(extra),
        })
    }
}

impl<'de> Deserialize<'de> for Oto {
    /// Decodes by the crate's leniency rule; decode from JSON text.
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
    type Err = ValidationError;
    /// `lte`/`gte` as the open-orders list writes them, `<=`/`>=` as the history does.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lte" | "<=" => Ok(Self::Lte),
            "gte" | ">=" => Ok(Self::Gte),
            _ => Err(ValidationError::invalid(
                "activationCondition",
                Reason::UnknownVariant,
            )),
        }
    }
}

//! [`ConditionalOrder`]: one record of the conditional orders list — an OTO or OCO group.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::orders::Order;
use crate::values::ExactDecimal;

/// One record of `POST /api/v4/conditional-orders`, by its `type`.
///
/// Each record is decoded on its own: one the crate cannot read (an unknown `type`, an OTO
/// group whose `conditionalOrder` is not an order) is kept as sent in
/// [`ConditionalOrder::Other`], never dropped and never failing the whole list.
///
/// ```
/// use txc_types::lookups::ConditionalOrder;
/// let record: ConditionalOrder = serde_json::from_str(r#"{"id":29457221,"type":"oto",
///     "stopLossPrice":"30000","takeProfitPrice":"50000","conditionalOrder":{"orderId":3686033640,
///     "clientOrderId":"customId11","market":"BTC_USDT","side":"buy","type":"limit",
///     "timestamp":1594605801.49815,"dealMoney":"0","dealStock":"0","amount":"2.241379",
///     "left":"2.241379","status":"OPEN"}}"#)?;
/// let ConditionalOrder::Oto(group) = record else { unreachable!() };
/// assert_eq!(group.conditional_order.order_id, 3686033640);
/// assert_eq!(group.conditional_order.client_order_id.as_deref(), Some("customId11"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum ConditionalOrder {
    /// A one-triggers-the-other group: an order (the linked active order) whose fill activates
    /// a stop-loss and/or take-profit.
    Oto(Box<OtoGroup>),
    /// A one-cancels-the-other pair of legs.
    Oco(Box<OcoGroup>),
    /// A record of another `type`, or one that could not be read, as sent.
    Other(Map<String, Value>),
}

impl ConditionalOrder {
    /// The orders the record holds: an OTO group's linked order, an OCO group's legs.
    pub fn orders(&self) -> impl Iterator<Item = &Order> {
        let (first, second, third) = match self {
            Self::Oto(g) => (Some(&g.conditional_order), None, None),
            Self::Oco(g) => (None, g.stop_loss.as_ref(), g.take_profit.as_ref()),
            Self::Other(_) => (None, None, None),
        };
        first.into_iter().chain(second).chain(third)
    }
}

/// An OTO group of the conditional orders list (`"type":"oto"`).
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an oto record")]
#[non_exhaustive]
pub struct OtoGroup {
    /// The group's id (the `otoId` of the order's `oto`).
    pub id: u64,
    /// The group's subtype (e.g. `margin_take_profit`); omitted when not set.
    pub conditional_order_type: Option<String>,
    /// The stop-loss price, if one was given.
    pub stop_loss_price: Option<ExactDecimal>,
    /// The take-profit price, if one was given.
    pub take_profit_price: Option<ExactDecimal>,
    /// The linked active order, in the shape of an open-orders record.
    #[answer(with = "crate::lenient::object")]
    pub conditional_order: Order,
    /// Fields this version does not know (`type` among them), as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An OCO pair of the conditional orders list (`"type":"oco"`).
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an oco record")]
#[non_exhaustive]
pub struct OcoGroup {
    /// The pair's id.
    pub id: u64,
    /// The pair's subtype; omitted when not set.
    pub conditional_order_type: Option<String>,
    /// The stop-loss leg (its camelCase `activationPrice` read as the order's activation
    /// price).
    #[answer(with = "crate::lenient::object")]
    pub stop_loss: Option<Order>,
    /// The take-profit leg.
    #[answer(with = "crate::lenient::object")]
    pub take_profit: Option<Order>,
    /// Fields this version does not know (`type` among them), as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<'de> Deserialize<'de> for ConditionalOrder {
    /// By the record's `type`; a record that does not decode as its type is kept as sent.
    /// Decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = raw.get();
        let object: Map<String, Value> = serde_json::from_str(text).map_err(D::Error::custom)?;
        let decoded = match object.get("type").and_then(Value::as_str) {
            Some("oto") => serde_json::from_str(text)
                .map(|g| Self::Oto(Box::new(g)))
                .ok(),
            Some("oco") => serde_json::from_str(text)
                .map(|g| Self::Oco(Box::new(g)))
                .ok(),
            _ => None,
        };
        Ok(decoded.unwrap_or(Self::Other(object)))
    }
}

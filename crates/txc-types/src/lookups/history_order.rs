//! [`HistoryOrder`]: a finished (filled or canceled) order as the order history answers it.

use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::lenient::{self, Field, ObjectFields, Set, put, put_with};
use crate::orders::order::{client_order_id, word};
use crate::orders::{ActivationCondition, OrderStatus, OrderType, PositionSide, Side};
use crate::values::{ExactDecimal, Timestamp};

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
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HistoryOrder {
    /// The exchange's order id (`orderId` elsewhere).
    pub id: u64,
    /// The market: the key of the response's map this record was listed under.
    #[serde(skip)]
    pub market: String,
    /// The caller's order id; `None` when the record has `""`.
    #[serde(serialize_with = "crate::orders::order::empty_when_none")]
    pub client_order_id: Option<String>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price: Option<ExactDecimal>,
    /// The fee paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal_fee: Option<ExactDecimal>,
    /// The fee's currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fee_asset: Option<String>,
    /// The position side, for margin and futures orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_side: Option<PositionSide>,
    /// Whether the order could only reduce a position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduce_only: Option<bool>,
    /// The activation price; only stop orders carry it (camelCase here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_price: Option<ExactDecimal>,
    /// When a stop order was activated; only stop orders carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activated: Option<Timestamp>,
    /// When a stop order activates (`<=`, `>=` on the wire); only stop orders carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_condition: Option<ActivationCondition>,
    /// Fields this version does not know (`postOnly`, `ioc`, `rpi`, …), values of an
    /// unexpected type and enum values it has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The fields of a [`HistoryOrder`] as they are read.
#[derive(Default)]
pub(crate) struct HistoryParts {
    id: Option<u64>,
    market: Option<String>,
    client_order_id: Option<String>,
    side: Option<Side>,
    order_type: Option<OrderType>,
    status: Option<OrderStatus>,
    amount: Option<ExactDecimal>,
    deal_stock: Option<ExactDecimal>,
    deal_money: Option<ExactDecimal>,
    ctime: Option<Timestamp>,
    ftime: Option<Timestamp>,
    price: Option<ExactDecimal>,
    deal_fee: Option<ExactDecimal>,
    fee_asset: Option<String>,
    position_side: Option<PositionSide>,
    reduce_only: Option<bool>,
    activation_price: Option<ExactDecimal>,
    activated: Option<Timestamp>,
    activation_condition: Option<ActivationCondition>,
}

impl ObjectFields for HistoryOrder {
    type Parts = HistoryParts;
    const EXPECTING: &'static str = "an order history record";

    fn set<'de, A: MapAccess<'de>>(
        p: &mut HistoryParts,
        key: &str,
        raw: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error> {
        match key {
            "id" => put(&mut p.id, raw),
            "market" => put(&mut p.market, raw),
            "clientOrderId" => client_order_id(&mut p.client_order_id, raw),
            "side" => put_with(&mut p.side, raw, word),
            "type" => put_with(&mut p.order_type, raw, |v| v.text().map(OrderType::from)),
            "status" => put_with(&mut p.status, raw, |v| v.text().map(OrderStatus::from)),
            "amount" => put(&mut p.amount, raw),
            "dealStock" => put(&mut p.deal_stock, raw),
            "dealMoney" => put(&mut p.deal_money, raw),
            "ctime" => put(&mut p.ctime, raw),
            "ftime" => put(&mut p.ftime, raw),
            "price" => put(&mut p.price, raw),
            "dealFee" => put(&mut p.deal_fee, raw),
            "feeAsset" => put(&mut p.fee_asset, raw),
            "positionSide" => put_with(&mut p.position_side, raw, word),
            "reduceOnly" => put(&mut p.reduce_only, raw),
            "activationPrice" => put(&mut p.activation_price, raw),
            "activated" => put(&mut p.activated, raw),
            "activationCondition" => put_with(&mut p.activation_condition, raw, word),
            _ => Ok(Set::Unknown),
        }
    }

    fn finish(p: HistoryParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
        Ok(Self {
            id: p.id.ok_or("id")?,
            market: p.market.unwrap_or_default(),
            client_order_id: p.client_order_id,
            side: p.side.ok_or("side")?,
            order_type: p.order_type.ok_or("type")?,
            status: p.status.ok_or("status")?,
            amount: p.amount.ok_or("amount")?,
            deal_stock: p.deal_stock.ok_or("dealStock")?,
            deal_money: p.deal_money.ok_or("dealMoney")?,
            ctime: p.ctime.ok_or("ctime")?,
            ftime: p.ftime.ok_or("ftime")?,
            price: p.price,
            deal_fee: p.deal_fee,
            fee_asset: p.fee_asset,
            position_side: p.position_side,
            reduce_only: p.reduce_only,
            activation_price: p.activation_price,
            activated: p.activated,
            activation_condition: p.activation_condition,
            extra: std::mem::take(extra),
        })
    }
}

impl<'de> Deserialize<'de> for HistoryOrder {
    /// Decodes by the crate's leniency rule; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
    }
}

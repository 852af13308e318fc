//! [`OrderRecord`]: an order as the placement endpoints answer it.
//!
//! Field names, order and forms follow the docs' answer examples (exchange-docs-notes §3.2,
//! §4.2): `orderId` an integer, `clientOrderId` `""` when none was given, `timestamp` Unix
//! seconds with a microsecond fraction, amounts as decimal strings, `activation_price`
//! (snake_case) on trigger orders, `oto` an object or `null`, `stp` in the short form. Trigger
//! orders also carry `activated` (`0`/`1`) and `activationCondition` (`gte` for buy, `lte`
//! for sell), as the shared `OrderResponse` schema documents for stop orders.

use serde::Serialize;

use crate::clock;
use crate::decimal;
use crate::state::StoredOrder;
use crate::wire::Side;

/// The `oto` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OtoRecord {
    oto_id: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_loss: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    take_profit: Option<String>,
}

impl OtoRecord {
    /// The OTO group of `order`, if it has one.
    pub(crate) fn of(order: &StoredOrder) -> Option<Self> {
        order.oto_id.map(|oto_id| Self {
            oto_id,
            stop_loss: order.request.stop_loss.as_ref().map(|p| p.text.clone()),
            take_profit: order.request.take_profit.as_ref().map(|p| p.text.clone()),
        })
    }
}

/// The fields that open both order records (this one and the `OrderResponse` shape of
/// [`super::ActiveOrderRecord`]), in the docs' order: from `orderId` to `dealFee`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OrderHead {
    order_id: u64,
    client_order_id: String,
    market: String,
    side: &'static str,
    #[serde(rename = "type")]
    order_type: &'static str,
    timestamp: f64,
    deal_money: String,
    deal_stock: String,
    amount: String,
    left: String,
    deal_fee: String,
}

impl OrderHead {
    /// The head of `order`'s record in its current state.
    pub(crate) fn of(order: &StoredOrder) -> Self {
        let request = &order.request;
        Self {
            order_id: order.id,
            client_order_id: request.client_order_id.clone().unwrap_or_default(),
            market: request.market.clone(),
            side: request.side.as_str(),
            order_type: if order.activation().is_some() {
                "stop market"
            } else {
                "market"
            },
            timestamp: clock::seconds(order.created_us),
            deal_money: decimal::text(order.deal_money),
            deal_stock: decimal::text(order.deal_stock),
            amount: decimal::text(order.amount),
            left: decimal::text(
                order
                    .amount
                    .checked_sub(order.deal_stock)
                    .unwrap_or_default(),
            ),
            deal_fee: decimal::text(order.deal_fee),
        }
    }
}

/// A trigger order's `activated` (`1` once activated, else `0`) and `activationCondition`
/// (`gte` for a buy, `lte` for a sell); neither for other orders.
pub(crate) fn trigger_state(order: &StoredOrder) -> (Option<u8>, Option<&'static str>) {
    let Some(_) = order.activation() else {
        return (None, None);
    };
    let condition = match order.request.side {
        Side::Buy => "gte",
        Side::Sell => "lte",
    };
    (
        Some(u8::from(order.activated_us.is_some())),
        Some(condition),
    )
}

/// An order record, in the docs' field order.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OrderRecord {
    #[serde(flatten)]
    head: OrderHead,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    activation_price: Option<String>,
    status: &'static str,
    stp: &'static str,
    oto: Option<OtoRecord>,
    position_side: &'static str,
    reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    activated: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    activation_condition: Option<&'static str>,
}

impl OrderRecord {
    /// The record of `order` in its current state.
    pub(crate) fn of(order: &StoredOrder) -> Self {
        let request = &order.request;
        let (activated, activation_condition) = trigger_state(order);
        Self {
            head: OrderHead::of(order),
            activation_price: order.activation().map(|p| p.text.clone()),
            status: order.status.as_str(),
            stp: request.stp.as_str(),
            oto: OtoRecord::of(order),
            position_side: order.position_side.as_str(),
            reduce_only: request.reduce_only,
            activated,
            activation_condition,
        }
    }
}

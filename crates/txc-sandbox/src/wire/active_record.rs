//! [`ActiveOrderRecord`]: an order as `POST /api/v4/orders` lists it and `POST
//! /api/v4/order/cancel` answers it — the shared `OrderResponse` shape (companion-endpoints
//! §1, §3), which differs from the placement answer: `oto` only when the order belongs to an
//! OTO group (never `null`), `ioc` and `rpi` present, no `price` on stop-market orders, and the
//! fields in the docs' table order.

use serde::Serialize;

use crate::state::StoredOrder;
use crate::wire::order_record::{OrderHead, OtoRecord, trigger_state};

/// An order in the `OrderResponse` shape.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ActiveOrderRecord {
    #[serde(flatten)]
    head: OrderHead,
    ioc: bool,
    status: &'static str,
    stp: &'static str,
    position_side: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    oto: Option<OtoRecord>,
    rpi: bool,
    reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    activated: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    activation_condition: Option<&'static str>,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    activation_price: Option<String>,
}

impl ActiveOrderRecord {
    /// The record of `order` in its current state.
    pub(crate) fn of(order: &StoredOrder) -> Self {
        let request = &order.request;
        let (activated, activation_condition) = trigger_state(order);
        Self {
            head: OrderHead::of(order),
            ioc: false,
            status: order.status.as_str(),
            stp: request.stp.as_str(),
            position_side: order.position_side.as_str(),
            oto: OtoRecord::of(order),
            rpi: false,
            reduce_only: request.reduce_only,
            activated,
            activation_condition,
            activation_price: order.activation().map(|p| p.text.clone()),
        }
    }
}

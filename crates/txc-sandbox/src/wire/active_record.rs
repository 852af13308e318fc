//! [`ActiveOrderRecord`]: an order as `POST /api/v4/orders` lists it and `POST
//! /api/v4/order/cancel` answers it — the shared `OrderResponse` shape (companion-endpoints
//! §1, §3), which differs from the placement answer: `oto` only when the order belongs to an
//! OTO group (never `null`), `ioc` and `rpi` present, no `price` on stop-market orders, and the
//! fields in the docs' table order.

use serde::Serialize;

use super::order_record::{OrderHead, OtoRecord};

/// An order in the `OrderResponse` shape.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ActiveOrderRecord {
    #[serde(flatten)]
    pub(crate) head: OrderHead,
    pub(crate) ioc: bool,
    pub(crate) status: &'static str,
    pub(crate) stp: &'static str,
    pub(crate) position_side: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) oto: Option<OtoRecord>,
    pub(crate) rpi: bool,
    pub(crate) reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activated: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activation_condition: Option<&'static str>,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    pub(crate) activation_price: Option<String>,
}

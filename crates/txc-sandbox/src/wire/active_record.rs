//! [`ActiveOrderRecord`]: an order as `POST /api/v4/orders` lists it and `POST
//! /api/v4/order/cancel` answers it — the shared `OrderResponse` shape (companion-endpoints
//! §1, §3), which differs from the placement answer: `oto` only when the order belongs to an
//! OTO group (never `null`), `ioc` and `rpi` present, `price` and `postOnly` on limit and
//! stop-limit orders only, and the fields in the order of the spec's example (the OTO
//! `conditionalOrder` of `POST /api/v4/conditional-orders`).

use serde::Serialize;

use super::order_record::{OrderHead, OtoRecord};

/// An order in the `OrderResponse` shape: the example's keys in its order (`…`, `dealFee`,
/// `ioc`, `status`, `stp`, `rpi`, `reduceOnly`, `price`, `postOnly`, `positionSide`), `oto`
/// after `stp` when the order has one, the stop fields last.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ActiveOrderRecord {
    #[serde(flatten)]
    pub(crate) head: OrderHead,
    pub(crate) ioc: bool,
    pub(crate) status: &'static str,
    pub(crate) stp: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) oto: Option<OtoRecord>,
    pub(crate) rpi: bool,
    pub(crate) reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) price: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) post_only: Option<bool>,
    pub(crate) position_side: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activated: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activation_condition: Option<&'static str>,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    pub(crate) activation_price: Option<String>,
}

//! [`OrderRecord`]: an order as the placement endpoints answer it.
//!
//! Field names, order and forms follow the docs' answer examples (exchange-docs-notes §3.2,
//! §4.2; the spec's limit and stop-limit examples): `orderId` an integer, `clientOrderId` `""`
//! when none was given, `timestamp` Unix seconds with a microsecond fraction, amounts as
//! decimal strings, on limit orders `price`, `postOnly`, `ioc` and `rpi`, on stop-limit orders
//! `price`, `activation_price` (snake_case) on stop orders, `oto` an object or `null`, `stp`
//! in the short form. Stop orders also carry `activated` (`0`/`1`) and `activationCondition`
//! (`gte` for buy, `lte` for sell), as the shared `OrderResponse` schema documents for stop
//! orders.

use serde::{Serialize, Serializer};

/// The `oto` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OtoRecord {
    pub(crate) oto_id: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stop_loss: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) take_profit: Option<String>,
}

/// The `oto` field of a placement answer: the group, `null`, or (the bulk answer's items,
/// whose schema has no `oto`) absent when the order has none.
#[derive(Debug, Clone)]
pub(crate) enum OtoField {
    /// The order belongs to an OTO group.
    Group(OtoRecord),
    /// `null`.
    Null,
    /// No `oto` key.
    Absent,
}

impl OtoField {
    fn is_absent(&self) -> bool {
        matches!(self, Self::Absent)
    }

    /// The same, with a `null` left out.
    pub(crate) fn or_absent(self) -> Self {
        match self {
            Self::Null => Self::Absent,
            other => other,
        }
    }
}

impl Serialize for OtoField {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Group(record) => record.serialize(s),
            Self::Null | Self::Absent => s.serialize_none(),
        }
    }
}

/// The fields that open both order records (this one and the `OrderResponse` shape of
/// [`super::ActiveOrderRecord`]), in the docs' order: from `orderId` to `dealFee`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OrderHead {
    pub(crate) order_id: u64,
    pub(crate) client_order_id: String,
    pub(crate) market: String,
    pub(crate) side: &'static str,
    #[serde(rename = "type")]
    pub(crate) order_type: &'static str,
    pub(crate) timestamp: f64,
    pub(crate) deal_money: String,
    pub(crate) deal_stock: String,
    pub(crate) amount: String,
    pub(crate) left: String,
    pub(crate) deal_fee: String,
}

/// An order record, in the docs' field order.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OrderRecord {
    #[serde(flatten)]
    pub(crate) head: OrderHead,
    /// Limit and stop-limit orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) price: Option<String>,
    /// Limit orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) post_only: Option<bool>,
    /// Limit orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ioc: Option<bool>,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    pub(crate) activation_price: Option<String>,
    pub(crate) status: &'static str,
    pub(crate) stp: &'static str,
    #[serde(skip_serializing_if = "OtoField::is_absent")]
    pub(crate) oto: OtoField,
    pub(crate) position_side: &'static str,
    /// Limit orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rpi: Option<bool>,
    pub(crate) reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activated: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activation_condition: Option<&'static str>,
}

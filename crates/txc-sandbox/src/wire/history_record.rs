//! [`HistoryRecord`]: an order as `POST /api/v4/trade-account/order/history` lists it
//! (companion-endpoints §2): `id` (not `orderId`), no `market` (the answer is keyed by
//! market), `ctime` and `ftime` in seconds with a microsecond fraction, `price` `"0"` for
//! market orders, and on stop orders `activationPrice` (camelCase), `activated` as the
//! activation's Unix time (`0` if it never activated) and `activationCondition` as `">="` or
//! `"<="` — each unlike the same fields elsewhere. Fields in the order of the docs' example.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};
use serde_json::Number;

/// An order in the history's shape.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HistoryRecord {
    pub(crate) amount: String,
    pub(crate) price: String,
    #[serde(rename = "type")]
    pub(crate) order_type: &'static str,
    pub(crate) id: u64,
    pub(crate) client_order_id: String,
    pub(crate) side: &'static str,
    pub(crate) ctime: f64,
    pub(crate) ftime: f64,
    pub(crate) deal_fee: String,
    pub(crate) deal_stock: String,
    pub(crate) deal_money: String,
    pub(crate) post_only: bool,
    pub(crate) ioc: bool,
    pub(crate) status: &'static str,
    pub(crate) fee_asset: String,
    pub(crate) position_side: &'static str,
    pub(crate) rpi: bool,
    pub(crate) reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activation_price: Option<String>,
    /// The activation's Unix time in seconds, or the integer `0`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activated: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activation_condition: Option<&'static str>,
}

/// The history's answer: an object keyed by market (in name order), each an array of records
/// newest first — or `[]` when there are none, as PHP writes an empty array (the docs do not
/// say whether it is `{}` or `[]`).
#[derive(Debug, Clone, Default)]
pub(crate) struct HistoryByMarket(pub(crate) BTreeMap<String, Vec<HistoryRecord>>);

impl Serialize for HistoryByMarket {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_empty() {
            serializer.collect_seq(std::iter::empty::<()>())
        } else {
            self.0.serialize(serializer)
        }
    }
}

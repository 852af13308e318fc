//! [`HistoryRecord`]: an order as `POST /api/v4/trade-account/order/history` lists it
//! (companion-endpoints §2): `id` (not `orderId`), no `market` (the answer is keyed by
//! market), `ctime` and `ftime` in seconds with a microsecond fraction, `price` `"0"` for
//! market orders, and on stop orders `activationPrice` (camelCase), `activated` as the
//! activation's Unix time (`0` if it never activated) and `activationCondition` as `">="` or
//! `"<="` — each unlike the same fields elsewhere. Fields in the order of the docs' example.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};
use serde_json::Number;

use crate::clock;
use crate::decimal;
use crate::state::StoredOrder;
use crate::wire::Side;

/// An order in the history's shape.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HistoryRecord {
    amount: String,
    price: &'static str,
    #[serde(rename = "type")]
    order_type: &'static str,
    id: u64,
    client_order_id: String,
    side: &'static str,
    ctime: f64,
    ftime: f64,
    deal_fee: String,
    deal_stock: String,
    deal_money: String,
    post_only: bool,
    ioc: bool,
    status: &'static str,
    fee_asset: String,
    position_side: &'static str,
    rpi: bool,
    reduce_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    activation_price: Option<String>,
    /// The activation's Unix time in seconds, or the integer `0`.
    #[serde(skip_serializing_if = "Option::is_none")]
    activated: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    activation_condition: Option<&'static str>,
}

impl HistoryRecord {
    /// The record of a finished `order`; `fee_asset` is its market's collateral currency.
    pub(crate) fn of(order: &StoredOrder, fee_asset: &str) -> Self {
        let request = &order.request;
        let trigger = order.activation();
        Self {
            amount: decimal::text(order.amount),
            price: "0",
            order_type: if trigger.is_some() {
                "stop market"
            } else {
                "market"
            },
            id: order.id,
            client_order_id: request.client_order_id.clone().unwrap_or_default(),
            side: request.side.as_str(),
            ctime: clock::seconds(order.created_us),
            ftime: clock::seconds(order.finished_us.unwrap_or(order.created_us)),
            deal_fee: decimal::text(order.deal_fee),
            deal_stock: decimal::text(order.deal_stock),
            deal_money: decimal::text(order.deal_money),
            post_only: false,
            ioc: false,
            status: order.status.as_str(),
            fee_asset: fee_asset.to_owned(),
            position_side: order.position_side.as_str(),
            rpi: false,
            reduce_only: request.reduce_only,
            activation_price: trigger.map(|p| p.text.clone()),
            activated: trigger.map(|_| {
                order
                    .activated_us
                    .and_then(|us| Number::from_f64(clock::seconds(us)))
                    .unwrap_or_else(|| Number::from(0))
            }),
            activation_condition: trigger.map(|_| match request.side {
                Side::Buy => ">=",
                Side::Sell => "<=",
            }),
        }
    }
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

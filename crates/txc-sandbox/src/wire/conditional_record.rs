//! [`ConditionalPage`]: a page of `POST /api/v4/conditional-orders` — `limit`, `offset`, `total`
//! and `records`, each an OTO group (`id`, `type` `"oto"`, `stopLossPrice`, `takeProfitPrice`,
//! `conditionalOrder` in the `OrderResponse` shape) or an OCO ([`OcoGroupRecord`]), in the
//! spec example's field order. `conditionalOrderType` is omitted (the spec: "omitted when not
//! set").

use serde::Serialize;

use super::active_record::ActiveOrderRecord;
use super::oco_record::OcoGroupRecord;

/// A page of the conditional orders.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ConditionalPage {
    pub(crate) limit: usize,
    pub(crate) offset: usize,
    pub(crate) total: usize,
    pub(crate) records: Vec<ConditionalRecord>,
}

/// One conditional order: an OTO group or an OCO.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum ConditionalRecord {
    Oto(Box<OtoGroupRecord>),
    Oco(Box<OcoGroupRecord>),
}

/// An OTO group: the order that, once filled, activates its stop-loss and take-profit.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OtoGroupRecord {
    pub(crate) id: u64,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stop_loss_price: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) take_profit_price: Option<String>,
    pub(crate) conditional_order: ActiveOrderRecord,
}

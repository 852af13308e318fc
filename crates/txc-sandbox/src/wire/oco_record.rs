//! The records of OCO orders, one shape per endpoint as the spec gives them (its `OcoOrderLeg`
//! and `ConditionalOrderLeg` say outright that the shapes are not interchangeable):
//!
//! - [`OcoCreatedRecord`]: `POST /api/v4/order/collateral/oco`'s answer — `id`, `reduceOnly`,
//!   `stop_loss` and `take_profit`, each leg with `takerFee`/`makerFee` and snake_case
//!   `post_only`, `activation_price`, `activation_condition`, `type` `stop limit` / `limit`.
//! - [`OcoRecord`]: `POST /api/v4/oco-orders`' items and `POST /api/v4/order/oco-cancel`'s
//!   answer — `id`, `stop_loss`, `take_profit`, each an `OcoOrderLeg` (snake_case, `type`
//!   `margin stop limit` / `margin limit` as the examples, `positionSide` only on futures
//!   markets, as the schema says).
//! - [`OcoGroupRecord`]: an OCO item of `POST /api/v4/conditional-orders` — `id`, `type`
//!   `"oco"`, `stopLoss`, `takeProfit`, each a `ConditionalOrderLeg` (camelCase,
//!   `positionSide` always, as the example).
//!
//! Keys in the order of each endpoint's example.

use serde::Serialize;

use super::order_record::OrderHead;

/// A leg as the OCO is created: the spec's answer example, key for key.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OcoCreatedLeg {
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
    pub(crate) taker_fee: String,
    pub(crate) maker_fee: String,
    pub(crate) left: String,
    pub(crate) deal_fee: String,
    #[serde(rename = "post_only")]
    pub(crate) post_only: bool,
    pub(crate) mtime: f64,
    pub(crate) price: String,
    #[serde(rename = "activation_price", skip_serializing_if = "Option::is_none")]
    pub(crate) activation_price: Option<String>,
    #[serde(
        rename = "activation_condition",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) activation_condition: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) activated: Option<u8>,
    pub(crate) status: &'static str,
    pub(crate) stp: &'static str,
    pub(crate) position_side: &'static str,
}

/// `POST /api/v4/order/collateral/oco`'s answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OcoCreatedRecord {
    pub(crate) id: u64,
    pub(crate) reduce_only: bool,
    #[serde(rename = "stop_loss")]
    pub(crate) stop_loss: OcoCreatedLeg,
    #[serde(rename = "take_profit")]
    pub(crate) take_profit: OcoCreatedLeg,
}

/// What a listed leg shows after its post-only flag, in both listings' order: `status`,
/// `stp`, `positionSide`, `reduceOnly`, `mtime`, `price`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LegState {
    pub(crate) status: &'static str,
    pub(crate) stp: &'static str,
    /// Always on the conditional orders' legs; on futures markets only on the OCO listing's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) position_side: Option<&'static str>,
    pub(crate) reduce_only: bool,
    pub(crate) mtime: f64,
    pub(crate) price: String,
}

/// A stop-loss leg's trigger fields, snake_case (the OCO listing and cancel).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SnakeTrigger {
    pub(crate) activation_price: String,
    pub(crate) activation_condition: &'static str,
    pub(crate) activated: u8,
}

/// A stop-loss leg's trigger fields, camelCase (the conditional orders).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CamelTrigger {
    pub(crate) activation_price: String,
    pub(crate) activation_condition: &'static str,
    pub(crate) activated: u8,
}

impl From<SnakeTrigger> for CamelTrigger {
    fn from(t: SnakeTrigger) -> Self {
        Self {
            activation_price: t.activation_price,
            activation_condition: t.activation_condition,
            activated: t.activated,
        }
    }
}

/// A leg as the OCO listing and the OCO cancel show it (the spec's `OcoOrderLeg`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct OcoLeg {
    #[serde(flatten)]
    pub(crate) head: OrderHead,
    pub(crate) post_only: bool,
    #[serde(flatten)]
    pub(crate) state: LegState,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(crate) trigger: Option<SnakeTrigger>,
}

/// An OCO of the listing, and the OCO cancel's answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct OcoRecord {
    pub(crate) id: u64,
    pub(crate) stop_loss: OcoLeg,
    pub(crate) take_profit: OcoLeg,
}

/// A leg as the conditional orders show it (the spec's `ConditionalOrderLeg`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConditionalLeg {
    #[serde(flatten)]
    pub(crate) head: OrderHead,
    pub(crate) post_only: bool,
    #[serde(flatten)]
    pub(crate) state: LegState,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(crate) trigger: Option<CamelTrigger>,
}

/// An OCO among the conditional orders.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OcoGroupRecord {
    pub(crate) id: u64,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) stop_loss: ConditionalLeg,
    pub(crate) take_profit: ConditionalLeg,
}

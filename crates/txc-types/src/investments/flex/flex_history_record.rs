//! [`FlexHistoryRecord`]: one record of the flex investment history (and of the payment
//! history, its `DAILY_EARNING` records).

use serde_json::{Map, Value};
use txc_derive::Answer;

use super::FlexAction;
use crate::values::{ExactDecimal, Ticker, Timestamp};

/// An operation on a flex investment (the exchange's `FlexInvestmentHistory`): what it did
/// ([`FlexAction`]), to which investment of which plan, how much, and its transaction id —
/// the `transaction_id` the operation's own answer gave ([`FlexTransaction`](super::FlexTransaction)).
///
/// ```
/// use txc_types::investments::flex::{FlexAction, FlexHistoryRecord};
/// let r: FlexHistoryRecord = serde_json::from_str(
///     r#"{"createdAt":1640995200,"planId":"8f2e9d3c","investmentId":"inv_7e2d9c3b",
///         "currency":"USDT","amount":"15.75","transaction_id":"tx_9f3e0d4c","actionType":1}"#,
/// )?;
/// assert_eq!((r.action_type, r.transaction_id.as_str()), (FlexAction::Invest, "tx_9f3e0d4c"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a flex history record")]
#[non_exhaustive]
pub struct FlexHistoryRecord {
    /// When it happened (the exchange's clock, Unix seconds).
    pub created_at: Timestamp,
    /// The plan's id.
    pub plan_id: String,
    /// The investment's id.
    pub investment_id: String,
    /// The currency moved, as sent.
    pub currency: Ticker,
    /// The amount moved.
    pub amount: ExactDecimal,
    /// The transaction's id (snake_case on the wire, as the spec writes it).
    #[serde(rename = "transaction_id")]
    pub transaction_id: String,
    /// What it did; unknown codes are kept.
    pub action_type: FlexAction,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl FlexHistoryRecord {
    /// The record's identity in a list: its transaction and what it did (one transaction may
    /// show under more than one action).
    pub fn key(&self) -> (String, FlexAction) {
        (self.transaction_id.clone(), self.action_type)
    }
}

//! [`FlexInvestment`]: one record of the flex investments list.

use serde_json::{Map, Value};
use txc_derive::Answer;

use super::FlexInvestmentStatus;
use crate::values::{ExactDecimal, Ticker, Timestamp};

/// An account's investment in a flex plan, as `POST
/// /api/v4/main-account/smart-flex/investments` lists it (the exchange's `FlexInvestment`).
///
/// An account holds one investment per plan: investing again tops it up, withdrawing takes
/// part of it, closing pays it all back — each operation names the plan, not the
/// investment. Times are the exchange's Unix seconds, kept digit for digit ([`Timestamp`]);
/// amounts keep their exact text. Every field of the spec's example is required.
///
/// ```
/// use txc_types::investments::flex::{FlexInvestment, FlexInvestmentStatus};
/// let i: FlexInvestment = serde_json::from_str(
///     r#"{"id":"inv_7e2d9c3b","planId":"8f2e9d3c","currency":"USDT","invested":"1500.75",
///         "withAutoReinvest":true,"status":1,"createdAt":1640995200,"updatedAt":1641081600}"#,
/// )?;
/// assert_eq!((i.plan_id.as_str(), i.invested.as_str()), ("8f2e9d3c", "1500.75"));
/// assert_eq!(i.status, FlexInvestmentStatus::Active);
/// assert!(i.with_auto_reinvest);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a flex investment object")]
#[non_exhaustive]
pub struct FlexInvestment {
    /// The investment's id.
    pub id: String,
    /// The plan it is invested in.
    pub plan_id: String,
    /// Its currency (the plan's ticker), as sent.
    pub currency: Ticker,
    /// The amount invested now.
    pub invested: ExactDecimal,
    /// Whether earnings are added to it (auto-reinvestment).
    pub with_auto_reinvest: bool,
    /// Active or closed; unknown codes are kept.
    pub status: FlexInvestmentStatus,
    /// When it was created (the exchange's clock, Unix seconds).
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl FlexInvestment {
    /// Whether it is active (status `1`).
    pub fn is_active(&self) -> bool {
        self.status == FlexInvestmentStatus::Active
    }
}

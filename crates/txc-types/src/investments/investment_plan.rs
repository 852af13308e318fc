//! [`InvestmentPlan`]: one element of the smart plans response.

use std::time::Duration;

use serde_json::{Map, Value};
use txc_derive::Answer;

use super::PlanStatus;
use crate::values::{ExactDecimal, Ticker};

/// A smart investment plan (the exchange's `FixedPlan`).
///
/// Every field the exchange documents is present in every documented response, so each is a
/// plain value; a plan without one is not decoded. Decimals keep their exact text
/// ([`ExactDecimal`]); anything this version does not know is kept in
/// [`InvestmentPlan::extra`].
///
/// ```
/// let plan: txc_types::investments::InvestmentPlan = serde_json::from_str(
///     r#"{"id":"8e667b4a","ticker":"USDT","status":1,"percent":"10","duration":14400,
///         "interestTicker":"USDT","interestRatio":"1","minInvestment":"100",
///         "maxInvestment":"10000","maxPossibleInvestment":"3000"}"#,
/// )?;
/// assert_eq!(plan.status, txc_types::investments::PlanStatus::Active);
/// assert_eq!(plan.duration(), std::time::Duration::from_secs(14400 * 60));
/// assert_eq!(plan.max_possible_investment.as_str(), "3000");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an investment plan object")]
#[non_exhaustive]
pub struct InvestmentPlan {
    /// The plan id: the `planId` an investment is created with.
    pub id: String,
    /// The source currency ticker, as sent (not checked by [`Ticker`]'s request rule: the
    /// exchange is the authority on what it sends).
    pub ticker: Ticker,
    /// The plan status; unknown integers are kept.
    pub status: PlanStatus,
    /// The interest percent.
    pub percent: ExactDecimal,
    /// The investment duration in minutes, as sent; see [`InvestmentPlan::duration`].
    #[serde(rename = "duration")]
    pub duration_minutes: u64,
    /// The target (interest) currency ticker, as sent.
    pub interest_ticker: Ticker,
    /// Converts interest from the source to the target currency (`1` when they are the same).
    pub interest_ratio: ExactDecimal,
    /// The minimum investment amount.
    pub min_investment: ExactDecimal,
    /// The maximum investment amount.
    pub max_investment: ExactDecimal,
    /// The largest investment the plan's current state allows.
    pub max_possible_investment: ExactDecimal,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl InvestmentPlan {
    /// The investment duration (the wire gives minutes).
    pub fn duration(&self) -> Duration {
        Duration::from_secs(self.duration_minutes.saturating_mul(60))
    }
}

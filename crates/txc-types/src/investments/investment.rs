//! [`Investment`]: one record of the investments list.

use serde_json::{Map, Value};
use txc_derive::Answer;

use super::{InvestmentPlan, InvestmentStatus};
use crate::values::{ExactDecimal, Timestamp};

/// An investment in a smart plan, as `POST /api/v4/main-account/smart/investments` lists it.
///
/// Its `plan` is the plan's record as the plans list gives it ([`InvestmentPlan`], reused). Times
/// are the exchange's Unix seconds, kept digit for digit ([`Timestamp`]); amounts keep their
/// exact text ([`ExactDecimal`]). Every field of the docs' example is required.
///
/// ```
/// let i: txc_types::investments::Investment = serde_json::from_str(
///     r#"{"id":"0d7b66ff","plan":{"id":"8e667b4a","ticker":"USDT","status":1,"percent":"10",
///         "duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100",
///         "maxInvestment":"10000","maxPossibleInvestment":"3000"},"status":1,
///         "created":1646825196,"updated":1646825196,"paymentTime":1646839596,
///         "amount":"100","interestPaid":"0"}"#,
/// )?;
/// assert_eq!((i.plan.id.as_str(), i.amount.as_str()), ("8e667b4a", "100"));
/// assert_eq!(i.status, txc_types::investments::InvestmentStatus::Active);
/// assert_eq!(i.created.unix_seconds(), 1_646_825_196);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an investment object")]
#[non_exhaustive]
pub struct Investment {
    /// The investment's id: what closing it takes.
    pub id: String,
    /// The plan it is invested in, as the plans list gives it.
    #[answer(with = "crate::lenient::object")]
    pub plan: InvestmentPlan,
    /// Active or closed; unknown integers are kept.
    pub status: InvestmentStatus,
    /// When it was created (the exchange's clock, Unix seconds).
    pub created: Timestamp,
    /// When it last changed.
    pub updated: Timestamp,
    /// When its interest is paid (the end of its term).
    pub payment_time: Timestamp,
    /// The amount invested, in the plan's `ticker`.
    pub amount: ExactDecimal,
    /// The interest paid so far.
    pub interest_paid: ExactDecimal,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

//! [`FlexPlan`]: one element of the flex plans answer.

use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::investments::PlanStatus;
use crate::values::{ExactDecimal, Ticker};

/// A flexible lending plan (the exchange's `FlexPlan`): its currency, the bounds of an
/// investment in it and its maximum interest rate.
///
/// The spec's schema has five fields, each present in its example, so each is a plain value;
/// decimals keep their exact text ([`ExactDecimal`]), anything this version does not know is
/// kept in [`FlexPlan::extra`].
///
/// **Status.** The schema has no `status`: the list holds only plans "with active status"
/// (the spec), so a plan read from it was active when read — and may be paused or made
/// unavailable since, which the exchange refuses (`Plan is paused`, `Plan is unavailable`).
/// Should an answer carry the fixed plans' `status` integer, it is read into
/// [`status`](Self::status) and the bound checks refuse a plan that is not active.
///
/// **Rate.** `maxRate` is the "maximum interest rate": a yearly rate as a fraction (`0.15`
/// is 15 % a year — the spec's examples give `0.15` and `0.12`, which only read sensibly so),
/// the most the plan pays; the spec does not say whether a lower rate applies to some
/// amounts. See [`accrual`](super::accrual) for how it accrues.
///
/// ```
/// let plan: txc_types::investments::flex::FlexPlan = serde_json::from_str(
///     r#"{"id":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","ticker":"USDT",
///         "minInvestment":"10.0","maxInvestment":"100000.0","maxRate":"0.15"}"#,
/// )?;
/// assert_eq!((plan.ticker.as_str(), plan.max_rate.as_str()), ("USDT", "0.15"));
/// assert_eq!(plan.status, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a flex plan object")]
#[non_exhaustive]
pub struct FlexPlan {
    /// The plan's id (a UUID): the `plan` every flex operation takes.
    pub id: String,
    /// The currency invested and paid, as sent.
    pub ticker: Ticker,
    /// The smallest amount an investment call takes.
    pub min_investment: ExactDecimal,
    /// The largest amount an investment holds.
    pub max_investment: ExactDecimal,
    /// The maximum interest rate, a yearly fraction (`0.15` = 15 % a year).
    pub max_rate: ExactDecimal,
    /// The plan's status, if the answer carries one (the spec's schema does not: a listed plan
    /// is active); unknown integers are kept.
    pub status: Option<PlanStatus>,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

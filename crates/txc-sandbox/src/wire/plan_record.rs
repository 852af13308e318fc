//! [`PlanRecord`]: a smart investment plan as `POST /api/v4/main-account/smart/plans` answers
//! it, in the field order of the docs' example (exchange-docs-notes §5.3).

use serde::Serialize;

/// A plan record: strings for amounts and percentages, integers for `status` and `duration`
/// (minutes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanRecord {
    pub(crate) id: String,
    pub(crate) ticker: String,
    pub(crate) status: i64,
    pub(crate) percent: String,
    pub(crate) duration: u64,
    pub(crate) interest_ticker: String,
    pub(crate) interest_ratio: String,
    pub(crate) min_investment: String,
    pub(crate) max_investment: String,
    pub(crate) max_possible_investment: String,
}

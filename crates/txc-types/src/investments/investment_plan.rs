//! [`InvestmentPlan`]: one element of the smart plans response.

use std::time::Duration;

use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::PlanStatus;
use crate::lenient::{self, Field, FromWire, ObjectFields, Set, put, put_with};
use crate::values::ExactDecimal;

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
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InvestmentPlan {
    /// The plan id: the `planId` an investment is created with.
    pub id: String,
    /// The source currency ticker.
    pub ticker: String,
    /// The plan status; unknown integers are kept.
    pub status: PlanStatus,
    /// The interest percent.
    pub percent: ExactDecimal,
    /// The investment duration in minutes, as sent; see [`InvestmentPlan::duration`].
    #[serde(rename = "duration")]
    pub duration_minutes: u64,
    /// The target (interest) currency ticker.
    pub interest_ticker: String,
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

/// The fields of an [`InvestmentPlan`] as they are read.
#[derive(Default)]
pub(crate) struct PlanParts {
    id: Option<String>,
    ticker: Option<String>,
    status: Option<PlanStatus>,
    percent: Option<ExactDecimal>,
    duration_minutes: Option<u64>,
    interest_ticker: Option<String>,
    interest_ratio: Option<ExactDecimal>,
    min_investment: Option<ExactDecimal>,
    max_investment: Option<ExactDecimal>,
    max_possible_investment: Option<ExactDecimal>,
}

impl ObjectFields for InvestmentPlan {
    type Parts = PlanParts;
    const EXPECTING: &'static str = "an investment plan object";

    fn set<'de, A: MapAccess<'de>>(
        p: &mut PlanParts,
        key: &str,
        raw: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error> {
        match key {
            "id" => put(&mut p.id, raw),
            "ticker" => put(&mut p.ticker, raw),
            "status" => put_with(&mut p.status, raw, |v| {
                i64::from_wire(v).map(PlanStatus::from)
            }),
            "percent" => put(&mut p.percent, raw),
            "duration" => put(&mut p.duration_minutes, raw),
            "interestTicker" => put(&mut p.interest_ticker, raw),
            "interestRatio" => put(&mut p.interest_ratio, raw),
            "minInvestment" => put(&mut p.min_investment, raw),
            "maxInvestment" => put(&mut p.max_investment, raw),
            "maxPossibleInvestment" => put(&mut p.max_possible_investment, raw),
            _ => Ok(Set::Unknown),
        }
    }

    fn finish(p: PlanParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
        Ok(Self {
            id: p.id.ok_or("id")?,
            ticker: p.ticker.ok_or("ticker")?,
            status: p.status.ok_or("status")?,
            percent: p.percent.ok_or("percent")?,
            duration_minutes: p.duration_minutes.ok_or("duration")?,
            interest_ticker: p.interest_ticker.ok_or("interestTicker")?,
            interest_ratio: p.interest_ratio.ok_or("interestRatio")?,
            min_investment: p.min_investment.ok_or("minInvestment")?,
            max_investment: p.max_investment.ok_or("maxInvestment")?,
            max_possible_investment: p.max_possible_investment.ok_or("maxPossibleInvestment")?,
            extra: std::mem::take(extra),
        })
    }
}

impl<'de> Deserialize<'de> for InvestmentPlan {
    /// Decodes by the crate's leniency rule; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
    }
}

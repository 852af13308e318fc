//! [`InvestmentPlan`]: one element of the smart plans answer.

use std::time::Duration;

use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::PlanStatus;
use crate::lenient::{self, Int, ObjectFields, Text};

/// A smart investment plan. Whether the exchange always sends every field is not documented,
/// so each is optional; decimals keep their exact text; unknown fields are kept in
/// [`InvestmentPlan::extra`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InvestmentPlan {
    /// The plan id (a UUID).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The source currency ticker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticker: Option<String>,
    /// The plan status; unknown integers are kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<PlanStatus>,
    /// The interest percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<String>,
    /// The investment duration in minutes; see [`InvestmentPlan::duration`].
    #[serde(rename = "duration", skip_serializing_if = "Option::is_none")]
    pub duration_minutes: Option<u64>,
    /// The target (interest) currency ticker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interest_ticker: Option<String>,
    /// Converts interest from the source to the target currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interest_ratio: Option<String>,
    /// The minimum investment amount.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_investment: Option<String>,
    /// The maximum investment amount.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_investment: Option<String>,
    /// The largest investment still possible now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_possible_investment: Option<String>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl InvestmentPlan {
    /// The investment duration (the wire gives minutes).
    pub fn duration(&self) -> Option<Duration> {
        self.duration_minutes
            .map(|m| Duration::from_secs(m.saturating_mul(60)))
    }
}

impl ObjectFields for InvestmentPlan {
    const EXPECTING: &'static str = "an investment plan object";

    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "id" => self.id = map.next_value::<Text>()?.0,
            "ticker" => self.ticker = map.next_value::<Text>()?.0,
            "status" => {
                self.status = map.next_value::<Option<i64>>()?.map(PlanStatus::from);
            }
            "percent" => self.percent = map.next_value::<Text>()?.0,
            "duration" => self.duration_minutes = map.next_value::<Int>()?.0,
            "interestTicker" => self.interest_ticker = map.next_value::<Text>()?.0,
            "interestRatio" => self.interest_ratio = map.next_value::<Text>()?.0,
            "minInvestment" => self.min_investment = map.next_value::<Text>()?.0,
            "maxInvestment" => self.max_investment = map.next_value::<Text>()?.0,
            "maxPossibleInvestment" => self.max_possible_investment = map.next_value::<Text>()?.0,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn extra_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.extra
    }
}

impl<'de> Deserialize<'de> for InvestmentPlan {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
    }
}

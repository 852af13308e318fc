//! [`PlanConfig`]: a smart investment plan the sandbox answers with.

use super::error::SandboxError;
use crate::wire::{PlanRecord, decimal};

/// A smart investment plan of the sandbox, answered by `POST /api/v4/main-account/smart/plans`
/// as configured (the sandbox's own record, not a `txc-types` model) — except that investing
/// takes from its `maxPossibleInvestment` and closing gives back, and an active plan with
/// nothing left lists with status 2.
///
/// Defaults: status 1 (active), percent `"0"`, duration 0 minutes, interest in the plan's own
/// ticker at ratio `"1"`, investments `"0"`. `status` is any integer, so that tests can send
/// values the SDK does not know.
///
/// ```
/// use txc_sandbox::PlanConfig;
/// let plan = PlanConfig::new("8e667b4a-0b71-4988-8af5-9474dbfaeb51", "USDT")
///     .status(1)
///     .percent("10")
///     .duration_minutes(14_400)
///     .interest("USDT", "1")
///     .investment("100", "10000", "3000");
/// assert_eq!(plan.id(), "8e667b4a-0b71-4988-8af5-9474dbfaeb51");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanConfig {
    record: PlanRecord,
}

impl PlanConfig {
    /// An active plan `id` whose source currency is `ticker`.
    pub fn new(id: impl Into<String>, ticker: impl Into<String>) -> Self {
        let ticker = ticker.into();
        Self {
            record: PlanRecord {
                id: id.into(),
                ticker: ticker.clone(),
                status: 1,
                percent: "0".to_owned(),
                duration: 0,
                interest_ticker: ticker,
                interest_ratio: "1".to_owned(),
                min_investment: "0".to_owned(),
                max_investment: "0".to_owned(),
                max_possible_investment: "0".to_owned(),
            },
        }
    }

    /// `status`: 1 active, 2 no coins left, 3 inactive, 4 pause; any other integer is sent
    /// as it is.
    #[must_use]
    pub fn status(mut self, status: i64) -> Self {
        self.record.status = status;
        self
    }

    /// The interest percent (a plain decimal).
    #[must_use]
    pub fn percent(mut self, percent: impl Into<String>) -> Self {
        self.record.percent = percent.into();
        self
    }

    /// The investment's duration in minutes (`duration` on the wire).
    #[must_use]
    pub fn duration_minutes(mut self, minutes: u64) -> Self {
        self.record.duration = minutes;
        self
    }

    /// The currency interest is paid in and its ratio to the source currency.
    #[must_use]
    pub fn interest(mut self, ticker: impl Into<String>, ratio: impl Into<String>) -> Self {
        self.record.interest_ticker = ticker.into();
        self.record.interest_ratio = ratio.into();
        self
    }

    /// `minInvestment`, `maxInvestment` and `maxPossibleInvestment` (plain decimals).
    #[must_use]
    pub fn investment(
        mut self,
        min: impl Into<String>,
        max: impl Into<String>,
        max_possible: impl Into<String>,
    ) -> Self {
        self.record.min_investment = min.into();
        self.record.max_investment = max.into();
        self.record.max_possible_investment = max_possible.into();
        self
    }

    /// The plan's id.
    pub fn id(&self) -> &str {
        &self.record.id
    }

    /// Checks the decimals and tickers; the record to answer with.
    pub(crate) fn validate(&self) -> Result<PlanRecord, SandboxError> {
        let r = &self.record;
        let bad = |reason: String| SandboxError::Config {
            what: format!("plan {}", r.id),
            reason,
        };
        if r.id.is_empty() || r.ticker.is_empty() || r.interest_ticker.is_empty() {
            return Err(bad("empty id or ticker".to_owned()));
        }
        for (field, value) in [
            ("percent", &r.percent),
            ("interest ratio", &r.interest_ratio),
            ("min investment", &r.min_investment),
            ("max investment", &r.max_investment),
            ("max possible investment", &r.max_possible_investment),
        ] {
            if decimal::parse(value).is_none() {
                return Err(bad(format!("{field} {value:?} is not a plain decimal")));
            }
        }
        Ok(r.clone())
    }
}

//! [`FlexPlanConfig`]: a flexible lending plan the sandbox offers, and the checked
//! [`FlexPlanSpec`] it starts from.

use rust_decimal::Decimal;

use super::error::SandboxError;
use crate::wire::{FlexPlanRecord, decimal};

/// A flex plan's status: `1` active — the only one listed and invested in (`2`, unavailable,
/// and any other answer investing with `Plan is unavailable`).
pub(crate) const FLEX_ACTIVE: i64 = 1;
/// `3`: inactive (investing and withdrawing answer `The selected plan is invalid.`).
pub(crate) const FLEX_INACTIVE: i64 = 3;
/// `4`: paused (investing answers `Plan is paused`).
pub(crate) const FLEX_PAUSED: i64 = 4;

/// A flexible lending plan of the sandbox (the spec's "Crypto Lending - Flex"), answered by
/// `POST /api/v4/main-account/smart-flex/plans` as configured — the sandbox's own record, not
/// a `txc-types` model.
///
/// Defaults: status 1 (active), public, `minInvestment` and `maxInvestment` `"0"`, `maxRate`
/// `"0"`, no minimum withdrawal. The status is the sandbox's (the spec's plan has none):
/// `1` active, `2` unavailable, `3` inactive, `4` paused — only active plans are listed, and
/// [`Sandbox::set_flex_plan_status`](crate::Sandbox::set_flex_plan_status) changes it while
/// the sandbox runs.
///
/// ```
/// use txc_sandbox::FlexPlanConfig;
/// let plan = FlexPlanConfig::new("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f", "USDT")
///     .investment("10.0", "100000.0")
///     .max_rate("0.15")
///     .min_withdrawal("1")
///     .private_to("my-key");
/// assert_eq!(plan.id(), "8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlexPlanConfig {
    record: FlexPlanRecord,
    status: i64,
    private_to: Vec<String>,
    min_withdrawal: String,
}

impl FlexPlanConfig {
    /// An active public plan `id` of the currency `ticker`.
    pub fn new(id: impl Into<String>, ticker: impl Into<String>) -> Self {
        Self {
            record: FlexPlanRecord {
                id: id.into(),
                ticker: ticker.into(),
                min_investment: "0".to_owned(),
                max_investment: "0".to_owned(),
                max_rate: "0".to_owned(),
            },
            status: FLEX_ACTIVE,
            private_to: Vec::new(),
            min_withdrawal: "0".to_owned(),
        }
    }

    /// `minInvestment` (the least an investment call takes, and what a withdrawal must leave)
    /// and `maxInvestment` (the most a call takes, and an investment holds): plain decimals,
    /// answered as written.
    #[must_use]
    pub fn investment(mut self, min: impl Into<String>, max: impl Into<String>) -> Self {
        self.record.min_investment = min.into();
        self.record.max_investment = max.into();
        self
    }

    /// `maxRate`: the yearly rate as a fraction (`"0.15"` = 15 % a year), which the sandbox
    /// pays.
    #[must_use]
    pub fn max_rate(mut self, rate: impl Into<String>) -> Self {
        self.record.max_rate = rate.into();
        self
    }

    /// The status: `1` active, `2` unavailable, `3` inactive, `4` paused; any other integer
    /// is a plan that is neither listed nor invested in (`Plan is unavailable`).
    #[must_use]
    pub fn status(mut self, status: i64) -> Self {
        self.status = status;
        self
    }

    /// Makes the plan private to the account `api_key` (may be repeated): listed to and
    /// invested in by those accounts only (others: `Private plan not available for this
    /// user`).
    #[must_use]
    pub fn private_to(mut self, api_key: impl Into<String>) -> Self {
        self.private_to.push(api_key.into());
        self
    }

    /// The least a withdrawal takes (a plain decimal; default `"0"`): below it, `Cannot
    /// withdraw amount < min possible`. The spec names the refusal but no plan publishes the
    /// figure.
    #[must_use]
    pub fn min_withdrawal(mut self, amount: impl Into<String>) -> Self {
        self.min_withdrawal = amount.into();
        self
    }

    /// The plan's id.
    pub fn id(&self) -> &str {
        &self.record.id
    }

    /// Checks the decimals and the ticker; the plan to start from.
    pub(crate) fn validate(&self) -> Result<FlexPlanSpec, SandboxError> {
        let r = &self.record;
        let bad = |reason: String| SandboxError::Config {
            what: format!("flex plan {}", r.id),
            reason,
        };
        if r.id.is_empty() || r.ticker.is_empty() {
            return Err(bad("empty id or ticker".to_owned()));
        }
        let figure = |field: &str, value: &str| {
            decimal::parse(value)
                .ok_or_else(|| bad(format!("{field} {value:?} is not a plain decimal")))
        };
        let min = figure("min investment", &r.min_investment)?;
        let max = figure("max investment", &r.max_investment)?;
        if max < min {
            return Err(bad("max investment below min investment".to_owned()));
        }
        Ok(FlexPlanSpec {
            record: r.clone(),
            min,
            max,
            rate: figure("max rate", &r.max_rate)?,
            min_withdrawal: figure("min withdrawal", &self.min_withdrawal)?,
            status: self.status,
            private_to: self.private_to.clone(),
        })
    }
}

/// A validated flex plan: its record, its figures, who may see it, its starting status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexPlanSpec {
    /// The record answered, as configured.
    pub(crate) record: FlexPlanRecord,
    pub(crate) min: Decimal,
    pub(crate) max: Decimal,
    /// The yearly rate paid.
    pub(crate) rate: Decimal,
    pub(crate) min_withdrawal: Decimal,
    pub(crate) status: i64,
    /// The accounts a private plan is offered to; empty for a public plan.
    pub(crate) private_to: Vec<String>,
}

impl FlexPlanSpec {
    /// Whether `api_key`'s account may see and use the plan.
    pub(crate) fn offered_to(&self, api_key: &str) -> bool {
        self.private_to.is_empty() || self.private_to.iter().any(|k| k == api_key)
    }
}

//! `POST /api/v4/main-account/smart-flex/investments/invest`: investing in a flex plan — the
//! first investment, a top-up, or reopening a closed one.

use txc_derive::Request;

use super::{FlexInvestment, FlexPlan, FlexTransaction};
use crate::endpoint::{FieldValue, MAIN_ACCOUNT_SCOPE};
use crate::errors::ValidationError;
use crate::investments::amount::plan_and_amount;
use crate::values::{Amount, Ticker};

/// Invests `amount` of a flex plan's currency in the plan: the account's investment in it is
/// created, topped up, or — closed — reopened. The answer (HTTP 201, [`FlexTransaction`])
/// is the transaction's id, under which the history lists it.
///
/// Checked before any request exists: the plan id, and a positive plain amount with at most
/// 6 decimal places (the lending endpoints' `Invalid decimal amount`: the spec gives no
/// precision for flex plans, and the fixed plans' is the exchange's smallest amount,
/// `0.000001`). Built from the plan ([`FlexInvest::in_plan`]) or from the plan and the
/// investment ([`FlexInvest::top_up`]), it also checks the plan's bounds
/// ([`FlexPlan::check_invest`], [`FlexPlan::check_top_up`]).
///
/// `withReinvest` (the exchange's default: `false`) is sent only when set
/// ([`FlexInvest::with_reinvest`]): the spec does not say what a top-up without it does to an
/// investment that reinvests, so txc never sends a `false` the caller did not choose.
///
/// Investing carries no id of the caller's, and investing twice invests twice: an ambiguous
/// answer is never resent blindly (an order operation); the history tells.
///
/// ```
/// use txc_types::investments::flex::{FlexInvest, FlexPlan};
/// let plan: FlexPlan = serde_json::from_str(
///     r#"{"id":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","ticker":"USDT","minInvestment":"10.0",
///         "maxInvestment":"100000.0","maxRate":"0.15"}"#,
/// )?;
/// let invest = FlexInvest::in_plan(&plan, "1000.500000")?.with_reinvest(true);
/// assert_eq!(
///     serde_json::to_string(&invest)?,
///     r#"{"plan":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","amount":"1000.500000","withReinvest":true}"#
/// );
/// assert_eq!(FlexInvest::in_plan(&plan, "5").unwrap_err().field(), "amount");
/// assert!(FlexInvest::new("p", "1.0000001").is_err()); // 7 decimal places
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/main-account/smart-flex/investments/invest",
    operation = "flex_invest",
    kind = Order,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = FlexTransaction,
)]
pub struct FlexInvest {
    /// The plan's id.
    plan: String,
    /// The amount, in the plan's currency.
    amount: Amount,
    /// Whether the investment reinvests its earnings, when set.
    #[request(get = none)]
    with_reinvest: Option<bool>,
    /// The plan's currency, when the investment was built from the plan; not sent, but it
    /// narrows the look-ups that resolve an unknown outcome.
    #[request(skip)]
    ticker: Option<Ticker>,
}

impl FlexInvest {
    /// An investment of `amount` in the plan `plan`, checked without the plan: the id and the
    /// amount's form only.
    pub fn new(plan: &str, amount: impl FieldValue<Amount>) -> Result<Self, ValidationError> {
        let (plan, amount) = plan_and_amount(plan, "plan", amount)?;
        Ok(Self {
            plan,
            amount,
            with_reinvest: None,
            ticker: None,
        })
    }

    /// An investment of `amount` in `plan`, checked against the plan as it was read
    /// ([`FlexPlan::check_invest`]).
    pub fn in_plan(
        plan: &FlexPlan,
        amount: impl FieldValue<Amount>,
    ) -> Result<Self, ValidationError> {
        let invest = Self::new(&plan.id, amount)?;
        plan.check_invest(&invest.amount)?;
        Ok(invest.with_ticker(plan.ticker.clone()))
    }

    /// A top-up of `investment` in `plan` by `amount` (or its reopening, when closed),
    /// checked against both as they were read ([`FlexPlan::check_top_up`]).
    pub fn top_up(
        plan: &FlexPlan,
        investment: &FlexInvestment,
        amount: impl FieldValue<Amount>,
    ) -> Result<Self, ValidationError> {
        let invest = Self::new(&plan.id, amount)?;
        plan.check_top_up(&invest.amount, investment)?;
        Ok(invest.with_ticker(plan.ticker.clone()))
    }

    /// The same investment, sending `withReinvest`: whether the investment adds its earnings
    /// to itself.
    #[must_use]
    pub fn with_reinvest(mut self, reinvest: bool) -> Self {
        self.with_reinvest = Some(reinvest);
        self
    }

    /// `withReinvest`, if set.
    pub fn reinvest(&self) -> Option<bool> {
        self.with_reinvest
    }

    /// The same investment, knowing the plan's currency (which [`FlexInvest::in_plan`] takes
    /// from the plan): not sent.
    #[must_use]
    pub fn with_ticker(mut self, ticker: Ticker) -> Self {
        self.ticker = Some(ticker);
        self
    }
}

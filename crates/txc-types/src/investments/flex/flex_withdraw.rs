//! `POST /api/v4/main-account/smart-flex/investments/withdraw`: taking part of a flex
//! investment back.

use txc_derive::Request;

use super::{FlexInvestment, FlexPlan, FlexTransaction};
use crate::endpoint::{FieldValue, MAIN_ACCOUNT_SCOPE};
use crate::errors::ValidationError;
use crate::investments::amount::plan_and_amount;
use crate::values::{Amount, Ticker};

/// Withdraws `amount` from the account's investment in a flex plan into its main balance
/// (HTTP 201, [`FlexTransaction`]). The plan must be active; the investment must keep at least
/// the plan's `minInvestment` (taking everything is [`CloseFlexInvestment`](super::CloseFlexInvestment)).
///
/// Checked before any request exists: the plan id, a positive plain amount with at most 6
/// decimal places; built from the plan and the investment ([`FlexWithdraw::from_investment`]),
/// the bounds too ([`FlexPlan::check_withdraw`]).
///
/// A withdrawal carries no id of the caller's, and withdrawing twice withdraws twice: an
/// ambiguous answer is never resent blindly (an order operation); the history tells.
///
/// ```
/// use txc_types::investments::flex::FlexWithdraw;
/// let w = FlexWithdraw::new("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f", "500.250000")?;
/// assert_eq!(
///     serde_json::to_string(&w)?,
///     r#"{"plan":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","amount":"500.250000"}"#
/// );
/// assert_eq!(FlexWithdraw::new("p", "0").unwrap_err().field(), "amount");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart-flex/investments/withdraw",
    operation = "flex_withdraw",
    kind = Order,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = FlexTransaction,
)]
pub struct FlexWithdraw {
    /// The plan's id.
    plan: String,
    /// The amount, in the plan's currency.
    amount: Amount,
    /// The plan's currency, when built from the plan; not sent.
    #[request(skip)]
    ticker: Option<Ticker>,
}

impl FlexWithdraw {
    /// A withdrawal of `amount` from the investment in the plan `plan`, checked without the
    /// plan: the id and the amount's form only.
    pub fn new(plan: &str, amount: impl FieldValue<Amount>) -> Result<Self, ValidationError> {
        let (plan, amount) = plan_and_amount(plan, "plan", amount)?;
        Ok(Self {
            plan,
            amount,
            ticker: None,
        })
    }

    /// A withdrawal of `amount` from `investment` in `plan`, checked against both as they
    /// were read ([`FlexPlan::check_withdraw`]).
    pub fn from_investment(
        plan: &FlexPlan,
        investment: &FlexInvestment,
        amount: impl FieldValue<Amount>,
    ) -> Result<Self, ValidationError> {
        let withdraw = Self::new(&plan.id, amount)?;
        plan.check_withdraw(&withdraw.amount, investment)?;
        Ok(withdraw.with_ticker(plan.ticker.clone()))
    }

    /// The same withdrawal, knowing the plan's currency (which
    /// [`FlexWithdraw::from_investment`] takes from the plan): not sent.
    #[must_use]
    pub fn with_ticker(mut self, ticker: Ticker) -> Self {
        self.ticker = Some(ticker);
        self
    }
}

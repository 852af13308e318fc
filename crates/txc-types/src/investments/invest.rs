//! `POST /api/v4/main-account/smart/investment`: investing in a smart plan (B2B partners only).

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::InvestmentPlan;
use super::amount::{self, not_taking, plan_and_amount};
use crate::endpoint::{FieldValue, MAIN_ACCOUNT_SCOPE};
use crate::errors::{Bound, Reason, ValidationError};
use crate::values::{Amount, ExactDecimal, Ticker};

/// Invests `amount` of a plan's source currency in the plan: the investment's id is the
/// answer (HTTP 201, [`NewInvestment`]).
///
/// Checked before any request exists: the plan id, and a positive plain amount with at most
/// [`Invest::AMOUNT_DECIMALS`] decimal places (the exchange's smallest amount is `0.000001`, and
/// it refuses more places as `Invalid decimal amount`; it publishes no other precision per
/// plan). Built from the plan itself ([`Invest::in_plan`]), it also checks what the plan says:
/// its status is active, and `minInvestment ≤ amount ≤ min(maxInvestment,
/// maxPossibleInvestment)` — each refusal names the bound. Amounts compare by value, exactly.
///
/// An investment request carries no id of the caller's, and investing twice invests twice,
/// so an ambiguous answer cannot be retried (an order operation): the clients' `invest_once`
/// finds out from the investments list instead.
///
/// ```
/// use txc_types::errors::{Bound, ValidationError};
/// use txc_types::investments::{Invest, InvestmentPlan};
///
/// let plan: InvestmentPlan = serde_json::from_str(
///     r#"{"id":"8e667b4a","ticker":"USDT","status":1,"percent":"10","duration":14400,
///         "interestTicker":"USDT","interestRatio":"1","minInvestment":"100",
///         "maxInvestment":"10000","maxPossibleInvestment":"3000"}"#,
/// )?;
/// let invest = Invest::in_plan(&plan, "250")?;
/// assert_eq!(serde_json::to_string(&invest)?, r#"{"planId":"8e667b4a","amount":"250"}"#);
/// let Err(ValidationError::OutOfBounds { bound, limit, .. }) = Invest::in_plan(&plan, "5000") else {
///     panic!("5000 is above what the plan has left")
/// };
/// assert_eq!((bound, limit.as_str()), (Bound::MaxPossibleInvestment, "3000"));
/// assert!(Invest::new("8e667b4a", "0.0000001").is_err()); // 7 decimal places
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/main-account/smart/investment",
    operation = "invest",
    kind = Order,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = NewInvestment,
)]
pub struct Invest {
    /// The plan's id.
    plan_id: String,
    /// The amount, in the plan's source currency.
    amount: Amount,
    /// The plan's source currency, when the investment was built from the plan
    /// ([`Invest::in_plan`]); not sent, but it narrows the look-ups that resolve an unknown
    /// outcome.
    #[request(skip)]
    ticker: Option<Ticker>,
}

impl Invest {
    /// The most decimal places of an amount.
    pub const AMOUNT_DECIMALS: usize = amount::AMOUNT_DECIMALS;

    /// An investment of `amount` in the plan `plan_id`, checked without the plan: the id and
    /// the amount's form only.
    pub fn new(plan_id: &str, amount: impl FieldValue<Amount>) -> Result<Self, ValidationError> {
        let (plan_id, amount) = plan_and_amount(plan_id, "planId", amount)?;
        Ok(Self {
            plan_id,
            amount,
            ticker: None,
        })
    }

    /// An investment of `amount` in `plan`, checked against the plan as it was read: its status
    /// is active, and `minInvestment ≤ amount ≤ min(maxInvestment, maxPossibleInvestment)`.
    pub fn in_plan(
        plan: &InvestmentPlan,
        amount: impl FieldValue<Amount>,
    ) -> Result<Self, ValidationError> {
        let mut invest = Self::new(&plan.id, amount)?;
        if let Some(reason) = not_taking(plan.status) {
            return Err(ValidationError::invalid("planId", Reason::Format(reason)));
        }
        let value = ExactDecimal::new(invest.amount.as_str())
            .map_err(|_| ValidationError::invalid("amount", Reason::Format("must be a number")))?;
        let out = |bound, limit: &ExactDecimal| ValidationError::OutOfBounds {
            field: "amount",
            value: invest.amount.as_str().to_owned(),
            bound,
            limit: limit.as_str().to_owned(),
        };
        if value < plan.min_investment {
            return Err(out(Bound::MinInvestment, &plan.min_investment));
        }
        // The tighter of the two upper bounds is the one named.
        let (bound, limit) = if plan.max_possible_investment <= plan.max_investment {
            (Bound::MaxPossibleInvestment, &plan.max_possible_investment)
        } else {
            (Bound::MaxInvestment, &plan.max_investment)
        };
        if value > *limit {
            return Err(out(bound, limit));
        }
        invest.ticker = Some(plan.ticker.clone());
        Ok(invest)
    }

    /// The same investment, knowing the plan's source currency (which [`Invest::in_plan`]
    /// takes from the plan): not sent, it narrows the look-ups that resolve an unknown outcome
    /// — for an investment rebuilt from a record, say.
    #[must_use]
    pub fn with_ticker(mut self, ticker: Ticker) -> Self {
        self.ticker = Some(ticker);
        self
    }
}

/// The answer to an investment (HTTP 201): the new investment's id.
///
/// ```
/// let new: txc_types::investments::NewInvestment =
///     serde_json::from_str(r#"{"id":"0d7b66ff-1909-4938-ab7a-d16d9a64dcd5"}"#)?;
/// assert_eq!(new.id, "0d7b66ff-1909-4938-ab7a-d16d9a64dcd5");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an investment id object")]
#[non_exhaustive]
pub struct NewInvestment {
    /// The investment's id.
    pub id: String,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

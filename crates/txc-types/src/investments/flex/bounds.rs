//! The bound checks of investing in and withdrawing from a flex plan, against the plan (and
//! the investment) as the caller read them: pure functions, no I/O, each refusal naming the
//! bound.

use super::{FlexInvestment, FlexPlan};
use crate::errors::{Bound, Reason, ValidationError};
use crate::investments::PlanStatus;
use crate::investments::amount::{Checked, check_places, figure, not_taking};
use crate::values::Amount;

impl FlexPlan {
    /// Checks an investment of `amount` in this plan, in the order the exchange checks them:
    /// at most 6 decimal places (the lending endpoints' `Invalid decimal amount`), the plan
    /// active (when the answer said — see [`FlexPlan::status`]), `minInvestment ≤ amount`
    /// (the exchange's code 2) and `amount ≤ maxInvestment` (code 3). Each refusal names the
    /// bound ([`ValidationError::OutOfBounds`] with [`Bound::MinInvestment`] or
    /// [`Bound::MaxInvestment`] and the plan's figure); amounts compare by value, exactly.
    ///
    /// What only the exchange knows is not checked: the balance (code 4), a plan paused
    /// since it was read, a private plan.
    ///
    /// ```
    /// use txc_types::errors::{Bound, ValidationError};
    /// use txc_types::investments::flex::FlexPlan;
    /// use txc_types::values::Amount;
    ///
    /// let plan: FlexPlan = serde_json::from_str(
    ///     r#"{"id":"p","ticker":"USDT","minInvestment":"10.0","maxInvestment":"100000.0","maxRate":"0.15"}"#,
    /// )?;
    /// assert!(plan.check_invest(&Amount::new("10")?).is_ok());
    /// let Err(ValidationError::OutOfBounds { bound, limit, .. }) = plan.check_invest(&Amount::new("9.999999")?)
    /// else { panic!("below the minimum") };
    /// assert_eq!((bound, limit.as_str()), (Bound::MinInvestment, "10.0"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_invest(&self, amount: &Amount) -> Result<(), ValidationError> {
        check_places(amount)?;
        self.check_active()?;
        let checked = Checked::new(amount)?;
        checked.at_least(Bound::MinInvestment, &self.min_investment)?;
        checked.at_most(Bound::MaxInvestment, &self.max_investment)
    }

    /// Checks a top-up of `investment` (the account's investment in this plan, as the caller
    /// read it) by `amount`: [`check_invest`](Self::check_invest)'s checks, then that the
    /// investment is this plan's and, while it is active, that it holds at most
    /// `maxInvestment` together (the exchange's `Investment limit is exceeded`): refused as
    /// [`Bound::InvestmentLimit`], whose limit is the most a top-up adds, `maxInvestment −
    /// invested`. A closed investment is reopened by the amount alone.
    pub fn check_top_up(
        &self,
        amount: &Amount,
        investment: &FlexInvestment,
    ) -> Result<(), ValidationError> {
        self.check_invest(amount)?;
        self.check_holds(investment)?;
        let checked = Checked::new(amount)?;
        let (Some(invested), Some(max)) =
            (figure(&investment.invested), figure(&self.max_investment))
        else {
            return Ok(());
        };
        if investment.is_active() && checked.value().add(&invested) > max {
            let room = max
                .checked_sub(&invested)
                .map_or_else(|| "0".to_owned(), |room| room.to_string());
            return Err(checked.outside(Bound::InvestmentLimit, &room));
        }
        Ok(())
    }

    /// Checks a withdrawal of `amount` from `investment` (the account's investment in this
    /// plan, as the caller read it), in the exchange's order: at most 6 decimal places, the
    /// plan active (the spec: "Plan must be active"), the investment this plan's and active
    /// (`Cannot withdraw from closed investment`), `amount ≤ invested` ([`Bound::Invested`]:
    /// `Withdraw amount exceeds total invested`) and at least `minInvestment` left invested
    /// ([`Bound::MinAmountLeft`], whose limit is the most that can be withdrawn, `invested −
    /// minInvestment`: `Amount left < min investment`). Taking everything is closing
    /// ([`CloseFlexInvestment`](super::CloseFlexInvestment)).
    ///
    /// Not checked: the exchange's minimum withdrawal (`Cannot withdraw amount < min
    /// possible`), which no answer publishes.
    ///
    /// ```
    /// use txc_types::errors::{Bound, ValidationError};
    /// use txc_types::investments::flex::{FlexInvestment, FlexPlan};
    /// use txc_types::values::Amount;
    ///
    /// let plan: FlexPlan = serde_json::from_str(
    ///     r#"{"id":"p","ticker":"USDT","minInvestment":"10","maxInvestment":"1000","maxRate":"0.15"}"#,
    /// )?;
    /// let investment: FlexInvestment = serde_json::from_str(
    ///     r#"{"id":"i","planId":"p","currency":"USDT","invested":"100","withAutoReinvest":false,
    ///         "status":1,"createdAt":1,"updatedAt":1}"#,
    /// )?;
    /// assert!(plan.check_withdraw(&Amount::new("90")?, &investment).is_ok());
    /// let Err(ValidationError::OutOfBounds { bound, limit, .. }) =
    ///     plan.check_withdraw(&Amount::new("90.000001")?, &investment)
    /// else { panic!("leaves less than the minimum") };
    /// assert_eq!((bound, limit.as_str()), (Bound::MinAmountLeft, "90"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_withdraw(
        &self,
        amount: &Amount,
        investment: &FlexInvestment,
    ) -> Result<(), ValidationError> {
        check_places(amount)?;
        self.check_active()?;
        self.check_holds(investment)?;
        if !investment.is_active() {
            return Err(ValidationError::invalid(
                "investment",
                Reason::Format("the investment is closed: there is nothing to withdraw"),
            ));
        }
        let checked = Checked::new(amount)?;
        checked.at_most(Bound::Invested, &investment.invested)?;
        let (Some(invested), Some(min)) =
            (figure(&investment.invested), figure(&self.min_investment))
        else {
            return Ok(());
        };
        if checked.value().add(&min) > invested {
            let most = invested
                .checked_sub(&min)
                .map_or_else(|| "0".to_owned(), |most| most.to_string());
            return Err(checked.outside(Bound::MinAmountLeft, &most));
        }
        Ok(())
    }

    /// The plan takes investments: active, or listed without a status.
    fn check_active(&self) -> Result<(), ValidationError> {
        match self.status.and_then(not_taking) {
            None => Ok(()),
            Some(reason) => Err(ValidationError::invalid("plan", Reason::Format(reason))),
        }
    }

    /// `investment` is in this plan.
    fn check_holds(&self, investment: &FlexInvestment) -> Result<(), ValidationError> {
        if investment.plan_id == self.id {
            Ok(())
        } else {
            Err(ValidationError::invalid(
                "plan",
                Reason::Format("the investment is in another plan"),
            ))
        }
    }

    /// Whether the plan is listed as taking investments (no status, or status 1).
    pub fn is_active(&self) -> bool {
        self.status.is_none_or(|s| s == PlanStatus::Active)
    }
}

//! What investing and withdrawing share, fixed plans and flexible ones alike: the amount's
//! form (at most [`AMOUNT_DECIMALS`] places), its bounds against a plan's figures, and why a
//! plan of some status takes no investment.
//!
//! Not an endpoint: see [`Invest`](super::Invest) and
//! [`FlexInvest`](super::flex::FlexInvest).

use super::PlanStatus;
use super::page::check_id;
use crate::endpoint::FieldValue;
use crate::errors::{Bound, Reason, ValidationError};
use crate::markets::Dec;
use crate::values::{Amount, ExactDecimal};

/// The most decimal places of an invested or withdrawn amount: the exchange's smallest
/// amount is `0.000001`, and it refuses more places as `Invalid decimal amount`.
pub(crate) const AMOUNT_DECIMALS: usize = 6;

/// The plan id (sent as `plan_field`) and the amount of an investment or withdrawal, checked
/// for their form: an id the exchange could have issued, a positive plain amount of at most
/// [`AMOUNT_DECIMALS`] places.
pub(crate) fn plan_and_amount(
    plan: &str,
    plan_field: &'static str,
    amount: impl FieldValue<Amount>,
) -> Result<(String, Amount), ValidationError> {
    let plan = check_id(plan, plan_field)?;
    let amount = amount.into_field("amount")?;
    check_places(&amount)?;
    Ok((plan, amount))
}

/// At most [`AMOUNT_DECIMALS`] decimal places.
pub(crate) fn check_places(amount: &Amount) -> Result<(), ValidationError> {
    let places = amount.as_str().split_once('.').map_or(0, |(_, f)| f.len());
    if places > AMOUNT_DECIMALS {
        return Err(ValidationError::invalid(
            "amount",
            Reason::Format("must have at most 6 decimal places (the smallest amount is 0.000001)"),
        ));
    }
    Ok(())
}

/// Why a plan of `status` takes no investment, or `None` when it is active.
pub(crate) fn not_taking(status: PlanStatus) -> Option<&'static str> {
    match status {
        PlanStatus::Active => None,
        PlanStatus::NoCoinsLeft => Some("the plan has no coins left (status 2)"),
        PlanStatus::Inactive => Some("the plan is inactive (status 3)"),
        PlanStatus::Pause => Some("the plan is paused (status 4)"),
        PlanStatus::Unknown(_) => Some("the plan's status is not active (1)"),
    }
}

/// An amount being checked against figures the exchange published, compared by value and
/// exactly (any number of digits).
pub(crate) struct Checked<'a> {
    amount: &'a Amount,
    value: Dec,
}

impl<'a> Checked<'a> {
    /// `amount`, read for comparing.
    pub(crate) fn new(amount: &'a Amount) -> Result<Self, ValidationError> {
        let value = Dec::parse(amount.as_str()).ok_or_else(|| {
            ValidationError::invalid("amount", Reason::Format("must be a number"))
        })?;
        Ok(Self { amount, value })
    }

    /// The amount's value.
    pub(crate) fn value(&self) -> &Dec {
        &self.value
    }

    /// The refusal of the amount as outside `bound`, whose value is `limit`.
    pub(crate) fn outside(&self, bound: Bound, limit: &str) -> ValidationError {
        ValidationError::OutOfBounds {
            field: "amount",
            value: self.amount.as_str().to_owned(),
            bound,
            limit: limit.to_owned(),
        }
    }

    /// Refused as below `bound` when the amount is less than `limit`.
    pub(crate) fn at_least(
        &self,
        bound: Bound,
        limit: &ExactDecimal,
    ) -> Result<(), ValidationError> {
        match figure(limit) {
            Some(min) if self.value < min => Err(self.outside(bound, limit.as_str())),
            _ => Ok(()),
        }
    }

    /// Refused as above `bound` when the amount is more than `limit`.
    pub(crate) fn at_most(
        &self,
        bound: Bound,
        limit: &ExactDecimal,
    ) -> Result<(), ValidationError> {
        match figure(limit) {
            Some(max) if self.value > max => Err(self.outside(bound, limit.as_str())),
            _ => Ok(()),
        }
    }
}

/// A published figure as an exact value; `None` for one that is not a non-negative number,
/// which then bounds nothing (the exchange is the authority on what it sends; a bound this
/// version cannot read is left to it).
pub(crate) fn figure(value: &ExactDecimal) -> Option<Dec> {
    Dec::parse(value.as_str())
}

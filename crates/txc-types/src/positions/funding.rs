//! The funding payment of a perpetual position, as a reference written from the spec: what
//! a [`FundingPayment`] record's figures add up to, for tests and simulators.
//!
//! # The formula and its source
//!
//! The funding history's records give the rate applied (`fundingRate`), the settlement
//! price "used for funding calculation" (`settlementPrice`; the public funding history calls
//! it the mark price at settlement), the position's amount at the funding time
//! (`positionAmount`) and the "funding amount paid or received" (`fundingAmount`). The spec
//! states no formula in words; its two examples fix it, and the sign convention:
//!
//! ```text
//! fundingAmount = −(positionAmount × settlementPrice × fundingRate)
//! ```
//!
//! - a long position has a positive `positionAmount`, a short one a negative one (the
//!   second example's `"-0.001"`);
//! - `fundingAmount` is what the account **received**: negative when it paid. A positive rate
//!   makes longs pay (example 1: `0.019 × 50938.2 × 0.00017674 = 0.171053531892`, reported
//!   `"-0.171053531892"`) and shorts receive; a negative rate the reverse (example 2: a short
//!   of `0.001` at a rate of `−0.000177877800093587` paid `0.0054997859133136`).
//! - Example 2's exact product has 22 decimal places, `0.0054997859133136070943`; the
//!   exchange reported it to 16. Whether it rounds or cuts past its scale is not documented
//!   (both give the same digits here), so [`agrees`] accepts either: a reported figure
//!   agrees with the exact one written to its places, rounded or cut toward zero.
//!
//! The closed positions' `totalFunding` counts the other way — funding **paid** is positive
//! (`netPnl = grossPnl − totalFunding`) — so a position's `totalFunding` is minus the sum of
//! its funding records' `fundingAmount` ([`pnl::PnlLedger::funding`](super::pnl::PnlLedger::funding)).
//!
//! ```
//! use rust_decimal::Decimal;
//! use txc_types::positions::funding;
//! let d = |s: &str| s.parse::<Decimal>().unwrap();
//! let received = funding::payment(d("0.019"), d("50938.2"), d("0.00017674"))?;
//! assert_eq!(received, d("-0.171053531892"));
//! # Ok::<(), txc_types::positions::ReferenceError>(())
//! ```

use rust_decimal::{Decimal, RoundingStrategy};

use super::reference_error::figure;
use super::{FundingPayment, ReferenceError};
use crate::orders::PositionSide;

/// What a position receives at a funding settlement (negative: what it pays):
/// `−(position_amount × settlement_price × funding_rate)`, exact to `rust_decimal`'s 28
/// decimal places. `position_amount` is signed: positive long, negative short
/// ([`signed_amount`]).
///
/// # Errors
/// [`ReferenceError::Overflow`] when the product does not fit.
pub fn payment(
    position_amount: Decimal,
    settlement_price: Decimal,
    funding_rate: Decimal,
) -> Result<Decimal, ReferenceError> {
    position_amount
        .checked_mul(settlement_price)
        .and_then(|value| value.checked_mul(funding_rate))
        .map(|owed| -owed)
        .ok_or(ReferenceError::Overflow)
}

/// A position's size as the funding history signs it: positive for a long, negative for a
/// short; a one-way (`BOTH`) position's amount keeps its own sign.
pub fn signed_amount(size: Decimal, side: PositionSide) -> Decimal {
    match side {
        PositionSide::Long => size.abs(),
        PositionSide::Short => -size.abs(),
        _ => size,
    }
}

/// Whether `reported`, a figure as the exchange wrote it, is `exact` written to `reported`'s
/// decimal places: rounded (half away from zero or half to even) or cut toward zero.
pub fn agrees(reported: Decimal, exact: Decimal) -> bool {
    let places = reported.scale();
    [
        RoundingStrategy::MidpointAwayFromZero,
        RoundingStrategy::MidpointNearestEven,
        RoundingStrategy::ToZero,
    ]
    .into_iter()
    .any(|strategy| exact.round_dp_with_strategy(places, strategy) == reported)
}

impl FundingPayment {
    /// The payment this record's own amount, price and rate make ([`payment`]).
    ///
    /// # Errors
    /// [`ReferenceError::Missing`] or [`ReferenceError::OutOfRange`] naming a figure the
    /// record lacks or that does not fit, [`ReferenceError::Overflow`].
    pub fn reference_amount(&self) -> Result<Decimal, ReferenceError> {
        payment(
            figure(self.position_amount.as_ref(), "positionAmount")?,
            figure(self.settlement_price.as_ref(), "settlementPrice")?,
            figure(self.funding_rate.as_ref(), "fundingRate")?,
        )
    }

    /// Whether the record's `fundingAmount` is the payment its own figures make
    /// ([`agrees`]).
    ///
    /// # Errors
    /// As [`reference_amount`](Self::reference_amount), and for a missing `fundingAmount`.
    pub fn adds_up(&self) -> Result<bool, ReferenceError> {
        let reported = figure(self.funding_amount.as_ref(), "fundingAmount")?;
        Ok(agrees(reported, self.reference_amount()?))
    }
}

//! The interest of a flex investment, as a reference written from the spec: what a
//! [`FlexPlan`]'s rate pays an investment day by day, for tests and
//! simulators — the sandbox's accrual is checked against it.
//!
//! # What the spec gives, and what is decided here
//!
//! The spec gives a plan's `maxRate` ("Maximum interest rate"; examples `"0.15"`, `"0.12"`,
//! and `"0.0030"` in the schema), the history's `DAILY_EARNING` ("Daily earnings") and
//! `REINVEST` ("Automatic reinvestment") actions, the payment history ("ONLY DAILY_EARNING
//! operations") and an investment's `withAutoReinvest`. It states no formula. Decided:
//!
//! - **The rate** is a yearly rate as a fraction, `0.15` = 15 % a year (the only reading
//!   under which the examples are sensible rates). `maxRate` is the most a plan pays; whether
//!   less applies to some amounts is not documented, so the arithmetic takes the rate as an
//!   argument and [`FlexPlan::ledger`](super::FlexPlan::ledger) uses `maxRate`.
//! - **A day's earning** is `principal × rate / 365`, cut (toward zero) to
//!   [`EARNING_PLACES`] = 8 decimal places ([`daily_earning`]): simple interest per day, a
//!   365-day year, and never more than the exact figure.
//! - **The principal of a day** is the least amount that stayed invested through the whole
//!   day: money invested during a day earns from the next one, a withdrawal lowers the day's
//!   principal at once, and an investment opened (or reopened) during a day earns nothing
//!   for it. The spec says nothing of when money starts earning; this rule never pays for
//!   money that was not there all day.
//! - **Auto-reinvestment**: with `withAutoReinvest`, the day's earning is added to the
//!   investment at the day's end (a `DAILY_EARNING` then a `REINVEST` record of the same
//!   amount), so it earns from the next day — daily compounding; without it the earning is
//!   paid to the main balance (`DAILY_EARNING` only). A zero earning writes no record.
//! - **Closing** pays back what is invested, and the day it closes earns nothing.
//!
//! ```
//! use rust_decimal::Decimal;
//! use txc_types::investments::flex::accrual::{FlexLedger, daily_earning};
//! let d = |s: &str| s.parse::<Decimal>().unwrap();
//! // 1 000 USDT at 15 % a year: 0.41095890… a day, cut to 8 places.
//! assert_eq!(daily_earning(d("1000"), d("0.15"))?, d("0.41095890"));
//!
//! let mut ledger = FlexLedger::new(d("0.15"))?;
//! ledger.invest(d("1000"))?;
//! assert_eq!(ledger.end_day()?.earning, Decimal::ZERO); // invested during the day
//! assert_eq!(ledger.end_day()?.earning, d("0.41095890"));
//! ledger.set_reinvest(true);
//! let day = ledger.end_day()?;
//! assert!(day.reinvested);
//! assert_eq!(ledger.invested(), d("1000.41095890"));
//! # Ok::<(), txc_types::positions::ReferenceError>(())
//! ```

use rust_decimal::{Decimal, RoundingStrategy};

use super::FlexPlan;
use crate::positions::ReferenceError;

/// The days of a year the yearly rate is divided by.
pub const DAYS_PER_YEAR: u32 = 365;
/// The decimal places a day's earning is cut to.
pub const EARNING_PLACES: u32 = 8;

/// A day's earning on `principal` at the yearly `annual_rate` (a fraction):
/// `principal × annual_rate / 365`, cut toward zero to [`EARNING_PLACES`] places.
///
/// # Errors
/// [`ReferenceError::Negative`] for a negative principal or rate, [`ReferenceError::Overflow`]
/// when the product does not fit.
pub fn daily_earning(principal: Decimal, annual_rate: Decimal) -> Result<Decimal, ReferenceError> {
    not_negative(principal, "principal")?;
    not_negative(annual_rate, "rate")?;
    principal
        .checked_mul(annual_rate)
        .and_then(|yearly| yearly.checked_div(Decimal::from(DAYS_PER_YEAR)))
        .map(|daily| daily.round_dp_with_strategy(EARNING_PLACES, RoundingStrategy::ToZero))
        .ok_or(ReferenceError::Overflow)
}

/// What `days` whole days earn on `principal` invested at their start, with nothing else
/// happening: the sum of the days' earnings, each on the day's principal — growing by each
/// earning when `reinvest`.
///
/// # Errors
/// As [`daily_earning`].
pub fn earnings(
    principal: Decimal,
    annual_rate: Decimal,
    days: u32,
    reinvest: bool,
) -> Result<Decimal, ReferenceError> {
    let mut ledger = FlexLedger::new(annual_rate)?;
    ledger.invest(principal)?;
    ledger.set_reinvest(reinvest);
    // Invested at the start of the first day: it stayed all day.
    ledger.floor = ledger.invested;
    for _ in 0..days {
        ledger.end_day()?;
    }
    Ok(ledger.earned())
}

/// The end of a day: what it earned, and whether that was added to the investment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DayEnd {
    /// The day's earning (zero when nothing stayed invested all day).
    pub earning: Decimal,
    /// Whether it was added to the investment (auto-reinvestment on, earning not zero);
    /// else it was paid to the main balance.
    pub reinvested: bool,
}

/// One flex investment, operation by operation and day by day, by the rules above: what is
/// invested, what each day earns, what was paid out and reinvested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlexLedger {
    annual_rate: Decimal,
    invested: Decimal,
    /// The least invested since the day began (what the day earns on).
    floor: Decimal,
    reinvest: bool,
    open: bool,
    earned: Decimal,
    paid_out: Decimal,
}

impl FlexLedger {
    /// Nothing invested yet, at the yearly `annual_rate`; auto-reinvestment off.
    ///
    /// # Errors
    /// [`ReferenceError::Negative`] for a negative rate.
    pub fn new(annual_rate: Decimal) -> Result<Self, ReferenceError> {
        not_negative(annual_rate, "rate")?;
        Ok(Self {
            annual_rate,
            invested: Decimal::ZERO,
            floor: Decimal::ZERO,
            reinvest: false,
            open: false,
            earned: Decimal::ZERO,
            paid_out: Decimal::ZERO,
        })
    }

    /// Invests `amount`: opens the investment, or tops it up. It earns from the next day.
    ///
    /// # Errors
    /// [`ReferenceError::NotPositive`] for an amount that is not positive,
    /// [`ReferenceError::Overflow`].
    pub fn invest(&mut self, amount: Decimal) -> Result<(), ReferenceError> {
        if amount <= Decimal::ZERO {
            return Err(ReferenceError::NotPositive("amount"));
        }
        self.invested = self
            .invested
            .checked_add(amount)
            .ok_or(ReferenceError::Overflow)?;
        self.open = true;
        Ok(())
    }

    /// Withdraws `amount`: the day's principal drops at once.
    ///
    /// # Errors
    /// [`ReferenceError::NotPositive`], or [`ReferenceError::MoreThanInvested`].
    pub fn withdraw(&mut self, amount: Decimal) -> Result<(), ReferenceError> {
        if amount <= Decimal::ZERO {
            return Err(ReferenceError::NotPositive("amount"));
        }
        if amount > self.invested {
            return Err(ReferenceError::MoreThanInvested {
                invested: self.invested,
                withdraw: amount,
            });
        }
        self.invested -= amount;
        self.floor = self.floor.min(self.invested);
        Ok(())
    }

    /// Closes the investment: returns what was invested (paid back), and the day earns
    /// nothing.
    pub fn close(&mut self) -> Decimal {
        let back = self.invested;
        self.invested = Decimal::ZERO;
        self.floor = Decimal::ZERO;
        self.open = false;
        back
    }

    /// Turns auto-reinvestment on or off, from this day's end on.
    pub fn set_reinvest(&mut self, reinvest: bool) {
        self.reinvest = reinvest;
    }

    /// Ends the day: the earning on the least amount invested through it
    /// ([`daily_earning`]), added to the investment or paid out; the next day starts with
    /// everything invested.
    ///
    /// # Errors
    /// [`ReferenceError::Overflow`].
    pub fn end_day(&mut self) -> Result<DayEnd, ReferenceError> {
        let earning = if self.open {
            daily_earning(self.floor, self.annual_rate)?
        } else {
            Decimal::ZERO
        };
        let reinvested = self.reinvest && !earning.is_zero();
        let add = |total: Decimal| total.checked_add(earning).ok_or(ReferenceError::Overflow);
        self.earned = add(self.earned)?;
        if reinvested {
            self.invested = add(self.invested)?;
        } else {
            self.paid_out = add(self.paid_out)?;
        }
        self.floor = self.invested;
        Ok(DayEnd {
            earning,
            reinvested,
        })
    }

    /// What is invested now.
    pub fn invested(&self) -> Decimal {
        self.invested
    }

    /// Every day's earning so far, reinvested or paid out.
    pub fn earned(&self) -> Decimal {
        self.earned
    }

    /// The earnings paid to the main balance so far (not reinvested).
    pub fn paid_out(&self) -> Decimal {
        self.paid_out
    }

    /// Whether the investment is open (invested in and not closed since).
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether earnings are reinvested.
    pub fn reinvests(&self) -> bool {
        self.reinvest
    }

    /// The yearly rate.
    pub fn annual_rate(&self) -> Decimal {
        self.annual_rate
    }
}

impl FlexPlan {
    /// A ledger of an investment in this plan at its `maxRate` ([`FlexLedger`]).
    ///
    /// # Errors
    /// [`ReferenceError::OutOfRange`] (`maxRate`) for a rate that does not fit a decimal,
    /// [`ReferenceError::Negative`] for a negative one.
    pub fn ledger(&self) -> Result<FlexLedger, ReferenceError> {
        let rate = self
            .max_rate
            .to_decimal()
            .map_err(|_| ReferenceError::OutOfRange("maxRate"))?;
        FlexLedger::new(rate)
    }
}

/// `value`, named `what`, is not negative.
fn not_negative(value: Decimal, what: &'static str) -> Result<(), ReferenceError> {
    if value.is_sign_negative() && !value.is_zero() {
        return Err(ReferenceError::Negative(what));
    }
    Ok(())
}

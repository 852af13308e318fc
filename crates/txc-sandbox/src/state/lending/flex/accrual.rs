//! The daily accrual of flex investments: at each flex day's end, each active investment's
//! earning on the least it held through the day — a `DAILY_EARNING`, reinvested (`REINVEST`)
//! or paid to the main balance.

use rust_decimal::{Decimal, RoundingStrategy};

use super::{DAILY_EARNING, REINVEST};
use crate::state::State;

/// The days of a year `maxRate` is divided by.
const DAYS_PER_YEAR: u32 = 365;
/// The decimal places an earning is cut to.
const EARNING_PLACES: u32 = 8;

impl State {
    /// Settles every flex day that ended by `now_us`, in order (the first call only marks
    /// where days start being counted: nothing was invested before it).
    pub(crate) fn accrue_flex(&mut self, now_us: u64) {
        let day = self.flex.day_us;
        let last = now_us / day;
        let first = match self.flex.settled {
            Some(settled) if settled >= last => return,
            Some(settled) => settled + 1,
            None => last,
        };
        self.flex.settled = Some(last);
        if !self.flex.investments.iter().any(|i| i.now().active) {
            return;
        }
        for end in first..=last {
            self.end_flex_day(end.saturating_mul(day));
        }
    }

    /// Ends the flex day at `at_us`: pays each active investment its earning, and starts the
    /// next day with everything invested.
    fn end_flex_day(&mut self, at_us: u64) {
        for index in 0..self.flex.investments.len() {
            let Some(stored) = self.flex.investments.get(index) else {
                continue;
            };
            let now = stored.now();
            let rate = self
                .flex
                .plan(&stored.plan)
                .map_or(Decimal::ZERO, |p| p.rate);
            let earning = if now.active {
                daily_earning(stored.floor, rate)
            } else {
                Decimal::ZERO
            };
            let (api_key, currency) = (stored.api_key.clone(), stored.currency.clone());
            if !earning.is_zero() {
                let transaction = self.flex.transaction();
                self.flex
                    .record(index, DAILY_EARNING, earning, &transaction, (at_us, at_us));
                if now.reinvest {
                    let transaction = self.flex.transaction();
                    self.flex
                        .record(index, REINVEST, earning, &transaction, (at_us, at_us));
                    if let Some(stored) = self.flex.investments.get_mut(index) {
                        stored.change(at_us, at_us, |v| {
                            v.invested = v.invested.checked_add(earning).unwrap_or(v.invested);
                        });
                    }
                } else {
                    self.credit_main(&api_key, &currency, earning);
                    self.account_changed(&api_key);
                }
            }
            if let Some(stored) = self.flex.investments.get_mut(index) {
                stored.floor = stored.now().invested;
            }
        }
    }
}

/// A day's earning on `principal` at the yearly `rate`: `principal × rate / 365`, cut to 8
/// places; zero when it does not fit.
pub(super) fn daily_earning(principal: Decimal, rate: Decimal) -> Decimal {
    principal
        .checked_mul(rate)
        .and_then(|yearly| yearly.checked_div(Decimal::from(DAYS_PER_YEAR)))
        .map_or(Decimal::ZERO, |daily| {
            daily.round_dp_with_strategy(EARNING_PLACES, RoundingStrategy::ToZero)
        })
}

//! An order's amount against its market's terms: at least the minimum, a multiple of the step
//! (code 32).

use rust_decimal::Decimal;

use crate::config::MarketSpec;
use crate::wire::{Rejection, decimal};

/// Code 32 unless `amount` is at least the minimum and a multiple of the step.
pub(crate) fn check_amount(market: &MarketSpec, amount: Decimal) -> Result<(), Rejection> {
    let mut errors = Vec::new();
    if amount < market.min_amount {
        errors.push(format!(
            "Given amount is less than min amount {}",
            decimal::text(market.min_amount)
        ));
    }
    let on_step = amount
        .checked_rem(market.amount_step)
        .is_some_and(|r| r.is_zero());
    if !on_step {
        errors.push(format!(
            "Min amount step = {}",
            decimal::text(market.amount_step)
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Rejection::validation(32, "amount", errors))
    }
}

//! An order's numbers against its market's published rules (`GET /api/v4/public/markets`,
//! the spec's "Order validation rules"): the amount at least `minAmount` and a multiple of the
//! step (so at most `stockPrec` decimal places), every price at most `moneyPrec` decimal
//! places, and `amount × price` between `minTotal` and `maxTotal`.
//!
//! Codes: 32 for the amount and the total (the docs' catalogue gives the total's refusal on
//! `amount` with 32: `Total amount should be no less than 5.05 + trade fee`), 33 for a price.
//! The minimum total is checked against `amount × price` alone: whether the exchange adds the
//! fee, as that message's "+ trade fee" suggests, is not documented (the sandbox does not).

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

/// Code 33 on `field` when `price` has more than the market's `moneyPrec` decimal places:
/// `Min price step = 0.01` (not documented: worded like the amount's step).
pub(crate) fn check_price(
    market: &MarketSpec,
    field: &str,
    price: Decimal,
) -> Result<(), Rejection> {
    if price.normalize().scale() <= market.money_prec {
        return Ok(());
    }
    let step = Decimal::try_from_i128_with_scale(1, market.money_prec).unwrap_or(Decimal::ONE);
    Err(Rejection::validation(
        33,
        field,
        vec![format!("Min price step = {}", decimal::text(step))],
    ))
}

/// Code 32 on `amount` unless `amount × price` is at least `minTotal` and, when `maxTotal` is
/// not zero, at most `maxTotal`.
pub(crate) fn check_total(
    market: &MarketSpec,
    amount: Decimal,
    price: Decimal,
) -> Result<(), Rejection> {
    let total = amount.checked_mul(price);
    let too_small = total.is_some_and(|t| t < market.min_total);
    let too_large = !market.max_total.is_zero() && total.is_none_or(|t| t > market.max_total);
    let message = if too_small {
        format!(
            "Total amount should be no less than {}",
            decimal::text(market.min_total)
        )
    } else if too_large {
        format!(
            "Total amount should be no greater than {}",
            decimal::text(market.max_total)
        )
    } else {
        return Ok(());
    };
    Err(Rejection::validation(32, "amount", vec![message]))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::config::MarketConfig;

    fn market() -> MarketSpec {
        MarketConfig::new("BTC_USDT", "65000")
            .amount_step("0.001")
            .money_precision(2)
            .min_total("5")
            .max_total("100000")
            .validate()
            .unwrap()
    }

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn prices_to_the_money_precision() {
        let market = market();
        assert!(check_price(&market, "price", d("65000.12")).is_ok());
        assert!(check_price(&market, "price", d("65000.120000")).is_ok());
        let refused = check_price(&market, "stopLoss", d("65000.123")).unwrap_err();
        assert_eq!(refused.code, 33);
        assert_eq!(refused.errors["stopLoss"], ["Min price step = 0.01"]);
    }

    #[test]
    fn totals_between_the_bounds() {
        let market = market();
        assert!(check_total(&market, d("0.001"), d("5000")).is_ok());
        assert!(check_total(&market, d("1"), d("100000")).is_ok());
        let small = check_total(&market, d("0.001"), d("4999")).unwrap_err();
        assert_eq!(
            small.errors["amount"],
            ["Total amount should be no less than 5"]
        );
        let large = check_total(&market, d("2"), d("50000.01")).unwrap_err();
        assert_eq!(
            large.errors["amount"],
            ["Total amount should be no greater than 100000"]
        );
        let huge = Decimal::MAX;
        assert!(
            check_total(&market, huge, huge).is_err(),
            "an overflow is too large"
        );
    }
}

//! The margin math of a fill: what it costs, locks, releases and realizes.
//!
//! The model, kept simple and documented in the crate docs: a fill of `amount` at `price`
//! costs `amount × price × fee` (the market's maker or taker fee, to 8 decimal places); the
//! part that opens or grows a position locks
//! `amount × price / leverage` of collateral; the part that reduces a position releases its
//! share of the locked margin plus the realized profit or loss. An order is rejected with
//! code 10 when the collateral balance plus what it releases does not cover what it locks plus
//! the fee.

use rust_decimal::Decimal;

use super::open::PositionState;
use crate::config::FEE_PRECISION;
use crate::wire::Rejection;

/// What a fill does to a balance and a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fill {
    /// The collateral balance after the fill.
    pub(crate) balance: Decimal,
    /// The position after the fill (`None`: closed).
    pub(crate) position: Option<PositionState>,
    /// Executed value: amount × price.
    pub(crate) deal_money: Decimal,
    /// The fee paid.
    pub(crate) fee: Decimal,
    /// The profit and loss the reducing part realized.
    pub(crate) pnl: Decimal,
}

/// The market's terms of a fill.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Terms {
    pub(crate) price: Decimal,
    pub(crate) fee_rate: Decimal,
    pub(crate) leverage: Decimal,
}

/// Computes a fill of the signed quantity `delta` (positive buys) against `position` and
/// `balance`, or code 10 when the collateral does not cover it.
pub(crate) fn plan_fill(
    position: PositionState,
    balance: Decimal,
    delta: Decimal,
    terms: Terms,
) -> Result<Fill, Rejection> {
    compute(position, balance, delta, terms)
        .flatten()
        .ok_or_else(Rejection::not_enough_balance)
}

/// `None` on arithmetic overflow, `Some(None)` when the balance does not cover the fill.
fn compute(
    position: PositionState,
    balance: Decimal,
    delta: Decimal,
    terms: Terms,
) -> Option<Option<Fill>> {
    let Terms {
        price,
        fee_rate,
        leverage,
    } = terms;
    let qty = position.qty;
    let amount = delta.abs();
    let reduces = !qty.is_zero() && qty.is_sign_positive() != delta.is_sign_positive();
    let closing = if reduces {
        amount.min(qty.abs())
    } else {
        Decimal::ZERO
    };
    let opening = amount.checked_sub(closing)?;
    let deal_money = amount.checked_mul(price)?;
    let fee = deal_money.checked_mul(fee_rate)?.round_dp(FEE_PRECISION);
    let (pnl, released) = if closing.is_zero() {
        (Decimal::ZERO, Decimal::ZERO)
    } else {
        let direction = if qty.is_sign_positive() {
            Decimal::ONE
        } else {
            Decimal::NEGATIVE_ONE
        };
        let pnl = price
            .checked_sub(position.entry)?
            .checked_mul(closing)?
            .checked_mul(direction)?;
        let released = position
            .margin
            .checked_mul(closing)?
            .checked_div(qty.abs())?;
        (pnl, released)
    };
    let open_margin = opening.checked_mul(price)?.checked_div(leverage)?;
    let available = balance.checked_add(released)?.checked_add(pnl)?;
    let need = open_margin.checked_add(fee)?;
    if need > available {
        return Some(None);
    }
    let new_qty = qty.checked_add(delta)?;
    let new_position = if new_qty.is_zero() {
        None
    } else if opening.is_zero() {
        Some(PositionState {
            qty: new_qty,
            entry: position.entry,
            margin: position.margin.checked_sub(released)?,
        })
    } else if closing.is_zero() {
        let old_value = qty.abs().checked_mul(position.entry)?;
        let new_value = opening.checked_mul(price)?;
        let entry = old_value
            .checked_add(new_value)?
            .checked_div(new_qty.abs())?
            .round_dp(12);
        Some(PositionState {
            qty: new_qty,
            entry,
            margin: position.margin.checked_add(open_margin)?,
        })
    } else {
        Some(PositionState {
            qty: new_qty,
            entry: price,
            margin: open_margin,
        })
    };
    Some(Some(Fill {
        balance: available.checked_sub(need)?,
        position: new_position,
        deal_money,
        fee,
        pnl,
    }))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::wire::decimal;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn terms(price: &str) -> Terms {
        Terms {
            price: d(price),
            fee_rate: d("0.001"),
            leverage: d("10"),
        }
    }

    #[test]
    fn open_add_close() {
        let open = plan_fill(
            PositionState::default(),
            d("10000"),
            d("0.1"),
            terms("65000"),
        )
        .unwrap();
        // margin 650, fee 6.5
        assert_eq!(decimal::text(open.balance), "9343.5");
        let pos = open.position.unwrap();
        assert_eq!(decimal::text(pos.margin), "650");
        let add = plan_fill(pos, open.balance, d("0.1"), terms("67000")).unwrap();
        let pos = add.position.unwrap();
        assert_eq!(decimal::text(pos.entry), "66000");
        assert_eq!(decimal::text(pos.qty), "0.2");
        let close = plan_fill(pos, add.balance, d("-0.2"), terms("70000")).unwrap();
        assert!(close.position.is_none());
        // pnl 0.2 × 4000 = 800, fee 14
        let expected = add.balance + d("1320") + d("800") - d("14");
        assert_eq!(close.balance, expected);
    }

    #[test]
    fn flip_and_insufficient() {
        let open = plan_fill(
            PositionState::default(),
            d("1000"),
            d("0.1"),
            terms("65000"),
        )
        .unwrap();
        let flip = plan_fill(
            open.position.unwrap(),
            open.balance,
            d("-0.15"),
            terms("65000"),
        )
        .unwrap();
        let pos = flip.position.unwrap();
        assert_eq!(decimal::text(pos.qty), "-0.05");
        assert_eq!(decimal::text(pos.margin), "325");
        assert_eq!(
            plan_fill(PositionState::default(), d("10"), d("1"), terms("65000")),
            Err(Rejection::not_enough_balance())
        );
        let huge = d("79228162514264337593543950335");
        assert!(plan_fill(PositionState::default(), d("10"), huge, terms("65000")).is_err());
    }
}

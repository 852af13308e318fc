//! The margin math of a fill: what it costs, locks, releases and realizes.
//!
//! The model, kept simple and documented in the crate docs: a fill of `amount` at `price`
//! costs `amount × price × fee` (the market's maker or taker fee, to 8 decimal places); the
//! part that opens or grows a position locks
//! `amount × price / leverage` of collateral; the part that reduces a position releases its
//! share of the locked margin plus the realized profit or loss. An order is rejected with
//! code 10 when the collateral balance plus what it releases does not cover what it locks plus
//! the fee.
//!
//! A position keeps its cost — what its open size was bought or sold for — exactly: the part
//! a fill reduces takes its share of the cost (all of it when the position closes), so what a
//! position realizes over its life is exactly its exit fills' value against its entry fills'
//! (`txc_types::positions::pnl`'s reference), whatever the rounding of its entry price.

use rust_decimal::Decimal;

use super::open::PositionState;

/// The decimal places margins and a reduced part's share of a position's cost are kept to:
/// with at most 12 digits before the point, every sum and difference of them stays exact in
/// `rust_decimal`'s 28 digits, so what the balance, the locked margins and the realized PnL
/// add up to never drifts by a rounding.
pub(crate) const MARGIN_PLACES: u32 = 16;
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
    /// The amount that reduced the position.
    pub(crate) closed: Decimal,
    /// The amount that opened or grew a position (after a flip: the new one).
    pub(crate) opened: Decimal,
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
    let (pnl, released, cost_share) = if closing.is_zero() {
        (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO)
    } else {
        let direction = if qty.is_sign_positive() {
            Decimal::ONE
        } else {
            Decimal::NEGATIVE_ONE
        };
        let (released, cost_share) = position.share(closing)?;
        let pnl = closing
            .checked_mul(price)?
            .checked_sub(cost_share)?
            .checked_mul(direction)?;
        (pnl, released, cost_share)
    };
    let open_margin = opening
        .checked_mul(price)?
        .checked_div(leverage)?
        .round_dp(MARGIN_PLACES);
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
            cost: position.cost.checked_sub(cost_share)?,
        })
    } else if closing.is_zero() {
        let cost = position.cost.checked_add(opening.checked_mul(price)?)?;
        Some(PositionState {
            qty: new_qty,
            entry: cost.checked_div(new_qty.abs())?.round_dp(12),
            margin: position.margin.checked_add(open_margin)?,
            cost,
        })
    } else {
        Some(PositionState {
            qty: new_qty,
            entry: price,
            margin: open_margin,
            cost: opening.checked_mul(price)?,
        })
    };
    Some(Some(Fill {
        balance: available.checked_sub(need)?,
        position: new_position,
        deal_money,
        fee,
        pnl,
        closed: closing,
        opened: opening,
    }))
}

impl PositionState {
    /// The shares of the locked margin and of the cost that reducing the position by
    /// `closing` (at most its size) takes: all of them when it closes the position.
    fn share(self, closing: Decimal) -> Option<(Decimal, Decimal)> {
        let size = self.qty.abs();
        if closing >= size {
            return Some((self.margin, self.cost));
        }
        let part = |whole: Decimal| {
            whole
                .checked_mul(closing)?
                .checked_div(size)
                .map(|p| p.round_dp(MARGIN_PLACES))
        };
        Some((part(self.margin)?, part(self.cost)?))
    }
}

/// The least favourable price at which `closing` of `position` can be closed without taking
/// `balance` below zero — the bankruptcy price — to `places` decimal places, rounded toward
/// the safe side (up when closing a long, down when closing a short); `None` when any
/// positive price will do (a long whose balance covers its whole cost) or on overflow.
///
/// Closing `c` of a long at `x` leaves `balance + released + c·x − cost share − c·x·fee`;
/// of a short, `balance + released + cost share − c·x − c·x·fee`.
pub(crate) fn bankruptcy_price(
    position: PositionState,
    balance: Decimal,
    closing: Decimal,
    fee_rate: Decimal,
    places: u32,
) -> Option<Decimal> {
    use rust_decimal::RoundingStrategy;
    let (released, cost_share) = position.share(closing)?;
    let held = balance.checked_add(released)?;
    if position.qty.is_sign_positive() {
        let short_of = cost_share.checked_sub(held)?;
        if short_of <= Decimal::ZERO {
            return None;
        }
        let per_unit = closing.checked_mul(Decimal::ONE.checked_sub(fee_rate)?)?;
        let price = short_of.checked_div(per_unit)?;
        Some(price.round_dp_with_strategy(places, RoundingStrategy::AwayFromZero))
    } else {
        let per_unit = closing.checked_mul(Decimal::ONE.checked_add(fee_rate)?)?;
        let price = held.checked_add(cost_share)?.checked_div(per_unit)?;
        Some(price.round_dp_with_strategy(places, RoundingStrategy::ToZero))
    }
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
        assert_eq!(decimal::text(pos.cost), "13200");
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
        assert_eq!(decimal::text(pos.cost), "3250");
        assert_eq!((flip.closed, flip.opened), (d("0.1"), d("0.05")));
        assert_eq!(
            plan_fill(PositionState::default(), d("10"), d("1"), terms("65000")),
            Err(Rejection::not_enough_balance())
        );
        let huge = d("79228162514264337593543950335");
        assert!(plan_fill(PositionState::default(), d("10"), huge, terms("65000")).is_err());
    }

    #[test]
    fn a_position_realizes_its_fills_exactly_whatever_its_entry_rounds_to() {
        // Three buys whose average entry has no finite decimal form.
        let mut balance = d("100000");
        let mut position = PositionState::default();
        for price in ["65000", "65001", "65003"] {
            let fill = plan_fill(position, balance, d("0.1"), terms(price)).unwrap();
            (balance, position) = (fill.balance, fill.position.unwrap());
        }
        assert_eq!(position.entry, d("65001.333333333333"));
        let mut realized = Decimal::ZERO;
        for price in ["66000", "64000", "65500"] {
            let fill = plan_fill(position, balance, d("-0.1"), terms(price)).unwrap();
            realized += fill.pnl;
            balance = fill.balance;
            position = fill.position.unwrap_or_default();
        }
        // Exits 19550, entries 19500.4: exactly 49.6.
        assert_eq!(realized, d("49.6"));
        assert_eq!(position, PositionState::default());
    }

    #[test]
    fn closing_at_the_bankruptcy_price_leaves_nothing_and_never_less() {
        let taker = d("0.001");
        // A long of 1 at 65 000 with 6 500 locked and 100 free: bankrupt near 58 458.5.
        let long = plan_fill(PositionState::default(), d("6665"), d("1"), terms("65000")).unwrap();
        let at = bankruptcy_price(long.position.unwrap(), long.balance, d("1"), taker, 1).unwrap();
        assert_eq!(at, d("58458.5"));
        let closed = plan_fill(
            long.position.unwrap(),
            long.balance,
            d("-1"),
            terms("58458.5"),
        );
        assert!(closed.unwrap().balance >= Decimal::ZERO);
        assert!(
            plan_fill(
                long.position.unwrap(),
                long.balance,
                d("-1"),
                terms("58458.4")
            )
            .is_err()
        );
        // A short of 1 at 65 000: bankrupt at 71 600 / 1.001, cut to 71 528.4.
        let short =
            plan_fill(PositionState::default(), d("6665"), d("-1"), terms("65000")).unwrap();
        let at =
            bankruptcy_price(short.position.unwrap(), short.balance, d("1"), taker, 1).unwrap();
        assert_eq!(at, d("71528.4"));
        assert!(
            plan_fill(
                short.position.unwrap(),
                short.balance,
                d("1"),
                terms(&at.to_string())
            )
            .is_ok()
        );
        let past = at + d("0.1");
        assert!(
            plan_fill(
                short.position.unwrap(),
                short.balance,
                d("1"),
                terms(&past.to_string())
            )
            .is_err()
        );
        // A long whose balance covers its whole cost is never bankrupt.
        let safe = plan_fill(PositionState::default(), d("70000"), d("1"), terms("65000")).unwrap();
        assert_eq!(
            bankruptcy_price(safe.position.unwrap(), safe.balance, d("1"), taker, 1),
            None
        );
    }
}

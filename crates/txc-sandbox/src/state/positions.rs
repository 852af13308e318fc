//! Positions and the margin math of a fill.
//!
//! The model, kept simple and documented in the crate docs: a fill of `amount` at `price`
//! costs `amount × price × taker_fee`; the part that opens or grows a position locks
//! `amount × price / leverage` of collateral; the part that reduces a position releases its
//! share of the locked margin plus the realized profit or loss. An order is rejected with
//! code 10 when the collateral balance plus what it releases does not cover what it locks plus
//! the fee.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde::Serialize;

use crate::answer::Rejection;
use crate::decimal;
use crate::wire::PositionSide;

/// An open position of an account, as [`crate::Sandbox::positions`] shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Position {
    /// The market, e.g. `BTC_USDT`.
    pub market: String,
    /// `BOTH` in one-way mode, `LONG` or `SHORT` in hedge mode (the wire text).
    pub position_side: String,
    /// The signed size in the stock currency: positive long, negative short.
    pub amount: String,
    /// The average entry price.
    pub entry_price: String,
    /// The collateral locked for it.
    pub margin: String,
}

/// The live state of one position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PositionState {
    /// Signed size: positive long, negative short.
    pub(crate) qty: Decimal,
    pub(crate) entry: Decimal,
    pub(crate) margin: Decimal,
}

/// (API key, market, position side).
pub(crate) type PositionKey = (String, String, PositionSide);

/// The first position id of a fresh sandbox.
pub(crate) const FIRST_POSITION_ID: u64 = 1_000_001;

/// An open position: its id, state and times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpenPosition {
    pub(crate) id: u64,
    pub(crate) state: PositionState,
    /// When it was opened, Unix microseconds.
    pub(crate) opened_us: u64,
    /// When it last changed, Unix microseconds.
    pub(crate) modified_us: u64,
    /// The profit and loss its partial closes realized.
    pub(crate) realized: Decimal,
}

/// Every open position, and the next position id.
#[derive(Debug)]
pub(crate) struct Positions {
    open: HashMap<PositionKey, OpenPosition>,
    next_id: u64,
}

impl Default for Positions {
    fn default() -> Self {
        Self {
            open: HashMap::new(),
            next_id: FIRST_POSITION_ID,
        }
    }
}

impl Positions {
    /// The position under `key`, or an empty one.
    pub(crate) fn get(&self, key: &PositionKey) -> PositionState {
        self.open.get(key).map(|p| p.state).unwrap_or_default()
    }

    /// Stores the state a fill left under `key` at `now_us` (`None` or a zero size closes the
    /// position; a size of the other sign closes it and opens a new one), `pnl` realized by
    /// it. Returns each position the change touched, as it now is (a closed one with size 0).
    pub(crate) fn change(
        &mut self,
        key: PositionKey,
        state: Option<PositionState>,
        pnl: Decimal,
        now_us: u64,
    ) -> Vec<OpenPosition> {
        let state = state.filter(|s| !s.qty.is_zero());
        let old = self.open.remove(&key);
        let mut touched = Vec::new();
        let flips = |o: &OpenPosition, s: &PositionState| {
            o.state.qty.is_sign_positive() != s.qty.is_sign_positive()
        };
        match (old, state) {
            (None, None) => {}
            (Some(mut old), None) => {
                old.realized += pnl;
                old.modified_us = now_us;
                old.state.qty = Decimal::ZERO;
                touched.push(old);
            }
            (Some(mut old), Some(new)) if !flips(&old, &new) => {
                old.realized += pnl;
                old.modified_us = now_us;
                old.state = new;
                touched.push(old.clone());
                self.open.insert(key, old);
            }
            (old, Some(new)) => {
                if let Some(mut old) = old {
                    old.realized += pnl;
                    old.modified_us = now_us;
                    old.state.qty = Decimal::ZERO;
                    touched.push(old);
                }
                let opened = OpenPosition {
                    id: self.next_id,
                    state: new,
                    opened_us: now_us,
                    modified_us: now_us,
                    realized: Decimal::ZERO,
                };
                self.next_id = self.next_id.saturating_add(1);
                touched.push(opened.clone());
                self.open.insert(key, opened);
            }
        }
        touched
    }

    /// `api_key`'s open positions (on `market`, when given), by market and side.
    pub(crate) fn listed(
        &self,
        api_key: &str,
        market: Option<&str>,
    ) -> Vec<(&PositionKey, &OpenPosition)> {
        let mut out: Vec<_> = self
            .open
            .iter()
            .filter(|((key, m, _), _)| key == api_key && market.is_none_or(|want| m == want))
            .collect();
        out.sort_by(|(a, _), (b, _)| (&a.1, a.2).cmp(&(&b.1, b.2)));
        out
    }

    /// `api_key`'s open position `id`.
    pub(crate) fn find(&self, api_key: &str, id: u64) -> Option<(&PositionKey, &OpenPosition)> {
        self.open
            .iter()
            .find(|((key, _, _), p)| key == api_key && p.id == id)
    }

    /// Whether `api_key` holds any open position.
    pub(crate) fn any(&self, api_key: &str) -> bool {
        self.open.keys().any(|(key, _, _)| key == api_key)
    }

    /// The open positions of `api_key`, sorted by market and side.
    pub(crate) fn of(&self, api_key: &str) -> Vec<Position> {
        self.listed(api_key, None)
            .into_iter()
            .map(|((_, market, side), p)| Position {
                market: market.clone(),
                position_side: side.as_str().to_owned(),
                amount: decimal::text(p.state.qty),
                entry_price: decimal::text(p.state.entry),
                margin: decimal::text(p.state.margin),
            })
            .collect()
    }
}

/// What a fill does to a balance and a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fill {
    /// The collateral balance after the fill.
    pub(crate) balance: Decimal,
    /// The position after the fill (`None`: closed).
    pub(crate) position: Option<PositionState>,
    /// Executed value: amount × price.
    pub(crate) deal_money: Decimal,
    /// The taker fee paid.
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
    let fee = deal_money.checked_mul(fee_rate)?;
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

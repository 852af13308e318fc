//! The open positions: [`Positions`] (each account's, by market and side, with their ids and
//! times) and [`Position`], as [`crate::Sandbox::positions`] shows one.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde::Serialize;

use crate::wire::{PositionHead, PositionSide, decimal, time};

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
    /// The average entry price, to 12 decimal places (what the records show).
    pub(crate) entry: Decimal,
    pub(crate) margin: Decimal,
    /// What the open size cost, exactly (`|qty| × entry` before rounding).
    pub(crate) cost: Decimal,
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
    /// Its fills and funding since it opened: what its closed-PnL record adds up.
    pub(crate) lifetime: Lifetime,
}

/// What a position's fills and funding add up to over its life (the closed-PnL record's
/// aggregates): the fills that grew it and those that reduced it, each by size and value, the
/// fees of both, and the funding it paid (negative: received).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Lifetime {
    pub(crate) entry_size: Decimal,
    pub(crate) entry_value: Decimal,
    pub(crate) exit_size: Decimal,
    pub(crate) exit_value: Decimal,
    pub(crate) fees: Decimal,
    pub(crate) funding_paid: Decimal,
}

impl Lifetime {
    /// Counts a fill of `amount` at `price` that grew the position (`grew`) or reduced it,
    /// costing `fee`.
    fn count(&mut self, grew: bool, amount: Decimal, price: Decimal, fee: Decimal) {
        if amount.is_zero() {
            return;
        }
        let value = amount.checked_mul(price).unwrap_or_default();
        let (size, total) = if grew {
            (&mut self.entry_size, &mut self.entry_value)
        } else {
            (&mut self.exit_size, &mut self.exit_value)
        };
        *size += amount;
        *total += value;
        self.fees += fee;
    }
}

/// What one fill did to the position it acted on: the amount that reduced it and the amount
/// that opened or grew one (a flip does both, to two positions), the fee of each part, the
/// price and what the reducing part realized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Trade {
    pub(crate) price: Decimal,
    pub(crate) closed: Decimal,
    pub(crate) opened: Decimal,
    pub(crate) fee_closed: Decimal,
    pub(crate) fee_opened: Decimal,
    pub(crate) pnl: Decimal,
}

impl OpenPosition {
    /// The head both position records start with: this position, on `market`, as it stands.
    pub(crate) fn head(&self, market: &str) -> PositionHead {
        PositionHead {
            position_id: self.id,
            market: market.to_owned(),
            open_date: time::seconds(self.opened_us),
            modify_date: time::seconds(self.modified_us),
            amount: decimal::text(self.state.qty),
            base_price: decimal::text(self.state.entry),
        }
    }
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
    /// The id of the open position under `key`.
    pub(crate) fn id_of(&self, key: &PositionKey) -> Option<u64> {
        self.open.get(key).map(|p| p.id)
    }

    /// The position under `key`, or an empty one.
    pub(crate) fn get(&self, key: &PositionKey) -> PositionState {
        self.open.get(key).map(|p| p.state).unwrap_or_default()
    }

    /// Stores the state a fill — `trade` — left under `key` at `now_us` (`None` or a zero size
    /// closes the position; a size of the other sign closes it and opens a new one). Returns
    /// each position the change touched, as it now is (a closed one with size 0).
    pub(crate) fn change(
        &mut self,
        key: PositionKey,
        state: Option<PositionState>,
        trade: Trade,
        now_us: u64,
    ) -> Vec<OpenPosition> {
        let pnl = trade.pnl;
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
                old.lifetime
                    .count(false, trade.closed, trade.price, trade.fee_closed);
                touched.push(old);
            }
            (Some(mut old), Some(new)) if !flips(&old, &new) => {
                old.realized += pnl;
                old.modified_us = now_us;
                old.state = new;
                old.lifetime
                    .count(false, trade.closed, trade.price, trade.fee_closed);
                old.lifetime
                    .count(true, trade.opened, trade.price, trade.fee_opened);
                touched.push(old.clone());
                self.open.insert(key, old);
            }
            (old, Some(new)) => {
                if let Some(mut old) = old {
                    old.realized += pnl;
                    old.modified_us = now_us;
                    old.state.qty = Decimal::ZERO;
                    old.lifetime
                        .count(false, trade.closed, trade.price, trade.fee_closed);
                    touched.push(old);
                }
                let mut lifetime = Lifetime::default();
                lifetime.count(true, trade.opened, trade.price, trade.fee_opened);
                let opened = OpenPosition {
                    id: self.next_id,
                    state: new,
                    opened_us: now_us,
                    modified_us: now_us,
                    realized: Decimal::ZERO,
                    lifetime,
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

    /// Counts `paid` (negative: received) of funding into the open position under `key` and
    /// takes `from_margin` of it out of the position's locked margin.
    pub(crate) fn fund(&mut self, key: &PositionKey, paid: Decimal, from_margin: Decimal) {
        if let Some(position) = self.open.get_mut(key) {
            position.lifetime.funding_paid += paid;
            position.state.margin -= from_margin;
        }
    }

    /// Every open position, by key.
    pub(crate) fn all(&self) -> impl Iterator<Item = (&PositionKey, &OpenPosition)> {
        self.open.iter()
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

//! Auto-deleveraging quantiles (`POST /api/v4/collateral-account/adl-quantile`): each
//! perpetual position's place in its market's ranking, from the docs
//! (`concepts/auto-deleveraging.mdx`, "ADL Grade"):
//!
//! ```text
//! Rating = % profit × effective leverage
//!        = (unrealized PnL / |position value|) × (|position value| / account equity)
//! ```
//!
//! Each market has a list per side — longs, shorts (a one-way position by its sign; in hedge
//! mode each side on its own) — ordered by Rating, lowest first; the position at 1-based
//! place `i` of `n` has `k = i / n` and its quantile (the "Grade") from the docs' table:
//! `k < 0.5` → 0, `< 0.73` → 1, `< 0.87` → 2, `< 0.95` → 3, else 4.
//!
//! **What the sandbox simplifies:** the lists hold only the sandbox's own accounts — it has no
//! other traders — so a position alone on its side of a market is the whole list (`k = 1`)
//! and its quantile is 4, the docs' thin-market discretization at its extreme; ties are
//! ordered by API key and position id; an account with no equity rates 0. The sandbox never
//! deleverages anyone: the quantile is an indicator only.

use std::collections::HashMap;

use rust_decimal::Decimal;

use super::open::OpenPosition;
use crate::state::State;
use crate::wire::AdlRecord;

/// The docs' thresholds of `k`: below the first, quantile 0; below the second, 1; …; at or
/// above the last, 4.
const THRESHOLDS: [Decimal; 4] = [
    Decimal::from_parts(50, 0, 0, false, 2),
    Decimal::from_parts(73, 0, 0, false, 2),
    Decimal::from_parts(87, 0, 0, false, 2),
    Decimal::from_parts(95, 0, 0, false, 2),
];

/// The quantile of place `i` (1-based) of `n`.
fn quantile(i: usize, n: usize) -> u8 {
    let k = Decimal::from(i)
        .checked_div(Decimal::from(n))
        .unwrap_or(Decimal::ONE);
    let below = THRESHOLDS.iter().filter(|t| k >= **t).count();
    u8::try_from(below).unwrap_or(4)
}

impl State {
    /// `api_key`'s quantiles on each perpetual market where it holds a position, in market
    /// name order: `null` for a side it holds nothing on.
    pub(crate) fn adl_quantiles(&self, api_key: &str) -> Vec<AdlRecord> {
        let mut markets: Vec<&str> = self
            .positions
            .listed(api_key, None)
            .into_iter()
            .map(|((_, market, _), _)| market.as_str())
            .filter(|m| self.markets.get(m).is_some_and(|spec| spec.futures))
            .collect();
        markets.dedup();
        let mut equity: HashMap<&str, Decimal> = HashMap::new();
        markets
            .into_iter()
            .map(|market| {
                // Every account's positions on the market, rated.
                let mut rated: Vec<(Decimal, &str, u64, bool)> = self
                    .positions
                    .all()
                    .filter(|(key, _)| key.1 == market)
                    .map(|(key, p)| {
                        let account_equity = *equity
                            .entry(key.0.as_str())
                            .or_insert_with(|| self.standing(&key.0, None).equity());
                        let rating = self.rating(market, p, account_equity);
                        (rating, key.0.as_str(), p.id, p.state.qty.is_sign_positive())
                    })
                    .collect();
                rated.sort();
                let side_quantile = |long: bool| {
                    let list: Vec<&(Decimal, &str, u64, bool)> =
                        rated.iter().filter(|r| r.3 == long).collect();
                    list.iter()
                        .position(|r| r.1 == api_key)
                        .map(|i| quantile(i + 1, list.len()))
                };
                AdlRecord {
                    market: market.to_owned(),
                    long: side_quantile(true),
                    short: side_quantile(false),
                }
            })
            .collect()
    }

    /// `position`'s Rating on `market` for an account of `equity`: its unrealized profit over
    /// the equity (the two position values cancel); 0 without equity.
    fn rating(&self, market: &str, position: &OpenPosition, equity: Decimal) -> Decimal {
        if equity <= Decimal::ZERO {
            return Decimal::ZERO;
        }
        self.unrealized(market, position)
            .checked_div(equity)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_follow_the_docs_table_and_thin_markets() {
        // One of one: the top of the list.
        assert_eq!(quantile(1, 1), 4);
        // The docs' thin-market table: 1 of 10, 6 of 100, 51 of 1000 at grade 4.
        for (n, fours) in [(10, 1), (100, 6), (1000, 51)] {
            let count = (1..=n).filter(|i| quantile(*i, n) == 4).count();
            assert_eq!(count, fours, "n = {n}");
        }
        assert_eq!(
            (1..=4).map(|i| quantile(i, 4)).collect::<Vec<_>>(),
            [0, 1, 2, 4]
        );
        assert_eq!(quantile(1, 2), 1);
        assert_eq!(quantile(0, 3), 0);
    }
}

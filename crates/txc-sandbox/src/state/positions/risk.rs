//! Margin calls and liquidation: each account's margin judged against its two levels
//! ([`crate::config::MarginLevels`]) whenever it may have changed — after a price move, a
//! funding payment, a fill, a balance set.
//!
//! The account's margin is its **equity** — the collateral balance, the margin its positions
//! lock and their unrealized profit at the current prices, the summary's `equity` — judged
//! against its positions' value (`Σ |amount| × price`) across every market: one account, one
//! collateral balance, as the docs' "Margin Trading and Futures Trading draw on the same
//! Collateral balance, so both products share one maintenance margin schedule".
//!
//! - Below the **margin-call** level the account is in margin call: its positions show
//!   `liquidationState: margin_call`, and entering the state sends event 1 of
//!   `positionsAccountMargin` for each position. Back above it, the state ends, silently.
//! - Below the **maintenance** level ("liquidation force-closes a leveraged position when the
//!   maintenance margin requirement is breached", `concepts/liquidation.mdx`) its positions
//!   are liquidated in the docs' order — margin positions (spot pairs) from the smallest
//!   locked margin to the largest, then futures positions likewise — each first in part
//!   ([`PARTIAL_SHARE`]: "a portion (for example, 20–30%) of the position closes first to
//!   restore margin"), then in full when that was not enough, until the account is back at or
//!   above the level; a position whose bankruptcy price the market has passed closes in full
//!   at once (a part could not restore anything). Each liquidated position first gets event 2, its open orders on the
//!   market are canceled (`AUTO_CANCELED_LIQUIDATION`), then a liquidation order closes it
//!   (`crate::state::orders`).

use std::collections::BTreeSet;

use rust_decimal::Decimal;

use super::open::{OpenPosition, PositionKey};
use crate::config::MarginLevels;
use crate::state::{Change, State};
use crate::wire::LiquidationStage;

/// The share of a position a partial liquidation closes first (the docs' "for example,
/// 20–30%"), rounded down to the market's amount step.
const PARTIAL_SHARE: Decimal = Decimal::from_parts(25, 0, 0, false, 2);

/// Each account's standing against its margin levels.
#[derive(Debug)]
pub(crate) struct Risk {
    levels: MarginLevels,
    /// The accounts in margin call.
    called: BTreeSet<String>,
    /// The accounts whose margin may have changed since they were last judged.
    dirty: BTreeSet<String>,
    /// The account being liquidated, while it is.
    liquidating: Option<String>,
}

impl Risk {
    /// No account judged yet, against `levels`.
    pub(crate) fn new(levels: MarginLevels) -> Self {
        Self {
            levels,
            called: BTreeSet::new(),
            dirty: BTreeSet::new(),
            liquidating: None,
        }
    }
}

/// An account's margin at the current prices.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Standing {
    /// The collateral balance (free margin).
    pub(crate) free: Decimal,
    /// What the positions lock.
    pub(crate) margin: Decimal,
    /// The positions' unrealized profit.
    pub(crate) unrealized: Decimal,
    /// The positions' value, `Σ |amount| × price`.
    pub(crate) notional: Decimal,
}

impl Standing {
    /// Free margin, locked margin and unrealized profit together.
    pub(crate) fn equity(self) -> Decimal {
        self.free + self.margin + self.unrealized
    }
}

impl State {
    /// `position`'s unrealized profit on `market` at the current price (at its cost when the
    /// market has no price).
    pub(crate) fn unrealized(&self, market: &str, position: &OpenPosition) -> Decimal {
        let state = position.state;
        let Some(price) = self.price(market) else {
            return Decimal::ZERO;
        };
        let value = state.qty.abs().checked_mul(price).unwrap_or_default();
        if state.qty.is_sign_positive() {
            value - state.cost
        } else {
            state.cost - value
        }
    }

    /// `api_key`'s margin at the current prices, over its positions (on `market` only, when
    /// given; the free margin is the whole balance either way).
    pub(crate) fn standing(&self, api_key: &str, market: Option<&str>) -> Standing {
        let free = self
            .accounts
            .get(api_key)
            .map_or(Decimal::ZERO, |a| a.balance(self.markets.collateral()));
        self.positions.listed(api_key, market).into_iter().fold(
            Standing {
                free,
                ..Standing::default()
            },
            |s, ((_, market, _), p)| {
                let price = self.price(market).unwrap_or(p.state.entry);
                Standing {
                    margin: s.margin + p.state.margin,
                    unrealized: s.unrealized + self.unrealized(market, p),
                    notional: s.notional + p.state.qty.abs().checked_mul(price).unwrap_or_default(),
                    ..s
                }
            },
        )
    }

    /// `api_key`'s liquidation state: `liquidation` while it is being liquidated,
    /// `margin_call` while it is in margin call, else `None`.
    pub(crate) fn liquidation_stage(&self, api_key: &str) -> Option<LiquidationStage> {
        if self.risk.liquidating.as_deref() == Some(api_key) {
            Some(LiquidationStage::Liquidation)
        } else if self.risk.called.contains(api_key) {
            Some(LiquidationStage::MarginCall)
        } else {
            None
        }
    }

    /// The price of `market` at which `api_key`'s equity would meet its maintenance margin,
    /// every other market's price held, to the market's money precision: `None` when no
    /// positive price does (a position the balance covers in full, or none on `market`).
    ///
    /// With `q` the account's net amount on `market`, `a` its gross amount there, `c` its
    /// positions' signed cost there and `E`, `N` the equity and value of everything else:
    /// `E + q·x − c = rate × (N + a·x)`, so `x = (rate·N + c − E) / (q − rate·a)`.
    pub(crate) fn liquidation_price(&self, api_key: &str, market: &str) -> Option<Decimal> {
        let rate = self.risk.levels.maintenance;
        let here = self.positions.listed(api_key, Some(market));
        if here.is_empty() {
            return None;
        }
        let (net, gross, cost) = here.iter().fold(
            (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO),
            |(net, gross, cost), (_, p)| {
                let signed_cost = if p.state.qty.is_sign_positive() {
                    p.state.cost
                } else {
                    -p.state.cost
                };
                (
                    net + p.state.qty,
                    gross + p.state.qty.abs(),
                    cost + signed_cost,
                )
            },
        );
        let all = self.standing(api_key, None);
        let this = self.standing(api_key, Some(market));
        // Everything but this market's unrealized profit and value.
        let rest_equity = all.equity() - this.unrealized;
        let rest_value = all.notional - this.notional;
        let numerator = rate
            .checked_mul(rest_value)?
            .checked_add(cost)?
            .checked_sub(rest_equity)?;
        let denominator = net.checked_sub(rate.checked_mul(gross)?)?;
        let price = numerator.checked_div(denominator)?;
        let places = self.markets.get(market).map_or(8, |m| m.money_prec);
        (price > Decimal::ZERO).then(|| price.round_dp(places))
    }

    /// Marks `api_key`'s margin for judging at the next [`State::settle_risk`].
    pub(crate) fn margin_moved(&mut self, api_key: &str) {
        self.risk.dirty.insert(api_key.to_owned());
    }

    /// Marks every account holding a position on `market` for judging.
    pub(crate) fn market_moved(&mut self, market: &str) {
        let holders: Vec<String> = self
            .positions
            .all()
            .filter(|(key, _)| key.1 == market)
            .map(|(key, _)| key.0.clone())
            .collect();
        self.risk.dirty.extend(holders);
    }

    /// Judges every account whose margin may have changed, in API key order: margin calls
    /// and liquidations (a liquidation's fills may touch other accounts' resting orders: they
    /// are judged in turn).
    pub(crate) fn settle_risk(&mut self) {
        // Every judgement either clears an account or liquidates positions, so this ends; the
        // bound keeps a mistake from hanging the server.
        for _ in 0..10_000 {
            let Some(api_key) = self.risk.dirty.pop_first() else {
                return;
            };
            self.judge(&api_key);
        }
    }

    /// Judges `api_key`: liquidates below the maintenance level, then enters or leaves margin
    /// call.
    fn judge(&mut self, api_key: &str) {
        let levels = self.risk.levels;
        let mut standing = self.standing(api_key, None);
        if standing.equity() < standing.notional * levels.maintenance {
            self.liquidate(api_key);
            standing = self.standing(api_key, None);
            // What the liquidation's fills marked is judged now.
            self.risk.dirty.remove(api_key);
        }
        let called = !standing.notional.is_zero()
            && standing.equity() < standing.notional * levels.margin_call;
        if !called {
            self.risk.called.remove(api_key);
        } else if self.risk.called.insert(api_key.to_owned()) {
            self.stats.margin_calls += 1;
            self.announce_positions(api_key, LiquidationStage::MarginCall, None);
        }
    }

    /// Liquidates `api_key`'s positions in the docs' order until its equity is back at or
    /// above its maintenance margin.
    fn liquidate(&mut self, api_key: &str) {
        self.risk.liquidating = Some(api_key.to_owned());
        for key in self.liquidation_queue(api_key) {
            if !self.below_maintenance(api_key) {
                break;
            }
            let size = self.positions.get(&key).qty.abs();
            if size.is_zero() {
                continue;
            }
            self.stats.liquidations += 1;
            self.announce_positions(api_key, LiquidationStage::Liquidation, Some(&key));
            self.cancel_for_liquidation(api_key, &key.1);
            // A partial liquidation can restore margin only while the market is short of the
            // position's bankruptcy price; past it, the position closes in full there.
            let partial = (!self.past_bankruptcy(&key))
                .then(|| self.partial_amount(&key, size))
                .flatten();
            if let Some(part) = partial {
                self.liquidation_order(&key, part);
                if !self.below_maintenance(api_key) {
                    break;
                }
            }
            let rest = self.positions.get(&key).qty.abs();
            self.liquidation_order(&key, rest);
        }
        self.risk.liquidating = None;
    }

    /// Whether `api_key`'s equity is below its maintenance margin.
    fn below_maintenance(&self, api_key: &str) -> bool {
        let standing = self.standing(api_key, None);
        standing.equity() < standing.notional * self.risk.levels.maintenance
    }

    /// `api_key`'s positions in the order the docs liquidate them: margin positions (spot
    /// pairs) by locked margin, smallest first, then futures positions likewise (their order
    /// among themselves is not documented: the sandbox's choice).
    fn liquidation_queue(&self, api_key: &str) -> Vec<PositionKey> {
        let mut queue: Vec<(bool, Decimal, PositionKey)> = self
            .positions
            .listed(api_key, None)
            .into_iter()
            .map(|(key, p)| {
                let futures = self.markets.get(&key.1).is_some_and(|m| m.futures);
                (futures, p.state.margin, key.clone())
            })
            .collect();
        queue.sort();
        queue.into_iter().map(|(_, _, key)| key).collect()
    }

    /// The part of a position of `size` under `key` a partial liquidation closes: a quarter,
    /// down to the market's amount step; `None` when that is below the market's minimum
    /// amount or the whole position.
    fn partial_amount(&self, key: &PositionKey, size: Decimal) -> Option<Decimal> {
        let market = self.markets.get(&key.1)?;
        let steps = size
            .checked_mul(PARTIAL_SHARE)?
            .checked_div(market.amount_step)?
            .floor();
        let part = steps.checked_mul(market.amount_step)?;
        (part >= market.min_amount && part < size).then_some(part)
    }

    /// Tells the subscriber that `api_key`'s positions (the one under `only`, when given)
    /// entered `stage`.
    fn announce_positions(
        &mut self,
        api_key: &str,
        stage: LiquidationStage,
        only: Option<&PositionKey>,
    ) {
        let views = self.position_views(api_key, only.map(|k| k.1.as_str()));
        for view in views {
            if only.is_some_and(|k| k.2 != view.side) {
                continue;
            }
            let api_key = api_key.to_owned();
            self.changes.emit(|| Change::Margin {
                api_key,
                stage,
                position: Box::new(view),
            });
        }
    }
}

//! Executing orders: a taker against the book and the market, a resting order crossed by a
//! price move, and what each fill does to the account (balance, position, history, fee).
//!
//! **The market's liquidity.** The market's price stands for the rest of the exchange: at that
//! price it buys and sells any amount. The book holds the sandbox's own resting orders. A
//! taker (a market order, a stop order that fired, the marketable part of a limit order) walks
//! the two in price priority: the book's orders priced at least as well as the market's price
//! first — best price, then oldest — each at its own price as maker; then the rest from the
//! market at its price. A limit order stops at its limit price. With an empty book (or one
//! whose orders are all worse than the price, as they are unless a price move with a volume
//! left some crossed) every taker executes at the market's price, as market orders always did.
//!
//! **A fill** of `amount` at `price` costs the market's maker or taker fee and moves the margin
//! (`crate::state::positions`); it is planned before anything changes. A taker whose next fill
//! its balance cannot fund stops there (what is left is canceled); a maker that cannot be
//! funded, or a reduce-only maker with no position left to reduce, is canceled and the taker
//! goes on to the next. Self-trades follow the taker's `stp`.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::stored::{Execution, StoredOrder};
use crate::config::PositionMode;
use crate::rules::OrderRequest;
use crate::state::State;
use crate::state::positions::{Fill, PositionKey, PositionState, Terms, plan_fill};
use crate::wire::{OrderStatus, PositionSide, Rejection, Side, Stp};

/// The order taking liquidity.
#[derive(Debug)]
pub(super) enum Taker<'a> {
    /// Being placed, not stored yet: its executions are announced with it.
    New {
        order: &'a mut StoredOrder,
        deals: &'a mut Vec<Execution>,
    },
    /// Stored: a stop order that just activated.
    Stored(u64),
}

/// How a taker's walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Took {
    /// Nothing left.
    Done,
    /// Nothing more at its limit price: the rest may rest.
    AtLimit,
    /// Its next fill could not be funded.
    Unfunded,
    /// Self-trade prevention ended it.
    SelfTrade,
}

/// What crossing one resting order did.
enum Crossed {
    /// Executed against it, or it was canceled: the walk goes on.
    Next,
    /// The taker ends.
    Stop(Took),
}

impl Taker<'_> {
    /// The order, as it now stands.
    fn order<'s>(&'s self, state: &'s State) -> Option<&'s StoredOrder> {
        match self {
            Self::New { order, .. } => Some(order),
            Self::Stored(id) => state.orders.get(*id),
        }
    }
}

impl State {
    /// Walks `taker` through the book and the market up to `limit` (none: any price). The
    /// resting orders it executed against, or canceled, are pushed to `touched`: their links
    /// are settled once the taker is stored.
    pub(super) fn take(
        &mut self,
        taker: &mut Taker<'_>,
        limit: Option<Decimal>,
        touched: &mut Vec<u64>,
    ) -> Took {
        loop {
            let Some(order) = taker.order(self) else {
                return Took::Done;
            };
            let (left, side) = (order.left(), order.side());
            if left.is_zero() {
                return Took::Done;
            }
            let market = order.market().to_owned();
            let Some(price) = self.price(&market) else {
                return Took::AtLimit;
            };
            let maker = self
                .orders
                .best(&market, opposite(side))
                .filter(|(at, _)| !worse(side, *at, price));
            let at = maker.map_or(price, |(at, _)| at);
            if limit.is_some_and(|limit| worse(side, at, limit)) {
                return Took::AtLimit;
            }
            let step = match maker {
                Some((_, maker)) => self.cross(taker, maker, at, touched),
                None => match self.plan_for(taker, left, price, false, None) {
                    Ok(fill) => {
                        self.record_taker(taker, left, price, &fill, None);
                        Crossed::Next
                    }
                    Err(_) => Crossed::Stop(Took::Unfunded),
                },
            };
            if let Crossed::Stop(took) = step {
                return took;
            }
        }
    }

    /// Executes `taker` against the resting order `maker_id` at `at`, the maker's price.
    fn cross(
        &mut self,
        taker: &mut Taker<'_>,
        maker_id: u64,
        at: Decimal,
        touched: &mut Vec<u64>,
    ) -> Crossed {
        let Some((taker_key, stp, left)) = taker
            .order(self)
            .map(|o| (o.api_key.clone(), o.request.stp, o.left()))
        else {
            return Crossed::Stop(Took::Done);
        };
        let Some(maker) = self.orders.get(maker_id).cloned() else {
            return Crossed::Stop(Took::Done);
        };
        touched.push(maker_id);
        if maker.api_key == taker_key && stp != Stp::No {
            // The taker's mode: cancel the resting order, the taker, or both.
            if matches!(stp, Stp::CancelOld | Stp::CancelBoth) {
                self.end_order(maker_id, OrderStatus::CanceledStp);
            }
            return if matches!(stp, Stp::CancelNew | Stp::CancelBoth) {
                Crossed::Stop(Took::SelfTrade)
            } else {
                Crossed::Next
            };
        }
        let Some(allowed) = self.allowed(&maker, maker.left()) else {
            self.end_order(maker_id, OrderStatus::AutoCanceledReduceOnly);
            return Crossed::Next;
        };
        let qty = left.min(allowed);
        let taker_fill = match self.plan_for(taker, qty, at, false, None) {
            Ok(fill) => fill,
            Err(_) => return Crossed::Stop(Took::Unfunded),
        };
        let first = taker
            .order(self)
            .map(|o| (key_of(o), o.market().to_owned()));
        let after = first.as_ref().map(|(k, m)| (k, m.as_str(), &taker_fill));
        let maker_fill = match self.plan(&maker, qty, at, true, after) {
            Ok(fill) => fill,
            Err(_) => {
                self.end_order(maker_id, OrderStatus::Canceled);
                return Crossed::Next;
            }
        };
        let taker_id = match taker {
            Taker::New { .. } => self.orders.next_id(),
            Taker::Stored(id) => *id,
        };
        self.record_taker(taker, qty, at, &taker_fill, Some(maker_id));
        self.record_maker(maker_id, qty, at, &maker_fill, allowed, Some(taker_id));
        Crossed::Next
    }

    /// Executes up to `qty` of the resting order `id` at its price, as maker, for a price move
    /// that crossed it; how much it executed (none when it was canceled instead).
    pub(super) fn fill_crossed(&mut self, id: u64, qty: Decimal) -> Decimal {
        let Some(maker) = self.orders.get(id).cloned() else {
            return Decimal::ZERO;
        };
        let Some(at) = maker.price().map(|p| p.value) else {
            return Decimal::ZERO;
        };
        let Some(allowed) = self.allowed(&maker, maker.left()) else {
            self.end_order(id, OrderStatus::AutoCanceledReduceOnly);
            return Decimal::ZERO;
        };
        let qty = qty.min(allowed);
        match self.plan(&maker, qty, at, true, None) {
            Ok(fill) => {
                self.record_maker(id, qty, at, &fill, allowed, None);
                qty
            }
            Err(_) => {
                self.end_order(id, OrderStatus::Canceled);
                Decimal::ZERO
            }
        }
    }

    /// Plans a fill of `qty` of `order` at `price` as maker or taker; `after` is a fill of
    /// another order planned first (its position key, market and fill), which this one starts
    /// from when it is the same account's.
    pub(super) fn plan(
        &self,
        order: &StoredOrder,
        qty: Decimal,
        price: Decimal,
        maker: bool,
        after: Option<(&PositionKey, &str, &Fill)>,
    ) -> Result<Fill, Rejection> {
        let markets = Arc::clone(&self.markets);
        let market = markets
            .get(order.market())
            .ok_or_else(Rejection::internal)?;
        let key = key_of(order);
        let account = self
            .accounts
            .get(&order.api_key)
            .ok_or_else(Rejection::internal)?;
        let mut position = self.positions.get(&key);
        let mut balance = account.balance(&market.collateral);
        if let Some((first_key, first_market, first)) = after
            && first_key.0 == key.0
        {
            let same_collateral = markets
                .get(first_market)
                .is_some_and(|m| m.collateral == market.collateral);
            if same_collateral {
                balance = first.balance;
            }
            if *first_key == key {
                position = first.position.unwrap_or_default();
            }
        }
        let terms = Terms {
            price,
            fee_rate: market.fee_rate(maker),
            leverage: account.spec.leverage,
        };
        plan_fill(position, balance, delta(order.side(), qty), terms)
    }

    /// [`State::plan`] for the taker.
    fn plan_for(
        &self,
        taker: &Taker<'_>,
        qty: Decimal,
        price: Decimal,
        maker: bool,
        after: Option<(&PositionKey, &str, &Fill)>,
    ) -> Result<Fill, Rejection> {
        let order = taker.order(self).ok_or_else(Rejection::internal)?;
        self.plan(order, qty, price, maker, after)
    }

    /// Records the taker's fill of `qty` at `price` against `counterparty` (a resting order;
    /// `None`: the market).
    pub(super) fn record_taker(
        &mut self,
        taker: &mut Taker<'_>,
        qty: Decimal,
        price: Decimal,
        fill: &Fill,
        counterparty: Option<u64>,
    ) {
        let now = self.clock.now_us();
        let execution = Execution {
            price,
            amount: qty,
            fee: fill.fee,
            maker: false,
            at_us: now,
            counterparty,
        };
        match taker {
            Taker::New { order, deals } => {
                // The id the store will give it, for the position's history.
                let id = self.orders.next_id();
                self.apply_fill(&key_of(order), order.market(), id, qty, price, fill);
                order.execute(&execution);
                deals.push(execution);
            }
            Taker::Stored(id) => {
                let Some(order) = self.orders.get(*id).cloned() else {
                    return;
                };
                self.apply_fill(&key_of(&order), order.market(), order.id, qty, price, fill);
                self.orders.execute(order.id, &execution);
                self.count_filled(order.id);
            }
        }
        self.stats.deals += 1;
    }

    /// Records the resting order `id`'s fill of `qty` at `price` against `counterparty` (the
    /// taker; `None`: the market, for a price move); a reduce-only order that was allowed only
    /// `allowed` of what it had left ends when that is reached.
    fn record_maker(
        &mut self,
        id: u64,
        qty: Decimal,
        price: Decimal,
        fill: &Fill,
        allowed: Decimal,
        counterparty: Option<u64>,
    ) {
        let Some(order) = self.orders.get(id).cloned() else {
            return;
        };
        self.apply_fill(&key_of(&order), order.market(), id, qty, price, fill);
        let execution = Execution {
            price,
            amount: qty,
            fee: fill.fee,
            maker: true,
            at_us: self.clock.now_us(),
            counterparty,
        };
        self.orders.execute(id, &execution);
        self.stats.deals += 1;
        self.count_filled(id);
        if qty >= allowed && self.orders.get(id).is_some_and(StoredOrder::is_open) {
            // Cut to the position, which is now closed: "auto-canceled because the associated
            // position was closed".
            self.end_order(id, OrderStatus::AutoCanceledReduceOnly);
        }
    }

    /// Counts the order `id` among the filled ones if it just filled.
    fn count_filled(&mut self, id: u64) {
        if self
            .orders
            .get(id)
            .is_some_and(|o| o.status == OrderStatus::Filled)
        {
            self.stats.filled_orders += 1;
        }
    }

    /// Applies a planned `fill` of `qty` of the order `order_id` on `market` at `price`: the
    /// balance, the position and its history; tells the subscriber.
    pub(super) fn apply_fill(
        &mut self,
        key: &PositionKey,
        market: &str,
        order_id: u64,
        qty: Decimal,
        price: Decimal,
        fill: &Fill,
    ) {
        let markets = Arc::clone(&self.markets);
        let Some(market) = markets.get(market) else {
            return;
        };
        if let Some(account) = self.accounts.get_mut(&key.0) {
            account
                .balances
                .insert(market.collateral.clone(), fill.balance);
        }
        self.record_fill(key, order_id, qty, fill, price);
        // A position closed or flipped takes its TPSL legs with it (`tpsl.rs`).
        self.drop_orphan_tpsl();
        self.account_changed(&key.0);
    }

    /// Ends the open order `id` with `status` now (nothing of its links settled).
    pub(super) fn end_order(&mut self, id: u64, status: OrderStatus) -> Option<&StoredOrder> {
        if !self.orders.get(id).is_some_and(StoredOrder::is_open) {
            return None;
        }
        let now = self.clock.now_us();
        self.orders.update(id, |order| order.end(status, now))
    }

    /// How much of `amount` `order` may execute now ([`allowed_amount`] for its account's
    /// mode and position).
    pub(super) fn allowed(&self, order: &StoredOrder, amount: Decimal) -> Option<Decimal> {
        let mode = self
            .accounts
            .get(&order.api_key)
            .map_or(PositionMode::OneWay, |a| a.mode());
        let position = self.positions.get(&key_of(order));
        allowed_amount(mode, order.position_side, &order.request, amount, position)
    }
}

/// The position `order` acts on.
pub(super) fn key_of(order: &StoredOrder) -> PositionKey {
    (
        order.api_key.clone(),
        order.market().to_owned(),
        order.position_side,
    )
}

/// The other side.
pub(super) fn opposite(side: Side) -> Side {
    match side {
        Side::Buy => Side::Sell,
        Side::Sell => Side::Buy,
    }
}

/// Whether `at` is a worse price than `than` for a taker of `side`: higher for a buy, lower
/// for a sell.
pub(super) fn worse(side: Side, at: Decimal, than: Decimal) -> bool {
    match side {
        Side::Buy => at > than,
        Side::Sell => at < than,
    }
}

/// The signed quantity of an order: positive for buys.
pub(super) fn delta(side: Side, amount: Decimal) -> Decimal {
    match side {
        Side::Buy => amount,
        Side::Sell => -amount,
    }
}

/// The amount an order may execute: `amount`, or for an order that may only reduce — a
/// reduce-only order, or in hedge mode an order against its side (sell `LONG`, buy `SHORT`) —
/// at most the position it reduces ("If the order amount exceeds the current position size,
/// the system reduces the order to match"). `None` when there is no such position (116).
pub(super) fn allowed_amount(
    mode: PositionMode,
    position_side: PositionSide,
    request: &OrderRequest,
    amount: Decimal,
    position: PositionState,
) -> Option<Decimal> {
    let closes_hedge = mode == PositionMode::Hedge
        && matches!(
            (position_side, request.side),
            (PositionSide::Long, Side::Sell) | (PositionSide::Short, Side::Buy)
        );
    if !(request.reduce_only || closes_hedge) {
        return Some(amount);
    }
    let reduces = !position.qty.is_zero()
        && position.qty.is_sign_positive() != delta(request.side, amount).is_sign_positive();
    reduces.then(|| amount.min(position.qty.abs()))
}

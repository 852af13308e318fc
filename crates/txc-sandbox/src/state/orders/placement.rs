//! Placing orders, and moving a market's price.
//!
//! An order is first checked against the state, nothing changing until every check passed
//! ([`State::check`], in this order: `clientOrderId` among open orders 36, `rpi` allowed for
//! the account 43, hedge-mode position side 114, reduce-only 116, a market order's total at
//! the market's price 32, the market's position limit 111, margin 10, a post-only or RPI order
//! that would take 30), then committed ([`State::commit`]): a market order executes at once
//! (`crate::state::orders::execution`); a stop order waits for its activation price, or
//! activates at once when the price already reached it; a limit order executes what it can up
//! to its price and rests with the rest — or, with `ioc`, cancels it.
//!
//! A price move ([`State::move_price`]) first executes the resting orders the new price
//! crosses (bids at or above it, asks at or below it), each at its own price as maker, best
//! first, then oldest — as far as the move's volume goes, when it has one — then activates
//! the stop orders it reached, in id order; then judges the margin of every account holding a
//! position on the market (margin calls, liquidations: `crate::state::positions`).

use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;

use super::execution::{Taker, Took, allowed_amount, delta, worse};
use super::stored::{self, StoredOrder};
use crate::config::{PositionMode, SandboxError};
use crate::rules::{OrderRequest, market_terms};
use crate::state::State;
use crate::state::positions::{PositionKey, Terms, plan_fill};
use crate::wire::{OrderRecord, OrderStatus, OrderType, PositionSide, Rejection, Side, decimal};

/// Whether a placement checks the `clientOrderId` against the open orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClientIds {
    /// It must not be held by an open order of the account on the market (36).
    Unique,
    /// Not checked: a replacement takes over its original's.
    Inherited,
}

/// What a price move did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Moved {
    /// Resting orders that executed (in full or in part).
    pub(crate) filled: usize,
    /// Stop orders activated.
    pub(crate) triggered: usize,
}

impl State {
    /// Places an order of `api_key` as a request asked: checks it, then executes or rests
    /// it. Returns the order record to answer with. The look-ups show it `visible_after` its
    /// creation.
    pub(crate) fn place(
        &mut self,
        api_key: &str,
        request: OrderRequest,
        visible_after: Duration,
    ) -> Result<OrderRecord, Rejection> {
        let order = self.check(api_key, request, visible_after, ClientIds::Unique)?;
        let id = self.commit(order);
        self.orders
            .get(id)
            .map(StoredOrder::record)
            .ok_or_else(Rejection::internal)
    }

    /// Checks an order of `api_key` against the state, changing nothing: the order, ready to
    /// commit, or the rejection.
    pub(super) fn check(
        &self,
        api_key: &str,
        request: OrderRequest,
        visible_after: Duration,
        client_ids: ClientIds,
    ) -> Result<StoredOrder, Rejection> {
        let markets = Arc::clone(&self.markets);
        let market = markets
            .get(&request.market)
            .ok_or_else(market_unavailable)?;
        let price = self.price(&market.name).ok_or_else(market_unavailable)?;
        if client_ids == ClientIds::Unique
            && let Some(id) = &request.client_order_id
            && self
                .orders
                .open_with_client_id(api_key, &market.name, id)
                .is_some()
        {
            return Err(Rejection::validation(
                36,
                "clientOrderId",
                vec!["This client order id is already used by the current account.".to_owned()],
            ));
        }
        let account = self.accounts.get(api_key).ok_or_else(unauthorized)?;
        if request.flags.rpi && !account.spec.terms.rpi {
            // Documented code (43), undocumented message.
            return Err(Rejection::validation(
                43,
                "rpi",
                vec!["Rpi orders are not allowed for the account.".to_owned()],
            ));
        }
        let mode = account.mode();
        let position_side = resolve_position_side(mode, request.position_side)?;
        let key: PositionKey = (api_key.to_owned(), market.name.clone(), position_side);
        let position = self.positions.get(&key);
        let allowed = allowed_amount(mode, position_side, &request, request.amount, position)
            .ok_or_else(Rejection::reduce_only)?;
        let kind = request.order_type();
        let side = request.side;
        let reached_now = request
            .activation
            .as_ref()
            .is_some_and(|a| stored::reached(request.trigger_side(), price, a.value));
        // An order that executes now is cut to the position it may reduce; a stop order when
        // it activates.
        let amount = if matches!(kind, OrderType::Market | OrderType::Limit) {
            allowed
        } else {
            request.amount
        };
        let limit = request.price.as_ref().map(|p| p.value);
        // The price its margin is checked at: where it would first execute.
        let at = match (kind, limit) {
            (OrderType::StopMarket, _) if !reached_now => {
                request.activation.as_ref().map_or(price, |a| a.value)
            }
            (OrderType::StopLimit, Some(limit)) if !reached_now => limit,
            (_, Some(limit)) if worse(side, price, limit) => limit,
            _ => price,
        };
        if kind == OrderType::Market {
            market_terms::check_total(market, amount, price)?;
        }
        if let Some(max) = market.max_position
            && !request.reduce_only
        {
            let after = position
                .qty
                .checked_add(delta(side, amount))
                .unwrap_or(Decimal::MAX);
            if after.abs() > max && after.abs() > position.qty.abs() {
                // Documented code (111), undocumented message.
                return Err(Rejection::validation(
                    111,
                    "amount",
                    vec![format!(
                        "Position would exceed the market maximum {}.",
                        decimal::text(max)
                    )],
                ));
            }
        }
        let terms = Terms {
            price: at,
            fee_rate: market.taker_fee,
            leverage: account.spec.leverage,
        };
        plan_fill(
            position,
            account.balance(&market.collateral),
            delta(side, amount),
            terms,
        )?;
        if kind == OrderType::Limit
            && request.flags.maker_only()
            && let Some(limit) = limit
            && self.would_take(&market.name, side, limit, price)
        {
            // Not documented: the default validation code, on the flag that refused it.
            let field = if request.flags.rpi { "rpi" } else { "postOnly" };
            return Err(Rejection::validation(
                30,
                field,
                vec!["The order would be executed immediately as a taker.".to_owned()],
            ));
        }
        let now = self.clock.now_us();
        let visible_from =
            now.saturating_add(u64::try_from(visible_after.as_micros()).unwrap_or(u64::MAX));
        let mut order = StoredOrder::new(api_key, request, position_side, now, visible_from);
        order.amount = amount;
        Ok(order)
    }

    /// Whether a `side` order at `limit` on `market` would take now: the market's price or the
    /// book's best opposite order at or better than the limit.
    fn would_take(&self, market: &str, side: Side, limit: Decimal, price: Decimal) -> bool {
        let opposite = match side {
            Side::Buy => Side::Sell,
            Side::Sell => Side::Buy,
        };
        let book = self.orders.best(market, opposite).map(|(at, _)| at);
        [Some(price), book]
            .into_iter()
            .flatten()
            .any(|at| !worse(side, at, limit))
    }

    /// Commits a checked order: stores it waiting (a stop order whose price is not reached),
    /// or executes it — as far as it goes — and stores it executed, resting or ended (a stop
    /// order already activated, a modify's replacement, goes straight there). Then settles the
    /// links of every order it touched. Its id.
    pub(super) fn commit(&mut self, mut order: StoredOrder) -> u64 {
        if order.oto_id.is_none()
            && (order.request.stop_loss.is_some() || order.request.take_profit.is_some())
        {
            order.oto_id = Some(self.orders.new_oto_id());
        }
        let price = self.price(order.market()).unwrap_or_default();
        let now = self.clock.now_us();
        if let Some(activation) = order.activation()
            && order.activated_us.is_none()
        {
            if !stored::reached(order.request.trigger_side(), price, activation.value) {
                let id = self.orders.next_id();
                self.orders.add(order, &[]);
                return id;
            }
            order.activated_us = Some(now);
            match self.armed(&order) {
                Some(armed) => order = armed,
                None if order.needs_arming() => {
                    // Nothing to price it from: dropped.
                    order.end(OrderStatus::Canceled, now);
                    let id = self.orders.next_id();
                    self.orders.add(order, &[]);
                    return id;
                }
                None => {}
            }
            self.stats.triggers_fired += 1;
        }
        let mut touched = Vec::new();
        let mut deals = Vec::new();
        match self.allowed(&order, order.amount) {
            Some(amount) => {
                order.amount = amount;
                let limit = order.price().map(|p| p.value);
                let mut taker = Taker::New {
                    order: &mut order,
                    deals: &mut deals,
                };
                let took = self.take(&mut taker, limit, &mut touched);
                if let Some(status) = rest_status(&order, took) {
                    order.end(status, self.clock.now_us());
                }
            }
            None => order.end(unreducible(&order), now),
        }
        let id = self.orders.next_id();
        if order.status == OrderStatus::Filled {
            self.stats.filled_orders += 1;
        }
        self.orders.add(order, &deals);
        for maker in touched {
            self.settle(maker);
        }
        self.settle(id);
        id
    }

    /// Activates the waiting stop order `id` if the market's price already reached it.
    pub(super) fn activate_if_reached(&mut self, id: u64) {
        let reached = self.orders.get(id).is_some_and(|o| {
            o.waiting()
                && self.price(o.market()).is_some_and(|price| {
                    o.activation()
                        .is_some_and(|a| stored::reached(o.request.trigger_side(), price, a.value))
                })
        });
        if reached {
            self.activate(id);
        }
    }

    /// Activates the waiting stop order `id` at the market's price: a stop-market order
    /// executes as a market order, a stop-limit order as a limit order (resting with what it
    /// cannot execute). A reduce-only order is cut to its position, or — with none left —
    /// `AUTO_CANCELED_REDUCE_ONLY`.
    fn activate(&mut self, id: u64) {
        if !self.orders.get(id).is_some_and(StoredOrder::waiting) {
            return;
        }
        let now = self.clock.now_us();
        self.stats.triggers_fired += 1;
        // A stop-BBO order is priced, a TPSL leg sized, as it activates (`armed.rs`).
        let armed = match self
            .orders
            .get(id)
            .map(|o| (o.needs_arming(), self.armed(o)))
        {
            Some((false, _)) | None => None,
            Some((true, Some(armed))) => Some(armed),
            Some((true, None)) => {
                self.end_order(id, OrderStatus::Canceled);
                self.settle(id);
                return;
            }
        };
        let Some(order) = self.orders.activate(id, now, armed).cloned() else {
            return;
        };
        match self.allowed(&order, order.amount) {
            None => {
                self.end_order(id, unreducible(&order));
            }
            Some(amount) => {
                if amount < order.amount {
                    self.orders.update(id, |o| o.amount = amount);
                }
                // An OCO's stop-loss leg cancels its take-profit leg as it activates.
                self.settle(id);
                let limit = order.price().map(|p| p.value);
                let mut touched = Vec::new();
                let took = self.take(&mut Taker::Stored(id), limit, &mut touched);
                if let Some(status) = self.orders.get(id).and_then(|o| rest_status(o, took)) {
                    self.end_order(id, status);
                }
                for maker in touched {
                    self.settle(maker);
                }
            }
        }
        self.settle(id);
    }

    /// Sets `market`'s price (a positive plain decimal) with no limit on the volume traded:
    /// see [`State::move_price`]. Returns how many stop orders it activated.
    pub(crate) fn set_price(&mut self, market: &str, price: &str) -> Result<usize, SandboxError> {
        let value = decimal::parse_positive(price).ok_or_else(|| SandboxError::InvalidValue {
            field: "price",
            value: price.to_owned(),
            reason: "not a positive plain decimal",
        })?;
        self.move_price(market, value, None)
            .map(|moved| moved.triggered)
    }

    /// Moves `market`'s price to `price`: executes the resting orders it crosses, best first,
    /// each at its own price as maker, as far as `volume` (in the stock currency) goes — all of
    /// them without one — then activates the stop orders it reached, in id order.
    pub(crate) fn move_price(
        &mut self,
        market: &str,
        price: Decimal,
        volume: Option<Decimal>,
    ) -> Result<Moved, SandboxError> {
        *self
            .prices
            .get_mut(market)
            .ok_or_else(|| SandboxError::UnknownMarket(market.to_owned()))? = price;
        let mut moved = Moved::default();
        let mut volume = volume;
        for side in [Side::Buy, Side::Sell] {
            while volume.is_none_or(|v| v > Decimal::ZERO) {
                let Some(id) = self.orders.crossed(market, side, price) else {
                    break;
                };
                let left = self
                    .orders
                    .get(id)
                    .map(StoredOrder::left)
                    .unwrap_or_default();
                let executed = self.fill_crossed(id, volume.map_or(left, |v| v.min(left)));
                if !executed.is_zero() {
                    moved.filled += 1;
                    volume = volume.map(|v| v - executed);
                }
                self.settle(id);
                if executed.is_zero() && self.orders.crossed(market, side, price) == Some(id) {
                    // Cannot happen: an order that executes nothing is canceled.
                    break;
                }
            }
        }
        for id in self.orders.reached(market, price) {
            if self.orders.get(id).is_some_and(StoredOrder::waiting) {
                self.activate(id);
                moved.triggered += 1;
            }
        }
        // The new price moves the margin of every account holding a position here.
        self.market_moved(market);
        self.settle_risk();
        Ok(moved)
    }
}

/// How a taker's rest ends after its walk: `None` when it is done or rests (a limit order
/// without `ioc` at its limit), else the status it ends with — `CANCELED` for what `ioc`, a
/// market order with nothing left to take or a fill the balance cannot fund leaves,
/// `CANCELED_STP` for self-trade prevention.
fn rest_status(order: &StoredOrder, took: Took) -> Option<OrderStatus> {
    match took {
        Took::Done => None,
        Took::AtLimit if order.price().is_some() && !order.request.flags.ioc => None,
        Took::AtLimit | Took::Unfunded => Some(OrderStatus::Canceled),
        Took::SelfTrade => Some(OrderStatus::CanceledStp),
    }
}

/// How an order that may only reduce, with no position left to reduce, ends:
/// `AUTO_CANCELED_REDUCE_ONLY` when it is reduce-only, `CANCELED` for a hedge-mode order
/// against its side.
fn unreducible(order: &StoredOrder) -> OrderStatus {
    if order.request.reduce_only {
        OrderStatus::AutoCanceledReduceOnly
    } else {
        OrderStatus::Canceled
    }
}

/// The position an order acts on: `BOTH` in one-way mode (whatever was sent: the docs say
/// the field is ignored there), the sent `LONG`/`SHORT` in hedge mode, else code 114.
pub(super) fn resolve_position_side(
    mode: PositionMode,
    sent: Option<PositionSide>,
) -> Result<PositionSide, Rejection> {
    match (mode, sent) {
        (PositionMode::Hedge, Some(side @ (PositionSide::Long | PositionSide::Short))) => Ok(side),
        (PositionMode::Hedge, _) => Err(Rejection::validation(
            114,
            "positionSide",
            vec!["Hedge mode position side does not match".to_owned()],
        )),
        _ => Ok(PositionSide::Both),
    }
}

/// 31: the market vanished between the field rules and execution (cannot happen: both run
/// under one lock).
fn market_unavailable() -> Rejection {
    Rejection::validation(31, "market", vec!["Market is not available.".to_owned()])
}

/// A key that passed authentication but has no account (cannot happen: both are checked
/// under one lock).
fn unauthorized() -> Rejection {
    Rejection {
        status: http::StatusCode::UNAUTHORIZED,
        code: 10,
        message: "Unauthorized request.",
        errors: std::collections::BTreeMap::new(),
    }
}

/// What one step of a price path did ([`crate::Sandbox::follow_price_path`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PriceMove {
    /// The market.
    pub market: String,
    /// The price it moved to.
    pub price: String,
    /// Resting limit orders that executed, in full or in part.
    pub filled: usize,
    /// Stop orders activated.
    pub triggered: usize,
}

impl State {
    /// Checks every step of a path for `market` without moving anything.
    pub(crate) fn check_path(
        &self,
        market: &str,
        steps: &[crate::config::PriceStep],
    ) -> Result<(), SandboxError> {
        if self.price(market).is_none() {
            return Err(SandboxError::UnknownMarket(market.to_owned()));
        }
        steps.iter().try_for_each(|step| step.parse().map(|_| ()))
    }

    /// Moves `market` along `steps`, in order, once all were checked: what each did.
    pub(crate) fn follow(
        &mut self,
        market: &str,
        steps: &[crate::config::PriceStep],
    ) -> Result<Vec<PriceMove>, SandboxError> {
        self.check_path(market, steps)?;
        let mut moves = Vec::with_capacity(steps.len());
        for step in steps {
            let (price, volume) = step.parse()?;
            let moved = self.move_price(market, price, volume)?;
            moves.push(PriceMove {
                market: market.to_owned(),
                price: decimal::text(price),
                filled: moved.filled,
                triggered: moved.triggered,
            });
        }
        Ok(moves)
    }
}

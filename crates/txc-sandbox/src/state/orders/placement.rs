//! Placing orders: market orders fill at once at the market's price, trigger orders rest
//! until a price move reaches them ([`State::set_price`]) and then fill or are canceled.
//!
//! The field rules ran before ([`crate::rules`]); these checks need the account's state and
//! run in this order, nothing changing until all passed: `clientOrderId` among open orders
//! (36), hedge-mode position side (114), reduce-only (116), margin (10).

use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;

use super::stored::{self, StoredOrder};
use crate::config::{MarketSpec, PositionMode, SandboxError};
use crate::rules::OrderRequest;
use crate::state::State;
use crate::state::positions::{Fill, PositionKey, PositionState, Terms, plan_fill};
use crate::wire::{OrderRecord, OrderStatus, PositionSide, Rejection, Side, decimal};

impl State {
    /// Places an order of `api_key`: fills a market order, rests (or immediately fires) a
    /// trigger order. Returns the order record to answer with.
    /// The look-ups show it `visible_after` its creation.
    pub(crate) fn place(
        &mut self,
        api_key: &str,
        request: OrderRequest,
        visible_after: Duration,
    ) -> Result<OrderRecord, Rejection> {
        let markets = Arc::clone(&self.markets);
        let market = markets
            .get(&request.market)
            .ok_or_else(market_unavailable)?;
        let price = self.price(&market.name).ok_or_else(market_unavailable)?;
        if let Some(id) = &request.client_order_id
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
        let mode = account.mode();
        let position_side = resolve_position_side(mode, request.position_side)?;
        let key: PositionKey = (api_key.to_owned(), market.name.clone(), position_side);
        let position = self.positions.get(&key);
        let amount = allowed_amount(mode, position_side, &request, request.amount, position)
            .ok_or_else(Rejection::reduce_only)?;

        let resting = request
            .activation
            .as_ref()
            .is_some_and(|a| !stored::reached(request.side, price, a.value));
        let now = self.clock.now_us();
        let mut order = StoredOrder {
            id: 0,
            api_key: api_key.to_owned(),
            position_side,
            amount: request.amount,
            oto_id: None,
            status: OrderStatus::Open,
            deal_money: Decimal::ZERO,
            deal_stock: Decimal::ZERO,
            deal_fee: Decimal::ZERO,
            created_us: now,
            activated_us: None,
            finished_us: None,
            visible_from_us: now
                .saturating_add(u64::try_from(visible_after.as_micros()).unwrap_or(u64::MAX)),
            request,
        };
        if resting {
            // The margin must cover the order at its activation price, but nothing is locked
            // until it fires; a reduce-only order is cut to the position when it fires.
            let activation = order.activation().map_or(price, |a| a.value);
            let terms = self.terms(api_key, market, activation)?;
            plan_fill(
                position,
                self.balance_of(api_key, market),
                delta(order.request.side, order.amount),
                terms,
            )?;
        } else {
            order.amount = amount;
            // The id the book gives it, for the position's history.
            order.id = self.orders.next_id();
            let fill = self.fill(market, &key, &order, price)?;
            filled(&mut order, &fill, now);
            if order.activation().is_some() {
                order.activated_us = Some(now);
                self.stats.triggers_fired += 1;
            }
            self.stats.filled_orders += 1;
        }
        let oto = order.request.stop_loss.is_some() || order.request.take_profit.is_some();
        let order = self
            .orders
            .add(order, oto)
            .ok_or_else(Rejection::internal)?;
        Ok(order.record())
    }

    /// Sets `market`'s price and fires the trigger orders it reaches, in id order. Returns how
    /// many fired.
    pub(crate) fn set_price(&mut self, market: &str, price: &str) -> Result<usize, SandboxError> {
        let value = decimal::parse_positive(price).ok_or_else(|| SandboxError::InvalidValue {
            field: "price",
            value: price.to_owned(),
            reason: "not a positive plain decimal",
        })?;
        let price = self
            .prices
            .get_mut(market)
            .ok_or_else(|| SandboxError::UnknownMarket(market.to_owned()))?;
        *price = value;
        let reached = self.orders.reached(market, value);
        for &id in &reached {
            self.fire(id, value);
        }
        Ok(reached.len())
    }

    /// Fires the open trigger order `id` at `price`: it fills (a reduce-only order cut
    /// to the position), or is canceled — `AUTO_CANCELED_REDUCE_ONLY` when a reduce-only order
    /// has nothing left to reduce, `CANCELED` when the margin no longer covers it.
    fn fire(&mut self, id: u64, price: Decimal) {
        let Some(mut order) = self.orders.get(id).cloned() else {
            return;
        };
        let now = self.clock.now_us();
        let key: PositionKey = (
            order.api_key.clone(),
            order.market().to_owned(),
            order.position_side,
        );
        let mode = self
            .accounts
            .get(&order.api_key)
            .map_or(PositionMode::OneWay, |a| a.mode());
        let position = self.positions.get(&key);
        let allowed = allowed_amount(
            mode,
            order.position_side,
            &order.request,
            order.amount,
            position,
        );
        let markets = Arc::clone(&self.markets);
        let market = markets.get(order.market());
        order.activated_us = Some(now);
        self.stats.triggers_fired += 1;
        match (allowed, market) {
            (Some(amount), Some(market)) => {
                order.amount = amount;
                match self.fill(market, &key, &order, price) {
                    Ok(fill) => {
                        filled(&mut order, &fill, now);
                        self.stats.filled_orders += 1;
                    }
                    Err(_) => canceled(&mut order, OrderStatus::Canceled, now),
                }
            }
            (None, _) if order.request.reduce_only => {
                canceled(&mut order, OrderStatus::AutoCanceledReduceOnly, now);
            }
            _ => canceled(&mut order, OrderStatus::Canceled, now),
        }
        self.orders.update(id, |entry| *entry = order);
    }

    /// Executes `order` at `price`, updating the balance and the position.
    fn fill(
        &mut self,
        market: &MarketSpec,
        key: &PositionKey,
        order: &StoredOrder,
        price: Decimal,
    ) -> Result<Fill, Rejection> {
        let terms = self.terms(&order.api_key, market, price)?;
        let position = self.positions.get(key);
        let fill = plan_fill(
            position,
            self.balance_of(&order.api_key, market),
            delta(order.request.side, order.amount),
            terms,
        )?;
        let account = self
            .accounts
            .get_mut(&order.api_key)
            .ok_or_else(unauthorized)?;
        account
            .balances
            .insert(market.collateral.clone(), fill.balance);
        self.record_fill(key, order, &fill, price);
        self.account_changed(&order.api_key);
        Ok(fill)
    }

    fn terms(
        &self,
        api_key: &str,
        market: &MarketSpec,
        price: Decimal,
    ) -> Result<Terms, Rejection> {
        let account = self.accounts.get(api_key).ok_or_else(unauthorized)?;
        Ok(Terms {
            price,
            fee_rate: market.taker_fee,
            leverage: account.spec.leverage,
        })
    }

    fn balance_of(&self, api_key: &str, market: &MarketSpec) -> Decimal {
        self.accounts
            .get(api_key)
            .map(|a| a.balance(&market.collateral))
            .unwrap_or_default()
    }
}

/// The signed quantity of an order: positive for buys.
fn delta(side: Side, amount: Decimal) -> Decimal {
    match side {
        Side::Buy => amount,
        Side::Sell => -amount,
    }
}

/// Marks `order` filled by `fill` at `now`.
fn filled(order: &mut StoredOrder, fill: &Fill, now: u64) {
    order.status = OrderStatus::Filled;
    order.deal_money = fill.deal_money;
    order.deal_stock = order.amount;
    order.deal_fee = fill.fee;
    order.finished_us = Some(now);
}

/// Marks `order` canceled with `status` at `now`.
fn canceled(order: &mut StoredOrder, status: OrderStatus, now: u64) {
    order.status = status;
    order.finished_us = Some(now);
}

/// The position an order acts on: `BOTH` in one-way mode (whatever was sent: the docs say
/// the field is ignored there), the sent `LONG`/`SHORT` in hedge mode, else code 114.
fn resolve_position_side(
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

/// The amount an order may execute: `amount`, or for an order that may only reduce — a
/// reduce-only order, or in hedge mode an order against its side (sell `LONG`, buy `SHORT`) —
/// at most the position it reduces ("If the order amount exceeds the current position size,
/// the system reduces the order to match"). `None` when there is no such position (116).
fn allowed_amount(
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

//! Order execution: placing market and trigger orders, firing triggers when a price moves.
//!
//! Checks run in this order, and nothing changes until all passed: market (31), amount
//! (32), client order id among open orders (36), hedge-mode position side (114),
//! reduce-only (116), margin (10).

use rust_decimal::Decimal;
use serde_json::Value;
use txc_types::{Order, OrderStatus, OrderType, Oto, PositionSide, Side};

use super::State;
use super::markets::{check_amount, unavailable};
use super::orders::{self, OrderRequest, StoredOrder};
use super::positions::{Fill, PositionKey, PositionState, Terms, plan_fill};
use crate::SandboxError;
use crate::answer::Rejection;
use crate::clock;
use crate::config::{MarketSpec, PositionMode};
use crate::decimal;

impl State {
    /// Places an order of `api_key`: fills a market order, rests (or immediately fires) a
    /// trigger order. Returns the order record to answer with.
    pub(crate) fn place(
        &mut self,
        api_key: &str,
        request: OrderRequest,
    ) -> Result<Order, Rejection> {
        let market = self
            .markets
            .get(&request.market)
            .cloned()
            .ok_or_else(unavailable)?;
        check_amount(&market, request.amount)?;
        if let Some(id) = &request.client_order_id
            && self.orders.client_id_open(api_key, &market.name, id)
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
        check_direction(mode, position_side, &request, position)?;

        let mut order = self.record(&request, position_side);
        match &request.activation {
            Some((activation, _)) if !orders::reached(request.side, market.price, *activation) => {
                // Resting: the margin must cover the order at its activation price, but
                // nothing is locked until it fires.
                let terms = self.terms(api_key, &market, *activation)?;
                plan_fill(
                    position,
                    self.balance_of(api_key, &market),
                    request.delta(),
                    terms,
                )?;
                order.status = Some(OrderStatus::Open);
                order.deal_money = Some("0".to_owned());
                order.deal_stock = Some("0".to_owned());
                order.left = Some(decimal::text(request.amount));
                order.deal_fee = Some("0".to_owned());
            }
            activation => {
                let fill = self.fill(api_key, &market, &key, &request, market.price)?;
                filled(&mut order, &request, &fill);
                if activation.is_some() {
                    order.activated = Some(true);
                    self.stats.triggers_fired += 1;
                }
                self.stats.filled_orders += 1;
            }
        }
        self.orders.push(StoredOrder {
            order: order.clone(),
            api_key: api_key.to_owned(),
            request,
            position_side,
        });
        Ok(order)
    }

    /// Sets `market`'s price and fires the trigger orders it reaches, in id order. Returns how
    /// many fired.
    pub(crate) fn set_price(&mut self, market: &str, price: &str) -> Result<usize, SandboxError> {
        let value = decimal::parse_positive(price).ok_or_else(|| SandboxError::InvalidValue {
            field: "price",
            value: price.to_owned(),
            reason: "not a positive plain decimal",
        })?;
        let spec = self
            .markets
            .get_mut(market)
            .ok_or_else(|| SandboxError::UnknownMarket(market.to_owned()))?;
        spec.price = value;
        let reached = self.orders.reached(market, value);
        for &index in &reached {
            self.fire(index, value);
        }
        Ok(reached.len())
    }

    /// Sets the `ticker` balance of `api_key`.
    pub(crate) fn set_balance(
        &mut self,
        api_key: &str,
        ticker: &str,
        amount: &str,
    ) -> Result<(), SandboxError> {
        let value = decimal::parse(amount).ok_or_else(|| SandboxError::InvalidValue {
            field: "amount",
            value: amount.to_owned(),
            reason: "not a non-negative plain decimal",
        })?;
        if ticker.is_empty() {
            return Err(SandboxError::InvalidValue {
                field: "ticker",
                value: String::new(),
                reason: "empty",
            });
        }
        let account = self
            .accounts
            .get_mut(api_key)
            .ok_or_else(|| SandboxError::UnknownAccount(api_key.to_owned()))?;
        account.balances.insert(ticker.to_owned(), value);
        Ok(())
    }

    /// Fires the open trigger order at `index` at `price`: it fills, or — when the position or
    /// margin no longer allows it — is canceled.
    fn fire(&mut self, index: usize, price: Decimal) {
        let Some(stored) = self.orders.get(index).cloned() else {
            return;
        };
        let key: PositionKey = (
            stored.api_key.clone(),
            stored.request.market.clone(),
            stored.position_side,
        );
        let outcome = self
            .markets
            .get(&stored.request.market)
            .cloned()
            .ok_or_else(unavailable)
            .and_then(|market| {
                let mode = self
                    .accounts
                    .get(&stored.api_key)
                    .ok_or_else(unauthorized)?
                    .mode();
                let position = self.positions.get(&key);
                check_direction(mode, stored.position_side, &stored.request, position)?;
                self.fill(&stored.api_key, &market, &key, &stored.request, price)
            });
        self.stats.triggers_fired += 1;
        let Some(entry) = self.orders.get_mut(index) else {
            return;
        };
        entry.order.activated = Some(true);
        match outcome {
            Ok(fill) => {
                filled(&mut entry.order, &stored.request, &fill);
                self.stats.filled_orders += 1;
            }
            Err(_) => entry.order.status = Some(OrderStatus::Canceled),
        }
    }

    /// Executes `request` at `price`, updating the balance and the position.
    fn fill(
        &mut self,
        api_key: &str,
        market: &MarketSpec,
        key: &PositionKey,
        request: &OrderRequest,
        price: Decimal,
    ) -> Result<Fill, Rejection> {
        let terms = self.terms(api_key, market, price)?;
        let position = self.positions.get(key);
        let fill = plan_fill(
            position,
            self.balance_of(api_key, market),
            request.delta(),
            terms,
        )?;
        let account = self.accounts.get_mut(api_key).ok_or_else(unauthorized)?;
        account
            .balances
            .insert(market.collateral.clone(), fill.balance);
        self.positions.set(key.clone(), fill.position);
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

    /// The order record of a new order, before it is filled or rests.
    fn record(&self, request: &OrderRequest, position_side: PositionSide) -> Order {
        let mut order = Order::default();
        order.order_id = Some(self.orders.peek_id());
        order.client_order_id = Some(request.client_order_id.clone().unwrap_or_default());
        order.market = Some(request.market.clone());
        order.side = Some(request.side);
        order.timestamp = Some(clock::now_seconds());
        order.amount = Some(decimal::text(request.amount));
        order.stp = Some(request.stp);
        order.position_side = Some(position_side);
        order.reduce_only = Some(request.reduce_only);
        if request.stop_loss.is_some() || request.take_profit.is_some() {
            let mut oto = Oto::default();
            oto.oto_id = Some(self.orders.peek_oto_id());
            oto.stop_loss.clone_from(&request.stop_loss);
            oto.take_profit.clone_from(&request.take_profit);
            order.oto = Some(oto);
        } else {
            order.extra.insert("oto".to_owned(), Value::Null);
        }
        match &request.activation {
            None => order.order_type = Some(OrderType::Market),
            Some((_, text)) => {
                order.order_type = Some(OrderType::StopMarket);
                order.activation_price = Some(text.clone());
                order.activated = Some(false);
                order.activation_condition = Some(orders::condition(request.side));
            }
        }
        order
    }

    /// The open positions of `api_key`.
    pub(crate) fn positions_of(&self, api_key: &str) -> Vec<super::Position> {
        self.positions.of(api_key)
    }
}

/// Marks `order` filled by `fill`.
fn filled(order: &mut Order, request: &OrderRequest, fill: &Fill) {
    order.status = Some(OrderStatus::Filled);
    order.deal_money = Some(decimal::text(fill.deal_money));
    order.deal_stock = Some(decimal::text(request.amount));
    order.left = Some("0".to_owned());
    order.deal_fee = Some(decimal::text(fill.fee));
}

/// The position an order acts on: `BOTH` in one-way mode (whatever was sent), the sent
/// `LONG`/`SHORT` in hedge mode (code 114 otherwise).
fn resolve_position_side(
    mode: PositionMode,
    sent: Option<PositionSide>,
) -> Result<PositionSide, Rejection> {
    match (mode, sent) {
        (PositionMode::Hedge, Some(side @ (PositionSide::Long | PositionSide::Short))) => Ok(side),
        (PositionMode::Hedge, _) => Err(Rejection::validation(
            114,
            "positionSide",
            vec!["Position side must be LONG or SHORT in hedge mode.".to_owned()],
        )),
        _ => Ok(PositionSide::Both),
    }
}

/// Code 116 unless an order that may only reduce does reduce: reduce-only orders, and in hedge
/// mode orders against their side (sell LONG, buy SHORT), need a position on the other side at
/// least as large as the amount.
fn check_direction(
    mode: PositionMode,
    position_side: PositionSide,
    request: &OrderRequest,
    position: PositionState,
) -> Result<(), Rejection> {
    let closes_hedge = mode == PositionMode::Hedge
        && matches!(
            (position_side, request.side),
            (PositionSide::Long, Side::Sell) | (PositionSide::Short, Side::Buy)
        );
    if !(request.reduce_only || closes_hedge) {
        return Ok(());
    }
    let delta = request.delta();
    let reduces = !position.qty.is_zero()
        && position.qty.is_sign_positive() != delta.is_sign_positive()
        && request.amount <= position.qty.abs();
    if reduces {
        Ok(())
    } else {
        Err(Rejection::reduce_only())
    }
}

/// A key that passed authentication but has no account (cannot happen: both are checked
/// under one lock).
fn unauthorized() -> Rejection {
    Rejection {
        status: http::StatusCode::UNAUTHORIZED,
        code: 10,
        message: "Unauthorized request.",
        field: "",
        errors: Vec::new(),
    }
}

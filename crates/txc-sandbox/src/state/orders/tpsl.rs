//! Take-profit and stop-loss attached to a position (`collateral_order_tpsl_place`, the docs'
//! `websocket/order-management` page): two stop-market legs on the side that closes the
//! position, sized at whatever it holds when one fires.
//!
//! - **Needs an open position** (104 `margin position not exists`); in hedge mode the sent
//!   `LONG`/`SHORT` names it (114 without one, as for orders).
//! - **Triggers on the right side of the market**: on a long the take-profit above the price
//!   (105 otherwise) and the stop-loss below it (106); on a short the reverse. The take-profit
//!   of a long activates at or above its price although it sells (and so on): each leg waits
//!   by its own direction, not its side's.
//! - **The legs wait with amount `0`**, independent of each other (canceling one leaves the
//!   other); the one that fires takes the position's size then and executes as a market
//!   order — closing the position, which cancels the other.
//! - **When the position closes** — by a leg, an order, a close, a liquidation — or flips, its
//!   waiting legs are canceled: they protect that position, not the next one.
//! - **A new pair replaces** the waiting leg of the same kind on the same position (the
//!   sandbox's choice: the docs do not say whether legs stack).
//! - `order_cancel` cancels a leg by its id; `order_cancel_conditional` does not know them
//!   (6); `order_modify` of a leg is refused with 160 (`ws/orders.rs`).

use super::execution::{key_of, opposite};
use super::placement::resolve_position_side;
use super::stored::{StoredOrder, TpslLeg};
use crate::rules::{OrderRequest, Price, SocketTerms, TpslRequest};
use crate::state::State;
use crate::state::positions::PositionKey;
use crate::wire::{OrderStatus, Rejection, Side};

/// The legs placed: their order ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TpslPlaced {
    pub(crate) take_profit: Option<u64>,
    pub(crate) stop_loss: Option<u64>,
}

impl State {
    /// Attaches `request`'s legs to `api_key`'s position: their ids, or the refusal (104, 105,
    /// 106, 114) with nothing changed.
    pub(crate) fn place_tpsl(
        &mut self,
        api_key: &str,
        request: &TpslRequest,
    ) -> Result<TpslPlaced, Rejection> {
        let mode = self
            .accounts
            .get(api_key)
            .map(|a| a.mode())
            .ok_or_else(Rejection::internal)?;
        let position_side = resolve_position_side(mode, request.position_side)?;
        let key: PositionKey = (api_key.to_owned(), request.market.clone(), position_side);
        let qty = self.positions.get(&key).qty;
        let position_id = self
            .positions
            .id_of(&key)
            .filter(|_| !qty.is_zero())
            .ok_or_else(|| refusal(104, "market", "margin position not exists"))?;
        let price = self
            .price(&request.market)
            .ok_or_else(Rejection::internal)?;
        let long = qty.is_sign_positive();
        // A long gains as the price rises: its take-profit sits above, its stop-loss below.
        let (profit_rises, closing) = if long {
            (Side::Buy, Side::Sell)
        } else {
            (Side::Sell, Side::Buy)
        };
        let above = |p: &Price| p.value > price;
        let below = |p: &Price| p.value < price;
        if let Some(tp) = &request.take_profit
            && !(if long { above(tp) } else { below(tp) })
        {
            return Err(refusal(
                105,
                "take_profit_activation_price",
                "wrong activation price for take profit",
            ));
        }
        if let Some(sl) = &request.stop_loss
            && !(if long { below(sl) } else { above(sl) })
        {
            return Err(refusal(
                106,
                "stop_loss_activation_price",
                "wrong activation price for stop loss",
            ));
        }
        let now = self.clock.now_us();
        let mut leg = |take_profit: bool, at: &Price, trigger: Side| {
            self.replace_tpsl(&key, take_profit);
            let request = OrderRequest {
                activation: Some(at.clone()),
                position_side: Some(position_side),
                stp: request.stp,
                terms: SocketTerms {
                    trigger: Some(trigger),
                    ..SocketTerms::default()
                },
                ..OrderRequest::market(&request.market, closing, rust_decimal::Decimal::ZERO)
            };
            let mut order = StoredOrder::new(api_key, request, position_side, now, now);
            order.tpsl = Some(TpslLeg {
                take_profit,
                position_id,
            });
            let id = self.orders.next_id();
            self.orders.add(order, &[]);
            id
        };
        let take_profit = request
            .take_profit
            .as_ref()
            .map(|at| leg(true, at, profit_rises));
        let stop_loss = request
            .stop_loss
            .as_ref()
            .map(|at| leg(false, at, opposite(profit_rises)));
        Ok(TpslPlaced {
            take_profit,
            stop_loss,
        })
    }

    /// Cancels the waiting leg of the kind `take_profit` names on the position `key`.
    fn replace_tpsl(&mut self, key: &PositionKey, take_profit: bool) {
        for id in self.orders.waiting_tpsl() {
            let same = self.orders.get(id).is_some_and(|o| {
                key_of(o) == *key && o.tpsl.is_some_and(|leg| leg.take_profit == take_profit)
            });
            if same {
                self.end_order(id, OrderStatus::Canceled);
                self.stats.canceled_orders += 1;
            }
        }
    }

    /// Cancels the waiting legs whose position is no longer open (closed, or flipped into a
    /// new one).
    pub(super) fn drop_orphan_tpsl(&mut self) {
        for id in self.orders.waiting_tpsl() {
            let orphan = self.orders.get(id).is_some_and(|o| {
                o.tpsl
                    .is_some_and(|leg| self.positions.id_of(&key_of(o)) != Some(leg.position_id))
            });
            if orphan {
                self.end_order(id, OrderStatus::Canceled);
                self.stats.canceled_orders += 1;
            }
        }
    }
}

/// A TPSL refusal: `code` with the docs' message on `field`.
fn refusal(code: i64, field: &str, message: &str) -> Rejection {
    Rejection::inner(code, field, message).with_status(http::StatusCode::BAD_REQUEST)
}

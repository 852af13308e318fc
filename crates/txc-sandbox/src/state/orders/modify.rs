//! Modifying an order (`POST /api/v4/order/modify`): as the spec's note says, the original is
//! canceled and a replacement with a **new `orderId`** is created — the stream sees the
//! original finish (event 3) and the replacement appear (event 1).
//!
//! The replacement is the original with the new values: `amount` (else what the original had
//! left), `price`, `activationPrice`, `stp`; `total` sets a buy stop-market order's amount to
//! `total ÷ activation price`, rounded down to the market's step. It keeps the original's
//! `clientOrderId`, flags, OTO group and OCO or linked order, and is checked as a new order
//! (the market's rules 32/33, margin 10, a post-only order that would take 30) before the
//! original is touched: a refused modify changes nothing. It then executes what it can at
//! once, as any new order. Only open limit, stop-limit and stop-market orders can be
//! modified; a stop order's activation price only while it waits (an activated stop-limit
//! order's replacement is activated too).

use std::time::Duration;

use rust_decimal::Decimal;

use super::placement::ClientIds;
use super::store::OcoLegs;
use crate::rules::{ModifyRequest, market_terms};
use crate::state::State;
use crate::wire::{ActiveOrderRecord, OrderStatus, OrderType, Rejection, Side};

impl State {
    /// Replaces `api_key`'s open order named by `request` with a new one: the replacement's
    /// record, or the rejection (400 code 2 `Unexecuted order was not found.` for no such open
    /// order, as the spec's example).
    pub(crate) fn modify(
        &mut self,
        api_key: &str,
        request: &ModifyRequest,
        visible_after: Duration,
    ) -> Result<ActiveOrderRecord, Rejection> {
        let original = self
            .orders
            .find_open(api_key, &request.market, &request.which)
            .cloned()
            .ok_or_else(|| {
                Rejection::inner(2, "orderId", "Unexecuted order was not found.")
                    .with_status(http::StatusCode::BAD_REQUEST)
            })?;
        let kind = original.order_type();
        if request.price.is_some() && !kind.has_price() {
            return Err(refuse(
                "price",
                "A stop market order has no price to modify.",
            ));
        }
        if request.activation.is_some() && !original.waiting() {
            return Err(refuse(
                "activationPrice",
                "Only a stop order waiting for its activation price can have it modified.",
            ));
        }
        let buy_stop_market = kind == OrderType::StopMarket && original.side() == Side::Buy;
        if request.total.is_some() && !buy_stop_market {
            return Err(refuse(
                "total",
                "Total is accepted for a buy stop market order only.",
            ));
        }
        let markets = std::sync::Arc::clone(&self.markets);
        let market = markets
            .get(&request.market)
            .ok_or_else(Rejection::internal)?;
        let mut replacement = original.request.clone();
        if let Some(price) = &request.price {
            replacement.price = Some(price.clone());
        }
        if let Some(activation) = &request.activation {
            replacement.activation = Some(activation.clone());
        }
        if let Some(stp) = request.stp {
            replacement.stp = stp;
        }
        replacement.amount = match (request.amount, request.total) {
            (Some(amount), _) => amount,
            (None, Some(total)) => {
                let activation = replacement
                    .activation
                    .as_ref()
                    .map_or(Decimal::ONE, |a| a.value);
                let amount = total
                    .checked_div(activation)
                    .unwrap_or_default()
                    .trunc_with_scale(market.stock_prec);
                market_terms::check_amount(market, amount)?;
                amount
            }
            (None, None) => original.left(),
        };
        if let Some(at) = replacement
            .price
            .as_ref()
            .or(replacement.activation.as_ref())
        {
            market_terms::check_total(market, replacement.amount, at.value)?;
        }
        let mut order = self.check(api_key, replacement, visible_after, ClientIds::Inherited)?;
        // An activated stop-limit order is a limit order now: so is its replacement.
        order.activated_us = original.activated_us;
        order.oto_id = original.oto_id;
        order.oco_id = original.oco_id;
        order.linked = original.linked;
        // The original ends quietly: its group and its linked order pass to the replacement.
        if let Some(oto_id) = original.oto_id {
            self.orders.settle_oto(oto_id);
        }
        self.end_order(original.id, OrderStatus::Canceled);
        let replaced = self.orders.next_id();
        if let Some(other) = original.linked {
            self.orders.link(other, replaced);
        }
        if let Some(oco_id) = original.oco_id
            && let Some(legs) = self.orders.oco(oco_id)
        {
            let swap = |id: u64| if id == original.id { replaced } else { id };
            self.orders.set_oco(
                oco_id,
                OcoLegs {
                    stop_loss: swap(legs.stop_loss),
                    take_profit: swap(legs.take_profit),
                },
            );
        }
        let id = self.commit(order);
        self.stats.modified_orders += 1;
        self.orders
            .get(id)
            .map(|o| o.active_record())
            .ok_or_else(Rejection::internal)
    }
}

/// 30 on `field`: what the order's kind does not allow (not documented: the default
/// validation code).
fn refuse(field: &str, message: &str) -> Rejection {
    Rejection::validation(30, field, vec![message.to_owned()])
}

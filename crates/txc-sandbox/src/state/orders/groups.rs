//! The conditional orders: OTO groups and OCOs — placing an OCO, what one order's change does
//! to the orders linked with it, an OTO group's activation, and the cancels of a group.
//!
//! - **OCO** (`POST /api/v4/order/collateral/oco`): a stop-limit leg (the stop-loss, created
//!   first) and a limit leg (the take-profit), same side and amount, linked: once one leg
//!   executes anything, activates (the stop-loss leg) or ends, the other is canceled — so an
//!   OCO never executes both legs. Both legs carry the OCO's `clientOrderId`.
//! - **OTO** (a `stopLoss` or `takeProfit` on a market, trigger, limit or stop-limit order):
//!   the order opens a group, pending while it rests. When the order ends by executing —
//!   filled, or (`ioc`, a market or stop order the market could not fill, self-trade
//!   prevention) its rest canceled after executing a part — the group activates for what it
//!   executed: a reduce-only stop-market order at the stop-loss and a reduce-only limit order
//!   at the take-profit, on the other side, linked like an OCO's legs. When it ends having
//!   executed nothing, or is canceled (by the account, a kill switch, a group cancel), the
//!   group ends with it.
//! - **Cancels**: `conditional-cancel` takes an OCO's or an OTO's id (as the conditional
//!   orders list them) and cancels the OCO's two legs, or the OTO's order and with it its
//!   group; `oto-cancel` does the latter for OTO ids only (so it cancels the OTO's order too:
//!   the group is the order and what it would place); `oco-cancel` takes the OCO's id (or its
//!   `clientOrderId`) and answers the canceled legs. Canceling one order by `order/cancel`
//!   cancels its linked order.

use std::time::Duration;

use super::execution::opposite;
use super::placement::ClientIds;
use super::store::OcoLegs;
use crate::rules::{CancelRequest, GroupRef, OcoRequest, OrderRef, OrderRequest};
use crate::state::State;
use crate::wire::{OcoCreatedRecord, OcoRecord, OrderStatus, Rejection};

/// Which ids a group cancel takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupKind {
    /// An OCO's or an OTO's (`conditional-cancel`).
    Any,
    /// An OTO's only (`oto-cancel`).
    Oto,
}

impl State {
    /// What the change of the order `id` does to its links: once it is engaged (executed
    /// anything, activated, ended) its linked order is canceled; once it ended, its pending
    /// OTO group activates for what it executed — or ends, when it executed nothing.
    pub(super) fn settle(&mut self, id: u64) {
        let Some(order) = self.orders.get(id) else {
            return;
        };
        let (engaged, open, linked, oto) =
            (order.engaged(), order.is_open(), order.linked, order.oto_id);
        let executed = !order.deal_stock.is_zero();
        if engaged && let Some(other) = linked {
            self.end_order(other, OrderStatus::Canceled);
        }
        if !open
            && let Some(oto_id) = oto
            && self.orders.pending_oto(oto_id) == Some(id)
        {
            self.orders.settle_oto(oto_id);
            if executed {
                self.activate_oto(id);
            }
        }
    }

    /// Places the OTO group of the order `id` for what it executed: a reduce-only stop-market
    /// (or, for the socket's `margin_stop_limit` exit, stop-limit) order at its stop-loss, then a reduce-only limit order at its take-profit, both on the
    /// other side and linked. An order the position no longer allows is not placed.
    fn activate_oto(&mut self, id: u64) {
        let Some(parent) = self.orders.get(id).cloned() else {
            return;
        };
        let base = OrderRequest {
            position_side: Some(parent.position_side),
            reduce_only: true,
            stp: parent.request.stp,
            ..OrderRequest::market(parent.market(), opposite(parent.side()), parent.deal_stock)
        };
        // A `margin_stop_limit` exit (the socket's OTO) is a stop-limit order limited at its
        // trigger.
        let stop_limit = parent.request.terms.stop_limit_exit;
        let stop_loss = parent.request.stop_loss.clone().map(|price| OrderRequest {
            price: stop_limit.then(|| price.clone()),
            activation: Some(price),
            ..base.clone()
        });
        let take_profit = parent
            .request
            .take_profit
            .clone()
            .map(|price| OrderRequest {
                price: Some(price),
                ..base.clone()
            });
        let mut placed = Vec::new();
        for request in [stop_loss, take_profit].into_iter().flatten() {
            if let Ok(mut order) =
                self.check(&parent.api_key, request, Duration::ZERO, ClientIds::Unique)
            {
                order.placed_by = parent.oto_id;
                placed.push(self.commit(order));
            }
        }
        if let [stop_loss, take_profit] = placed[..] {
            self.orders.link(stop_loss, take_profit);
            self.settle(stop_loss);
            self.settle(take_profit);
        }
    }

    /// Places an OCO of `api_key`: both legs checked before anything changes, the stop-loss
    /// leg stored waiting, the take-profit leg placed (executing what it can at once — which
    /// cancels the stop-loss leg); then a stop-loss leg whose price is already reached
    /// activates (which cancels the take-profit leg).
    pub(crate) fn place_oco(
        &mut self,
        api_key: &str,
        request: &OcoRequest,
        visible_after: Duration,
    ) -> Result<OcoCreatedRecord, Rejection> {
        let mut stop_loss = self.check(
            api_key,
            request.stop_loss_leg(),
            visible_after,
            ClientIds::Unique,
        )?;
        let mut take_profit = self.check(
            api_key,
            request.take_profit_leg(),
            visible_after,
            ClientIds::Unique,
        )?;
        let oco_id = self.orders.new_oco_id();
        stop_loss.oco_id = Some(oco_id);
        take_profit.oco_id = Some(oco_id);
        let stop_loss_id = self.orders.next_id();
        take_profit.linked = Some(stop_loss_id);
        self.orders.add(stop_loss, &[]);
        let take_profit_id = self.commit(take_profit);
        self.orders.link(stop_loss_id, take_profit_id);
        let legs = OcoLegs {
            stop_loss: stop_loss_id,
            take_profit: take_profit_id,
        };
        self.orders.set_oco(oco_id, legs);
        self.activate_if_reached(stop_loss_id);
        self.oco_created(oco_id, legs)
            .ok_or_else(Rejection::internal)
    }

    /// Whether the OCO `legs` is still pending: neither leg executed anything, activated or
    /// ended.
    pub(super) fn oco_pending(&self, legs: OcoLegs) -> bool {
        [legs.stop_loss, legs.take_profit]
            .iter()
            .all(|id| self.orders.get(*id).is_some_and(|o| !o.engaged()))
    }

    /// Cancels `api_key`'s pending OCO on `request.market`, named by its id (`orderId`) or
    /// its `clientOrderId`: its legs as canceled, or 400 code 2 `Unexecuted order was not
    /// found.` (unknown, executed, canceled: not distinguished, as the spec says).
    pub(crate) fn cancel_oco(
        &mut self,
        api_key: &str,
        request: &CancelRequest,
    ) -> Result<OcoRecord, Rejection> {
        let oco_id = match &request.which {
            OrderRef::Id(id) => Some(*id),
            OrderRef::ClientId(client_id) => self
                .orders
                .open_with_client_id(api_key, &request.market, client_id)
                .and_then(|leg| leg.oco_id),
        };
        let (oco_id, legs) = oco_id
            .and_then(|id| Some((id, self.orders.oco(id)?)))
            .filter(|(_, legs)| self.owned(api_key, &request.market, legs.take_profit))
            .filter(|(_, legs)| self.oco_pending(*legs))
            .ok_or_else(|| not_found("orderId"))?;
        self.end_order(legs.stop_loss, OrderStatus::Canceled);
        self.end_order(legs.take_profit, OrderStatus::Canceled);
        self.stats.canceled_orders += 2;
        self.oco_record(oco_id, legs)
            .ok_or_else(Rejection::internal)
    }

    /// Cancels `api_key`'s pending conditional order `group` — an OTO's order with its group,
    /// or (for [`GroupKind::Any`]) an OCO's two legs — or 400 code 2 `Unexecuted order was not
    /// found.` on the id's field.
    pub(crate) fn cancel_group(
        &mut self,
        api_key: &str,
        group: &GroupRef,
        kind: GroupKind,
    ) -> Result<(), Rejection> {
        let field = match kind {
            GroupKind::Any => "id",
            GroupKind::Oto => "otoId",
        };
        if let Some(order) = self.orders.pending_oto(group.id)
            && self.owned(api_key, &group.market, order)
        {
            // The group first, so that the order's end activates nothing.
            self.orders.settle_oto(group.id);
            self.end_order(order, OrderStatus::Canceled);
            self.settle(order);
            self.stats.canceled_orders += 1;
            return Ok(());
        }
        if kind == GroupKind::Any
            && let Some(legs) = self.orders.oco(group.id)
            && self.owned(api_key, &group.market, legs.take_profit)
            && self.oco_pending(legs)
        {
            self.end_order(legs.stop_loss, OrderStatus::Canceled);
            self.end_order(legs.take_profit, OrderStatus::Canceled);
            self.stats.canceled_orders += 2;
            return Ok(());
        }
        Err(not_found(field))
    }

    /// Whether the order `id` is `api_key`'s, open, on `market`.
    fn owned(&self, api_key: &str, market: &str, id: u64) -> bool {
        self.orders
            .get(id)
            .is_some_and(|o| o.api_key == api_key && o.market() == market && o.is_open())
    }
}

/// 400 code 2 `Inner validation failed`, `Unexecuted order was not found.` on `field`: the
/// spec's not-found answer of the conditional cancels.
fn not_found(field: &str) -> Rejection {
    Rejection::inner(2, field, "Unexecuted order was not found.")
        .with_status(http::StatusCode::BAD_REQUEST)
}

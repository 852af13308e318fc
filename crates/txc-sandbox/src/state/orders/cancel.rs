//! Canceling orders: one (`order/cancel`, by id or `clientOrderId`), every open order matching
//! filters (cancel-all, through the order store's index of the account's open orders) and up
//! to 100 named orders (bulk cancel, each answered on its own). The kill switch cancels through
//! the same door ([`State::cancel_at`]).

use super::stored::StoredOrder;
use crate::rules::{BulkItem, CancelAllRequest, CancelRequest, OrderRef};
use crate::state::State;
use crate::wire::{
    ActiveOrderRecord, BulkItemRecord, CanceledRecord, OrderClass, OrderStatus, Rejection,
};

impl State {
    /// Cancels `api_key`'s open order named by `request`: its final state, or 400 code 2
    /// `Inner validation failed` `{"orderId":["Unexecuted order was not found."]}` when there
    /// is no such open order (unknown, another account's, on another market, already filled or
    /// canceled: not distinguished, like the docs' other cancel endpoints).
    pub(crate) fn cancel(
        &mut self,
        api_key: &str,
        request: &CancelRequest,
    ) -> Result<ActiveOrderRecord, Rejection> {
        let record = self
            .cancel_open(api_key, &request.market, &request.which)
            .map(|order| order.active_record())
            .ok_or_else(|| {
                Rejection::inner(2, "orderId", "Unexecuted order was not found.")
                    .with_status(http::StatusCode::BAD_REQUEST)
            })?;
        self.stats.canceled_orders += 1;
        Ok(record)
    }

    /// Cancels `api_key`'s open orders matching `request`; how many.
    pub(crate) fn cancel_all(&mut self, api_key: &str, request: &CancelAllRequest) -> usize {
        let ids: Vec<u64> = self
            .orders
            .listed(api_key, request.market.as_deref(), true)
            .filter(|o| {
                let class = OrderClass::of_market(o.market());
                request.types.as_ref().is_none_or(|t| t.contains(&class))
                    && request
                        .position_side
                        .is_none_or(|side| o.position_side == side)
            })
            .map(|o| o.id)
            .collect();
        let now = self.clock.now_us();
        for &id in &ids {
            self.cancel_at(id, now);
        }
        self.stats.mass_canceled_orders += ids.len() as u64;
        ids.len()
    }

    /// Cancels each of `items` on its own: one record per item, in order.
    pub(crate) fn cancel_bulk(
        &mut self,
        api_key: &str,
        items: Vec<BulkItem>,
    ) -> Vec<BulkItemRecord> {
        items
            .into_iter()
            .map(|item| match item {
                BulkItem::Invalid(record) => record,
                BulkItem::Cancel(request) => {
                    let canceled = self
                        .cancel_open(api_key, &request.market, &request.which)
                        .map(|order| CanceledRecord {
                            order_id: order.id,
                            client_order_id: order.client_order_id().unwrap_or_default().to_owned(),
                            market: order.market().to_owned(),
                        });
                    match canceled {
                        Some(record) => {
                            self.stats.mass_canceled_orders += 1;
                            BulkItemRecord::ok(record)
                        }
                        None => BulkItemRecord::failed(
                            404,
                            "Order not found",
                            match request.which {
                                OrderRef::Id(_) => "orderId",
                                OrderRef::ClientId(_) => "clientOrderId",
                            },
                            &["Order does not exist or already cancelled"],
                        ),
                    }
                }
            })
            .collect()
    }

    /// Cancels `api_key`'s open order on `market` named by `which`, now; the order as
    /// canceled, or `None` when there is no such open order.
    fn cancel_open(
        &mut self,
        api_key: &str,
        market: &str,
        which: &OrderRef,
    ) -> Option<StoredOrder> {
        let id = self.orders.find_open(api_key, market, which)?.id;
        let now = self.clock.now_us();
        self.cancel_at(id, now)
    }

    /// Cancels the open order `id` (`CANCELED`, finished at `now_us`) and settles its links:
    /// its linked order is canceled, its pending OTO group ends with it (whatever it
    /// executed); the order as canceled, or `None` when it was not open.
    pub(super) fn cancel_at(&mut self, id: u64, now_us: u64) -> Option<StoredOrder> {
        self.cancel_as(id, OrderStatus::Canceled, now_us)
    }

    /// [`State::cancel_at`] with `status` for the order itself.
    pub(super) fn cancel_as(
        &mut self,
        id: u64,
        status: OrderStatus,
        now_us: u64,
    ) -> Option<StoredOrder> {
        let order = self.orders.get(id).filter(|o| o.is_open())?;
        if let Some(oto_id) = order.oto_id
            && self.orders.pending_oto(oto_id) == Some(id)
        {
            self.orders.settle_oto(oto_id);
        }
        let canceled = self
            .orders
            .update(id, |order| order.end(status, now_us))
            .cloned();
        self.settle(id);
        canceled
    }
}

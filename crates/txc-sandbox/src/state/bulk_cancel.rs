//! Canceling many orders at once: cancel-all (every open order matching filters, through the
//! order book's index of the account's open orders) and bulk cancel (up to 100 named orders,
//! each answered on its own).

use super::{OrderRef, State};
use crate::rules::{BulkItem, CancelAllRequest};
use crate::wire::{BulkItemRecord, CanceledRecord, OrderClass, OrderStatus};

impl State {
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
            self.orders.update(id, |order| {
                order.status = OrderStatus::Canceled;
                order.finished_us = Some(now);
            });
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
                    match self.cancel_open(api_key, &request.market, &request.which) {
                        Some(record) => {
                            self.stats.mass_canceled_orders += 1;
                            BulkItemRecord::canceled(record)
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

    /// Cancels `api_key`'s open order on `market` named by `which`; its identifiers, or `None`
    /// when there is no such open order.
    fn cancel_open(
        &mut self,
        api_key: &str,
        market: &str,
        which: &OrderRef,
    ) -> Option<CanceledRecord> {
        let id = self.orders.find_open(api_key, market, which)?.id;
        let now = self.clock.now_us();
        let order = self.orders.update(id, |order| {
            order.status = OrderStatus::Canceled;
            order.finished_us = Some(now);
        })?;
        Some(CanceledRecord {
            order_id: order.id,
            client_order_id: order.client_order_id().unwrap_or_default().to_owned(),
            market: order.market().to_owned(),
        })
    }
}

//! What a socket-placed stop order becomes as it activates (the docs' `websocket/order-management`
//! pages): a stop-BBO order is priced from the book then — its own side's best for the maker
//! role (and post-only), the other side's best for the taker role — and dropped (`CANCELED`)
//! when that side is empty; a TPSL leg takes the size its position holds then.

use super::execution::{key_of, opposite};
use super::stored::StoredOrder;
use crate::rules::{BboRole, Price};
use crate::state::State;
use crate::wire::decimal;

impl State {
    /// `order` as it activates now: priced (a stop-BBO order), sized (a TPSL leg), unchanged
    /// (any other order), or `None` when it cannot be — no quote on the side a BBO order pegs
    /// to, no position left.
    pub(super) fn armed(&self, order: &StoredOrder) -> Option<StoredOrder> {
        let mut armed = order.clone();
        if let Some(role) = order.request.terms.bbo {
            let quoted = match role {
                BboRole::Maker => order.side(),
                BboRole::Taker => opposite(order.side()),
            };
            let (price, _) = self.orders.best(order.market(), quoted)?;
            armed.request.price = Some(Price {
                value: price,
                text: decimal::text(price.normalize()),
            });
            armed.request.flags.post_only = role == BboRole::Maker;
        }
        if order.tpsl.is_some() {
            let size = self.positions.get(&key_of(order)).qty.abs();
            if size.is_zero() {
                return None;
            }
            armed.amount = size;
        }
        Some(armed)
    }
}

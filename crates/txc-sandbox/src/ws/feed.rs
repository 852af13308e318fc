//! [`Feed`]: the changes of the exchange's state that the WebSocket's channels report, sent by
//! the state (the order store's `add`/`update`, fills, balance changes) to every connection.

use std::sync::Arc;

use tokio::sync::broadcast;

use crate::state::StoredOrder;

/// How many changes a connection may fall behind before it is closed.
const CAPACITY: usize = 8_192;

/// What happened to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrderChange {
    /// Placed and resting (event 1).
    New,
    /// Changed and still open (event 2).
    Updated,
    /// Filled or canceled (event 3); an order that fills at once has only this one.
    Finished,
}

/// A change of the state.
#[derive(Debug, Clone)]
pub(crate) enum Change {
    /// An order changed: as it now is, and its deal's id when it just filled.
    Order {
        change: OrderChange,
        order: Box<StoredOrder>,
        deal_id: Option<u64>,
    },
    /// An account's balances or positions changed.
    Account { api_key: String },
}

/// The sending side of the change feed; cheap to clone. Sending with no connection listening
/// does nothing.
#[derive(Debug, Clone)]
pub(crate) struct Feed(broadcast::Sender<Arc<Change>>);

impl Default for Feed {
    fn default() -> Self {
        Self(broadcast::channel(CAPACITY).0)
    }
}

impl Feed {
    /// Sends `change` to every connection listening.
    pub(crate) fn send(&self, change: Change) {
        if self.0.receiver_count() > 0 {
            let _ = self.0.send(Arc::new(change));
        }
    }

    /// A receiver of every change from now on.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<Change>> {
        self.0.subscribe()
    }
}

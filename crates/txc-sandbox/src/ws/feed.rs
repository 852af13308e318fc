//! [`Feed`]: the state's subscriber on the WebSocket's side — every [`Change`] the state emits
//! (the order store's `add`/`update`, fills, balance changes), broadcast to every connection.

use std::sync::Arc;

use tokio::sync::broadcast;

use crate::state::{Change, Subscriber};

/// How many changes a connection may fall behind before it is closed.
const CAPACITY: usize = 8_192;

/// The sending side of the change feed; cheap to clone. With no connection listening, the
/// state builds no change for it.
#[derive(Debug, Clone)]
pub(crate) struct Feed(broadcast::Sender<Arc<Change>>);

impl Default for Feed {
    fn default() -> Self {
        Self(broadcast::channel(CAPACITY).0)
    }
}

impl Feed {
    /// A receiver of every change from now on.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<Change>> {
        self.0.subscribe()
    }
}

impl Subscriber for Feed {
    fn listening(&self) -> bool {
        self.0.receiver_count() > 0
    }

    fn notify(&self, change: Change) {
        // A connection that left between `listening` and here is no error.
        let _ = self.0.send(Arc::new(change));
    }
}

//! [`ConnectionControl`]: the switches of one HTTP connection, which the server puts in each
//! request's extensions and the faults use to cut the connection short.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// A connection's switches, which handlers find in the request's extensions: once the reset
/// is armed, the connection is aborted with a TCP reset (`RST`) instead of closed when it
/// closes; dropping closes it at once, whatever is in flight.
#[derive(Debug, Clone, Default)]
pub(crate) struct ConnectionControl {
    reset: Arc<AtomicBool>,
    drop: Arc<Notify>,
}

impl ConnectionControl {
    /// Makes the connection end with a reset.
    pub(crate) fn arm_reset(&self) {
        self.reset.store(true, Ordering::Relaxed);
    }

    /// Closes the connection now, without answering what is in flight.
    pub(crate) fn drop_connection(&self) {
        self.drop.notify_one();
    }

    /// Completes once [`ConnectionControl::drop_connection`] was called.
    pub(crate) async fn dropped(&self) {
        self.drop.notified().await;
    }

    /// Whether the reset is armed.
    pub(crate) fn armed(&self) -> bool {
        self.reset.load(Ordering::Relaxed)
    }
}

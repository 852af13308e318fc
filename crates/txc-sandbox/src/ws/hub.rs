//! [`WsHub`]: what the WebSocket's connections share — the feed of the state's changes, the
//! faults sent to every connection, the count of open connections.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use tokio::sync::broadcast;

use super::fault::{Command, WsFault};
use super::feed::Feed;
use crate::state::Change;

/// What the WebSocket's connections share: the change feed, the faults, the count of open
/// connections.
#[derive(Debug)]
pub(crate) struct WsHub {
    feed: Feed,
    commands: broadcast::Sender<Command>,
    refuse_authorize: AtomicU32,
    drop_after_order: AtomicU32,
    connections: AtomicUsize,
}

impl Default for WsHub {
    fn default() -> Self {
        Self {
            feed: Feed::default(),
            commands: broadcast::channel(64).0,
            refuse_authorize: AtomicU32::new(0),
            drop_after_order: AtomicU32::new(0),
            connections: AtomicUsize::new(0),
        }
    }
}

impl WsHub {
    /// Injects `fault`.
    pub(crate) fn inject(&self, fault: WsFault) {
        let command = match fault {
            WsFault::RefuseAuthorize(times) => {
                self.refuse_authorize.store(times, Ordering::SeqCst);
                return;
            }
            WsFault::DropAfterOrder(times) => {
                self.drop_after_order.store(times, Ordering::SeqCst);
                return;
            }
            WsFault::Drop => Command::Drop,
            WsFault::Stall(d) => Command::Stall(d),
            WsFault::UnknownEvent => Command::UnknownEvent,
            WsFault::MalformedFrames => Command::MalformedFrames,
        };
        let _ = self.commands.send(command);
    }

    /// How many connections are open.
    pub(crate) fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// The feed of the state's changes, which the state's subscriber is.
    pub(crate) fn feed(&self) -> Feed {
        self.feed.clone()
    }

    /// Counts a connection open for as long as the guard lives.
    pub(super) fn open(self: &Arc<Self>) -> Open {
        self.connections.fetch_add(1, Ordering::SeqCst);
        Open(Arc::clone(self))
    }

    /// Every change from now on.
    pub(super) fn changes(&self) -> broadcast::Receiver<Arc<Change>> {
        self.feed.subscribe()
    }

    /// Every fault sent to the connections from now on.
    pub(super) fn commands(&self) -> broadcast::Receiver<Command> {
        self.commands.subscribe()
    }

    /// Whether the connection that just processed an order method is to be dropped before its
    /// answer (and one fewer after it).
    pub(super) fn take_drop_after_order(&self) -> bool {
        self.drop_after_order
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Whether this `authorize` is to be refused (and one fewer after it).
    pub(super) fn take_refusal(&self) -> bool {
        self.refuse_authorize
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// Counts a connection open while it lives.
pub(super) struct Open(Arc<WsHub>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

//! An event stream under test, whichever transport reads it: [`Events`], the blocking
//! iterator read on a thread of its own ([`BlockingEvents`]) or the async stream read on the
//! client's runtime ([`AsyncEvents`]).

use std::sync::Arc;
use std::time::Duration;

use txc_core::stream::StreamEvent;

/// A stream under test, whichever transport reads it.
pub trait Events: Send {
    /// The next event, or `None` after `timeout` (or once the stream ended).
    fn next_event(&mut self, timeout: Duration) -> Option<StreamEvent>;
    /// Asks the stream to stop.
    fn stop(&mut self);
}

/// The async transport's stream, read on a runtime it shares.
pub struct AsyncEvents {
    pub runtime: Arc<tokio::runtime::Runtime>,
    pub stream: txc_async::events::EventStream,
}

impl Events for AsyncEvents {
    fn next_event(&mut self, timeout: Duration) -> Option<StreamEvent> {
        let next = self.stream.next();
        self.runtime
            .block_on(async { tokio::time::timeout(timeout, next).await.ok().flatten() })
    }

    fn stop(&mut self) {
        self.stream.stop();
    }
}

/// The blocking transport's iterator, read on a thread of its own (its `next` blocks).
pub struct BlockingEvents {
    events: std::sync::mpsc::Receiver<StreamEvent>,
    stop: txc_blocking::events::StopHandle,
}

impl BlockingEvents {
    /// Reads `iter` on a thread of its own.
    pub fn spawn(iter: txc_blocking::events::EventIter) -> Self {
        let stop = iter.stop_handle();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for event in iter {
                if tx.send(event).is_err() {
                    break;
                }
            }
        });
        Self { events: rx, stop }
    }
}

impl Events for BlockingEvents {
    fn next_event(&mut self, timeout: Duration) -> Option<StreamEvent> {
        self.events.recv_timeout(timeout).ok()
    }

    fn stop(&mut self) {
        self.stop.stop();
    }
}

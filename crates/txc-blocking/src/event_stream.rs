//! [`EventIter`]: the private event stream as an iterator, a driver of `txc-core`'s
//! [`StreamMachine`] over tungstenite on a std socket, with a [`Resyncer`] reading the state
//! again over REST after every (re)connection. No async runtime.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use tungstenite::Message;
use txc_core::ClientCore;
use txc_core::stream::{
    Channel, OpenedStream, OrderSightings, Resyncer, StreamBuilder, StreamClient, StreamEvent,
    StreamInput, StreamMachine, StreamStep, Subscription,
};
use txc_types::events::WebSocketTokenQuery;

use crate::Client;
use crate::websocket::{Socket, open, read_input};

/// The shortest read timeout: a zero one would mean "block".
const MIN_WAIT: Duration = Duration::from_millis(1);

/// The longest a read waits before [`EventIter::next`] looks at its [`StopHandle`] again.
const MAX_WAIT: Duration = Duration::from_millis(250);

/// Configures an [`EventIter`]; [`Client::events`] starts one, and
/// [`start`](StreamBuilder::start) checks the configuration: the stream connects at the first
/// [`Iterator::next`].
pub type EventIterBuilder = StreamBuilder<Client>;

impl Client {
    /// A WebSocket token fetched over REST, as a stream's machine takes it.
    pub(crate) fn token_input(&self) -> StreamInput {
        match self.send(&WebSocketTokenQuery) {
            Ok(token) => StreamInput::Token(token),
            Err(e) => StreamInput::TokenFailed(e),
        }
    }
}

impl StreamClient for Client {
    type Stream = EventIter;

    fn core(&self) -> &ClientCore {
        Client::core(self)
    }

    fn start_stream(self, stream: OpenedStream) -> EventIter {
        EventIter {
            client: self,
            machine: stream.machine,
            url: stream.url,
            socket: None,
            resyncer: Resyncer::new(),
            sightings: stream.sightings,
            queue: VecDeque::new(),
            stop: StopHandle::default(),
            stopping: false,
        }
    }
}

/// The private event stream of one API key as a blocking iterator: the same
/// [`StreamEvent`]s in the same order as `txc-async`'s `EventStream` — channel updates,
/// each (re)connection's [`StreamEvent::Resync`] and what changed while away
/// ([`StreamEvent::Resynced`], [`StreamEvent::ResyncDone`]), disconnections, errors — ending
/// with [`StreamEvent::Stopped`] (then `None`).
///
/// [`next`](Iterator::next) blocks until an event comes, doing the stream's work meanwhile
/// (connecting, fetching tokens, pinging, reconnecting, resyncing): call it continuously —
/// between calls nothing is read or pinged, and a connection left alone for 60 s is closed by
/// the server (the stream then reconnects and resyncs). Resyncs run their REST look-ups
/// inline: frames wait meanwhile.
pub struct EventIter {
    client: Client,
    machine: StreamMachine,
    url: String,
    socket: Option<Socket>,
    resyncer: Resyncer,
    sightings: OrderSightings,
    queue: VecDeque<StreamEvent>,
    stop: StopHandle,
    stopping: bool,
}

/// Stops an [`EventIter`] from another thread (a signal handler, a supervisor): the iterator
/// notices within a quarter of a second, even while it waits for events. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the stream to stop: it ends with [`StreamEvent::Stopped`].
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl EventIter {
    /// A handle that stops the stream from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Stops the stream: the next events are its [`StreamEvent::Disconnected`] (if connected)
    /// and [`StreamEvent::Stopped`].
    pub fn stop(&mut self) {
        self.machine.stop();
    }

    /// Subscribes `subscription` (replacing one of the same channel), at once if connected;
    /// confirmed by [`StreamEvent::Subscribed`]. No resync follows: read the channel's state
    /// yourself.
    pub fn subscribe(&mut self, subscription: Subscription) {
        self.machine.subscribe(subscription);
    }

    /// Unsubscribes `channel`; confirmed by [`StreamEvent::Unsubscribed`].
    pub fn unsubscribe(&mut self, channel: Channel) {
        self.machine.unsubscribe(channel);
    }

    /// Waits up to `delay` for a frame and hands it (or the socket's end) to the machine.
    fn wait(&mut self, delay: Duration) {
        let delay = delay.clamp(MIN_WAIT, MAX_WAIT);
        let Some(socket) = self.socket.as_mut() else {
            std::thread::sleep(delay);
            return;
        };
        match read_input(socket, delay) {
            Some(StreamInput::Closed { code, reason }) => self.lost(code, reason),
            Some(input) => self.machine.handle(SystemTime::now(), input),
            None => {}
        }
    }

    /// The socket is gone: tell the machine.
    fn lost(&mut self, code: Option<u16>, reason: String) {
        self.socket = None;
        self.machine
            .handle(SystemTime::now(), StreamInput::Closed { code, reason });
    }
}

impl Iterator for EventIter {
    type Item = StreamEvent;

    fn next(&mut self) -> Option<StreamEvent> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                self.sightings.publish(&event);
                return Some(event);
            }
            if !self.stopping && self.stop.0.load(Ordering::SeqCst) {
                self.stopping = true;
                self.machine.stop();
            }
            let now = SystemTime::now();
            if let Some(plan) = self.resyncer.due(now) {
                let found = self.client.resync_lookups(plan);
                self.queue
                    .extend(self.resyncer.finish(SystemTime::now(), found));
                continue;
            }
            match self.machine.poll(now) {
                StreamStep::Connect => {
                    let timeout = self.machine.config().connect_timeout();
                    let (socket, input) = open(&self.url, timeout, self.client.tls());
                    self.socket = socket;
                    self.machine.handle(SystemTime::now(), input);
                }
                StreamStep::NeedToken => {
                    let input = self.client.token_input();
                    self.machine.handle(SystemTime::now(), input);
                }
                StreamStep::Send(frame) => {
                    if let Some(socket) = self.socket.as_mut()
                        && let Err(e) = socket.send(Message::text(frame.text()))
                    {
                        self.lost(None, e.to_string());
                    }
                }
                StreamStep::Close => {
                    if let Some(mut socket) = self.socket.take() {
                        let _ = socket.close(None);
                        let _ = socket.flush();
                    }
                }
                StreamStep::Event(event) => {
                    self.resyncer.observe(&event);
                    self.sightings.publish(&event);
                    return Some(event);
                }
                StreamStep::Wait(delay) => {
                    let delay = match self.resyncer.retry_at() {
                        Some(at) => delay.min(at.duration_since(now).unwrap_or_default()),
                        None => delay,
                    };
                    self.wait(delay);
                }
                StreamStep::Finished => return None,
            }
        }
    }
}

impl fmt::Debug for EventIter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventIter")
            .field("url", &self.url)
            .field("machine", &self.machine)
            .finish_non_exhaustive()
    }
}

//! [`EventStream`]: the private event stream, a driver of `txc-core`'s
//! [`StreamMachine`] over tokio-tungstenite, with a [`Resyncer`] reading the state again over
//! REST after every (re)connection.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use txc_core::ClientCore;
use txc_core::Error;
use txc_core::stream::{
    Channel, OpenedStream, OrderSightings, ResyncFindings, Resyncer, StreamBuilder, StreamClient,
    StreamEvent, StreamInput, StreamMachine, StreamStep, Subscription,
};
use txc_types::events::{WebSocketToken, WebSocketTokenQuery};

use crate::Client;
use crate::websocket::{Socket, connect, input_of};

/// How many events wait for the consumer before the stream stops reading the socket.
const BUFFER: usize = 1_024;

/// How long closing a socket may take before it is dropped.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// Configures an [`EventStream`]; [`Client::events`] starts one, and
/// [`start`](StreamBuilder::start) checks the configuration and starts the stream on the
/// current tokio runtime: it connects at once and goes on, reconnecting as needed, until
/// [`EventStream::stop`] or the stream is dropped.
pub type EventStreamBuilder = StreamBuilder<Client>;

impl StreamClient for Client {
    type Stream = EventStream;

    fn core(&self) -> &ClientCore {
        Client::core(self)
    }

    fn start_stream(self, stream: OpenedStream) -> EventStream {
        let (events, receiver) = mpsc::channel(BUFFER);
        let (commands, command_receiver) = mpsc::unbounded_channel();
        let driver = Driver {
            client: self,
            machine: stream.machine,
            url: stream.url,
            events,
            commands: command_receiver,
            resyncer: Resyncer::new(),
            sightings: stream.sightings,
            socket: None,
            connecting: None,
            token: None,
            resync: None,
        };
        let task = tokio::spawn(driver.run());
        EventStream {
            events: receiver,
            commands,
            task,
        }
    }
}

/// The private event stream of one API key: every [`StreamEvent`] in order — channel updates
/// decoded into their records ([`StreamEvent::Account`]), each (re)connection's
/// [`StreamEvent::Resync`] followed by what changed while away ([`StreamEvent::Resynced`],
/// then [`StreamEvent::ResyncDone`]), every disconnection ([`StreamEvent::Disconnected`]) and
/// every error ([`StreamEvent::Error`]) — until [`StreamEvent::Stopped`]. A consumer that
/// applies the order events in order ends with the exchange's open orders.
///
/// Read it with [`next`](Self::next) or as a [`futures_core::Stream`]. It runs on a task of
/// its own (spawned by [`start`](StreamBuilder::start)); up to 1 024 events wait for the
/// consumer, after which it stops reading the socket — read promptly, or the server may
/// close the connection (it then reconnects and resyncs). Dropping it stops it.
pub struct EventStream {
    events: mpsc::Receiver<StreamEvent>,
    commands: mpsc::UnboundedSender<Command>,
    task: JoinHandle<()>,
}

impl EventStream {
    /// The next event; `None` once the stream has stopped and every event was read.
    pub async fn next(&mut self) -> Option<StreamEvent> {
        self.events.recv().await
    }

    /// Stops the stream: it closes the connection and ends with
    /// [`StreamEvent::Stopped`]; read on to the end.
    pub fn stop(&self) {
        let _ = self.commands.send(Command::Stop);
    }

    /// Subscribes `subscription` (replacing one of the same channel), at once if connected;
    /// confirmed by [`StreamEvent::Subscribed`]. No resync follows: read the channel's state
    /// yourself.
    pub fn subscribe(&self, subscription: Subscription) {
        let _ = self.commands.send(Command::Subscribe(subscription));
    }

    /// Unsubscribes `channel`; confirmed by [`StreamEvent::Unsubscribed`].
    pub fn unsubscribe(&self, channel: Channel) {
        let _ = self.commands.send(Command::Unsubscribe(channel));
    }
}

impl futures_core::Stream for EventStream {
    type Item = StreamEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<StreamEvent>> {
        self.events.poll_recv(cx)
    }
}

impl Drop for EventStream {
    fn drop(&mut self) {
        // The task stops at its next event or wait: its consumer is gone.
        let _ = self.commands.send(Command::Stop);
    }
}

impl fmt::Debug for EventStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventStream")
            .field("finished", &self.task.is_finished())
            .finish_non_exhaustive()
    }
}

/// What the consumer asks of the task.
enum Command {
    Stop,
    Subscribe(Subscription),
    Unsubscribe(Channel),
}

type Pending<T> = Option<Pin<Box<dyn Future<Output = T> + Send>>>;

/// The task: the machine's steps carried out over the socket and the client.
struct Driver {
    client: Client,
    machine: StreamMachine,
    url: String,
    events: mpsc::Sender<StreamEvent>,
    commands: mpsc::UnboundedReceiver<Command>,
    resyncer: Resyncer,
    sightings: OrderSightings,
    socket: Option<Socket>,
    connecting: Pending<Result<Socket, String>>,
    token: Pending<Result<WebSocketToken, Error>>,
    resync: Pending<Result<ResyncFindings, Error>>,
}

impl Driver {
    async fn run(mut self) {
        loop {
            let now = SystemTime::now();
            if self.resync.is_none()
                && let Some(plan) = self.resyncer.due(now)
            {
                let client = self.client.clone();
                self.resync = Some(Box::pin(async move { client.resync_lookups(plan).await }));
            }
            match self.machine.poll(now) {
                StreamStep::Connect => {
                    let tls = self.client.tls().clone();
                    self.connecting = Some(Box::pin(connect(self.url.clone(), tls)));
                }
                StreamStep::NeedToken => {
                    let client = self.client.clone();
                    self.token = Some(Box::pin(
                        async move { client.send(&WebSocketTokenQuery).await },
                    ));
                }
                StreamStep::Send(frame) => {
                    if let Some(socket) = self.socket.as_mut()
                        && let Err(e) = socket.send(Message::text(frame.text())).await
                    {
                        self.lost(None, e.to_string());
                    }
                }
                StreamStep::Close => {
                    self.connecting = None;
                    self.token = None;
                    if let Some(mut socket) = self.socket.take() {
                        let _ = tokio::time::timeout(CLOSE_WAIT, socket.close(None)).await;
                    }
                }
                StreamStep::Event(event) => {
                    self.resyncer.observe(&event);
                    self.sightings.publish(&event);
                    if self.events.send(event).await.is_err() {
                        // The consumer is gone.
                        return;
                    }
                }
                StreamStep::Wait(delay) => {
                    let delay = match self.resyncer.retry_at() {
                        Some(at) => delay.min(at.duration_since(now).unwrap_or_default()),
                        None => delay,
                    };
                    if !self.wait(delay).await {
                        return;
                    }
                }
                StreamStep::Finished => return,
            }
        }
    }

    /// Waits up to `delay` for a frame, a connection, a token, a resync's look-ups or a
    /// command, and hands over what came; `false` when the consumer is gone.
    async fn wait(&mut self, delay: Duration) -> bool {
        tokio::select! {
            frame = next_frame(&mut self.socket) => self.frame(frame),
            opened = settle(&mut self.connecting) => {
                self.connecting = None;
                match opened {
                    Ok(socket) => {
                        self.socket = Some(socket);
                        self.machine.handle(SystemTime::now(), StreamInput::Connected);
                    }
                    Err(e) => self.machine.handle(SystemTime::now(), StreamInput::connect_failed(&self.url, e)),
                }
            }
            token = settle(&mut self.token) => {
                self.token = None;
                let input = match token {
                    Ok(token) => StreamInput::Token(token),
                    Err(e) => StreamInput::TokenFailed(e),
                };
                self.machine.handle(SystemTime::now(), input);
            }
            found = settle(&mut self.resync) => {
                self.resync = None;
                for event in self.resyncer.finish(SystemTime::now(), found) {
                    self.sightings.publish(&event);
                    if self.events.send(event).await.is_err() {
                        return false;
                    }
                }
            }
            command = self.commands.recv() => match command {
                None | Some(Command::Stop) => self.machine.stop(),
                Some(Command::Subscribe(s)) => self.machine.subscribe(s),
                Some(Command::Unsubscribe(c)) => self.machine.unsubscribe(c),
            },
            () = tokio::time::sleep(delay) => {}
        }
        true
    }

    /// Hands a frame (or the socket's end) to the machine.
    fn frame(&mut self, frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>) {
        match input_of(frame) {
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

/// The next frame of the socket; never, without one.
async fn next_frame(
    socket: &mut Option<Socket>,
) -> Option<Result<Message, tokio_tungstenite::tungstenite::Error>> {
    match socket {
        Some(socket) => socket.next().await,
        None => std::future::pending().await,
    }
}

/// The outcome of a pending operation; never, without one.
async fn settle<T>(pending: &mut Pending<T>) -> T {
    match pending {
        Some(future) => future.await,
        None => std::future::pending().await,
    }
}

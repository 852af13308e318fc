//! [`SocketSession`]: order methods and the event stream on one authorized WebSocket
//! connection, sans-IO — the part of a socket trading session both transports share.
//!
//! The session runs the stream's [`StreamMachine`] (connecting, the token, `authorize`,
//! subscriptions, pings, reconnecting) and the [`SocketOrders`] machine side by side on the
//! same connection: every frame received is offered to the order machine first (answers by
//! request id), and what is not its own goes on to the stream machine — pushes interleave
//! freely. A call ([`SocketCallState`]) is driven by [`SocketSession::step`] until it says
//! [`SessionIo::Done`].

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, SystemTime};

use txc_types::socket::SocketRequest;
use txc_types::values::Market;

use super::error::SocketError;
use super::machine::{Received, SocketOrderError, SocketOrders, SocketOrdersConfig};
use super::outcome::{Settled, SocketAttempt};
use crate::resolve::{NotRecorded, Record};
use crate::stream::{
    OrderSightings, StopReason, StreamConfig, StreamConfigError, StreamEvent, StreamInput,
    StreamMachine, StreamStep, Subscription, jitter_seed,
};
use crate::{ClientCore, Error, PendingOrder};

/// How long a call waits for an authorized connection by default.
pub const DEFAULT_CONNECT_WAIT: Duration = Duration::from_secs(10);

/// How long a call waits for a pacing slot by default.
pub const DEFAULT_PACING_WAIT: Duration = Duration::from_secs(10);

/// How many pushes a session keeps for [`SocketSession::take_events`] before it drops the
/// oldest.
pub const DEFAULT_MAX_EVENTS: usize = 10_000;

/// The settings of a [`SocketSession`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SessionConfig {
    /// The order machine's: its pacing limits and answer time-out.
    pub orders: SocketOrdersConfig,
    /// The stream machine's: pings, connect time-out, reconnect backoff.
    pub stream: StreamConfig,
    /// How long a call waits for an authorized connection before it fails with nothing sent
    /// ([`SocketError::NotConnected`]).
    pub connect_wait: Duration,
    /// How long a call waits for a pacing slot ([`SocketLimits`](super::SocketLimits)) before
    /// it fails with nothing sent ([`SocketError::Paced`]); zero fails at once.
    pub pacing_wait: Duration,
    /// The channels subscribed on the session's connection: their pushes interleave with the
    /// answers, are kept for [`SocketSession::take_events`] and published to the client's
    /// sightings (proof for resolving).
    pub subscriptions: Vec<Subscription>,
    /// How many pushes are kept before the oldest are dropped.
    pub max_events: usize,
    /// Where to connect; by default the client's base URL's WebSocket
    /// ([`websocket_url`](crate::stream::websocket_url): `wss://wss.whitebit.com/ws` for
    /// `https://whitebit.com`).
    pub url: Option<String>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            orders: SocketOrdersConfig::default(),
            stream: StreamConfig::default(),
            connect_wait: DEFAULT_CONNECT_WAIT,
            pacing_wait: DEFAULT_PACING_WAIT,
            subscriptions: Vec::new(),
            max_events: DEFAULT_MAX_EVENTS,
            url: None,
        }
    }
}

impl SessionConfig {
    /// The same with `orders` for the order machine.
    pub fn with_orders(mut self, orders: SocketOrdersConfig) -> Self {
        self.orders = orders;
        self
    }

    /// The same with `stream` for the stream machine.
    pub fn with_stream(mut self, stream: StreamConfig) -> Self {
        self.stream = stream;
        self
    }

    /// The same with `wait` as the connect wait.
    pub fn with_connect_wait(mut self, wait: Duration) -> Self {
        self.connect_wait = wait;
        self
    }

    /// The same with `wait` as the pacing wait (zero: fail at once when over budget).
    pub fn with_pacing_wait(mut self, wait: Duration) -> Self {
        self.pacing_wait = wait;
        self
    }

    /// The same with `subscription` added.
    pub fn with_subscription(mut self, subscription: Subscription) -> Self {
        self.subscriptions.push(subscription);
        self
    }

    /// The same connecting to `url`.
    pub fn with_url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// The same keeping at most `events` pushes.
    pub fn with_max_events(mut self, events: usize) -> Self {
        self.max_events = events;
        self
    }
}

/// What the driver does next for a call.
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionIo<T> {
    /// Open the WebSocket at [`SocketSession::url`], then hand in
    /// [`StreamInput::Connected`] or [`StreamInput::ConnectFailed`].
    Connect,
    /// Fetch a WebSocket token over REST, then hand in [`StreamInput::Token`] or
    /// [`StreamInput::TokenFailed`].
    NeedToken,
    /// Write this text frame; for an order call's frame (`Some(id)`), tell
    /// [`SocketSession::written`] once it was handed to the socket.
    Write(String, Option<u64>),
    /// Close the socket.
    Close,
    /// Read a frame for up to this long (or sleep, with no socket), and hand in what came.
    Wait(Duration),
    /// The call ended.
    Done(T),
}

#[derive(Debug)]
enum CallStage {
    /// Not taken yet: waits for an authorized connection until the deadline, then for a
    /// pacing slot until the pacing deadline (set once the connection is up).
    Waiting(Option<SystemTime>, Option<SystemTime>),
    /// Taken, its frame handed out: waits for its answer.
    InFlight(u64),
    /// Ended.
    Finished,
}

/// One call of an order method through a [`SocketSession`]: the request, whether it is a
/// resend, and — for a placement with a `client_order_id` — the record kept before its frame.
#[derive(Debug)]
pub struct SocketCallState {
    request: SocketRequest,
    resend: bool,
    trigger: bool,
    check_reuse: bool,
    /// The record of the earlier attempts, for a resend.
    earlier: Option<PendingOrder>,
    /// When the record was journaled (the attempt's start, the record's key).
    journaled_at: Option<SystemTime>,
    stage: CallStage,
}

impl SocketCallState {
    /// A first call of `request`, its record checked for an id in use.
    pub fn new(request: SocketRequest) -> Self {
        let trigger = may_rest(&request);
        Self {
            request,
            resend: false,
            trigger,
            check_reuse: true,
            earlier: None,
            journaled_at: None,
            stage: CallStage::Waiting(None, None),
        }
    }

    /// A resend of `request` after `earlier`'s outcome was resolved as not placed (or an
    /// unresolved record was): `43` answering it is evidence.
    pub(crate) fn resend(request: SocketRequest, earlier: &PendingOrder) -> Self {
        let mut call = Self::new(request);
        call.resend = true;
        call.check_reuse = false;
        call.trigger = call.trigger || earlier.is_trigger();
        call.earlier = Some(earlier.clone());
        call
    }

    /// The request.
    pub fn request(&self) -> &SocketRequest {
        &self.request
    }

    /// The order's record as the journal keeps it after the call (its attempt settled at
    /// `settled_at`): `None` for a call that records none (no `client_order_id`) or was not
    /// recorded.
    pub fn pending(&self, settled_at: Option<SystemTime>) -> Option<PendingOrder> {
        let written_at = self.journaled_at?;
        let (market, id) = keys(&self.request)?;
        let attempt = SocketAttempt {
            written_at,
            settled_at: settled_at.unwrap_or(written_at).max(written_at),
        };
        let base = match &self.earlier {
            Some(earlier) => earlier.clone(),
            None => PendingOrder::new(market, id, Vec::new()),
        };
        Some(
            base.with_trigger(self.trigger)
                .with_socket_attempts([attempt]),
        )
    }

    /// Whether the journal (and the client's ledger) holds the call's record.
    pub fn is_recorded(&self) -> bool {
        self.journaled_at.is_some()
    }
}

/// Whether an order placed by `request` may rest (resolving looks among the conditional
/// orders too): everything but a plain market order.
fn may_rest(request: &SocketRequest) -> bool {
    use txc_types::socket::SocketMethod;
    request.method() != SocketMethod::MarketPlace
}

/// The market and `client_order_id` of a placement that carries one.
fn keys(request: &SocketRequest) -> Option<(Market, txc_types::values::ClientOrderId)> {
    if !request.method().is_placement() {
        return None;
    }
    let id = request.client_order_id()?.clone();
    let market = request.market()?.parse().ok()?;
    Some((market, id))
}

/// Order methods and the event stream on one authorized WebSocket connection, sans-IO.
///
/// The driver runs each call with [`step`](Self::step) — connecting, fetching tokens,
/// writing frames and reading as told — and hands in what happened with
/// [`handle`](Self::handle) and [`written`](Self::written). A placement with a
/// `client_order_id` is recorded in the client's ledger and [`Journal`](crate::Journal)
/// **before** its frame is handed out; a frame the journal could not record is never written.
#[derive(Debug)]
pub struct SocketSession {
    stream: StreamMachine,
    orders: SocketOrders,
    url: String,
    sightings: OrderSightings,
    config: SessionConfig,
    settled: BTreeMap<u64, Settled>,
    late: VecDeque<Settled>,
    events: VecDeque<StreamEvent>,
    last_failure: Option<String>,
    stopped: Option<StopReason>,
    /// Whether the order machine counts the connection as up (authorized).
    orders_up: bool,
}

impl SocketSession {
    /// A session to `url`, publishing what it sees to `sightings`, with `config`.
    pub fn new(
        url: String,
        sightings: OrderSightings,
        config: SessionConfig,
    ) -> Result<Self, StreamConfigError> {
        let stream = StreamMachine::new(
            config.stream.clone(),
            config.subscriptions.clone(),
            jitter_seed(),
        )?;
        Ok(Self {
            stream,
            orders: SocketOrders::new(config.orders),
            url,
            sightings,
            config,
            settled: BTreeMap::new(),
            late: VecDeque::new(),
            events: VecDeque::new(),
            last_failure: None,
            stopped: None,
            orders_up: false,
        })
    }

    /// A session of `core`'s client with `config`: its URL the configured one or the client's
    /// base URL's WebSocket, its events published to the client's sightings (so that the
    /// client's resolving sees what the session's subscriptions show).
    pub fn for_client(core: &ClientCore, config: SessionConfig) -> Result<Self, Error> {
        let url = match &config.url {
            Some(url) => url.clone(),
            None => crate::stream::websocket_url(core.signer().base_url())
                .map_err(|e| Error::invalid_config("websocket url", e.to_string()))?,
        };
        let sightings = core.order_sightings().clone();
        Self::new(url, sightings, config)
            .map_err(|e| Error::invalid_config("socket session", e.to_string()))
    }

    /// The WebSocket URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The settings.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Whether the connection is up and authorized.
    pub fn is_established(&self) -> bool {
        self.stream.is_established()
    }

    /// The pushes (and the stream's own events: subscriptions, disconnections) received so
    /// far, oldest first, taken out.
    pub fn take_events(&mut self) -> Vec<StreamEvent> {
        self.events.drain(..).collect()
    }

    /// The answers that came after their call had timed out (evidence of what the call did),
    /// taken out.
    pub fn take_late(&mut self) -> Vec<Settled> {
        self.late.drain(..).collect()
    }

    /// Stops the session: the connection closes; calls in flight settle as unknown.
    pub fn stop(&mut self) {
        self.stream.stop();
    }

    /// What happened on the connection: connected, a token, a frame, the socket's end.
    pub fn handle(&mut self, now: SystemTime, input: StreamInput) {
        match input {
            StreamInput::Text(text) => match self.orders.receive(&text, now) {
                Received::Answer(settled) => {
                    self.settled.insert(settled.id, *settled);
                }
                Received::Late(settled) => self.late.push_back(*settled),
                _ => self.stream.handle(now, StreamInput::Text(text)),
            },
            StreamInput::Closed { code, reason } => {
                self.down(now);
                self.last_failure = Some(reason.clone());
                self.stream
                    .handle(now, StreamInput::Closed { code, reason });
            }
            StreamInput::ConnectFailed(reason) => {
                self.last_failure = Some(reason.clone());
                self.stream.handle(now, StreamInput::ConnectFailed(reason));
            }
            other => self.stream.handle(now, other),
        }
    }

    /// Call `id`'s frame was handed to the socket at `now`: its answer time-out starts.
    pub fn written(&mut self, id: u64, now: SystemTime) {
        // Only a call released and not settled meanwhile: nothing else to do otherwise.
        let _ = self.orders.written(id, now);
    }

    /// The connection is gone: every call in flight settles (unknown once its frame was out).
    fn down(&mut self, now: SystemTime) {
        self.orders_up = false;
        for settled in self.orders.disconnected(now) {
            self.settled.insert(settled.id, settled);
        }
    }

    /// Keeps `event` for the caller and publishes it to the sightings.
    fn keep(&mut self, now: SystemTime, event: StreamEvent) {
        self.sightings.publish(&event);
        match &event {
            StreamEvent::Disconnected(disconnect) => {
                self.down(now);
                let reason = format!("disconnected: {:?}", disconnect.reason);
                self.last_failure = Some(match self.last_failure.take() {
                    Some(before) => format!("{reason} ({before})"),
                    None => reason,
                });
            }
            StreamEvent::Stopped(reason) => {
                self.down(now);
                self.stopped = Some(*reason);
            }
            StreamEvent::Error(error) => {
                let mut text = error.to_string();
                let mut source = std::error::Error::source(error);
                while let Some(cause) = source {
                    text = format!("{text}: {cause}");
                    source = cause.source();
                }
                self.last_failure = Some(text);
            }
            _ => {}
        }
        if self.events.len() >= self.config.max_events.max(1) {
            self.events.pop_front();
        }
        self.events.push_back(event);
    }

    /// The stream's next step, its events kept on the way: `None` when it waits (with how
    /// long) — or is finished.
    fn stream_step(&mut self, now: SystemTime) -> Result<SessionIo<()>, Duration> {
        loop {
            match self.stream.poll(now) {
                StreamStep::Connect => return Ok(SessionIo::Connect),
                StreamStep::NeedToken => return Ok(SessionIo::NeedToken),
                StreamStep::Send(frame) => {
                    return Ok(SessionIo::Write(frame.text().to_owned(), None));
                }
                StreamStep::Close => {
                    // The stream gives the connection up (a stop, a ping unanswered): calls
                    // in flight on it can no longer be answered.
                    self.down(now);
                    return Ok(SessionIo::Close);
                }
                StreamStep::Event(event) => self.keep(now, event),
                StreamStep::Wait(delay) => return Err(delay),
                StreamStep::Finished => {
                    self.down(now);
                    self.stopped.get_or_insert(StopReason::Requested);
                    return Ok(SessionIo::Done(()));
                }
            }
        }
    }

    /// What to do next for `call` at `now`, for `core`'s client (its ledger and journal): the
    /// call's end is [`SessionIo::Done`] with its [`Settled`] outcome, or the error that
    /// kept its frame from being written (nothing sent).
    pub fn step(
        &mut self,
        core: &ClientCore,
        call: &mut SocketCallState,
        now: SystemTime,
    ) -> SessionIo<Result<Settled, Error>> {
        for settled in self.orders.tick(now) {
            self.settled.insert(settled.id, settled);
        }
        if let CallStage::InFlight(id) = call.stage
            && let Some(settled) = self.settled.remove(&id)
        {
            call.stage = CallStage::Finished;
            return SessionIo::Done(Ok(settled));
        }
        if let CallStage::Waiting(mut deadline, mut pacing) = call.stage {
            let deadline = *deadline.get_or_insert(now + self.config.connect_wait);
            call.stage = CallStage::Waiting(Some(deadline), pacing);
            if let Some(reason) = self.stopped {
                call.stage = CallStage::Finished;
                return SessionIo::Done(Err(SocketError::Stopped(reason).into()));
            }
            if self.stream.is_established() {
                let pacing = *pacing.get_or_insert(now + self.config.pacing_wait);
                call.stage = CallStage::Waiting(Some(deadline), Some(pacing));
                if !self.orders_up {
                    match self.orders.connected(now) {
                        Ok(()) => self.orders_up = true,
                        Err(e) => return self.paced(call, e, pacing, now),
                    }
                }
                match self.begin(core, call, now) {
                    Ok(io) => return io,
                    Err(e) => return self.paced(call, e, pacing, now),
                }
            } else if now >= deadline {
                call.stage = CallStage::Finished;
                let reason = self
                    .last_failure
                    .clone()
                    .unwrap_or_else(|| "not authorized within the connect wait".to_owned());
                let url = self.url.clone();
                return SessionIo::Done(Err(SocketError::NotConnected { url, reason }.into()));
            }
        }
        match self.stream_step(now) {
            Ok(SessionIo::Done(())) => {
                // The stream finished: a call in flight was settled by `down`.
                if let CallStage::InFlight(id) = call.stage
                    && let Some(settled) = self.settled.remove(&id)
                {
                    call.stage = CallStage::Finished;
                    return SessionIo::Done(Ok(settled));
                }
                call.stage = CallStage::Finished;
                let reason = self.stopped.unwrap_or(StopReason::Requested);
                SessionIo::Done(Err(SocketError::Stopped(reason).into()))
            }
            Ok(SessionIo::Connect) => SessionIo::Connect,
            Ok(SessionIo::NeedToken) => SessionIo::NeedToken,
            Ok(SessionIo::Write(text, id)) => SessionIo::Write(text, id),
            Ok(SessionIo::Close) => SessionIo::Close,
            Ok(SessionIo::Wait(delay)) | Err(delay) => {
                if matches!(call.stage, CallStage::Waiting(..)) && self.stream.is_established() {
                    // Established by this poll: the call goes now.
                    return self.step(core, call, now);
                }
                let mut delay = delay;
                if let Some(at) = self.orders.next_deadline() {
                    delay = delay.min(at.duration_since(now).unwrap_or_default());
                }
                if let CallStage::Waiting(Some(deadline), None) = call.stage {
                    delay = delay.min(deadline.duration_since(now).unwrap_or_default());
                }
                SessionIo::Wait(delay)
            }
        }
    }

    /// What to do between calls at `now`: the stream's own work (pings, reconnecting) and
    /// reading what came — [`SessionIo::Wait`] when there is nothing to do but read;
    /// [`SessionIo::Done`] once the session stopped. Pushes read meanwhile are kept for
    /// [`take_events`](Self::take_events).
    pub fn idle(&mut self, now: SystemTime) -> SessionIo<()> {
        for settled in self.orders.tick(now) {
            self.settled.insert(settled.id, settled);
        }
        match self.stream_step(now) {
            Ok(io) => io,
            Err(delay) => SessionIo::Wait(delay),
        }
    }

    /// Pacing (or the connection's budget) had no slot: wait for it within the deadline, or
    /// fail with nothing sent.
    fn paced(
        &mut self,
        call: &mut SocketCallState,
        error: SocketOrderError,
        deadline: SystemTime,
        now: SystemTime,
    ) -> SessionIo<Result<Settled, Error>> {
        let wait = match &error {
            SocketOrderError::Paced { wait, .. } => *wait,
            _ => Duration::ZERO,
        };
        if now + wait <= deadline
            && let SocketOrderError::Paced { .. } = error
        {
            return SessionIo::Wait(wait.max(Duration::from_millis(1)));
        }
        call.stage = CallStage::Finished;
        let error = match error {
            SocketOrderError::Paced { what, wait } => SocketError::Paced { what, wait },
            _ => SocketError::NotConnected {
                url: self.url.clone(),
                reason: error.to_string(),
            },
        };
        SessionIo::Done(Err(error.into()))
    }

    /// Takes `call` into the order machine, records it (ledger, journal), and hands out its
    /// frame to write — or the call's end when its record was refused; `Err` when paced.
    fn begin(
        &mut self,
        core: &ClientCore,
        call: &mut SocketCallState,
        now: SystemTime,
    ) -> Result<SessionIo<Result<Settled, Error>>, SocketOrderError> {
        let submitted = self.orders.submit(call.request.clone(), call.resend, now)?;
        let id = submitted.id;
        if submitted.record.is_some()
            && let Some((market, client_order_id)) = keys(&call.request)
        {
            // The attempt is journaled as written now and settled by the answer time-out at
            // the latest: a crash in between leaves a window that covers it.
            let settled_at = now + self.config.orders.answer_timeout;
            let attempt = SocketAttempt {
                written_at: now,
                settled_at,
            };
            let (attempts, socket) = match &call.earlier {
                Some(earlier) => (earlier.attempts().to_vec(), earlier.socket_attempts()),
                None => (Vec::new(), &[][..]),
            };
            let record = Record {
                market: &market,
                client_order_id: &client_order_id,
                trigger: call.trigger,
                attempts,
                socket: socket.iter().copied().chain([attempt]).collect(),
            };
            let reuse_at = call.check_reuse.then(|| crate::unix_millis(now));
            call.check_reuse = false;
            match core.ledger().record(record, reuse_at) {
                Ok(()) => call.journaled_at = Some(now),
                Err(refused) => {
                    let _ = self.orders.abandon(id);
                    call.stage = CallStage::Finished;
                    let error = match refused {
                        NotRecorded::InUse(error) => error,
                        NotRecorded::Journal(failed) => {
                            // The ledger holds it, the journal does not: nothing is sent.
                            call.journaled_at = Some(now);
                            if let Some(pending) = call.pending(Some(now)) {
                                core.ledger().settle(&pending, core.nonce_mode(), true);
                            }
                            call.journaled_at = None;
                            SocketError::Journal(failed.to_string()).into()
                        }
                    };
                    return Ok(SessionIo::Done(Err(error)));
                }
            }
        }
        let frame = self.orders.release(id)?;
        call.stage = CallStage::InFlight(id);
        Ok(SessionIo::Write(frame, Some(id)))
    }
}

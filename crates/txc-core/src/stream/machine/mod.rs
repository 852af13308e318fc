//! [`StreamMachine`]: the private WebSocket protocol as a sans-IO state machine, with the
//! [`StreamInput`]s a driver hands it and the [`StreamStep`]s it asks of the driver. What it
//! does with the frames it receives is in `incoming`.

mod incoming;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::events::WebSocketToken;

use super::budget::{Budget, ping_reserve};
use super::frame::OutgoingFrame;
use super::{
    Channel, Disconnect, DisconnectReason, Resync, StopReason, StreamConfig, StreamConfigError,
    StreamError, StreamEvent, Subscription,
};
use crate::{ApiErrorClass, Error};

/// The window of the exchange's per-connection request limit.
const BUDGET_WINDOW: Duration = Duration::from_secs(60);

/// What the driver tells the machine, with the time, through [`StreamMachine::handle`].
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamInput {
    /// The connection asked for by [`StreamStep::Connect`] is open.
    Connected,
    /// The connection asked for by [`StreamStep::Connect`] could not be opened; why.
    ConnectFailed(String),
    /// The token asked for by [`StreamStep::NeedToken`].
    Token(WebSocketToken),
    /// The token request asked for by [`StreamStep::NeedToken`] failed.
    TokenFailed(Error),
    /// A text frame arrived.
    Text(String),
    /// A binary frame arrived (read as UTF-8 text; the exchange sends text).
    Binary(Vec<u8>),
    /// The connection closed (a close frame, the end of the stream, or an I/O error).
    Closed {
        /// The close code, if a close frame had one.
        code: Option<u16>,
        /// The close reason or the error, described by the driver.
        reason: String,
    },
}

impl StreamInput {
    /// [`StreamInput::ConnectFailed`] for a connection to `url` that could not be opened
    /// for `reason`, with the host's deprecation added when the exchange has deprecated it
    /// ([`host_deprecation`](super::host_deprecation)): a refusal of a retired host says why.
    ///
    /// ```
    /// use txc_core::stream::StreamInput;
    /// let input = StreamInput::connect_failed("wss://api.whitebit.com/ws", "connection refused");
    /// let StreamInput::ConnectFailed(reason) = input else { unreachable!() };
    /// assert!(reason.starts_with("connection refused (api.whitebit.com is a deprecated"));
    /// ```
    pub fn connect_failed(url: &str, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        Self::ConnectFailed(match super::host_deprecation(url) {
            Some(deprecation) => format!("{reason} ({deprecation})"),
            None => reason,
        })
    }
}

/// What the driver does next, from [`StreamMachine::poll`].
#[derive(Debug)]
#[must_use = "a step tells the driver what to do"]
// An event is handed on as it is: see `StreamEvent`.
#[allow(clippy::large_enum_variant)]
pub enum StreamStep {
    /// Open a WebSocket connection to the exchange's `/ws`, then hand over
    /// [`StreamInput::Connected`] or [`StreamInput::ConnectFailed`]. A driver that is still
    /// connecting when the machine says [`StreamStep::Close`] gives up.
    Connect,
    /// Fetch a fresh token (`POST /api/v4/profile/websocket_token`, signed), then hand over
    /// [`StreamInput::Token`] or [`StreamInput::TokenFailed`]. Keep reading frames meanwhile.
    NeedToken,
    /// Write this text frame.
    Send(OutgoingFrame),
    /// Close the connection (or give up opening it) and pass nothing more from it.
    Close,
    /// Hand this event to the consumer.
    Event(StreamEvent),
    /// Nothing to do for this long, or until an input arrives; then poll again.
    Wait(Duration),
    /// The stream has stopped; nothing more will happen.
    Finished,
}

/// The private WebSocket protocol as a sans-IO state machine, for the life of a stream across
/// reconnections: connect → fetch a token → `authorize` → subscribe every channel →
/// established ([`StreamEvent::Resync`]), with pings, answer deadlines, a request budget and
/// reconnections with backoff. It has no socket, no clock and no randomness: the driver
/// passes the time to every call and a jitter seed once.
///
/// The driver's loop: [`poll`](Self::poll) with the time and do what the [`StreamStep`] says
/// — connect, fetch a token, send a frame, close, hand an event on, or wait (for at most the
/// given time, or until a frame arrives) — and [`handle`](Self::handle) every outcome and
/// every frame as a [`StreamInput`].
///
/// Decisions, in short:
///
/// - **Ids**: requests are numbered from 1 across connections, never reused; an answer with
///   an id of no request in flight is a [`StreamError::UnmatchedAnswer`].
/// - **Ping**: when nothing was sent for [`ping_interval`](StreamConfig::with_ping_interval)
///   (30 s by default, the guide says at most 50 s).
/// - **Dead connections**: any request (ping included) unanswered after
///   [`answer_timeout`](StreamConfig::with_answer_timeout) ends the connection.
/// - **Budget**: at most [`requests_per_minute`](StreamConfig::with_requests_per_minute) frames
///   in any minute on one connection; requests past it are **queued** (in order, the same
///   request never twice) and sent as slots free up — never refused, since every request
///   is one the stream needs (a resubscription, a ping). A few slots of each minute are kept
///   for pings, so that a queue of subscriptions cannot starve them.
/// - **Reconnection**: every end of a connection is a [`StreamEvent::Disconnected`] saying
///   when the next attempt starts ([`Backoff`](super::Backoff): growing, capped, jittered,
///   reset once a connection stays established). Each attempt fetches a **fresh token**,
///   authorizes, resubscribes **every** channel, and emits [`StreamEvent::Resync`] before
///   any update of that connection (updates arriving while it subscribes are held; if the
///   connection ends first they are discarded and counted in the [`Disconnect`], since the
///   next `Resync` reads their state again).
/// - **Fatal**: a token request refused for the key or the request (authentication,
///   permission, validation) or a misconfigured client; `authorize` refused
///   [`max_authorize_refusals`](StreamConfig::with_max_authorize_refusals) times in a row.
///   Everything else is retried. A refused subscription drops that channel only.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::stream::{StreamConfig, StreamEvent, StreamInput, StreamMachine, StreamStep, Subscription};
/// use txc_types::events::WebSocketToken;
///
/// let subscriptions = [Subscription::orders_pending(["BTC_USDT"])?, Subscription::positions()];
/// let mut machine = StreamMachine::new(StreamConfig::default(), subscriptions, 42)?;
/// let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
///
/// assert!(matches!(machine.poll(now), StreamStep::Connect));
/// machine.handle(now, StreamInput::Connected);
/// assert!(matches!(machine.poll(now), StreamStep::NeedToken));
/// machine.handle(now, StreamInput::Token(WebSocketToken::new("token")));
/// let StreamStep::Send(authorize) = machine.poll(now) else { panic!() };
/// assert_eq!(authorize.text(), r#"{"id":1,"method":"authorize","params":["token","public"]}"#);
/// machine.handle(now, StreamInput::Text(r#"{"id":1,"result":{"status":"success"},"error":null}"#.into()));
///
/// let StreamStep::Send(orders) = machine.poll(now) else { panic!() };
/// assert_eq!(orders.text(), r#"{"id":2,"method":"ordersPending_subscribe","params":["BTC_USDT"]}"#);
/// let StreamStep::Send(positions) = machine.poll(now) else { panic!() };
/// assert_eq!(positions.method(), "positionsMargin_subscribe");
/// for id in [2, 3] {
///     machine.handle(now, StreamInput::Text(format!(r#"{{"id":{id},"result":{{"status":"success"}},"error":null}}"#)));
/// }
/// assert!(matches!(machine.poll(now), StreamStep::Event(StreamEvent::Subscribed(_))));
/// assert!(matches!(machine.poll(now), StreamStep::Event(StreamEvent::Subscribed(_))));
/// let StreamStep::Event(StreamEvent::Resync(resync)) = machine.poll(now) else { panic!() };
/// assert!(resync.is_initial());
/// // Nothing to do until a ping is due, 30 s after the last request.
/// assert!(matches!(machine.poll(now), StreamStep::Wait(d) if d == Duration::from_secs(30)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StreamMachine {
    config: StreamConfig,
    subs: Vec<Sub>,
    phase: Phase,
    link: Option<Link>,
    steps: VecDeque<StreamStep>,
    clock: Option<SystemTime>,
    next_id: u64,
    connection: u64,
    failures: u32,
    refusals: u32,
    gap_since: Option<SystemTime>,
    rng: fastrand::Rng,
}

/// Where the machine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No connection; the next attempt starts at `reconnect_at`.
    Down { reconnect_at: SystemTime },
    /// The driver is opening a connection.
    Connecting { deadline: SystemTime },
    /// Connected; the driver is fetching a token.
    AwaitingToken,
    /// `authorize` is queued or in flight.
    Authorizing,
    /// Authorized; subscriptions are queued or in flight.
    Subscribing,
    /// Every subscription answered, since `since`.
    Established { since: SystemTime },
    /// Stopped for good.
    Stopped,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Self::Down { .. } => "waiting to connect",
            Self::Connecting { .. } => "connecting",
            Self::AwaitingToken => "waiting for a token",
            Self::Authorizing => "authorizing",
            Self::Subscribing => "subscribing",
            Self::Established { .. } => "established",
            Self::Stopped => "stopped",
        }
    }
}

/// A subscription the stream keeps, and where it stands on the current connection.
#[derive(Debug)]
struct Sub {
    subscription: Subscription,
    /// The id of its subscribe request in flight.
    pending: Option<u64>,
    /// Whether the current connection confirmed it.
    active: bool,
}

/// An open connection.
struct Link {
    budget: Budget,
    /// The budget's slots kept for pings.
    ping_reserve: usize,
    queue: VecDeque<Request>,
    in_flight: BTreeMap<u64, InFlight>,
    last_sent: SystemTime,
    /// Channel events that arrived before the connection was established.
    held: Vec<StreamEvent>,
    /// The channels whose subscription the establishment waits for.
    awaiting: BTreeSet<Channel>,
}

/// A request waiting for the budget.
enum Request {
    Authorize(WebSocketToken),
    Subscribe(Channel),
    Unsubscribe(Channel),
    Ping,
}

/// A request in flight.
#[derive(Debug, Clone, Copy)]
struct InFlight {
    what: Sent,
    sent_at: SystemTime,
}

/// What a request in flight was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sent {
    Authorize,
    Subscribe(Channel),
    Unsubscribe(Channel),
    Ping,
}

impl Sent {
    fn method(self) -> &'static str {
        match self {
            Self::Authorize => "authorize",
            Self::Subscribe(channel) => channel.subscribe_method(),
            Self::Unsubscribe(channel) => channel.unsubscribe_method(),
            Self::Ping => "ping",
        }
    }
}

impl Link {
    fn new(now: SystemTime, config: &StreamConfig) -> Self {
        Self {
            budget: Budget::new(config.requests_per_minute(), BUDGET_WINDOW),
            ping_reserve: ping_reserve(config.requests_per_minute(), config.ping_interval()),
            queue: VecDeque::new(),
            in_flight: BTreeMap::new(),
            last_sent: now,
            held: Vec::new(),
            awaiting: BTreeSet::new(),
        }
    }

    /// Queues `request` unless the same one is queued already.
    fn enqueue(&mut self, request: Request) {
        let same = |queued: &Request| match (queued, &request) {
            (Request::Subscribe(a), Request::Subscribe(b))
            | (Request::Unsubscribe(a), Request::Unsubscribe(b)) => a == b,
            (Request::Ping, Request::Ping) => true,
            _ => false,
        };
        if !self.queue.iter().any(same) {
            self.queue.push_back(request);
        }
    }

    fn ping_pending(&self) -> bool {
        self.queue.iter().any(|r| matches!(r, Request::Ping))
            || self.in_flight.values().any(|f| f.what == Sent::Ping)
    }
}

impl StreamMachine {
    /// A stream of `subscriptions` (one per channel: a later one of the same channel replaces
    /// the earlier), reconnecting with jitter drawn from `jitter_seed` — seed it from a
    /// random source, so that clients reconnect out of step. It connects at the first
    /// [`poll`](Self::poll).
    pub fn new(
        config: StreamConfig,
        subscriptions: impl IntoIterator<Item = Subscription>,
        jitter_seed: u64,
    ) -> Result<Self, StreamConfigError> {
        config.check()?;
        let mut machine = Self {
            config,
            subs: Vec::new(),
            phase: Phase::Down {
                reconnect_at: UNIX_EPOCH,
            },
            link: None,
            steps: VecDeque::new(),
            clock: None,
            next_id: 1,
            connection: 0,
            failures: 0,
            refusals: 0,
            gap_since: None,
            rng: fastrand::Rng::with_seed(jitter_seed),
        };
        for subscription in subscriptions {
            machine.put(subscription);
        }
        Ok(machine)
    }

    /// The configuration.
    pub fn config(&self) -> &StreamConfig {
        &self.config
    }

    /// The subscriptions the stream keeps, in the order they are subscribed.
    pub fn subscriptions(&self) -> impl Iterator<Item = &Subscription> + '_ {
        self.subs.iter().map(|s| &s.subscription)
    }

    /// The current (or last) connection, counted from 1; 0 before the first.
    pub fn connection(&self) -> u64 {
        self.connection
    }

    /// Whether the stream is established (authorized, every channel answered).
    pub fn is_established(&self) -> bool {
        matches!(self.phase, Phase::Established { .. })
    }

    /// Whether the stream has stopped for good.
    pub fn is_stopped(&self) -> bool {
        self.phase == Phase::Stopped
    }

    /// Adds `subscription` to the stream, replacing one of the same channel, and subscribes
    /// it at once if the connection is authorized. Confirmed by [`StreamEvent::Subscribed`];
    /// no [`StreamEvent::Resync`] follows once the stream is established — read the
    /// channel's state yourself.
    pub fn subscribe(&mut self, subscription: Subscription) {
        if self.phase == Phase::Stopped {
            return;
        }
        let channel = subscription.channel();
        self.put(subscription);
        let subscribing = self.phase == Phase::Subscribing;
        let authorized = self.authorized();
        if let Some(link) = self.link.as_mut().filter(|_| authorized) {
            link.enqueue(Request::Subscribe(channel));
            if subscribing {
                link.awaiting.insert(channel);
            }
        }
    }

    /// Removes `channel` from the stream and unsubscribes it if the connection is authorized;
    /// confirmed by [`StreamEvent::Unsubscribed`].
    pub fn unsubscribe(&mut self, channel: Channel) {
        let before = self.subs.len();
        self.subs.retain(|s| s.subscription.channel() != channel);
        if self.subs.len() == before {
            return;
        }
        let authorized = self.authorized();
        if let Some(link) = self.link.as_mut().filter(|_| authorized) {
            link.awaiting.remove(&channel);
            link.enqueue(Request::Unsubscribe(channel));
        }
    }

    /// Stops the stream: closes the connection (a [`StreamEvent::Disconnected`]) and ends
    /// with [`StreamEvent::Stopped`].
    pub fn stop(&mut self) {
        if self.phase == Phase::Stopped {
            return;
        }
        let open = self.link.is_some() || matches!(self.phase, Phase::Connecting { .. });
        let was_established = self.is_established();
        let discarded = self.end_link(open);
        if open {
            self.disconnected(DisconnectReason::Stopped, was_established, discarded, None);
        }
        self.stopped(StopReason::Requested);
    }

    /// Hands the machine an outcome or a frame at `now`. Times that go backwards count as
    /// no time passing.
    pub fn handle(&mut self, now: SystemTime, input: StreamInput) {
        let now = self.advance(now);
        match input {
            StreamInput::Connected => match self.phase {
                Phase::Connecting { .. } => {
                    self.link = Some(Link::new(now, &self.config));
                    self.phase = Phase::AwaitingToken;
                    self.steps.push_back(StreamStep::NeedToken);
                }
                _ => self.out_of_order("Connected"),
            },
            StreamInput::ConnectFailed(reason) => {
                // A failure of an attempt the machine already gave up is stale.
                if matches!(self.phase, Phase::Connecting { .. }) {
                    self.fail(now, DisconnectReason::ConnectFailed(reason), false, None);
                }
            }
            StreamInput::Token(token) => {
                // A token for a connection that is gone is dropped (and zeroized).
                if let (Phase::AwaitingToken, Some(link)) = (self.phase, self.link.as_mut()) {
                    link.queue.push_front(Request::Authorize(token));
                    self.phase = Phase::Authorizing;
                }
            }
            StreamInput::TokenFailed(error) => {
                if self.phase == Phase::AwaitingToken {
                    let fatal = token_failure_is_fatal(&error);
                    let stop = fatal.then_some(StopReason::TokenRefused);
                    // The client's own pacing says when a token request may go out again.
                    let floor = match &error {
                        Error::Throttled(throttled) => throttled.retry_in,
                        _ => Duration::ZERO,
                    };
                    self.emit(StreamEvent::Error(StreamError::TokenFailed {
                        error,
                        fatal,
                    }));
                    self.fail_after(now, DisconnectReason::TokenFailed, true, stop, floor);
                }
            }
            StreamInput::Text(text) => self.frame(now, text),
            StreamInput::Binary(bytes) => match String::from_utf8(bytes) {
                Ok(text) => self.frame(now, text),
                Err(e) => {
                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    self.emit(StreamEvent::Error(StreamError::MalformedFrame {
                        reason: "a binary frame that is not UTF-8 text".to_owned(),
                        text,
                    }));
                }
            },
            StreamInput::Closed { code, reason } => {
                // After the machine's own Close the driver may still report the close.
                if self.link.is_some() || matches!(self.phase, Phase::Connecting { .. }) {
                    self.fail(now, DisconnectReason::Closed { code, reason }, false, None);
                }
            }
        }
    }

    /// What the driver does next at `now`. Times that go backwards count as no time passing.
    pub fn poll(&mut self, now: SystemTime) -> StreamStep {
        let now = self.advance(now);
        if let Some(step) = self.steps.pop_front() {
            return step;
        }
        self.tick(now);
        if let Some(step) = self.steps.pop_front() {
            return step;
        }
        if let Some(step) = self.send_next(now) {
            return step;
        }
        match self.next_deadline(now) {
            Some(at) => StreamStep::Wait(at.duration_since(now).unwrap_or_default()),
            None => StreamStep::Finished,
        }
    }

    /// Moves the machine's clock to `now`, never backwards.
    fn advance(&mut self, now: SystemTime) -> SystemTime {
        let now = self.clock.map_or(now, |clock| clock.max(now));
        self.clock = Some(now);
        now
    }

    fn authorized(&self) -> bool {
        matches!(self.phase, Phase::Subscribing | Phase::Established { .. })
    }

    /// Adds or replaces the subscription of its channel.
    fn put(&mut self, subscription: Subscription) {
        let channel = subscription.channel();
        let sub = Sub {
            subscription,
            pending: None,
            active: false,
        };
        match self
            .subs
            .iter_mut()
            .find(|s| s.subscription.channel() == channel)
        {
            Some(existing) => *existing = sub,
            None => self.subs.push(sub),
        }
    }

    fn emit(&mut self, event: StreamEvent) {
        self.steps.push_back(StreamStep::Event(event));
    }

    fn out_of_order(&mut self, input: &'static str) {
        let state = self.phase.name();
        self.emit(StreamEvent::Error(StreamError::OutOfOrder { input, state }));
    }

    /// Time-driven decisions at `now`: connect, give up connecting, find a dead connection,
    /// ping, establish, forget past failures.
    fn tick(&mut self, now: SystemTime) {
        match self.phase {
            Phase::Stopped => return,
            Phase::Down { reconnect_at } if now >= reconnect_at => {
                self.connection = self.connection.saturating_add(1);
                self.phase = Phase::Connecting {
                    deadline: now
                        .checked_add(self.config.connect_timeout())
                        .unwrap_or(now),
                };
                self.steps.push_back(StreamStep::Connect);
                return;
            }
            Phase::Connecting { deadline } if now >= deadline => {
                self.fail(now, DisconnectReason::ConnectTimeout, true, None);
                return;
            }
            _ => {}
        }
        let answer_timeout = self.config.answer_timeout();
        let ping_interval = self.config.ping_interval();
        let Some(link) = self.link.as_mut() else {
            return;
        };
        let overdue = link
            .in_flight
            .values()
            .find(|f| due(f.sent_at, answer_timeout, now))
            .map(|f| f.what.method());
        if let Some(method) = overdue {
            self.fail(now, DisconnectReason::AnswerTimeout { method }, true, None);
            return;
        }
        if due(link.last_sent, ping_interval, now) && !link.ping_pending() {
            link.queue.push_back(Request::Ping);
        }
        match self.phase {
            Phase::Subscribing if link.awaiting.is_empty() => self.establish(now),
            Phase::Established { since }
                if self.failures > 0 && due(since, self.config.backoff().stable_after(), now) =>
            {
                self.failures = 0;
            }
            _ => {}
        }
    }

    /// Every subscription answered: the stream is established.
    fn establish(&mut self, now: SystemTime) {
        self.phase = Phase::Established { since: now };
        let subscriptions = self
            .subs
            .iter()
            .filter(|s| s.active)
            .map(|s| s.subscription.clone())
            .collect();
        let resync = Resync {
            connection: self.connection,
            subscriptions,
            gap_since: self.gap_since.take(),
        };
        self.emit(StreamEvent::Resync(resync));
        let held = self
            .link
            .as_mut()
            .map(|link| std::mem::take(&mut link.held))
            .unwrap_or_default();
        for event in held {
            self.emit(event);
        }
    }

    /// Sends the next queued request if the budget has a slot: a queued ping first (it may
    /// use the slots kept for pings), else the oldest request.
    fn send_next(&mut self, now: SystemTime) -> Option<StreamStep> {
        let link = self.link.as_mut()?;
        let subs = &mut self.subs;
        link.queue.retain(|request| match request {
            Request::Subscribe(channel) => {
                subs.iter().any(|s| s.subscription.channel() == *channel)
            }
            _ => true,
        });
        let ping = link.queue.iter().position(|r| matches!(r, Request::Ping));
        let (index, reserve) = match ping {
            Some(index) => (index, 0),
            None => (0, link.ping_reserve),
        };
        if link.queue.is_empty() {
            return None;
        }
        link.budget.take(now, reserve).ok()?;
        let request = link.queue.remove(index)?;
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        let (frame, what) = match request {
            Request::Authorize(token) => (
                OutgoingFrame::new(id, "authorize", &(token.expose(), "public")),
                Sent::Authorize,
            ),
            Request::Subscribe(channel) => {
                let sub = subs
                    .iter_mut()
                    .find(|s| s.subscription.channel() == channel)?;
                sub.pending = Some(id);
                let params = sub.subscription.params();
                (
                    OutgoingFrame::new(id, channel.subscribe_method(), &params),
                    Sent::Subscribe(channel),
                )
            }
            Request::Unsubscribe(channel) => (
                OutgoingFrame::new(id, channel.unsubscribe_method(), &[(); 0]),
                Sent::Unsubscribe(channel),
            ),
            Request::Ping => (OutgoingFrame::new(id, "ping", &[(); 0]), Sent::Ping),
        };
        link.in_flight.insert(id, InFlight { what, sent_at: now });
        link.last_sent = now;
        Some(StreamStep::Send(frame))
    }

    /// When something is next due; `None` once stopped.
    fn next_deadline(&self, now: SystemTime) -> Option<SystemTime> {
        let link = match self.phase {
            Phase::Stopped => return None,
            Phase::Down { reconnect_at } => return Some(reconnect_at),
            Phase::Connecting { deadline } => return Some(deadline),
            _ => self.link.as_ref()?,
        };
        let answer_timeout = self.config.answer_timeout();
        let answers = link
            .in_flight
            .values()
            .filter_map(|f| f.sent_at.checked_add(answer_timeout));
        let ping = (!link.ping_pending())
            .then(|| link.last_sent.checked_add(self.config.ping_interval()))
            .flatten();
        let reserve = if link.queue.iter().any(|r| matches!(r, Request::Ping)) {
            0
        } else {
            link.ping_reserve
        };
        let budget = (!link.queue.is_empty())
            .then(|| link.budget.free_at(now, reserve))
            .flatten();
        let stable = match self.phase {
            Phase::Established { since } if self.failures > 0 => {
                since.checked_add(self.config.backoff().stable_after())
            }
            _ => None,
        };
        answers.chain(ping).chain(budget).chain(stable).min()
    }

    /// Drops the connection, telling the driver to close it if `close`; returns how many
    /// held events it discards (the next [`Resync`] reads their state again: a connection
    /// that was never established opened no gap of its own).
    fn end_link(&mut self, close: bool) -> usize {
        let discarded = self.link.take().map_or(0, |link| link.held.len());
        if close {
            self.steps.push_back(StreamStep::Close);
        }
        for sub in &mut self.subs {
            sub.pending = None;
            sub.active = false;
        }
        discarded
    }

    /// The connection (or the attempt) ended at `now` for `reason`: tell the consumer, then
    /// stop with `stop`, or schedule the next attempt.
    fn fail(
        &mut self,
        now: SystemTime,
        reason: DisconnectReason,
        close: bool,
        stop: Option<StopReason>,
    ) {
        self.fail_after(now, reason, close, stop, Duration::ZERO);
    }

    /// [`fail`](Self::fail), reconnecting no sooner than `floor` from now (a throttled token
    /// request says when the limiter has a slot).
    fn fail_after(
        &mut self,
        now: SystemTime,
        reason: DisconnectReason,
        close: bool,
        stop: Option<StopReason>,
        floor: Duration,
    ) {
        if self.phase == Phase::Stopped {
            return;
        }
        let was_established = self.is_established();
        if was_established && self.gap_since.is_none() {
            self.gap_since = Some(now);
        }
        let discarded = self.end_link(close);
        if let Some(stop) = stop {
            self.disconnected(reason, was_established, discarded, None);
            self.stopped(stop);
            return;
        }
        let delay = self
            .config
            .backoff()
            .delay(self.failures, self.rng.f64())
            .max(floor);
        self.failures = self.failures.saturating_add(1);
        self.phase = Phase::Down {
            reconnect_at: now.checked_add(delay).unwrap_or(now),
        };
        self.disconnected(reason, was_established, discarded, Some(delay));
    }

    fn disconnected(
        &mut self,
        reason: DisconnectReason,
        was_established: bool,
        discarded_events: usize,
        reconnect_in: Option<Duration>,
    ) {
        self.emit(StreamEvent::Disconnected(Disconnect {
            connection: self.connection,
            reason,
            was_established,
            discarded_events,
            reconnect_in,
        }));
    }

    fn stopped(&mut self, reason: StopReason) {
        self.link = None;
        self.phase = Phase::Stopped;
        self.emit(StreamEvent::Stopped(reason));
    }
}

impl fmt::Debug for StreamMachine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamMachine")
            .field("phase", &self.phase.name())
            .field("connection", &self.connection)
            .field("failures", &self.failures)
            .field("subscriptions", &self.subs)
            .finish_non_exhaustive()
    }
}

/// Whether `interval` after `since` has passed at `now`.
fn due(since: SystemTime, interval: Duration, now: SystemTime) -> bool {
    since.checked_add(interval).is_none_or(|at| at <= now)
}

/// Whether a failed token request ends the stream: the exchange refused the key or the
/// request, or the client is misconfigured. Anything else (transport, rate limit, server
/// trouble, an answer without a token) may pass and is retried.
fn token_failure_is_fatal(error: &Error) -> bool {
    match error {
        Error::InvalidConfig { .. } | Error::InvalidRequest(_) => true,
        _ => error.api().is_some_and(|api| {
            matches!(
                api.class,
                ApiErrorClass::Authentication
                    | ApiErrorClass::Permission
                    | ApiErrorClass::Validation
            )
        }),
    }
}

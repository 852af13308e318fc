//! [`StreamConfig`]: the timings and limits of a stream, the documented ones as constants,
//! and [`Backoff`], the reconnect delays.

use std::time::Duration;

use super::config_error::StreamConfigError;

/// The server closes a connection on which nothing arrived for this long (the guide's
/// "inactivity timeout").
pub const SERVER_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest ping interval the guide allows ("send `ping` every 50 seconds or less").
pub const MAX_PING_INTERVAL: Duration = Duration::from_secs(50);

/// The default ping interval: a `ping` goes out when nothing was sent for this long.
pub const DEFAULT_PING_INTERVAL: Duration = Duration::from_secs(30);

/// The default time the server has to answer a request before the connection counts as dead.
pub const DEFAULT_ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// The default time the driver has to open a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The exchange's limit of requests per connection per minute.
pub const REQUESTS_PER_MINUTE_LIMIT: u32 = 200;

/// The default budget of requests per connection per minute: 5 % below the limit, for
/// requests that arrive out of step with their departure (the server counts arrivals).
pub const DEFAULT_REQUESTS_PER_MINUTE: u32 = 190;

/// The default number of refused `authorize` requests in a row, each with a fresh token,
/// after which the stream stops.
pub const DEFAULT_MAX_AUTHORIZE_REFUSALS: u32 = 3;

/// The default number of channel events held while a connection subscribes.
pub const DEFAULT_MAX_HELD_EVENTS: usize = 4_096;

/// Reconnect delays: doubling from `initial` to at most `max`, each with up to `jitter` of
/// itself added (but never past `max`), and back to `initial` once a connection has been
/// established for `stable_after` — the guide's "delay doubles from 1s to 30s max, plus
/// jitter".
///
/// The delay of the `n`th reconnect in a row (from 0) with a jitter draw `u` in `[0, 1)` is
/// `min(b + b·jitter·u, max)` where `b = min(initial·2ⁿ, max)`. So the delays never shrink
/// while the failures go on, whatever the draws (with `jitter` ≤ 1 a doubling outgrows any
/// jitter), and reach `max` exactly: clients that fell out of step on the way up stay out of
/// step there.
///
/// ```
/// use std::time::Duration;
/// use txc_core::stream::Backoff;
/// let backoff = Backoff::default();
/// assert_eq!(backoff.delay(0, 0.0), Duration::from_secs(1));
/// assert_eq!(backoff.delay(1, 0.5), Duration::from_millis(2_500));
/// assert_eq!(backoff.delay(10, 0.9), Duration::from_secs(30));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    initial: Duration,
    max: Duration,
    jitter: f64,
    stable_after: Duration,
}

impl Default for Backoff {
    /// 1 s doubling to 30 s, up to half of each delay added, reset after a minute established.
    fn default() -> Self {
        Self {
            initial: Duration::from_secs(1),
            max: Duration::from_secs(30),
            jitter: 0.5,
            stable_after: Duration::from_secs(60),
        }
    }
}

impl Backoff {
    /// Delays doubling from `initial` to `max`.
    pub fn new(initial: Duration, max: Duration) -> Self {
        Self {
            initial,
            max,
            ..Self::default()
        }
    }

    /// Sets the largest share of a delay added at random (0 to 1).
    pub fn with_jitter(mut self, jitter: f64) -> Self {
        self.jitter = jitter;
        self
    }

    /// Sets how long a connection must stay established for the delays to start over.
    pub fn with_stable_after(mut self, stable_after: Duration) -> Self {
        self.stable_after = stable_after;
        self
    }

    /// The first delay.
    pub fn initial(&self) -> Duration {
        self.initial
    }

    /// The largest delay.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// The largest share of a delay added at random.
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// How long a connection must stay established for the delays to start over.
    pub fn stable_after(&self) -> Duration {
        self.stable_after
    }

    /// The delay before reconnect number `attempt` (from 0) of a run of failures, with a
    /// jitter draw `unit` in `[0, 1)` (clamped).
    pub fn delay(&self, attempt: u32, unit: f64) -> Duration {
        let doubled = 2u32
            .checked_pow(attempt)
            .and_then(|factor| self.initial.checked_mul(factor))
            .unwrap_or(self.max);
        let base = doubled.min(self.max);
        let unit = if unit.is_finite() {
            unit.clamp(0.0, 1.0)
        } else {
            0.0
        };
        base.saturating_add(base.mul_f64(self.jitter * unit))
            .min(self.max)
    }

    fn check(&self) -> Result<(), StreamConfigError> {
        if self.initial.is_zero() || self.initial > self.max {
            return Err(StreamConfigError::setting(
                "backoff",
                "the initial delay must be above zero and at most the largest",
            ));
        }
        if !(0.0..=1.0).contains(&self.jitter) {
            return Err(StreamConfigError::setting(
                "backoff",
                "the jitter must be between 0 and 1",
            ));
        }
        Ok(())
    }
}

/// The timings and limits of a stream. The defaults follow the exchange's guide; every
/// setting is checked when the machine is made ([`StreamMachine::new`](super::StreamMachine::new)).
///
/// ```
/// use std::time::Duration;
/// use txc_core::stream::{StreamConfig, StreamMachine};
/// let config = StreamConfig::default().with_ping_interval(Duration::from_secs(55));
/// assert!(StreamMachine::new(config, [], 7).is_err()); // the server would close the connection
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct StreamConfig {
    ping_interval: Duration,
    answer_timeout: Duration,
    connect_timeout: Duration,
    requests_per_minute: u32,
    backoff: Backoff,
    max_authorize_refusals: u32,
    max_held_events: usize,
}

impl Default for StreamConfig {
    fn default() -> Self {
        Self {
            ping_interval: DEFAULT_PING_INTERVAL,
            answer_timeout: DEFAULT_ANSWER_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            requests_per_minute: DEFAULT_REQUESTS_PER_MINUTE,
            backoff: Backoff::default(),
            max_authorize_refusals: DEFAULT_MAX_AUTHORIZE_REFUSALS,
            max_held_events: DEFAULT_MAX_HELD_EVENTS,
        }
    }
}

impl StreamConfig {
    /// Sets how long nothing may be sent before a `ping` goes out (above zero, below
    /// [`MAX_PING_INTERVAL`]; default [`DEFAULT_PING_INTERVAL`]).
    pub fn with_ping_interval(mut self, interval: Duration) -> Self {
        self.ping_interval = interval;
        self
    }

    /// Sets how long the server has to answer any request before the connection counts as
    /// dead and is replaced (above zero; default [`DEFAULT_ANSWER_TIMEOUT`]).
    pub fn with_answer_timeout(mut self, timeout: Duration) -> Self {
        self.answer_timeout = timeout;
        self
    }

    /// Sets how long the driver has to open a connection (above zero; default
    /// [`DEFAULT_CONNECT_TIMEOUT`]).
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Sets how many requests one connection may send in any minute (up to
    /// [`REQUESTS_PER_MINUTE_LIMIT`], and at least twice the pings a minute can need —
    /// 6 at the default interval; default [`DEFAULT_REQUESTS_PER_MINUTE`]).
    pub fn with_requests_per_minute(mut self, requests: u32) -> Self {
        self.requests_per_minute = requests;
        self
    }

    /// Sets the reconnect delays.
    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// Sets after how many refused `authorize` requests in a row the stream stops (at least
    /// 1; default [`DEFAULT_MAX_AUTHORIZE_REFUSALS`]).
    pub fn with_max_authorize_refusals(mut self, refusals: u32) -> Self {
        self.max_authorize_refusals = refusals;
        self
    }

    /// Sets how many channel events a connection may hold while it subscribes; past that it
    /// is replaced (at least 1; default [`DEFAULT_MAX_HELD_EVENTS`]).
    pub fn with_max_held_events(mut self, events: usize) -> Self {
        self.max_held_events = events;
        self
    }

    /// How long nothing may be sent before a `ping` goes out.
    pub fn ping_interval(&self) -> Duration {
        self.ping_interval
    }

    /// How long the server has to answer a request.
    pub fn answer_timeout(&self) -> Duration {
        self.answer_timeout
    }

    /// How long the driver has to open a connection.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// How many requests one connection may send in any minute.
    pub fn requests_per_minute(&self) -> u32 {
        self.requests_per_minute
    }

    /// The reconnect delays.
    pub fn backoff(&self) -> &Backoff {
        &self.backoff
    }

    /// After how many refused `authorize` requests in a row the stream stops.
    pub fn max_authorize_refusals(&self) -> u32 {
        self.max_authorize_refusals
    }

    /// How many channel events a connection may hold while it subscribes.
    pub fn max_held_events(&self) -> usize {
        self.max_held_events
    }

    /// Checks every setting.
    pub(crate) fn check(&self) -> Result<(), StreamConfigError> {
        if self.ping_interval.is_zero() || self.ping_interval >= MAX_PING_INTERVAL {
            return Err(StreamConfigError::setting(
                "ping_interval",
                "must be above zero and below 50 s (the server closes idle connections after 60 s)",
            ));
        }
        if self.answer_timeout.is_zero() {
            return Err(StreamConfigError::setting(
                "answer_timeout",
                "must be above zero",
            ));
        }
        if self.connect_timeout.is_zero() {
            return Err(StreamConfigError::setting(
                "connect_timeout",
                "must be above zero",
            ));
        }
        if !(1..=REQUESTS_PER_MINUTE_LIMIT).contains(&self.requests_per_minute) {
            return Err(StreamConfigError::setting(
                "requests_per_minute",
                "must be between 1 and 200 (the exchange's limit per connection)",
            ));
        }
        let pings = pings_per_minute(self.ping_interval);
        if u64::from(self.requests_per_minute) < pings.saturating_mul(2) {
            return Err(StreamConfigError::setting(
                "requests_per_minute",
                "too few for the ping interval: at least twice the pings a minute can need",
            ));
        }
        if self.max_authorize_refusals == 0 {
            return Err(StreamConfigError::setting(
                "max_authorize_refusals",
                "must be at least 1",
            ));
        }
        if self.max_held_events == 0 {
            return Err(StreamConfigError::setting(
                "max_held_events",
                "must be at least 1",
            ));
        }
        self.backoff.check()
    }
}

/// How many pings one minute can hold at `interval` (a ping goes out only after `interval`
/// with nothing sent): a minute's worth, plus one at its edge.
pub(crate) fn pings_per_minute(interval: Duration) -> u64 {
    let per_minute = Duration::from_secs(60)
        .as_nanos()
        .div_ceil(interval.as_nanos().max(1));
    u64::try_from(per_minute)
        .unwrap_or(u64::MAX)
        .saturating_add(1)
}

/// A seed for [`StreamMachine::new`](super::StreamMachine::new)'s reconnect jitter from the
/// standard library's random source (the keys of its hash maps), so that clients reconnect
/// out of step. The machine itself takes no randomness: drivers call this once per stream.
pub fn jitter_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}

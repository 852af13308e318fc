//! [`Nonce`] and [`NonceSequence`]: strictly increasing request nonces.
//!
//! The sequence never reads the clock: callers pass the current time in milliseconds.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::Error;

/// A request nonce, sent as a JSON integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nonce(pub u64);

impl Nonce {
    /// The nonce's value.
    pub fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How the exchange checks a request's nonce: the body's `nonceWindow` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NonceMode {
    /// `nonceWindow: true`: the nonce is a Unix time in milliseconds, accepted within ±5 s of
    /// the exchange's clock and once only — the exchange's advice for concurrent clients.
    #[default]
    Window,
    /// `nonceWindow: false`: every nonce must be greater than the key's previous one.
    Strict,
}

impl NonceMode {
    /// The body's `nonceWindow` value.
    pub fn window(self) -> bool {
        self == Self::Window
    }
}

/// A per-credential nonce sequence: `next(now_ms) = max(now_ms, last + 1)`.
///
/// Lock-free and shared by every clone, so threads and clones of one client never repeat a
/// nonce, and with `nonceWindow` the values stay within the exchange's ±5 s of real time.
///
/// ```
/// let seq = txc_sign::nonce::NonceSequence::new();
/// let a = seq.next(1_700_000_000_000);
/// let b = seq.next(1_700_000_000_000); // same millisecond
/// assert!(b > a);
/// ```
#[derive(Debug, Clone, Default)]
pub struct NonceSequence {
    last: Arc<AtomicU64>,
    /// The opt-in correction of the local clock (ms), shared by clones.
    clock_offset: Arc<AtomicI64>,
    /// This sequence's residue class: worker `i` of `n` uses only nonces congruent to `i`
    /// modulo `n`; `None` uses every nonce.
    worker: Option<FleetWorker>,
}

/// One of several processes or hosts that share an API key: worker `index` of `workers`.
///
/// Each worker's window-mode nonces are congruent to its index modulo the number of workers,
/// so two workers can never send the same nonce — no coordination, no shared state. The
/// price: a worker has `1000 / workers` nonces per second of clock time for all its requests
/// together (the exchange's order limit, 1 000 per second per key, is the same total). Its
/// client's rate limits are divided by `workers` as well (txc-core's
/// `RateLimiter::for_worker`).
///
/// ```
/// use txc_sign::nonce::{FleetWorker, NonceSequence};
/// let a = NonceSequence::for_worker("key", FleetWorker::new(0, 4)?);
/// let b = NonceSequence::for_worker("key", FleetWorker::new(1, 4)?);
/// assert_eq!(a.next(1_000).get() % 4, 0);
/// assert_eq!(b.next(1_000).get() % 4, 1);
/// # Ok::<(), txc_sign::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FleetWorker {
    index: u32,
    workers: u32,
}

impl FleetWorker {
    /// Worker `index` (from 0) of `workers`; an index not below the count is an [`Error`].
    pub fn new(index: u32, workers: u32) -> Result<Self, Error> {
        if index >= workers {
            return Err(Error::invalid_config(
                "fleet worker",
                format!("worker index {index} is not below the number of workers {workers}"),
            ));
        }
        Ok(Self { index, workers })
    }

    /// The worker's index, from 0.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// How many workers share the key.
    pub fn workers(&self) -> u32 {
        self.workers
    }
}

impl NonceSequence {
    /// A sequence that has issued nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A sequence of its own using only `worker`'s residue class of nonces.
    pub fn partitioned(worker: FleetWorker) -> Self {
        Self {
            worker: Some(worker),
            ..Self::default()
        }
    }

    /// The sequence of `api_key` in this process: every call with the same key gets the same
    /// sequence, so clients built separately for one key (a blocking and an async one, say)
    /// never collide. Clients use it unless given their own sequence. It lives as long as the
    /// process, so a client built later continues where the earlier ones stopped.
    ///
    /// ```
    /// use txc_sign::nonce::NonceSequence;
    /// let a = NonceSequence::for_key("key-a");
    /// let b = NonceSequence::for_key("key-a");
    /// let first = a.next(1_000);
    /// assert!(b.next(1_000) > first);
    /// assert_eq!(NonceSequence::for_key("key-b").last(), 0);
    /// ```
    pub fn for_key(api_key: &str) -> Self {
        Self::registered(api_key, None)
    }

    /// The sequence of `api_key` in this process when it is `worker` of a fleet
    /// ([`NonceSequence::partitioned`], shared like [`NonceSequence::for_key`]).
    pub fn for_worker(api_key: &str, worker: FleetWorker) -> Self {
        Self::registered(api_key, Some(worker))
    }

    fn registered(api_key: &str, worker: Option<FleetWorker>) -> Self {
        type Sequences = HashMap<(String, Option<FleetWorker>), NonceSequence>;
        static SEQUENCES: LazyLock<Mutex<Sequences>> = LazyLock::new(Mutex::default);
        // The map is never left half-updated, so a poisoned lock is still consistent.
        let mut sequences = SEQUENCES.lock().unwrap_or_else(PoisonError::into_inner);
        let sequence = sequences.entry((api_key.to_owned(), worker));
        sequence
            .or_insert_with(|| worker.map_or_else(Self::new, Self::partitioned))
            .clone()
    }

    /// The fleet worker whose nonces this issues, if it is partitioned.
    pub fn worker(&self) -> Option<FleetWorker> {
        self.worker.filter(|w| w.workers > 1)
    }

    /// Sets the correction applied to the local clock for this sequence's nonces (shared by
    /// clones: every client of the key): window-mode nonces are the local time plus `offset`.
    /// Measure it with the client's `sync_clock`.
    pub fn set_clock_offset(&self, offset: ClockOffset) {
        self.clock_offset
            .store(offset.as_millis(), Ordering::Release);
    }

    /// The correction applied to the local clock (zero unless set).
    pub fn clock_offset(&self) -> ClockOffset {
        ClockOffset::from_millis(self.clock_offset.load(Ordering::Acquire))
    }

    /// `now` as this sequence's nonce time: Unix milliseconds plus the clock offset.
    pub fn time_of(&self, now: SystemTime) -> u64 {
        self.clock_offset().apply(unix_millis(now))
    }

    /// Whether `self` and `other` are the same sequence (clones of one another).
    pub fn same_as(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.last, &other.last)
    }

    /// The next nonce for a request signed at `now_ms` (Unix milliseconds).
    pub fn next(&self, now_ms: u64) -> Nonce {
        let mut last = self.last.load(Ordering::Relaxed);
        loop {
            let next = self.in_class(now_ms.max(last.saturating_add(1)));
            match self
                .last
                .compare_exchange_weak(last, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return Nonce(next),
                Err(seen) => last = seen,
            }
        }
    }

    /// The least value ≥ `n` in this sequence's residue class.
    #[inline]
    fn in_class(&self, n: u64) -> u64 {
        match self.worker {
            Some(FleetWorker { index, workers }) if workers > 1 => {
                let workers = u64::from(workers);
                let rest = (u64::from(index) + workers - n % workers) % workers;
                n.saturating_add(rest)
            }
            _ => n,
        }
    }

    /// The last nonce issued, or 0.
    pub fn last(&self) -> u64 {
        self.last.load(Ordering::Acquire)
    }
}

/// A correction of the local clock in milliseconds: the exchange's time minus the local
/// time. Positive when the local clock is behind.
///
/// ```
/// use txc_sign::nonce::ClockOffset;
/// let offset = ClockOffset::from_millis(-7_250);
/// assert_eq!(offset.apply(1_000_000), 992_750);
/// assert_eq!(offset.to_string(), "the local clock is 7.250 s ahead of the exchange's");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ClockOffset(i64);

impl ClockOffset {
    /// No correction.
    pub const ZERO: Self = Self(0);

    /// An offset of `ms` milliseconds (exchange minus local).
    pub const fn from_millis(ms: i64) -> Self {
        Self(ms)
    }

    /// The exchange's time minus the local time, in milliseconds.
    pub const fn as_millis(self) -> i64 {
        self.0
    }

    /// `local_ms` corrected to the exchange's clock.
    pub fn apply(self, local_ms: u64) -> u64 {
        local_ms.saturating_add_signed(self.0)
    }

    /// The offset measured by one exchange of messages: the exchange said `server` (whole
    /// seconds, so its true time lies in `[server, server + 1 s)`) somewhere between `sent` and
    /// `received` by the local clock. The estimate takes both midpoints; it is good to about
    /// half a second plus half the round trip.
    pub fn measure(server: SystemTime, sent: SystemTime, received: SystemTime) -> Self {
        let server_ms = i128::from(unix_millis(server)) + 500;
        let sent_ms = i128::from(unix_millis(sent));
        let received_ms = i128::from(unix_millis(received)).max(sent_ms);
        let local_ms = (sent_ms + received_ms) / 2;
        let offset = (server_ms - local_ms).clamp(i128::from(i64::MIN), i128::from(i64::MAX));
        Self(i64::try_from(offset).unwrap_or_default())
    }
}

impl fmt::Display for ClockOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.unsigned_abs();
        let (secs, frac) = (ms / 1_000, ms % 1_000);
        match self.0 {
            0 => f.write_str("the local clock agrees with the exchange's"),
            n if n > 0 => write!(
                f,
                "the local clock is {secs}.{frac:03} s behind the exchange's"
            ),
            _ => write!(
                f,
                "the local clock is {secs}.{frac:03} s ahead of the exchange's"
            ),
        }
    }
}

/// Milliseconds since the Unix epoch of `time` (0 before it, saturating far after it): what
/// [`NonceSequence::next`] takes. The core never reads the clock; callers pass
/// `SystemTime::now()`.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// assert_eq!(txc_sign::nonce::unix_millis(UNIX_EPOCH + Duration::from_millis(1_700_000_000_123)), 1_700_000_000_123);
/// ```
pub fn unix_millis(time: SystemTime) -> u64 {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since_epoch.as_millis()).unwrap_or(u64::MAX)
}

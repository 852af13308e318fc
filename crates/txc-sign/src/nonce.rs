//! [`Nonce`] and [`NonceSequence`]: strictly increasing request nonces.
//!
//! The sequence never reads the clock: callers pass the current time in milliseconds.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

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
/// let seq = txc_sign::NonceSequence::new();
/// let a = seq.next(1_700_000_000_000);
/// let b = seq.next(1_700_000_000_000); // same millisecond
/// assert!(b > a);
/// ```
#[derive(Debug, Clone, Default)]
pub struct NonceSequence {
    last: Arc<AtomicU64>,
}

impl NonceSequence {
    /// A sequence that has issued nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The sequence of `api_key` in this process: every call with the same key gets the same
    /// sequence, so clients built separately for one key (a blocking and an async one, say)
    /// never collide. Clients use it unless given their own sequence. It lives as long as the
    /// process, so a client built later continues where the earlier ones stopped.
    ///
    /// ```
    /// use txc_sign::NonceSequence;
    /// let a = NonceSequence::for_key("key-a");
    /// let b = NonceSequence::for_key("key-a");
    /// let first = a.next(1_000);
    /// assert!(b.next(1_000) > first);
    /// assert_eq!(NonceSequence::for_key("key-b").last(), 0);
    /// ```
    pub fn for_key(api_key: &str) -> Self {
        static SEQUENCES: LazyLock<Mutex<HashMap<String, NonceSequence>>> =
            LazyLock::new(Mutex::default);
        // The map is never left half-updated, so a poisoned lock is still consistent.
        let mut sequences = SEQUENCES.lock().unwrap_or_else(PoisonError::into_inner);
        match sequences.get(api_key) {
            Some(sequence) => sequence.clone(),
            None => sequences.entry(api_key.to_owned()).or_default().clone(),
        }
    }

    /// Whether `self` and `other` are the same sequence (clones of one another).
    pub fn same_as(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.last, &other.last)
    }

    /// The next nonce for a request signed at `now_ms` (Unix milliseconds).
    pub fn next(&self, now_ms: u64) -> Nonce {
        let mut last = self.last.load(Ordering::Relaxed);
        loop {
            let next = now_ms.max(last.saturating_add(1));
            match self
                .last
                .compare_exchange_weak(last, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return Nonce(next),
                Err(seen) => last = seen,
            }
        }
    }

    /// The last nonce issued, or 0.
    pub fn last(&self) -> u64 {
        self.last.load(Ordering::Acquire)
    }
}

/// Milliseconds since the Unix epoch of `time` (0 before it, saturating far after it): what
/// [`NonceSequence::next`] takes. The core never reads the clock; callers pass
/// `SystemTime::now()`.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// assert_eq!(txc_sign::unix_millis(UNIX_EPOCH + Duration::from_millis(1_700_000_000_123)), 1_700_000_000_123);
/// ```
pub fn unix_millis(time: SystemTime) -> u64 {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since_epoch.as_millis()).unwrap_or(u64::MAX)
}

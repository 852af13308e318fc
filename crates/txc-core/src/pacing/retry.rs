//! [`RetryPolicy`]: pure retry decisions. No clock and no randomness: the caller passes the
//! attempt number, the time and a jitter value, and sleeps itself.
//!
//! Orders are resent only when they certainly were not executed ([`Error::is_retryable`]: HTTP
//! 429, or a connection that failed before the request was written); never after a response
//! that leaves their outcome unknown. Reads are also resent after 5xx responses and any
//! transport failure. Every resend is signed afresh with a new nonce.
//!
//! The delays follow the exchange's advice for rate limits: exponential from 1 s, doubling,
//! capped at 30 s, with jitter; a `Retry-After` the server sends wins. The first retry after a
//! 429 is quick (100 ms by default): a 429 is also the response to a nonce that lost a race with
//! another request of the same key, which a fresh nonce cures at once; a second 429 in a row is
//! taken as the rate limit and backs off from 1 s.

use std::time::{Duration, SystemTime};

use txc_types::endpoint::EndpointKind;

use crate::Error;

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Retry {
    /// Sign again with a fresh nonce and resend after this delay.
    After(Duration),
    /// Give up and return the error.
    Stop,
}

/// How often and how patiently to retry.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use txc_core::decode::{TransportError, TransportErrorKind};
/// use txc_core::pacing::{Retry, RetryPolicy};
/// use txc_types::endpoint::EndpointKind;
///
/// let policy = RetryPolicy::default();
/// let now = SystemTime::now();
/// let timeout: txc_core::Error =
///     TransportError::maybe_sent(TransportErrorKind::Timeout, "timed out").into();
/// // An order whose outcome is unknown is never resent...
/// assert_eq!(policy.decide(EndpointKind::Order, 1, &timeout, 0.5, now), Retry::Stop);
/// // ...a read is, after the exchange's first backoff step (1 s, plus up to a quarter).
/// let Retry::After(delay) = policy.decide(EndpointKind::Read, 1, &timeout, 0.5, now) else {
///     unreachable!()
/// };
/// assert_eq!(delay, Duration::from_millis(1_125));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    max_attempts: u32,
    base_delay: Duration,
    max_delay: Duration,
    quick_retry: Duration,
    max_retry_after: Duration,
}

impl Default for RetryPolicy {
    /// Four attempts in all; backoff 1 s doubling to 30 s; the first retry after a 429 after
    /// 100 ms; a `Retry-After` of up to 60 s honoured (a longer one ends the call).
    fn default() -> Self {
        Self {
            max_attempts: 4,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            quick_retry: Duration::from_millis(100),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// A policy of at most `max_attempts` attempts in all (at least 1), exponential backoff
    /// from `base_delay` capped at `max_delay`, and the defaults for the rest.
    pub fn new(max_attempts: u32, base_delay: Duration, max_delay: Duration) -> Self {
        Self {
            max_attempts: max_attempts.max(1),
            base_delay,
            max_delay,
            ..Self::default()
        }
    }

    /// Never retry.
    pub fn disabled() -> Self {
        Self::new(1, Duration::ZERO, Duration::ZERO)
    }

    /// Sets the delay of the first retry after a 429 (default 100 ms); set it to the base
    /// delay to back off from the first 429 on.
    pub fn with_quick_retry(mut self, delay: Duration) -> Self {
        self.quick_retry = delay;
        self
    }

    /// Sets the longest `Retry-After` honoured (default 60 s); a longer one ends the call with
    /// the error, whose [`Error::retry_after`] tells when to try again.
    pub fn with_max_retry_after(mut self, max: Duration) -> Self {
        self.max_retry_after = max;
        self
    }

    /// The most attempts in all.
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// Decides after attempt number `attempt` (1 for the first) of an endpoint of `kind`
    /// failed with `error` at `now`. `jitter` in `[0, 1]` lengthens the delay by up to a
    /// quarter.
    pub fn decide(
        &self,
        kind: EndpointKind,
        attempt: u32,
        error: &Error,
        jitter: f64,
        now: SystemTime,
    ) -> Retry {
        if attempt >= self.max_attempts || !Self::may_resend(kind, error) {
            return Retry::Stop;
        }
        let jitter = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let spread = |d: Duration| d + d.mul_f64(jitter / 4.0);
        if let Some(asked) = error.retry_after() {
            let wait = asked.delay_at(now);
            return if wait > self.max_retry_after {
                Retry::Stop
            } else {
                Retry::After(spread(wait))
            };
        }
        let rate_limited = error.api().is_some_and(|e| e.status == 429);
        let step = match (rate_limited, attempt) {
            (true, 1) => return Retry::After(spread(self.quick_retry)),
            (true, n) => n - 2,
            (false, n) => n - 1,
        };
        let exp = self
            .base_delay
            .saturating_mul(1u32 << step.min(16))
            .min(self.max_delay);
        Retry::After(spread(exp))
    }

    /// Whether an endpoint of `kind` may be resent after `error` at all: anything
    /// [retryable](Error::is_retryable); for reads also 5xx responses and every transport
    /// failure. Never an order whose [outcome is unknown](Error::outcome_unknown).
    pub fn may_resend(kind: EndpointKind, error: &Error) -> bool {
        if error.is_retryable() {
            return true;
        }
        match kind {
            EndpointKind::Order => false,
            _ => match error {
                Error::Transport(_) => true,
                Error::Api(e) => e.status >= 500,
                Error::Decode(e) => e.status >= 500,
                _ => false,
            },
        }
    }
}

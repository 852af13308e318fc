//! [`RetryPolicy`]: pure retry decisions. No clock and no randomness: the caller passes the
//! attempt number and a jitter value, and sleeps itself.
//!
//! Orders are resent only when they certainly were not executed (`Too many requests.`, or a
//! connection that failed before sending); never after an ambiguous failure. Reads are also
//! resent after 5xx answers and any transport failure. Every resend must be signed afresh
//! with a new nonce.

use std::time::Duration;

use txc_types::EndpointKind;

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
/// use std::time::Duration;
/// use txc_sign::{Retry, RetryPolicy};
/// use txc_types::EndpointKind;
///
/// let policy = RetryPolicy::default();
/// let timeout_after_send = txc_sign::Error::Transport(txc_sign::TransportError::new(
///     txc_sign::TransportErrorKind::Timeout,
///     txc_sign::Delivery::MaybeSent,
///     None,
/// ));
/// // An order whose outcome is unknown is never resent...
/// assert_eq!(policy.decide(EndpointKind::Order, 1, &timeout_after_send, 0.5), Retry::Stop);
/// // ...a read is.
/// assert!(matches!(policy.decide(EndpointKind::Read, 1, &timeout_after_send, 0.5), Retry::After(_)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    max_attempts: u32,
    base_delay: Duration,
    max_delay: Duration,
}

impl Default for RetryPolicy {
    /// Three attempts in all, 100 ms base delay doubling up to 2 s.
    fn default() -> Self {
        Self {
            max_attempts: 3,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// A policy of at most `max_attempts` attempts in all (at least 1), exponential backoff
    /// from `base_delay` capped at `max_delay`.
    pub fn new(max_attempts: u32, base_delay: Duration, max_delay: Duration) -> Self {
        Self {
            max_attempts: max_attempts.max(1),
            base_delay,
            max_delay,
        }
    }

    /// Never retry.
    pub fn disabled() -> Self {
        Self::new(1, Duration::ZERO, Duration::ZERO)
    }

    /// The most attempts in all.
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// Decides after attempt number `attempt` (1 for the first) of an endpoint of `kind`
    /// failed with `error`. `jitter` in `[0, 1]` spreads the delay over its upper half.
    pub fn decide(&self, kind: EndpointKind, attempt: u32, error: &Error, jitter: f64) -> Retry {
        if attempt >= self.max_attempts || !Self::may_resend(kind, error) {
            return Retry::Stop;
        }
        let exp = self
            .base_delay
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(16))
            .min(self.max_delay);
        let jitter = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Retry::After(exp / 2 + exp.mul_f64(jitter / 2.0))
    }

    /// Whether an endpoint of `kind` may be resent after `error` at all.
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

//! [`RateWait`]: a wait the rate limiter imposes on a call, told to the client's `on_rate_wait`
//! observer ([`RateWaitObserver`]) before the transport sleeps it — so that a program can say
//! why it is idle (the `txc` command line prints it on standard error).

use std::fmt;
use std::time::Duration;

use txc_types::endpoint::RateLimit;

/// A wait the client's rate limiter imposes on one request: the call's machine returns it as
/// its next step's wait, and tells it first to the client's `on_rate_wait` observer. Each wait
/// is told once, when it starts; a call that is held back again after it is told again, with
/// [`waited`](Self::waited) counting the time already waited.
///
/// Only the limiter's waits are told — not a retry's backoff, and not a wait the policy
/// refuses ([`RatePolicy`](crate::pacing::RatePolicy): the call then ends with
/// [`Error::Throttled`](crate::Error::Throttled), and nothing waits).
///
/// ```
/// use std::time::Duration;
/// use txc_core::pacing::RateWait;
/// use txc_types::endpoint::RateLimit;
///
/// let wait = RateWait::new(
///     "collateral_market_order",
///     Duration::from_millis(120),
///     Duration::ZERO,
///     Some(RateLimit::new(100, 10)),
/// );
/// assert_eq!(
///     wait.to_string(),
///     "waiting 120 ms for the rate limit (collateral_market_order: 100 requests per 10 s)"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RateWait {
    /// The operation held back, e.g. `collateral_market_order`.
    pub operation: &'static str,
    /// How long it waits now, until the limiter has a slot.
    pub wait: Duration,
    /// How long this request already waited for the limiter before this wait.
    pub waited: Duration,
    /// The limit of the operation's rate-limit scope (after overrides and a fleet's share).
    pub limit: Option<RateLimit>,
}

impl RateWait {
    /// A wait of `wait` for `operation`, after `waited` already, under `limit`.
    pub fn new(
        operation: &'static str,
        wait: Duration,
        waited: Duration,
        limit: Option<RateLimit>,
    ) -> Self {
        Self {
            operation,
            wait,
            waited,
            limit,
        }
    }
}

impl fmt::Display for RateWait {
    /// One line: `waiting 120 ms for the rate limit (collateral_market_order: 100 requests
    /// per 10 s)`, the time already waited added when there was some.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "waiting {} ms for the rate limit ({}",
            self.wait.as_millis(),
            self.operation
        )?;
        if let Some(limit) = self.limit {
            let plural = if limit.requests == 1 { "" } else { "s" };
            write!(
                f,
                ": {} request{plural} per {} s",
                limit.requests, limit.window_secs
            )?;
        }
        if !self.waited.is_zero() {
            write!(f, "; waited {} ms already", self.waited.as_millis())?;
        }
        f.write_str(")")
    }
}

/// The client's `on_rate_wait` observer: a function told each [`RateWait`], on the thread or
/// task that makes the call, before the call sleeps.
pub type RateWaitObserver = crate::Observer<RateWait>;

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex, PoisonError};
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use txc_sign::Credentials;
    use txc_types::endpoint::{Endpoint, MAIN_ACCOUNT_SCOPE, RateLimit};
    use txc_types::investments::SmartPlansQuery;

    use super::RateWait;
    use crate::decode::Response;
    use crate::pacing::{RateLimits, RatePolicy};
    use crate::{ClientConfig, ClientCore, Machine, Step};

    /// A core of `key` (each test its own: a key's nonces are shared in the process) allowing one request per 10 s to the main-account scope, telling `seen` each wait.
    fn core(key: &str, policy: RatePolicy, seen: &Arc<Mutex<Vec<RateWait>>>) -> ClientCore {
        let seen = Arc::clone(seen);
        ClientConfig::new(Credentials::new(key, "s").unwrap())
            .base_url("http://127.0.0.1:9")
            .rate_limits(
                RateLimits::documented()
                    .with_limit(MAIN_ACCOUNT_SCOPE, Some(RateLimit::new(1, 10))),
            )
            .rate_policy(policy)
            .on_rate_wait(move |wait| {
                seen.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(*wait)
            })
            .build()
            .unwrap()
    }

    fn told(seen: &Arc<Mutex<Vec<RateWait>>>) -> Vec<RateWait> {
        seen.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    fn start() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    }

    /// The wait the machine returns is the one told, once per wait, with the time already
    /// waited; a call with a slot tells nothing.
    #[test]
    fn each_limiter_wait_is_told_before_it_is_slept() {
        let seen = Arc::default();
        let core = core("rate-wait-told", RatePolicy::default(), &seen);
        let query = SmartPlansQuery::new();
        let now = start();
        let mut first = core.call(&query);
        assert!(matches!(first.next(now), Step::Send(_)));
        assert!(
            told(&seen).is_empty(),
            "a request with a slot waits for nothing"
        );

        let mut second = core.call(&query);
        let Step::Wait(wait) = second.next(now) else {
            panic!("the second request must wait for the limiter")
        };
        let limit = Some(RateLimit::new(1, 10));
        let expected = RateWait::new(SmartPlansQuery::OPERATION, wait, Duration::ZERO, limit);
        assert_eq!(told(&seen), [expected]);
        assert!(
            wait > Duration::from_secs(5),
            "one request per 10 s: {wait:?}"
        );

        // Woken early (half the wait): held back again, told again with what it waited.
        let half = now + wait / 2;
        let Step::Wait(rest) = second.next(half) else {
            panic!("still no slot half-way")
        };
        assert_eq!(told(&seen).len(), 2);
        assert_eq!(told(&seen)[1].waited, wait / 2);
        assert_eq!(told(&seen)[1].wait, rest);

        // Once the slot is free it is sent, and nothing more is told.
        assert!(matches!(second.next(now + wait), Step::Send(_)));
        assert_eq!(told(&seen).len(), 2);
    }

    /// A wait the policy refuses ends the call as throttled: nothing waits, nothing is told.
    /// A retry's backoff is not the limiter's: not told either.
    #[test]
    fn refused_waits_and_backoffs_are_not_told() {
        let seen = Arc::default();
        let core = core("rate-wait-refused", RatePolicy::FailFast, &seen);
        let query = SmartPlansQuery::new();
        let now = start();
        let mut first = core.call(&query);
        assert!(matches!(first.next(now), Step::Send(_)));
        first.receive(Ok(Response::new(503, b"")));
        assert!(matches!(first.next(now), Step::Wait(_)), "a backoff");
        let mut second = core.call(&query);
        assert!(matches!(
            second.next(now),
            Step::Done(Err(crate::Error::Throttled(_)))
        ));
        assert!(told(&seen).is_empty(), "{:?}", told(&seen));
    }
}

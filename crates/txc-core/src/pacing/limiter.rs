//! Client-side rate limiting: [`RateLimits`] (what to allow), [`RateLimiter`] (the shared,
//! running limiter) and [`RatePolicy`] (wait for a slot, or fail fast).
//!
//! The limiter is a GCRA (the generic cell rate algorithm: one atomic compare-and-swap per
//! check), driven by the time the caller passes in (the sans-IO rule: this crate never reads a
//! clock). Each rate-limit scope has its own bucket — an endpoint's own path, or a scope several
//! endpoints share ([`Endpoint::RATE_LIMIT_SCOPE`]) — sized from its documented [`RateLimit`]
//! so that **no window of the documented length ever holds more than
//! the documented number of requests**, whatever the timing: a burst of 2 % of the limit, and
//! a sustained rate of 96 % of it, which leaves 2 % for requests that reach the exchange out
//! of step with their departure (the exchange counts arrivals).
//!
//! **Shared limits.** Where the docs' table of limits counts endpoints together, they share
//! one bucket: every `/api/v4/main-account/*` endpoint (the smart plans, investing, closing,
//! the investments and interest payment lists) declares
//! [`MAIN_ACCOUNT_SCOPE`](txc_types::endpoint::MAIN_ACCOUNT_SCOPE) as its scope, so together
//! they get the documented 1 000 requests per 10 s, not 1 000 each. An endpoint of another
//! crate joins a scope by naming it. Overrides ([`RateLimits::with_limit`]) are keyed by the
//! scope (an endpoint's own path when it has no shared one).
//!
//! The exchange's rate-limit page says its limits count **per IP address**, its lending pages
//! "per endpoint". A client's limiter is shared by every client of the process for the same
//! API key ([`RateLimiter::for_key`]); clients of several keys behind one address can share one
//! limiter by passing the same [`RateLimiter`] to each.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::endpoint::{Endpoint, RateLimit};

use crate::FleetWorker;

/// What the client does when the limiter has no slot for a request yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RatePolicy {
    /// Wait for a slot, but not longer than `max_wait` in all for one request; past that the
    /// call ends with [`Error::Throttled`](crate::Error::Throttled) and nothing is sent.
    Wait {
        /// The longest wait for one request.
        max_wait: Duration,
    },
    /// Never wait: end the call with [`Error::Throttled`](crate::Error::Throttled) (nothing
    /// sent, and when a slot frees up).
    FailFast,
}

impl Default for RatePolicy {
    /// Wait up to 10 s, the length of the exchange's windows.
    fn default() -> Self {
        Self::Wait {
            max_wait: Duration::from_secs(10),
        }
    }
}

impl RatePolicy {
    /// The longest wait for one request.
    pub fn max_wait(&self) -> Duration {
        match self {
            Self::Wait { max_wait } => *max_wait,
            Self::FailFast => Duration::ZERO,
        }
    }
}

/// Which limits a [`RateLimiter`] enforces: by default each endpoint's documented
/// [`Endpoint::RATE_LIMIT`], with overrides per endpoint path and a share for a fleet.
///
/// ```
/// use txc_core::pacing::RateLimits;
/// use txc_types::endpoint::{Endpoint, RateLimit};
/// use txc_types::orders::CollateralMarketOrder;
///
/// // Half the documented order limit, e.g. to leave room for another program on the same IP.
/// let limits = RateLimits::documented()
///     .with_limit(CollateralMarketOrder::PATH, Some(RateLimit::new(5_000, 10)));
/// assert_eq!(limits.limit_of::<CollateralMarketOrder>(), Some(RateLimit::new(5_000, 10)));
/// // Worker processes sharing one key each take their share.
/// assert_eq!(limits.shared_by(4).limit_of::<CollateralMarketOrder>(), Some(RateLimit::new(1_250, 10)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RateLimits {
    overrides: Vec<(&'static str, Option<RateLimit>)>,
    share: u32,
    cap: Option<RateLimit>,
}

impl RateLimits {
    /// Every endpoint's documented limit.
    pub fn documented() -> Self {
        Self::default()
    }

    /// Sets the limit of the rate-limit scope `scope` (`None`: unlimited): an endpoint's path,
    /// or the scope endpoints share ([`Endpoint::RATE_LIMIT_SCOPE`], e.g.
    /// [`MAIN_ACCOUNT_SCOPE`](txc_types::endpoint::MAIN_ACCOUNT_SCOPE)). An endpoint of a
    /// shared scope given by its own path also sets its scope's limit, when no override names
    /// the scope itself.
    pub fn with_limit(mut self, path: &'static str, limit: Option<RateLimit>) -> Self {
        self.overrides.retain(|(p, _)| *p != path);
        self.overrides.push((path, limit));
        self
    }

    /// Each limit divided by `workers` (at least 1): one worker's share when `workers`
    /// processes or hosts use one key.
    pub fn shared_by(mut self, workers: u32) -> Self {
        self.share = workers.max(1);
        self
    }

    /// At most `cap` for every limited scope: a scope whose limit (after overrides and the
    /// share) allows a higher rate gets `cap` instead — e.g. to keep a tool well below what
    /// the key may do, leaving the rest to other programs. Unlimited scopes stay unlimited.
    ///
    /// ```
    /// use txc_core::pacing::RateLimits;
    /// use txc_types::endpoint::RateLimit;
    /// use txc_types::orders::CollateralMarketOrder;
    ///
    /// let limits = RateLimits::documented().at_most(RateLimit::new(5, 1));
    /// assert_eq!(limits.limit_of::<CollateralMarketOrder>(), Some(RateLimit::new(5, 1)));
    /// ```
    pub fn at_most(mut self, cap: RateLimit) -> Self {
        self.cap = Some(cap);
        self
    }

    /// The limit this enforces for `E`'s scope (after overrides, the share and the cap).
    pub fn limit_of<E: Endpoint>(&self) -> Option<RateLimit> {
        self.limit_at(E::RATE_LIMIT_SCOPE, E::PATH, E::RATE_LIMIT)
    }

    /// The limit of `scope`: its override, else one of the endpoint at `path`, else the
    /// documented one.
    fn limit_at(
        &self,
        scope: &str,
        path: &str,
        documented: Option<RateLimit>,
    ) -> Option<RateLimit> {
        let chosen = |key: &str| self.overrides.iter().find(|(p, _)| *p == key);
        let limit = match chosen(scope).or_else(|| chosen(path)) {
            Some((_, limit)) => *limit,
            None => documented,
        }?;
        let share = self.share.max(1);
        let limit = RateLimit::new((limit.requests / share).max(1), limit.window_secs.max(1));
        Some(match self.cap {
            // The lower rate: requests per second compared without division.
            Some(cap)
                if u64::from(cap.requests) * u64::from(limit.window_secs)
                    < u64::from(limit.requests) * u64::from(cap.window_secs.max(1)) =>
            {
                RateLimit::new(cap.requests.max(1), cap.window_secs.max(1))
            }
            _ => limit,
        })
    }
}

/// One endpoint's bucket: a GCRA (the generic cell rate algorithm) over the times the callers
/// pass in, in nanoseconds since the Unix epoch. Its whole state is the theoretical arrival
/// time of the next request (`tat`); a request at `t0` is admitted when `t0` is no earlier than
/// `tat - tolerance`, and then moves `tat` to `max(tat, t0) + interval`.
#[derive(Debug)]
pub(crate) struct Bucket {
    /// The sustained spacing of requests.
    interval: u64,
    /// How far ahead of the sustained rate a burst may run: `interval × (burst − 1)`.
    tolerance: u64,
    tat: AtomicU64,
}

impl Bucket {
    /// The bucket for `limit`: a burst of 2 % (at least 1) and a sustained rate of the rest less
    /// another 2 %, so that any window of the limit's length admits at most `limit.requests`
    /// (burst + one window's replenishment ≤ 98 %).
    pub(crate) fn new(limit: RateLimit) -> Self {
        let requests = limit.requests.max(1);
        let burst = (requests / 50).max(1);
        let sustained = requests.saturating_sub(2 * burst).max(1);
        let interval = nanos(limit.window() / sustained).max(1);
        Self {
            interval,
            tolerance: interval.saturating_mul(u64::from(burst - 1)),
            tat: AtomicU64::new(0),
        }
    }

    /// Admits one request at `t0`, or says how long until one would be admitted.
    pub(crate) fn check(&self, t0: u64) -> Result<(), Duration> {
        let mut current = self.tat.load(Ordering::Acquire);
        loop {
            let tat = current.max(t0);
            let earliest = tat.saturating_sub(self.tolerance);
            if t0 < earliest {
                return Err(Duration::from_nanos(earliest - t0));
            }
            let next = tat.saturating_add(self.interval);
            match self
                .tat
                .compare_exchange_weak(current, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Ok(()),
                Err(actual) => current = actual,
            }
        }
    }
}

/// `duration` in whole nanoseconds (saturating; 584 years fit).
pub(crate) fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

struct Inner {
    limits: RateLimits,
    /// The latest time any caller passed in, in nanoseconds since the Unix epoch: the
    /// limiter's clock, monotonic and never read from the system.
    latest: AtomicU64,
    buckets: Mutex<HashMap<&'static str, Option<Arc<Bucket>>>>,
}

/// A running client-side rate limiter: one bucket per rate-limit scope (an endpoint's path, or
/// a scope endpoints share). Cheap to clone; clones share
/// the buckets, so every client given the same limiter draws on the same allowance.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use txc_core::pacing::{RateLimiter, RateLimits};
/// use txc_types::endpoint::{Endpoint, RateLimit};
/// use txc_types::orders::CollateralMarketOrder;
///
/// let limits = RateLimits::documented()
///     .with_limit(CollateralMarketOrder::PATH, Some(RateLimit::new(100, 10)));
/// let limiter = RateLimiter::new(limits);
/// let now = SystemTime::now();
/// // A burst of 2 (2 % of 100) goes at once, then one slot per 104 ms (96 per 10 s).
/// assert!(limiter.check::<CollateralMarketOrder>(now).is_ok());
/// assert!(limiter.check::<CollateralMarketOrder>(now).is_ok());
/// let wait = limiter.check::<CollateralMarketOrder>(now).unwrap_err();
/// assert!(wait > Duration::ZERO && wait <= Duration::from_millis(105));
/// assert!(limiter.check::<CollateralMarketOrder>(now + wait).is_ok());
/// ```
#[derive(Clone)]
pub struct RateLimiter {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

impl RateLimiter {
    /// A limiter enforcing `limits`, with nothing used yet.
    pub fn new(limits: RateLimits) -> Self {
        Self {
            inner: Arc::new(Inner {
                limits,
                latest: AtomicU64::new(0),
                buckets: Mutex::default(),
            }),
        }
    }

    /// The process-wide limiter of `api_key` with the documented limits: every client of the
    /// key that is not given its own limiter uses it, so separately built clients (a
    /// blocking and an async one, say) share the allowance.
    pub fn for_key(api_key: &str) -> Self {
        Self::registered(api_key, 1)
    }

    /// The process-wide limiter of `api_key` for a fleet worker: the documented limits
    /// divided by the number of workers ([`RateLimits::shared_by`]).
    pub fn for_worker(api_key: &str, worker: FleetWorker) -> Self {
        Self::registered(api_key, worker.workers())
    }

    fn registered(api_key: &str, share: u32) -> Self {
        static LIMITERS: LazyLock<Mutex<HashMap<(String, u32), RateLimiter>>> =
            LazyLock::new(Mutex::default);
        crate::registry::shared(&LIMITERS, (api_key.to_owned(), share), || {
            Self::new(RateLimits::documented().shared_by(share))
        })
    }

    /// The limits it enforces.
    pub fn limits(&self) -> &RateLimits {
        &self.inner.limits
    }

    /// Whether `self` and `other` are the same limiter (clones of one another).
    pub fn same_as(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Takes a slot for one request to `E` at `now` from its scope's bucket, or says how long
    /// until one is free (and takes nothing). An endpoint without a limit always has a slot.
    pub fn check<E: Endpoint>(&self, now: SystemTime) -> Result<(), Duration> {
        let Some(bucket) = self.bucket(E::RATE_LIMIT_SCOPE, E::PATH, E::RATE_LIMIT) else {
            return Ok(());
        };
        let now = nanos(now.duration_since(UNIX_EPOCH).unwrap_or_default());
        // Never backwards: a caller that read the time before another caller is judged at the
        // later time.
        let t0 = self.inner.latest.fetch_max(now, Ordering::AcqRel).max(now);
        bucket.check(t0)
    }

    fn bucket(
        &self,
        scope: &'static str,
        path: &'static str,
        documented: Option<RateLimit>,
    ) -> Option<Arc<Bucket>> {
        crate::registry::shared(&self.inner.buckets, scope, || {
            let limit = self.inner.limits.limit_at(scope, path, documented)?;
            Some(Arc::new(Bucket::new(limit)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use txc_types::investments::SmartPlansQuery;
    use txc_types::orders::CollateralMarketOrder;

    fn start() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    }

    proptest! {
        /// Whatever the timing of the requests, no window of the limit's length holds more
        /// admitted requests than the limit.
        #[test]
        fn no_window_exceeds_the_limit(
            requests in 5u32..400,
            window_secs in 1u32..11,
            gaps in proptest::collection::vec(0u64..40_000, 1..1_500),
        ) {
            let path = CollateralMarketOrder::PATH;
            let limiter = RateLimiter::new(
                RateLimits::documented().with_limit(path, Some(RateLimit::new(requests, window_secs))),
            );
            let mut now = start();
            let mut admitted: Vec<SystemTime> = Vec::new();
            for gap in gaps {
                now += Duration::from_micros(gap);
                if limiter.check::<CollateralMarketOrder>(now).is_ok() {
                    admitted.push(now);
                }
            }
            let window = Duration::from_secs(u64::from(window_secs));
            let mut first = 0;
            for (last, t) in admitted.iter().enumerate() {
                while admitted.get(first).is_some_and(|s| t.duration_since(*s).unwrap_or_default() >= window) {
                    first += 1;
                }
                prop_assert!(last + 1 - first <= requests as usize, "{} in one window", last + 1 - first);
            }
        }

        /// A caller that waits as told is admitted at once, and a sustained caller gets at
        /// least 94 % of the limit.
        #[test]
        fn waiting_as_told_admits_and_sustains(requests in 50u32..2_000) {
            let path = SmartPlansQuery::PATH;
            let limiter = RateLimiter::new(
                RateLimits::documented().with_limit(path, Some(RateLimit::new(requests, 10))),
            );
            let mut now = start();
            let end = now + Duration::from_secs(30);
            let mut admitted = 0u64;
            while now < end {
                match limiter.check::<SmartPlansQuery>(now) {
                    Ok(()) => admitted += 1,
                    Err(wait) => {
                        now += wait;
                        prop_assert!(limiter.check::<SmartPlansQuery>(now).is_ok());
                        admitted += 1;
                    }
                }
            }
            let per_window = admitted as f64 / 3.0;
            prop_assert!(per_window >= f64::from(requests) * 0.94, "{per_window} of {requests}");
            prop_assert!(per_window <= f64::from(requests) * 1.0 + 1.0);
        }
    }

    /// A cap lowers the limits above it and leaves lower and unlimited ones alone.
    #[test]
    fn a_cap_lowers_only_higher_limits() {
        let capped = RateLimits::documented()
            .with_limit(SmartPlansQuery::PATH, None)
            .with_limit(CollateralMarketOrder::PATH, Some(RateLimit::new(4, 10)))
            .at_most(RateLimit::new(1, 1));
        assert_eq!(capped.limit_of::<SmartPlansQuery>(), None);
        // 4 per 10 s is below 1 per second: kept.
        assert_eq!(
            capped.limit_of::<CollateralMarketOrder>(),
            Some(RateLimit::new(4, 10))
        );
        let capped = RateLimits::documented().at_most(RateLimit::new(1, 1));
        assert_eq!(
            capped.limit_of::<CollateralMarketOrder>(),
            Some(RateLimit::new(1, 1))
        );
        let limiter = RateLimiter::new(capped);
        let now = start();
        assert!(limiter.check::<CollateralMarketOrder>(now).is_ok());
        let wait = limiter.check::<CollateralMarketOrder>(now).unwrap_err();
        assert_eq!(wait, Duration::from_secs(1));
    }

    /// The main-account endpoints draw on one bucket: what one takes, the others lack.
    #[test]
    fn main_account_endpoints_share_one_bucket() {
        use txc_types::endpoint::MAIN_ACCOUNT_SCOPE;
        use txc_types::investments::{Invest, InvestmentsQuery};
        let limiter = RateLimiter::new(
            RateLimits::documented().with_limit(MAIN_ACCOUNT_SCOPE, Some(RateLimit::new(50, 10))),
        );
        let now = start();
        // A burst of 1 (2 % of 50), shared.
        assert!(limiter.check::<SmartPlansQuery>(now).is_ok());
        assert!(limiter.check::<Invest>(now).is_err());
        assert!(limiter.check::<InvestmentsQuery>(now).is_err());
        // Another scope is untouched.
        assert!(limiter.check::<CollateralMarketOrder>(now).is_ok());
        assert_eq!(
            RateLimits::documented().limit_of::<Invest>(),
            Some(RateLimit::new(1_000, 10))
        );
    }

    #[test]
    fn endpoints_have_their_own_buckets_and_unlimited_ones_always_pass() {
        let limiter = RateLimiter::new(
            RateLimits::documented()
                .with_limit(CollateralMarketOrder::PATH, Some(RateLimit::new(1, 10)))
                .with_limit(SmartPlansQuery::PATH, None),
        );
        let now = start();
        assert!(limiter.check::<CollateralMarketOrder>(now).is_ok());
        assert!(limiter.check::<CollateralMarketOrder>(now).is_err());
        for _ in 0..10_000 {
            assert!(limiter.check::<SmartPlansQuery>(now).is_ok());
        }
    }

    /// Callers racing at one instant share the burst: together they get exactly the burst,
    /// never one slot more (the bucket's compare-and-swap loses no update).
    #[test]
    fn racing_callers_get_exactly_the_burst() {
        let limiter = RateLimiter::new(
            RateLimits::documented()
                .with_limit(CollateralMarketOrder::PATH, Some(RateLimit::new(5_000, 10))),
        );
        let now = start();
        let admitted: usize = std::thread::scope(|scope| {
            let racers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        (0..1_000)
                            .filter(|_| limiter.check::<CollateralMarketOrder>(now).is_ok())
                            .count()
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap_or(0)).sum()
        });
        assert_eq!(admitted, 100, "a burst is 2 % of 5 000");
    }

    #[test]
    fn clients_of_one_key_share_a_limiter_and_workers_take_their_share() {
        let a = RateLimiter::for_key("pacing-test-key");
        assert!(a.same_as(&RateLimiter::for_key("pacing-test-key")));
        assert!(!a.same_as(&RateLimiter::for_key("pacing-other-key")));
        let worker = FleetWorker::new(1, 4).unwrap();
        let w = RateLimiter::for_worker("pacing-test-key", worker);
        assert!(!a.same_as(&w));
        assert_eq!(
            w.limits().limit_of::<CollateralMarketOrder>(),
            Some(RateLimit::new(2_500, 10))
        );
    }
}

//! [`Call`]: one call of an endpoint across its attempts, the [`Machine`] every other machine
//! is built from.

use std::fmt;
use std::time::SystemTime;

use txc_types::endpoint::Endpoint;

use super::attempt::AttemptRecord;
use super::trace::Attempt;
use crate::pacing::RateWait;
use crate::{
    ClientCore, ClockBounds, ClockOffset, Error, Machine, Response, Retry, Step, Throttled,
    TransportError, TransportErrorKind, decode,
};

enum State<T> {
    /// Sign the next attempt, once `not_before` has passed.
    Ready { not_before: Option<SystemTime> },
    /// A request is out; waiting for [`Machine::receive`].
    Sent,
    /// The last attempt's decoded outcome and its answer's `Date`, to be judged at the next
    /// [`Machine::next`].
    Received(Result<T, Error>, Option<SystemTime>),
    /// Finished; the output was handed out.
    Finished,
}

/// One call of an endpoint across its attempts: a [`Machine`] whose output is the decoded
/// response or the error.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use txc_core::{ClientConfig, Machine, Step};
/// use txc_core::decode::Response;
/// use txc_sign::Credentials;
/// use txc_types::investments::SmartPlansQuery;
///
/// let core = ClientConfig::new(Credentials::new("k", "s")?)
///     .base_url("http://127.0.0.1:9")
///     .build()?;
/// let query = SmartPlansQuery::new();
/// let mut call = core.call(&query);
/// let now = SystemTime::now();
/// let Step::Send(first) = call.next(now) else { panic!() };
/// // The server answered 503: plans are retried after a backoff, signed afresh.
/// call.receive(Ok(Response::new(503, b"")));
/// let Step::Wait(delay) = call.next(now) else { panic!() };
/// let Step::Send(second) = call.next(now + delay) else { panic!() };
/// assert!(second.nonce() > first.nonce());
/// call.receive(Ok(Response::new(200, b"[]")));
/// let Step::Done(Ok(plans)) = call.next(now + delay) else { panic!() };
/// assert!(plans.is_empty());
/// # Ok::<(), txc_core::Error>(())
/// ```
pub struct Call<'a, E: Endpoint> {
    core: &'a ClientCore,
    endpoint: Held<'a, E>,
    attempts: Vec<AttemptRecord>,
    state: State<E::Response>,
    trace: Option<Attempt>,
    /// When the rate limiter first held the next attempt back.
    blocked_since: Option<SystemTime>,
}

impl<E: Endpoint> fmt::Debug for Call<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("operation", &E::OPERATION)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

/// An endpoint value a call borrows or keeps.
pub(crate) enum Held<'a, E> {
    Borrowed(&'a E),
    Owned(E),
}

impl<E> std::ops::Deref for Held<'_, E> {
    type Target = E;
    fn deref(&self) -> &E {
        match self {
            Self::Borrowed(e) => e,
            Self::Owned(e) => e,
        }
    }
}

impl<'a, E: Endpoint> Call<'a, E> {
    /// The next attempt, when the state is ready for one (not before `not_before`): a wait,
    /// or the request signed afresh, or the failure to sign it.
    fn ready(
        &mut self,
        not_before: Option<SystemTime>,
        now: SystemTime,
    ) -> Step<Result<E::Response, Error>> {
        let wait = not_before
            .and_then(|t| t.duration_since(now).ok())
            .filter(|d| !d.is_zero())
            .or_else(|| E::SIGNED.then(|| self.core.pace(now)).flatten());
        if let Some(wait) = wait {
            return Step::Wait(wait);
        }
        if let Some(step) = self.throttle(now) {
            return step;
        }
        self.blocked_since = None;
        match self.core.prepare(&*self.endpoint, now) {
            Ok(signed) => {
                self.attempts.push(AttemptRecord {
                    nonce: signed.nonce(),
                    signed_at: now,
                });
                let attempt = u32::try_from(self.attempts.len()).unwrap_or(u32::MAX);
                self.trace = Some(Attempt::start(E::OPERATION, attempt));
                self.state = State::Sent;
                Step::Send(signed)
            }
            Err(error) => {
                self.state = State::Finished;
                Step::Done(Err(error))
            }
        }
    }

    pub(crate) fn new(core: &'a ClientCore, endpoint: Held<'a, E>) -> Self {
        Self {
            core,
            endpoint,
            attempts: Vec::new(),
            state: State::Ready { not_before: None },
            trace: None,
            blocked_since: None,
        }
    }

    /// Takes a rate-limiter slot at `now`: `None` to send, or the step to take instead (a
    /// wait within the policy, or the call ended as [`Error::Throttled`]).
    fn throttle(&mut self, now: SystemTime) -> Option<Step<Result<E::Response, Error>>> {
        let limiter = self.core.rate_limiter()?;
        let wait = limiter.check::<E>(now).err()?;
        let since = *self.blocked_since.get_or_insert(now);
        let waited = now.duration_since(since).unwrap_or_default();
        if waited.saturating_add(wait) <= self.core.rate_policy().max_wait() {
            if let Some(observer) = &self.core.rate_wait_observer {
                let limit = limiter.limits().limit_of::<E>();
                observer.tell(&RateWait::new(E::OPERATION, wait, waited, limit));
            }
            return Some(Step::Wait(wait));
        }
        self.state = State::Finished;
        Some(Step::Done(Err(Error::Throttled(Throttled {
            operation: E::OPERATION,
            limit: limiter.limits().limit_of::<E>(),
            retry_in: wait,
        }))))
    }

    /// The core the call draws on.
    pub(crate) fn core(&self) -> &'a ClientCore {
        self.core
    }

    /// The endpoint value being called.
    pub fn endpoint(&self) -> &E {
        &self.endpoint
    }

    /// The attempts signed so far.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }

    /// Judges a decoded outcome at `now`: done, or a retry scheduled.
    fn judge(
        &mut self,
        outcome: Result<E::Response, Error>,
        now: SystemTime,
    ) -> Step<Result<E::Response, Error>> {
        let mut error = match outcome {
            Ok(response) => {
                self.state = State::Finished;
                return Step::Done(Ok(response));
            }
            Err(error) => error,
        };
        if let (Error::Api(api), Some(last)) = (&mut error, self.attempts.last())
            && api.is_nonce_outside_window()
            && let Some(date) = api.server_date
        {
            let measured = ClockOffset::measure(date, last.signed_at, now);
            let applied = self.core.nonces().clock_offset();
            api.clock_skew = Some(ClockOffset::from_millis(
                measured.as_millis().saturating_sub(applied.as_millis()),
            ));
        }
        let attempt = u32::try_from(self.attempts.len()).unwrap_or(u32::MAX);
        let nonce = self.attempts.last().map_or(0, |a| a.nonce.get());
        let jitter = jitter(self.core.key_seed ^ nonce);
        match self
            .core
            .retry()
            .decide(E::KIND, attempt, &error, jitter, now)
        {
            Retry::After(delay) => {
                if let Some(trace) = &self.trace {
                    trace.retry(delay);
                }
                self.state = State::Ready {
                    not_before: now.checked_add(delay),
                };
                Step::Wait(delay)
            }
            Retry::Stop => {
                self.state = State::Finished;
                Step::Done(Err(error))
            }
        }
    }
}

impl<E: Endpoint> Machine for Call<'_, E> {
    type Output = Result<E::Response, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        // Only a received outcome is taken out of the state: replacing the whole state at every
        // step copied the largest variant (the decoded answer's room) each time.
        let taken = match self.state {
            State::Ready { not_before } => return self.ready(not_before, now),
            State::Finished => return Step::after_end("call", "the call"),
            State::Sent | State::Received(..) => {
                std::mem::replace(&mut self.state, State::Finished)
            }
        };
        match taken {
            State::Received(outcome, date) => {
                if let (Some(trace), Some(last)) = (&self.trace, self.attempts.last()) {
                    trace.latency(now.duration_since(last.signed_at).unwrap_or_default());
                }
                if let (Some(date), Some(last)) = (date, self.attempts.last()) {
                    let reading = ClockBounds::from_reading(date, last.signed_at, now);
                    self.core.exchange_clock().observe(reading);
                }
                match self.judge(outcome, now) {
                    Step::Wait(delay) if delay.is_zero() => self.next(now),
                    step => step,
                }
            }
            State::Sent => {
                // The transport asked again without handing over a response: the request may
                // have been written, and what became of it is unknown.
                let lost = TransportError::maybe_sent(
                    TransportErrorKind::Other,
                    "the transport passed no response for the request it was given",
                );
                self.judge(Err(lost.into()), now)
            }
            // Handled above, without taking the state out.
            State::Ready { .. } | State::Finished => Step::after_end("call", "the call"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some(trace) = &self.trace {
            trace.outcome(&response);
        }
        let (outcome, date) = match response {
            Ok(response) => (decode::<E>(&response), response.date()),
            Err(failure) => (Err(failure.into()), None),
        };
        self.state = State::Received(outcome, date);
    }
}

/// A value in `[0, 1)` from a seed (SplitMix64's finalizer): the sans-IO core's jitter.
fn jitter(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    // The top 53 bits fit an f64 mantissa exactly.
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    #[test]
    fn jitter_stays_in_the_unit_interval_and_varies() {
        let values: Vec<f64> = (0..1_000u64).map(super::jitter).collect();
        assert!(values.iter().all(|j| (0.0..1.0).contains(j)));
        let distinct: std::collections::BTreeSet<u64> =
            values.iter().map(|j| j.to_bits()).collect();
        assert_eq!(distinct.len(), values.len());
    }
}

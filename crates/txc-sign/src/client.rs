//! [`ClientCore`], the [`Machine`] protocol and [`Call`]: the transport-independent part of a
//! client.
//!
//! A transport drives any [`Machine`] with one loop — ask [`Machine::next`] with the time;
//! wait, send, or finish as told; hand each response (or transport failure) to
//! [`Machine::receive`] — so every decision (pacing, what to sign, how to decode, whether and
//! when to retry) lives here, and the blocking and async clients cannot drift apart.

use std::fmt;
use std::time::{Duration, SystemTime};

use txc_types::endpoint::Endpoint;
use txc_types::orders::NewOrder;
use txc_types::time::{ServerTime, ServerTimeQuery};

use crate::place::{DEFAULT_MAX_PLACEMENTS, Place, PlaceOnce};
use crate::resolve::{DEFAULT_SETTLE_DELAY, Resolve};
use crate::trace::Attempt;
use crate::{
    ClientOrderIds, ClockOffset, Error, Nonce, NonceMode, NonceSequence, PendingOrder, RateLimiter,
    RatePolicy, Response, Retry, RetryPolicy, SignedRequest, Signer, Throttled, TransportError,
    TransportErrorKind, decode,
};

/// How far (ms) a window-mode nonce may run ahead of the clock before the client waits.
///
/// The exchange accepts window-mode nonces within ±5 s of its time, one per millisecond per
/// key, so a key sending more than ~1 000 requests/s makes `max(now, last + 1)` run ahead
/// of the clock. Pacing at 3 s leaves 2 s for clock skew and in-flight races.
pub const MAX_NONCE_LEAD_MS: u64 = 3_000;

/// The default cap on a response body, in bytes.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 1 << 20;

/// What a transport does next for a [`Machine`].
#[derive(Debug)]
#[must_use = "a step tells the transport what to do"]
pub enum Step<T> {
    /// Sleep this long, then ask again.
    Wait(Duration),
    /// Send this request, then hand its response or failure to [`Machine::receive`].
    Send(SignedRequest),
    /// Finished: return this.
    Done(T),
}

impl<T> Step<T> {
    /// The output, when done; else the same wait or request, as a step of a machine that
    /// runs this one inside it.
    pub(crate) fn forward<U>(self) -> Result<Step<U>, T> {
        match self {
            Self::Wait(delay) => Ok(Step::Wait(delay)),
            Self::Send(request) => Ok(Step::Send(request)),
            Self::Done(output) => Err(output),
        }
    }
}

/// A sans-IO state machine a transport drives: a [`Call`] of one endpoint, or anything built
/// from calls. The transport's whole job:
///
/// ```
/// use std::time::SystemTime;
/// use txc_sign::{Machine, Response, SignedRequest, Step, TransportError};
///
/// /// One round trip with your HTTP client: the status, headers and body, or a failure that
/// /// says whether the request may have been written.
/// fn round_trip(request: SignedRequest) -> Result<(u16, http::HeaderMap, Vec<u8>), TransportError> {
///     # let _ = request;
///     # Ok((200, http::HeaderMap::new(), br#"[]"#.to_vec()))
/// }
///
/// fn drive<M: Machine>(mut machine: M) -> M::Output {
///     loop {
///         match machine.next(SystemTime::now()) {
///             Step::Wait(delay) => std::thread::sleep(delay),
///             Step::Send(request) => match round_trip(request) {
///                 Ok((status, headers, body)) => {
///                     machine.receive(Ok(Response::new(status, &body).with_headers(&headers)))
///                 }
///                 Err(failure) => machine.receive(Err(failure)),
///             },
///             Step::Done(output) => return output,
///         }
///     }
/// }
///
/// let core = txc_sign::ClientCore::new(txc_sign::Signer::new(
///     txc_sign::Credentials::new("key", "secret")?,
///     "http://127.0.0.1:9",
/// )?);
/// let plans = drive(core.call(&txc_types::investments::SmartPlansQuery::new()))?;
/// assert!(plans.is_empty());
/// # Ok::<(), txc_sign::Error>(())
/// ```
pub trait Machine {
    /// What the machine finishes with.
    type Output;

    /// What to do at `now`. Call it again after every wait and every
    /// [`receive`](Machine::receive) until it says [`Step::Done`].
    fn next(&mut self, now: SystemTime) -> Step<Self::Output>;

    /// The response to the last [`Step::Send`], or why there is none. A
    /// [`TransportError`] must say honestly whether the request may have been written
    /// ([`TransportError::not_sent`] only when it certainly was not).
    fn receive(&mut self, response: Result<Response<'_>, TransportError>);
}

/// The shared state of a client: signer, the key's nonce sequence, the nonce-window flag,
/// retry policy and response-size cap. Cheap to clone; clones share the nonce sequence.
#[derive(Debug, Clone)]
pub struct ClientCore {
    signer: Signer,
    key_seed: u64,
    nonces: NonceSequence,
    nonce_mode: NonceMode,
    retry: RetryPolicy,
    max_response_bytes: usize,
    client_order_ids: Option<ClientOrderIds>,
    settle_delay: Duration,
    max_placements: u32,
    rate_limiter: Option<RateLimiter>,
    rate_policy: RatePolicy,
}

impl ClientCore {
    /// A core with the key's process-wide nonce sequence ([`NonceSequence::for_key`]) and
    /// rate limiter ([`RateLimiter::for_key`], documented limits, waiting up to 10 s for a
    /// slot), nonce window on, the default retry policy and a 1 MiB response cap.
    pub fn new(signer: Signer) -> Self {
        let api_key = signer.credentials().api_key();
        let rate_limiter = RateLimiter::for_key(api_key);
        Self {
            key_seed: key_seed(api_key),
            nonces: NonceSequence::for_key(api_key),
            signer,
            nonce_mode: NonceMode::Window,
            retry: RetryPolicy::default(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            client_order_ids: Some(ClientOrderIds::process()),
            settle_delay: DEFAULT_SETTLE_DELAY,
            max_placements: DEFAULT_MAX_PLACEMENTS,
            rate_limiter: Some(rate_limiter),
            rate_policy: RatePolicy::default(),
        }
    }

    /// Sets the rate limiter the core draws on (`None`: no client-side limit).
    pub fn with_rate_limiter(mut self, limiter: Option<RateLimiter>) -> Self {
        self.rate_limiter = limiter;
        self
    }

    /// Sets what a request does when the limiter has no slot yet.
    pub fn with_rate_policy(mut self, policy: RatePolicy) -> Self {
        self.rate_policy = policy;
        self
    }

    /// The rate limiter, if the core limits its rate.
    pub fn rate_limiter(&self) -> Option<&RateLimiter> {
        self.rate_limiter.as_ref()
    }

    /// What a request does when the limiter has no slot yet.
    pub fn rate_policy(&self) -> RatePolicy {
        self.rate_policy
    }

    /// Starts measuring the local clock against the exchange's (`GET /api/v4/public/time`)
    /// and, once measured, correcting the key's window-mode nonces by the offset: a
    /// [`SyncClock`] machine.
    pub fn sync_clock(&self) -> SyncClock<'_> {
        SyncClock {
            call: self.call_owned(ServerTimeQuery),
        }
    }

    /// Sets where orders sent without a `clientOrderId` get one (default
    /// [`ClientOrderIds::process`]); `None` sends them without, and such orders cannot be
    /// resolved.
    pub fn with_client_order_ids(mut self, ids: Option<ClientOrderIds>) -> Self {
        self.client_order_ids = ids;
        self
    }

    /// Sets how long after an attempt's nonce time [`Resolve`] waits before looking the order
    /// up (default [`DEFAULT_SETTLE_DELAY`]).
    pub fn with_settle_delay(mut self, delay: Duration) -> Self {
        self.settle_delay = delay;
        self
    }

    /// Sets how many times [`PlaceOnce`] may send an order in all (at least 1; default
    /// [`DEFAULT_MAX_PLACEMENTS`]).
    pub fn with_max_placements(mut self, max: u32) -> Self {
        self.max_placements = max.max(1);
        self
    }

    /// How long [`Resolve`] waits after an attempt's nonce time.
    pub fn settle_delay(&self) -> Duration {
        self.settle_delay
    }

    /// How many times [`PlaceOnce`] may send an order in all.
    pub fn max_placements(&self) -> u32 {
        self.max_placements
    }

    /// Starts placing `order`: a [`Place`] machine. An order without a `clientOrderId` gets
    /// one from the client's generator (unless that was turned off), so that an unknown
    /// outcome can be resolved.
    pub fn place<'a, O: NewOrder>(&'a self, order: &'a O) -> Place<'a, O> {
        match (&self.client_order_ids, order.fields().client_order_id()) {
            (Some(ids), None) => {
                Place::new(self.call_owned(order.with_client_order_id(ids.next())))
            }
            _ => Place::new(self.call(order)),
        }
    }

    /// Starts resolving `order`: a [`Resolve`] machine.
    pub fn resolve(&self, order: PendingOrder) -> Resolve<'_> {
        Resolve::new(self, order)
    }

    /// Starts placing `order` exactly once: a [`PlaceOnce`] machine.
    pub fn place_once<O: NewOrder>(&self, order: &O) -> PlaceOnce<'_, O> {
        let order = match (&self.client_order_ids, order.fields().client_order_id()) {
            (Some(ids), None) => order.with_client_order_id(ids.next()),
            _ => order.clone(),
        };
        PlaceOnce::new(self, order)
    }

    /// Sets how the exchange checks nonces (default [`NonceMode::Window`]).
    pub fn with_nonce_mode(mut self, mode: NonceMode) -> Self {
        self.nonce_mode = mode;
        self
    }

    /// Sets the retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Sets the response-size cap in bytes.
    pub fn with_max_response_bytes(mut self, max: usize) -> Self {
        self.max_response_bytes = max;
        self
    }

    /// Uses `nonces` instead of the key's process-wide sequence.
    pub fn with_nonce_sequence(mut self, nonces: NonceSequence) -> Self {
        self.nonces = nonces;
        self
    }

    /// The signer.
    pub fn signer(&self) -> &Signer {
        &self.signer
    }

    /// The nonce sequence.
    pub fn nonces(&self) -> &NonceSequence {
        &self.nonces
    }

    /// How the exchange checks nonces.
    pub fn nonce_mode(&self) -> NonceMode {
        self.nonce_mode
    }

    /// The retry policy.
    pub fn retry(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The response-size cap in bytes.
    pub fn max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// Signs `endpoint` with the next nonce at `now`, without sending (a dry run).
    pub fn prepare<E: Endpoint>(
        &self,
        endpoint: &E,
        now: SystemTime,
    ) -> Result<SignedRequest, Error> {
        if !E::SIGNED {
            return self.signer.public::<E>();
        }
        self.signer.sign(
            endpoint,
            self.nonces.next(self.nonces.time_of(now)),
            self.nonce_mode,
        )
    }

    /// How long to wait at `now` before signing, so that a window-mode nonce stays within
    /// [`MAX_NONCE_LEAD_MS`] of the clock; `None` to sign now. Without the nonce window the
    /// exchange only needs increasing nonces, so there is never a wait.
    pub fn pace(&self, now: SystemTime) -> Option<Duration> {
        if self.nonce_mode == NonceMode::Strict {
            return None;
        }
        let next = self.nonces.last().saturating_add(1);
        let lead = next.saturating_sub(self.nonces.time_of(now));
        (lead > MAX_NONCE_LEAD_MS).then(|| Duration::from_millis(lead - MAX_NONCE_LEAD_MS))
    }

    /// Starts a call of `endpoint`: a [`Machine`] for a transport to drive.
    pub fn call<'a, E: Endpoint>(&'a self, endpoint: &'a E) -> Call<'a, E> {
        Call::new(self, Held::Borrowed(endpoint))
    }

    /// Starts a call of an endpoint value the call keeps.
    pub(crate) fn call_owned<E: Endpoint>(&self, endpoint: E) -> Call<'_, E> {
        Call::new(self, Held::Owned(endpoint))
    }
}

/// One attempt of a [`Call`]: the nonce it was signed with and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptRecord {
    /// The attempt's nonce.
    pub nonce: Nonce,
    /// When it was signed (the time passed to [`Machine::next`]).
    pub signed_at: SystemTime,
}

enum State<T> {
    /// Sign the next attempt, once `not_before` has passed.
    Ready { not_before: Option<SystemTime> },
    /// A request is out; waiting for [`Machine::receive`].
    Sent,
    /// The last attempt's decoded outcome, to be judged at the next [`Machine::next`].
    Received(Result<T, Error>),
    /// Finished; the output was handed out.
    Finished,
}

/// One call of an endpoint across its attempts: a [`Machine`] whose output is the decoded
/// response or the error.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use txc_sign::{ClientCore, Credentials, Machine, Response, Signer, Step};
/// use txc_types::investments::SmartPlansQuery;
///
/// let core = ClientCore::new(Signer::new(Credentials::new("k", "s")?, "http://127.0.0.1:9")?);
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
/// # Ok::<(), txc_sign::Error>(())
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
    fn new(core: &'a ClientCore, endpoint: Held<'a, E>) -> Self {
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
        let limiter = self.core.rate_limiter.as_ref()?;
        let wait = limiter.check::<E>(now).err()?;
        let since = *self.blocked_since.get_or_insert(now);
        let waited = now.duration_since(since).unwrap_or_default();
        if waited.saturating_add(wait) <= self.core.rate_policy.max_wait() {
            return Some(Step::Wait(wait));
        }
        self.state = State::Finished;
        Some(Step::Done(Err(Error::Throttled(Throttled {
            operation: E::OPERATION,
            limit: limiter.limits().limit_of::<E>(),
            retry_in: wait,
        }))))
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
            let applied = self.core.nonces.clock_offset();
            api.clock_skew = Some(ClockOffset::from_millis(
                measured.as_millis().saturating_sub(applied.as_millis()),
            ));
        }
        let attempt = u32::try_from(self.attempts.len()).unwrap_or(u32::MAX);
        let nonce = self.attempts.last().map_or(0, |a| a.nonce.get());
        let jitter = jitter(self.core.key_seed ^ nonce);
        match self
            .core
            .retry
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
        match std::mem::replace(&mut self.state, State::Finished) {
            State::Received(outcome) => {
                if let (Some(trace), Some(last)) = (&self.trace, self.attempts.last()) {
                    trace.latency(now.duration_since(last.signed_at).unwrap_or_default());
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
            State::Ready { not_before } => {
                let wait = not_before
                    .and_then(|t| t.duration_since(now).ok())
                    .filter(|d| !d.is_zero())
                    .or_else(|| E::SIGNED.then(|| self.core.pace(now)).flatten());
                if let Some(wait) = wait {
                    self.state = State::Ready { not_before };
                    return Step::Wait(wait);
                }
                self.state = State::Ready { not_before };
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
                    Err(error) => Step::Done(Err(error)),
                }
            }
            State::Finished => Step::Done(Err(Error::invalid_config(
                "call",
                "the call has already finished",
            ))),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some(trace) = &self.trace {
            trace.outcome(&response);
        }
        let outcome = match response {
            Ok(response) => decode::<E>(&response),
            Err(failure) => Err(failure.into()),
        };
        self.state = State::Received(outcome);
    }
}

/// Measures the local clock against the exchange's and corrects the key's window-mode
/// nonces by the offset: a [`Machine`] whose output is the measured [`ClockOffset`].
///
/// The exchange's time has a resolution of one second, so the offset is good to about half a
/// second plus half the round trip — well inside the ±5 s nonce window.
///
/// ```
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// use txc_sign::{ClientCore, Credentials, Machine, Response, Signer, Step};
///
/// let core = ClientCore::new(Signer::new(Credentials::new("sync-doc", "s")?, "http://127.0.0.1:9")?);
/// let mut sync = core.sync_clock();
/// let now = UNIX_EPOCH + Duration::from_millis(1_700_000_000_200);
/// let Step::Send(request) = sync.next(now) else { panic!() };
/// assert_eq!(request.method(), http::Method::GET);
/// sync.receive(Ok(Response::new(200, br#"{"time":1700000007}"#)));
/// let Step::Done(Ok(offset)) = sync.next(now + Duration::from_millis(100)) else { panic!() };
/// assert_eq!(offset.as_millis(), 7_250); // the local clock is 7.25 s behind
/// assert_eq!(core.nonces().clock_offset(), offset);
/// # Ok::<(), txc_sign::Error>(())
/// ```
pub struct SyncClock<'a> {
    call: Call<'a, ServerTimeQuery>,
}

impl fmt::Debug for SyncClock<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncClock")
            .field("call", &self.call)
            .finish()
    }
}

impl Machine for SyncClock<'_> {
    type Output = Result<ClockOffset, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now).forward() {
            Ok(step) => step,
            Err(outcome) => Step::Done(outcome.map(|time: ServerTime| {
                let sent = self.call.attempts().last().map_or(now, |a| a.signed_at);
                let offset = ClockOffset::measure(time.to_system_time(), sent, now);
                self.call.core.nonces.set_clock_offset(offset);
                offset
            })),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
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

/// A seed per API key (FNV-1a), so clients of different keys retry out of step.
fn key_seed(api_key: &str) -> u64 {
    api_key.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
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
        assert_ne!(super::key_seed("a"), super::key_seed("b"));
    }
}

//! [`ClientCore`]: the shared state of a client, and where each of its machines starts.

use std::time::{Duration, SystemTime};

use txc_types::{Endpoint, NewOrder, ServerTimeQuery};

use crate::call::{Call, Held};
use crate::place::{DEFAULT_MAX_PLACEMENTS, Place, PlaceOnce};
use crate::resolve::{DEFAULT_SETTLE_DELAY, Resolve};
use crate::{
    ClientOrderIds, Error, NonceMode, NonceSequence, PendingOrder, RateLimiter, RatePolicy,
    RetryPolicy, SignedRequest, Signer, SyncClock,
};

/// How far (ms) a window-mode nonce may run ahead of the clock before the client waits.
///
/// The exchange accepts window-mode nonces within ±5 s of its time, one per millisecond per
/// key, so a key sending more than ~1 000 requests/s makes `max(now, last + 1)` run ahead
/// of the clock. Pacing at 3 s leaves 2 s for clock skew and in-flight races.
pub const MAX_NONCE_LEAD_MS: u64 = 3_000;

/// The default cap on a response body, in bytes.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 1 << 20;

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
        SyncClock::new(self.call_owned(ServerTimeQuery))
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

    /// The seed of this key's retry jitter.
    pub(crate) fn key_seed(&self) -> u64 {
        self.key_seed
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

    /// Starts a call of `endpoint`: a [`Machine`](crate::Machine) for a transport to drive.
    pub fn call<'a, E: Endpoint>(&'a self, endpoint: &'a E) -> Call<'a, E> {
        Call::new(self, Held::Borrowed(endpoint))
    }

    /// Starts a call of an endpoint value the call keeps.
    pub(crate) fn call_owned<E: Endpoint>(&self, endpoint: E) -> Call<'_, E> {
        Call::new(self, Held::Owned(endpoint))
    }
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
    fn keys_get_their_own_seeds() {
        assert_ne!(super::key_seed("a"), super::key_seed("b"));
    }
}

//! [`ClientCore`] and [`Call`]: the transport-independent part of a client.
//!
//! A transport's `send` is a loop of { [`Call::sign`] with a fresh nonce → round trip →
//! [`Call::handle`] → sleep or return }. All decisions (what to sign, how to decode, whether
//! to retry) live here, so the blocking and async clients cannot drift apart.

use std::fmt;
use std::time::Duration;

use txc_types::Endpoint;

use crate::trace::Attempt;
use crate::{Error, NonceSequence, Retry, RetryPolicy, SignedRequest, Signer, decode};

/// How far (ms) a window-mode nonce may run ahead of the clock before the client waits.
///
/// The exchange accepts window-mode nonces within ±5 s of its time, one per millisecond per
/// key, so a key sending more than ~1 000 requests/s makes `max(now, last + 1)` run ahead
/// of the clock. Pacing at 3 s leaves 2 s for clock skew and in-flight races.
pub const MAX_NONCE_LEAD_MS: u64 = 3_000;

/// The default cap on a response body, in bytes.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 1 << 20;

/// The shared state of a client: signer, the credential's nonce sequence, the nonce-window
/// flag, retry policy and response-size cap. Cheap to clone; clones share the nonce sequence.
#[derive(Debug, Clone)]
pub struct ClientCore {
    signer: Signer,
    key_seed: u64,
    nonces: NonceSequence,
    nonce_window: bool,
    retry: RetryPolicy,
    max_response_bytes: usize,
}

impl ClientCore {
    /// A core with nonce window on, the default retry policy and a 1 MiB response cap.
    pub fn new(signer: Signer) -> Self {
        Self {
            key_seed: key_seed(signer.credentials().api_key()),
            signer,
            nonces: NonceSequence::new(),
            nonce_window: true,
            retry: RetryPolicy::default(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }

    /// Sets whether requests carry `nonceWindow: true` (millisecond nonces within ±5 s).
    pub fn with_nonce_window(mut self, on: bool) -> Self {
        self.nonce_window = on;
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

    /// Shares `nonces` with other clients of the same credential.
    pub fn with_nonce_sequence(mut self, nonces: NonceSequence) -> Self {
        self.nonces = nonces;
        self
    }

    /// The signer.
    pub fn signer(&self) -> &Signer {
        &self.signer
    }

    /// The nonce sequence shared by every clone.
    pub fn nonces(&self) -> &NonceSequence {
        &self.nonces
    }

    /// Whether requests carry `nonceWindow: true`.
    pub fn nonce_window(&self) -> bool {
        self.nonce_window
    }

    /// The retry policy.
    pub fn retry(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The response-size cap in bytes.
    pub fn max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// Signs `endpoint` with the next nonce at `now_ms`, without sending (a dry run).
    pub fn prepare<E: Endpoint>(&self, endpoint: &E, now_ms: u64) -> Result<SignedRequest, Error> {
        self.signer
            .sign(endpoint, self.nonces.next(now_ms), self.nonce_window)
    }

    /// Starts a call of `endpoint`.
    pub fn call<'a, E: Endpoint>(&'a self, endpoint: &'a E) -> Call<'a, E> {
        Call {
            core: self,
            endpoint,
            attempt: 0,
            nonce: 0,
            trace: None,
        }
    }
}

/// What the transport does next.
#[derive(Debug)]
pub enum Step<T> {
    /// Return this to the caller.
    Done(Result<T, Error>),
    /// Wait, then sign afresh and send again.
    RetryAfter(Duration),
}

/// One call of an endpoint across its attempts.
///
/// ```
/// use std::time::Duration;
/// use txc_sign::{ClientCore, Credentials, Signer, Step};
/// use txc_types::SmartPlansQuery;
///
/// let core = ClientCore::new(Signer::new(Credentials::new("k", "s")?, "http://127.0.0.1:9")?);
/// let query = SmartPlansQuery::new();
/// let mut call = core.call(&query);
/// let first = call.sign(1_000)?;
/// // The server answered 503: plans are retried, signed afresh with a new nonce.
/// let Step::RetryAfter(_) = call.handle(Ok((503, b"")), Duration::ZERO) else { panic!() };
/// let second = call.sign(1_000)?;
/// assert!(second.nonce() > first.nonce());
/// let Step::Done(Ok(plans)) = call.handle(Ok((200, b"[]")), Duration::ZERO) else { panic!() };
/// assert!(plans.is_empty());
/// # Ok::<(), txc_sign::Error>(())
/// ```
pub struct Call<'a, E> {
    core: &'a ClientCore,
    endpoint: &'a E,
    attempt: u32,
    /// The nonce of the last attempt, which also seeds its retry jitter.
    nonce: u64,
    trace: Option<Attempt>,
}

impl<E> fmt::Debug for Call<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("attempt", &self.attempt)
            .field("nonce", &self.nonce)
            .finish_non_exhaustive()
    }
}

impl<E: Endpoint> Call<'_, E> {
    /// How long to wait before signing at `now_ms` so that a window-mode nonce stays within
    /// [`MAX_NONCE_LEAD_MS`] of the clock; `None` to sign now. Without the nonce window the
    /// exchange only needs increasing nonces, so there is never a wait.
    pub fn pace(&self, now_ms: u64) -> Option<Duration> {
        if !self.core.nonce_window {
            return None;
        }
        let next = self.core.nonces.last().saturating_add(1);
        let lead = next.saturating_sub(now_ms);
        (lead > MAX_NONCE_LEAD_MS).then(|| Duration::from_millis(lead - MAX_NONCE_LEAD_MS))
    }

    /// Signs the next attempt with a fresh nonce taken at `now_ms`.
    pub fn sign(&mut self, now_ms: u64) -> Result<SignedRequest, Error> {
        self.attempt = self.attempt.saturating_add(1);
        let signed = self.core.prepare(self.endpoint, now_ms)?;
        self.nonce = signed.nonce().get();
        self.trace = Some(Attempt::start(E::OPERATION, self.attempt));
        Ok(signed)
    }

    /// The number of attempts signed so far.
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// Handles the outcome of the last attempt: the answer `(status, body)` or the transport
    /// error, and how long the round trip took (for the `tracing` span).
    ///
    /// A retry delay is spread by a jitter derived from the key and the attempt's nonce:
    /// deterministic for a given input, yet different for every attempt and client.
    pub fn handle(
        &mut self,
        answer: Result<(u16, &[u8]), Error>,
        latency: Duration,
    ) -> Step<E::Response> {
        if let Some(trace) = &self.trace {
            trace.finish(&answer, latency);
        }
        let result = answer.and_then(|(status, body)| decode::<E>(status, body));
        match result {
            Ok(response) => Step::Done(Ok(response)),
            Err(error) => {
                let jitter = jitter(self.core.key_seed ^ self.nonce);
                match self
                    .core
                    .retry
                    .decide(E::KIND, self.attempt, &error, jitter)
                {
                    Retry::After(delay) => {
                        if let Some(trace) = &self.trace {
                            trace.retry(delay);
                        }
                        Step::RetryAfter(delay)
                    }
                    Retry::Stop => Step::Done(Err(error)),
                }
            }
        }
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

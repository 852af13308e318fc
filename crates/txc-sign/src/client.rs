//! [`ClientCore`] and [`Call`]: the transport-independent part of a client.
//!
//! A transport's `send` is a loop of { [`Call::sign`] with a fresh nonce → round trip →
//! [`Call::handle`] → sleep or return }. All decisions (what to sign, how to decode, whether
//! to retry) live here, so the blocking and async clients cannot drift apart.

use std::time::Duration;

use txc_types::Endpoint;

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
    nonces: NonceSequence,
    nonce_window: bool,
    retry: RetryPolicy,
    max_response_bytes: usize,
}

impl ClientCore {
    /// A core with nonce window on, the default retry policy and a 1 MiB response cap.
    pub fn new(signer: Signer) -> Self {
        Self {
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
        }
    }
}

/// What the transport does next.
#[derive(Debug)]
#[non_exhaustive]
pub enum Step<T> {
    /// Return this to the caller.
    Done(Result<T, Error>),
    /// Wait, then sign afresh and send again.
    RetryAfter(Duration),
}

/// One call of an endpoint across its attempts.
///
/// ```
/// use txc_sign::{ClientCore, Credentials, Signer, Step};
/// use txc_types::SmartPlansQuery;
///
/// let core = ClientCore::new(Signer::new(Credentials::new("k", "s")?, "http://127.0.0.1:9")?);
/// let query = SmartPlansQuery::new();
/// let mut call = core.call(&query);
/// let first = call.sign(1_000)?;
/// // The server answered 503: plans are retried, signed afresh with a new nonce.
/// let Step::RetryAfter(_) = call.handle(Ok((503, b"")), 0.5) else { panic!() };
/// let second = call.sign(1_000)?;
/// assert!(second.nonce() > first.nonce());
/// let Step::Done(Ok(plans)) = call.handle(Ok((200, b"[]")), 0.5) else { panic!() };
/// assert!(plans.is_empty());
/// # Ok::<(), txc_sign::Error>(())
/// ```
#[derive(Debug)]
pub struct Call<'a, E> {
    core: &'a ClientCore,
    endpoint: &'a E,
    attempt: u32,
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
        self.core.prepare(self.endpoint, now_ms)
    }

    /// The number of attempts signed so far.
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// Handles the outcome of the last attempt: the answer `(status, body)` or the transport
    /// error. `jitter` in `[0, 1]` spreads a retry delay.
    pub fn handle(
        &mut self,
        answer: Result<(u16, &[u8]), Error>,
        jitter: f64,
    ) -> Step<E::Response> {
        let result = answer.and_then(|(status, body)| decode::<E>(status, body));
        match result {
            Ok(response) => Step::Done(Ok(response)),
            Err(error) => match self
                .core
                .retry
                .decide(E::KIND, self.attempt, &error, jitter)
            {
                Retry::After(delay) => Step::RetryAfter(delay),
                _ => Step::Done(Err(error)),
            },
        }
    }
}

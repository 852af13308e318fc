//! [`ClientBuilder`]: configures a blocking [`Client`], checked before any I/O.

use std::time::Duration;

use txc_sign::{
    ClientConfig, ClockOffset, Credentials, Error, FleetWorker, HttpSettings, NonceMode,
    NonceSequence, RateLimiter, RateLimits, RatePolicy, RetryPolicy,
};

use crate::Client;
use crate::transport::{check_agent, default_agent};

/// Configures a [`Client`]; [`Client::builder`] starts one.
///
/// | setting | default |
/// |---|---|
/// | [`base_url`](Self::base_url) | `https://whitebit.com` |
/// | [`nonce_window`](Self::nonce_window) | on |
/// | [`connect_timeout`](Self::connect_timeout) | 5 s |
/// | [`timeout`](Self::timeout) | 15 s per phase of an attempt |
/// | [`user_agent`](Self::user_agent) | `txc/<version>` |
/// | [`max_response_bytes`](Self::max_response_bytes) | 1 MiB |
/// | [`retry_policy`](Self::retry_policy) | [`RetryPolicy::default`] |
/// | [`nonce_sequence`](Self::nonce_sequence) | the key's, shared by every client of it in the process |
/// | [`client_order_ids`](Self::client_order_ids) | on: orders without one get a generated `clientOrderId` |
/// | [`settle_delay`](Self::settle_delay) | 10 s |
/// | [`max_placements`](Self::max_placements) | 3 |
/// | [`rate_limits`](Self::rate_limits), [`rate_limiter`](Self::rate_limiter), [`no_rate_limit`](Self::no_rate_limit) | the key's limiter, shared by every client of it in the process, with the documented limits |
/// | [`rate_policy`](Self::rate_policy) | wait up to 10 s for a slot |
/// | [`fleet_worker`](Self::fleet_worker) | none: the only process using the key |
/// | [`clock_offset`](Self::clock_offset) | none (or what `sync_clock` measured) |
/// | [`http`](Self::http) | a new ureq agent with the settings above |
///
/// ```
/// use std::time::Duration;
/// let client = txc_blocking::Client::builder(txc_blocking::Credentials::new("key", "secret")?)
///     .base_url("http://127.0.0.1:8080")
///     .timeout(Duration::from_secs(5))
///     .build()?;
/// assert_eq!(client.base_url(), "http://127.0.0.1:8080");
/// # Ok::<(), txc_blocking::Error>(())
/// ```
#[derive(Debug)]
#[must_use = "call .build() to get the client"]
pub struct ClientBuilder {
    config: ClientConfig,
    http: HttpSettings,
    agent: Option<ureq::Agent>,
}

impl ClientBuilder {
    pub(crate) fn new(credentials: Credentials) -> Self {
        Self {
            config: ClientConfig::new(credentials),
            http: HttpSettings::default(),
            agent: None,
        }
    }

    /// The exchange's address: `http://` or `https://`, host and optional port, no path.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.config.base_url = url.into();
        self
    }

    /// Whether requests carry `nonceWindow: true`: nonces are Unix milliseconds accepted
    /// within ±5 s of the exchange's clock (its advice for concurrent clients). Off, nonces
    /// must only grow per key.
    pub fn nonce_window(mut self, on: bool) -> Self {
        self.config.nonce_mode = if on {
            NonceMode::Window
        } else {
            NonceMode::Strict
        };
        self
    }

    /// How long connecting (DNS, TCP, TLS) may take.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.http.connect_timeout = Some(timeout);
        self
    }

    /// How long each phase of an attempt may take — sending, waiting for the response,
    /// reading it — because ureq's whole-call timer costs ~90 µs per request. A server that
    /// never answers is cut off after this time.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.http.timeout = Some(timeout);
        self
    }

    /// The `User-Agent` header.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.http.user_agent = Some(user_agent.into());
        self
    }

    /// The largest response body read, in bytes; a larger one fails with
    /// [`TransportErrorKind::ResponseTooLarge`](crate::errors::TransportErrorKind::ResponseTooLarge).
    pub fn max_response_bytes(mut self, max: usize) -> Self {
        self.config.max_response_bytes = max;
        self
    }

    /// When failed calls are retried (always signed afresh). Orders are resent only when they
    /// certainly were not executed. [`RetryPolicy::disabled`] never retries.
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.config.retry = policy;
        self
    }

    /// A nonce sequence to use instead of the key's process-wide one.
    pub fn nonce_sequence(mut self, nonces: NonceSequence) -> Self {
        self.config.nonces = Some(nonces);
        self
    }

    /// Whether orders sent without a `clientOrderId` get a generated one, so that an unknown
    /// outcome can be resolved. Off, such orders go without and cannot be resolved.
    pub fn client_order_ids(mut self, on: bool) -> Self {
        self.config.client_order_ids = on;
        self
    }

    /// How long after an attempt's nonce time [`Client::resolve`] waits before looking the
    /// order up.
    pub fn settle_delay(mut self, delay: Duration) -> Self {
        self.config.settle_delay = delay;
        self
    }

    /// How many times [`Client::place_once`] may send an order in all.
    pub fn max_placements(mut self, max: u32) -> Self {
        self.config.max_placements = max;
        self
    }

    /// Limits the client's own rate to `limits` (a limiter of its own; see
    /// [`RateLimits`]) instead of the key's shared limiter with the documented limits.
    pub fn rate_limits(mut self, limits: RateLimits) -> Self {
        self.config.rate_limiter = Some(RateLimiter::new(limits));
        self.config.rate_limited = true;
        self
    }

    /// Draws on `limiter`, shared with every client given a clone of it — for example
    /// clients of several keys behind one IP address, which the exchange counts together.
    pub fn rate_limiter(mut self, limiter: RateLimiter) -> Self {
        self.config.rate_limiter = Some(limiter);
        self.config.rate_limited = true;
        self
    }

    /// No client-side rate limit: every request goes at once, and the exchange's 429s (and
    /// the key restrictions repeated 429s can bring) are yours to avoid.
    pub fn no_rate_limit(mut self) -> Self {
        self.config.rate_limited = false;
        self
    }

    /// What a request does when the rate limiter has no slot yet: wait (up to a bound) or
    /// fail at once with [`Error::Throttled`], nothing sent.
    pub fn rate_policy(mut self, policy: RatePolicy) -> Self {
        self.config.rate_policy = policy;
        self
    }

    /// Makes this client worker `worker` of several processes or hosts that share the key:
    /// its window-mode nonces use only the worker's residue class (no two workers can
    /// collide) and its rate limits are the documented ones divided by the number of workers.
    /// Refused at [`build`](Self::build) with strict nonces (`nonce_window(false)`), which
    /// several processes cannot share.
    pub fn fleet_worker(mut self, worker: FleetWorker) -> Self {
        self.config.fleet_worker = Some(worker);
        self
    }

    /// Corrects the local clock by `offset` for window-mode nonces (every client of the key).
    /// The client's `sync_clock` measures and sets it from the exchange's time.
    pub fn clock_offset(mut self, offset: ClockOffset) -> Self {
        self.config.clock_offset = Some(offset);
        self
    }

    /// Sends through your own ureq agent (proxy, TLS roots, pool settings…). It must be built
    /// with `http_status_as_error(false)`, so that the exchange's error responses reach the
    /// decoder; consider `max_redirects(0)` too. Its own timeouts and `User-Agent` apply:
    /// combining it with [`connect_timeout`](Self::connect_timeout),
    /// [`timeout`](Self::timeout) or [`user_agent`](Self::user_agent) is refused.
    ///
    /// ```
    /// let agent: ureq::Agent = ureq::Agent::config_builder()
    ///     .http_status_as_error(false)
    ///     .max_redirects(0)
    ///     .timeout_global(Some(std::time::Duration::from_secs(10)))
    ///     .build()
    ///     .into();
    /// let credentials = txc_blocking::Credentials::new("key", "secret")?;
    /// let client = txc_blocking::Client::builder(credentials).http(agent).build()?;
    /// # Ok::<(), txc_blocking::Error>(())
    /// ```
    pub fn http(mut self, agent: ureq::Agent) -> Self {
        self.agent = Some(agent);
        self
    }

    /// Checks the configuration and makes the client. No I/O happens here.
    ///
    /// Fails with [`Error::InvalidConfig`] for a base URL that is not `http(s)://host[:port]`,
    /// a fleet worker with strict nonces, a zero timeout or size cap, a `User-Agent` that is not a header value, or an own agent
    /// that treats error statuses as errors or is combined with timeouts or a `User-Agent`.
    pub fn build(self) -> Result<Client, Error> {
        let agent = match self.agent {
            Some(agent) => {
                self.http.check_unset()?;
                check_agent(&agent)?;
                agent
            }
            None => default_agent(&self.http.check()?),
        };
        Ok(Client::from_parts(self.config.build()?, agent))
    }
}

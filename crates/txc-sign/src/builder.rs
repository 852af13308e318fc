//! [`ClientConfig`], the sans-IO settings of a client, and [`HttpSettings`], the HTTP settings
//! both transports take — each checked before any I/O.
//!
//! The transports' own `ClientBuilder`s hold one of each; what to do with the HTTP settings
//! (make a ureq agent, a reqwest client) is theirs. [`ClientCore`] knows nothing of HTTP.

use std::time::Duration;

use crate::{
    ClientCore, Credentials, DEFAULT_BASE_URL, DEFAULT_MAX_PLACEMENTS, DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_SETTLE_DELAY, Error, FleetWorker, NonceMode, NonceSequence, RateLimiter, RatePolicy,
    RetryPolicy, Signer,
};

/// The default connect timeout.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The default overall timeout of one attempt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// The default `User-Agent`.
pub const DEFAULT_USER_AGENT: &str = concat!("txc/", env!("CARGO_PKG_VERSION"));

/// The settings of a [`ClientCore`], for the transports' builders to fill in; checked by
/// [`ClientConfig::build`].
///
/// | setting | default |
/// |---|---|
/// | base URL | `https://whitebit.com` |
/// | nonce mode | [`NonceMode::Window`] |
/// | response-size cap | 1 MiB |
/// | retry policy | [`RetryPolicy::default`] |
/// | nonce sequence | the key's process-wide one ([`NonceSequence::for_key`]) |
/// | generated `clientOrderId`s | on |
/// | settling delay | [`DEFAULT_SETTLE_DELAY`] (10 s) |
/// | placements when placing exactly once | [`DEFAULT_MAX_PLACEMENTS`] (3) |
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ClientConfig {
    /// The API key and secret.
    pub credentials: Credentials,
    /// The exchange's address: `http(s)://host[:port]`.
    pub base_url: String,
    /// How the exchange checks nonces.
    pub nonce_mode: NonceMode,
    /// The largest response body read, in bytes.
    pub max_response_bytes: usize,
    /// When failed calls are retried.
    pub retry: RetryPolicy,
    /// A nonce sequence to use instead of the key's process-wide one.
    pub nonces: Option<NonceSequence>,
    /// Whether orders without a `clientOrderId` get a generated one.
    pub client_order_ids: bool,
    /// How long after an attempt's nonce time resolving waits.
    pub settle_delay: Duration,
    /// How many times placing exactly once may send an order.
    pub max_placements: u32,
    /// The rate limiter the client draws on; `None`: the process-wide one of the key (or of
    /// the fleet worker) with the documented limits.
    pub rate_limiter: Option<RateLimiter>,
    /// Whether the client limits its own rate at all (default `true`).
    pub rate_limited: bool,
    /// What a request does when the limiter has no slot yet.
    pub rate_policy: RatePolicy,
    /// The fleet worker this process is, when several share the key: partitions the nonces
    /// and divides the rate limits. Refused with [`NonceMode::Strict`].
    pub fleet_worker: Option<FleetWorker>,
    /// A correction of the local clock for window-mode nonces, set on the key's nonce
    /// sequence when the client is built.
    pub clock_offset: Option<crate::ClockOffset>,
}

impl ClientConfig {
    /// The defaults, for `credentials`.
    pub fn new(credentials: Credentials) -> Self {
        Self {
            credentials,
            base_url: DEFAULT_BASE_URL.to_owned(),
            nonce_mode: NonceMode::Window,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            retry: RetryPolicy::default(),
            nonces: None,
            client_order_ids: true,
            settle_delay: DEFAULT_SETTLE_DELAY,
            max_placements: DEFAULT_MAX_PLACEMENTS,
            rate_limiter: None,
            rate_limited: true,
            rate_policy: RatePolicy::default(),
            fleet_worker: None,
            clock_offset: None,
        }
    }

    /// Checks the settings and makes the core: fails with [`Error::InvalidConfig`] for a base
    /// URL that is not `http(s)://host[:port]` or a zero size cap.
    pub fn build(self) -> Result<ClientCore, Error> {
        if self.max_response_bytes == 0 {
            return Err(Error::invalid_config(
                "max_response_bytes",
                "must be at least 1",
            ));
        }
        if let Some(worker) = self.fleet_worker
            && worker.workers() > 1
            && self.nonce_mode == NonceMode::Strict
        {
            return Err(Error::invalid_config(
                "fleet_worker",
                "strict nonces cannot be shared by several processes: the exchange refuses any \
                 strict nonce that arrives after a greater one, and no lock on this host orders \
                 the requests' arrival; use NonceMode::Window, whose nonces the fleet partitions",
            ));
        }
        let api_key = self.credentials.api_key().to_owned();
        let signer = Signer::new(self.credentials, &self.base_url)?;
        let mut core = ClientCore::new(signer)
            .with_nonce_mode(self.nonce_mode)
            .with_retry(self.retry)
            .with_max_response_bytes(self.max_response_bytes)
            .with_settle_delay(self.settle_delay)
            .with_max_placements(self.max_placements);
        if !self.client_order_ids {
            core = core.with_client_order_ids(None);
        }
        if let Some(worker) = self.fleet_worker {
            core = core
                .with_nonce_sequence(NonceSequence::for_worker(&api_key, worker))
                .with_rate_limiter(Some(RateLimiter::for_worker(&api_key, worker)));
        }
        if let Some(nonces) = self.nonces {
            core = core.with_nonce_sequence(nonces);
        }
        if let Some(limiter) = self.rate_limiter {
            core = core.with_rate_limiter(Some(limiter));
        }
        if !self.rate_limited {
            core = core.with_rate_limiter(None);
        }
        if let Some(offset) = self.clock_offset {
            core.nonces().set_clock_offset(offset);
        }
        Ok(core.with_rate_policy(self.rate_policy))
    }
}

/// The HTTP settings both transports take when they make their own HTTP client: connect
/// timeout, per-attempt timeout and `User-Agent`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpSettings {
    /// How long connecting (DNS, TCP, TLS) may take; default [`DEFAULT_CONNECT_TIMEOUT`].
    pub connect_timeout: Option<Duration>,
    /// How long one attempt may take; default [`DEFAULT_TIMEOUT`].
    pub timeout: Option<Duration>,
    /// The `User-Agent`; default [`DEFAULT_USER_AGENT`].
    pub user_agent: Option<String>,
}

/// [`HttpSettings`] with every default filled in and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckedHttpSettings {
    /// How long connecting may take (above zero).
    pub connect_timeout: Duration,
    /// How long one attempt may take (above zero).
    pub timeout: Duration,
    /// The `User-Agent`, a valid header value.
    pub user_agent: String,
}

impl HttpSettings {
    /// Checks the settings for an HTTP client the transport makes: timeouts above zero, a
    /// `User-Agent` that is a header value.
    pub fn check(&self) -> Result<CheckedHttpSettings, Error> {
        let positive = |given: Option<Duration>, default: Duration, what| {
            let value = given.unwrap_or(default);
            if value.is_zero() {
                Err(Error::invalid_config(what, "must be above zero"))
            } else {
                Ok(value)
            }
        };
        let user_agent = self
            .user_agent
            .clone()
            .unwrap_or_else(|| DEFAULT_USER_AGENT.to_owned());
        if http::HeaderValue::from_str(&user_agent).is_err() {
            return Err(Error::invalid_config(
                "user_agent",
                "not a valid header value",
            ));
        }
        Ok(CheckedHttpSettings {
            connect_timeout: positive(
                self.connect_timeout,
                DEFAULT_CONNECT_TIMEOUT,
                "connect_timeout",
            )?,
            timeout: positive(self.timeout, DEFAULT_TIMEOUT, "timeout")?,
            user_agent,
        })
    }

    /// Checks that nothing was set, for a caller who brings their own HTTP client (whose own
    /// timeouts and `User-Agent` apply).
    pub fn check_unset(&self) -> Result<(), Error> {
        if *self == Self::default() {
            Ok(())
        } else {
            Err(Error::invalid_config(
                "http",
                "connect_timeout, timeout and user_agent configure the HTTP client the builder \
                 makes; set them on your own client instead",
            ))
        }
    }
}

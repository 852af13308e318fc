//! [`ClientBuilder`]: the one builder both transports use, checked before any I/O.
//!
//! Configuration is transport-independent, so it lives here once; a transport only says how
//! to make and check its HTTP library's client through [`Transport`].

use std::fmt;
use std::time::Duration;

use crate::{
    ClientCore, Credentials, DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES, Error, NonceSequence,
    RetryPolicy, Signer,
};

/// The default connect timeout.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The default overall timeout of one attempt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// The default `User-Agent`.
pub const DEFAULT_USER_AGENT: &str = concat!("txc/", env!("CARGO_PKG_VERSION"));

/// The settings of the HTTP client a transport makes when the caller brings none.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpSettings {
    /// How long connecting (DNS, TCP, TLS) may take.
    pub connect_timeout: Duration,
    /// How long one attempt may take in all.
    pub timeout: Duration,
    /// The `User-Agent` header, already checked to be a valid header value.
    pub user_agent: String,
}

/// An HTTP library the [`ClientBuilder`] can finish a client for.
///
/// Implemented by `txc-blocking` (ureq) and `txc-async` (reqwest); implement it to drive
/// [`ClientCore`] over another library.
pub trait Transport {
    /// The HTTP library's client, e.g. `ureq::Agent` or `reqwest::Client`.
    type Http;
    /// The txc client the builder makes.
    type Client;
    /// Makes the HTTP client when the caller brings none.
    fn default_http(settings: &HttpSettings) -> Result<Self::Http, Error>;
    /// Checks an HTTP client the caller brought (e.g. that error statuses reach the decoder).
    fn check_own(http: &Self::Http) -> Result<(), Error>;
    /// Puts the core and the HTTP client together.
    fn assemble(core: ClientCore, http: Self::Http) -> Self::Client;
}

/// Configures a client; each transport's `Client::builder` returns one.
///
/// | setting | default |
/// |---|---|
/// | [`base_url`](Self::base_url) | `https://whitebit.com` |
/// | [`nonce_window`](Self::nonce_window) | on |
/// | [`connect_timeout`](Self::connect_timeout) | 5 s |
/// | [`timeout`](Self::timeout) | 15 s per attempt |
/// | [`max_response_bytes`](Self::max_response_bytes) | 1 MiB |
/// | [`user_agent`](Self::user_agent) | `txc/<version>` |
/// | [`retry_policy`](Self::retry_policy) | [`RetryPolicy::default`] |
/// | [`nonce_sequence`](Self::nonce_sequence) | a new one |
/// | [`http`](Self::http) | a new HTTP client with the settings above |
#[must_use = "call .build() to get the client"]
pub struct ClientBuilder<T: Transport> {
    credentials: Credentials,
    base_url: String,
    nonce_window: bool,
    connect_timeout: Option<Duration>,
    timeout: Option<Duration>,
    max_response_bytes: usize,
    user_agent: Option<String>,
    retry: RetryPolicy,
    nonces: Option<NonceSequence>,
    http: Option<T::Http>,
}

impl<T: Transport> ClientBuilder<T> {
    /// Starts configuring a client for `credentials`.
    pub fn new(credentials: Credentials) -> Self {
        Self {
            credentials,
            base_url: DEFAULT_BASE_URL.to_owned(),
            nonce_window: true,
            connect_timeout: None,
            timeout: None,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            user_agent: None,
            retry: RetryPolicy::default(),
            nonces: None,
            http: None,
        }
    }

    /// The exchange's address: `http://` or `https://`, host and optional port, no path or
    /// query. Default `https://whitebit.com`.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into();
        self
    }

    /// Whether requests carry `nonceWindow: true`, so that nonces are Unix milliseconds
    /// accepted within ±5 s of the server's clock (the exchange's advice for concurrent
    /// clients). Off, nonces must only grow per key. Default on.
    pub fn nonce_window(mut self, on: bool) -> Self {
        self.nonce_window = on;
        self
    }

    /// How long connecting (DNS, TCP, TLS) may take. Default 5 s.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    /// How long one attempt may take: with `txc-async` in all, from connecting to the last
    /// byte of the answer; with `txc-blocking` for each phase (sending, waiting for the
    /// answer, reading it), because ureq's whole-call timer costs ~90 µs per request. A
    /// server that never answers is cut off after this time either way. Default 15 s.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The largest answer body read, in bytes; a larger one fails with
    /// [`TransportErrorKind::ResponseTooLarge`](crate::TransportErrorKind::ResponseTooLarge).
    /// Default 1 MiB.
    pub fn max_response_bytes(mut self, max: usize) -> Self {
        self.max_response_bytes = max;
        self
    }

    /// The `User-Agent` header. Default `txc/<version>`.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = Some(user_agent.into());
        self
    }

    /// When failed calls are retried (always signed afresh with a new nonce). Orders are only
    /// resent when they certainly were not executed. Default [`RetryPolicy::default`];
    /// [`RetryPolicy::disabled`] never retries.
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Shares a nonce sequence with other clients of the same API key, so that their nonces
    /// never collide. Clones of one client always share theirs.
    pub fn nonce_sequence(mut self, nonces: NonceSequence) -> Self {
        self.nonces = Some(nonces);
        self
    }

    /// Sends through your own HTTP client (proxy, TLS roots, pool settings...). Its own
    /// timeouts and `User-Agent` apply: combining it with
    /// [`connect_timeout`](Self::connect_timeout), [`timeout`](Self::timeout) or
    /// [`user_agent`](Self::user_agent) is refused by [`build`](Self::build), and so is a
    /// client the transport finds unfit (see the transport's documentation).
    pub fn http(mut self, http: T::Http) -> Self {
        self.http = Some(http);
        self
    }

    /// Checks the configuration and makes the client. No I/O happens here.
    ///
    /// Fails with [`Error::InvalidConfig`] for a base URL that is not `http(s)://host[:port]`,
    /// a zero timeout or size cap, a `User-Agent` that is not a header value, or an own HTTP
    /// client that is unfit or combined with timeouts or a `User-Agent`.
    pub fn build(self) -> Result<T::Client, Error> {
        let signer = Signer::new(self.credentials, &self.base_url)?;
        if self.max_response_bytes == 0 {
            return Err(Error::invalid_config(
                "max_response_bytes",
                "must be at least 1",
            ));
        }
        let http = match self.http {
            Some(http) => {
                if self.connect_timeout.is_some()
                    || self.timeout.is_some()
                    || self.user_agent.is_some()
                {
                    return Err(Error::invalid_config(
                        "http",
                        "connect_timeout, timeout and user_agent configure the HTTP client the \
                         builder makes; set them on your own client instead",
                    ));
                }
                T::check_own(&http)?;
                http
            }
            None => {
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
                    .unwrap_or_else(|| DEFAULT_USER_AGENT.to_owned());
                if http::HeaderValue::from_str(&user_agent).is_err() {
                    return Err(Error::invalid_config(
                        "user_agent",
                        "not a valid header value",
                    ));
                }
                T::default_http(&HttpSettings {
                    connect_timeout: positive(
                        self.connect_timeout,
                        DEFAULT_CONNECT_TIMEOUT,
                        "connect_timeout",
                    )?,
                    timeout: positive(self.timeout, DEFAULT_TIMEOUT, "timeout")?,
                    user_agent,
                })?
            }
        };
        let mut core = ClientCore::new(signer)
            .with_nonce_window(self.nonce_window)
            .with_retry(self.retry)
            .with_max_response_bytes(self.max_response_bytes);
        if let Some(nonces) = self.nonces {
            core = core.with_nonce_sequence(nonces);
        }
        Ok(T::assemble(core, http))
    }
}

impl<T: Transport> fmt::Debug for ClientBuilder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("credentials", &self.credentials)
            .field("base_url", &self.base_url)
            .field("nonce_window", &self.nonce_window)
            .field("connect_timeout", &self.connect_timeout)
            .field("timeout", &self.timeout)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("user_agent", &self.user_agent)
            .field("retry", &self.retry)
            .field("own_http_client", &self.http.is_some())
            .finish_non_exhaustive()
    }
}

//! [`ClientBuilder`]: everything a [`Client`] can be configured with, checked before any I/O.

use std::fmt;
use std::time::Duration;

use txc_sign::{
    ClientCore, Credentials, DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES, Error, NonceSequence,
    RetryPolicy, Signer,
};

use crate::Client;
use crate::transport::default_client;

/// The default connect timeout.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The default overall timeout of one attempt.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// The default `User-Agent`.
const DEFAULT_USER_AGENT: &str = concat!("txc/", env!("CARGO_PKG_VERSION"));

/// Configures a [`Client`]; made by [`Client::builder`].
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
/// | [`http_client`](Self::http_client) | a new `reqwest::Client` with the settings above |
#[must_use = "call .build() to get the client"]
pub struct ClientBuilder {
    credentials: Credentials,
    base_url: String,
    nonce_window: bool,
    connect_timeout: Option<Duration>,
    timeout: Option<Duration>,
    max_response_bytes: usize,
    user_agent: Option<String>,
    retry: RetryPolicy,
    nonces: Option<NonceSequence>,
    http_client: Option<reqwest::Client>,
}

impl ClientBuilder {
    pub(crate) fn new(credentials: Credentials) -> Self {
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
            http_client: None,
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

    /// How long one attempt may take in all, from connecting to the last byte of the answer.
    /// Default 15 s.
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

    /// Sends through your own reqwest client (proxy, TLS roots, pool settings...).
    ///
    /// Its own timeouts and `User-Agent` apply: combining it with
    /// [`connect_timeout`](Self::connect_timeout), [`timeout`](Self::timeout) or
    /// [`user_agent`](Self::user_agent) is refused by [`build`](Self::build). Set a timeout on
    /// it (reqwest has none by default), and consider
    /// `redirect(reqwest::redirect::Policy::none())`: a signed request is never meant to go
    /// elsewhere.
    ///
    /// ```
    /// let http = reqwest::Client::builder()
    ///     .redirect(reqwest::redirect::Policy::none())
    ///     .timeout(std::time::Duration::from_secs(10))
    ///     .build()?;
    /// let credentials = txc_async::Credentials::new("key", "secret")?;
    /// let client = txc_async::Client::builder(credentials).http_client(http).build()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.http_client = Some(client);
        self
    }

    /// Checks the configuration and makes the client. No I/O happens here.
    ///
    /// Fails with [`Error::InvalidConfig`] for a base URL that is not `http(s)://host[:port]`,
    /// a zero timeout or size cap, a `User-Agent` that is not a header value, or an own HTTP
    /// client combined with timeouts or a `User-Agent`.
    pub fn build(self) -> Result<Client, Error> {
        let signer = Signer::new(self.credentials, &self.base_url)?;
        if self.max_response_bytes == 0 {
            return Err(config("max_response_bytes", "must be at least 1"));
        }
        let http = match self.http_client {
            Some(http) => {
                if self.connect_timeout.is_some()
                    || self.timeout.is_some()
                    || self.user_agent.is_some()
                {
                    return Err(config(
                        "http_client",
                        "connect_timeout, timeout and user_agent configure the HTTP client the \
                         builder makes; set them on your own client instead",
                    ));
                }
                http
            }
            None => {
                let connect_timeout = positive(self.connect_timeout, DEFAULT_CONNECT_TIMEOUT)
                    .ok_or_else(|| config("connect_timeout", "must be above zero"))?;
                let timeout = positive(self.timeout, DEFAULT_TIMEOUT)
                    .ok_or_else(|| config("timeout", "must be above zero"))?;
                let user_agent = self.user_agent.as_deref().unwrap_or(DEFAULT_USER_AGENT);
                if http::HeaderValue::from_str(user_agent).is_err() {
                    return Err(config("user_agent", "not a valid header value"));
                }
                default_client(connect_timeout, timeout, user_agent)?
            }
        };
        let mut core = ClientCore::new(signer)
            .with_nonce_window(self.nonce_window)
            .with_retry(self.retry)
            .with_max_response_bytes(self.max_response_bytes);
        if let Some(nonces) = self.nonces {
            core = core.with_nonce_sequence(nonces);
        }
        Ok(Client::from_parts(core, http))
    }
}

/// The value given, or the default; `None` if the value given is zero.
fn positive(given: Option<Duration>, default: Duration) -> Option<Duration> {
    let value = given.unwrap_or(default);
    (!value.is_zero()).then_some(value)
}

fn config(what: &'static str, reason: &str) -> Error {
    Error::InvalidConfig {
        what,
        reason: reason.to_owned(),
    }
}

impl fmt::Debug for ClientBuilder {
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
            .field("own_http_client", &self.http_client.is_some())
            .finish_non_exhaustive()
    }
}

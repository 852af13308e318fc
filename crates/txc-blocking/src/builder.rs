//! [`ClientBuilder`]: configures a blocking [`Client`], checked before any I/O.

use txc_core::{ClientConfig, Error};
use txc_sign::Credentials;

use crate::Client;
use crate::tls::Tls;
use crate::transport::{check_agent, default_agent};

/// Configures a [`Client`]; [`Client::builder`] starts one.
///
/// Its setters are `txc-async`'s too: both builders wrap one configuration, a
/// [`ClientConfig`](txc_core::ClientConfig), and can start from one made elsewhere
/// ([`ClientBuilder::from`]). Only [`http`](Self::http) is this crate's own.
///
#[doc = txc_core::client_settings!(__settings_defaults)]
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
    agent: Option<ureq::Agent>,
}

impl ClientBuilder {
    pub(crate) fn new(credentials: Credentials) -> Self {
        Self::from(ClientConfig::new(credentials))
    }

    txc_core::client_settings!(__forward_settings);

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
    /// a fleet worker with strict nonces, a zero timeout or size cap, a `User-Agent` that is
    /// not a header value, or an own agent that treats error statuses as errors or is combined
    /// with timeouts or a `User-Agent`, and — with the `rustls-no-provider` feature alone —
    /// when rustls has no crypto provider (none installed as the process default, none in an
    /// own agent's TLS settings).
    ///
    /// The TLS is chosen here, once, for REST and the event stream: see the crate's
    /// [TLS section](crate#tls). With an own agent, the event stream follows its TLS library
    /// and rustls provider.
    pub fn build(self) -> Result<Client, Error> {
        let tls = match &self.agent {
            Some(agent) => Tls::of_agent(agent)?,
            None => Tls::choose()?,
        };
        let (core, agent) = self
            .config
            .build_with_http(self.agent, check_agent, |settings| {
                Ok(default_agent(settings, &tls))
            })?;
        Ok(Client::from_parts(core, agent, tls))
    }
}

impl From<ClientConfig> for ClientBuilder {
    /// Starts from a configuration made elsewhere — for example one that a blocking and an
    /// async client of the same settings share.
    fn from(config: ClientConfig) -> Self {
        Self {
            config,
            agent: None,
        }
    }
}

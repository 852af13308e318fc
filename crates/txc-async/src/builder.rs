//! [`ClientBuilder`]: configures an async [`Client`], checked before any I/O.

use txc_core::{ClientConfig, Error};
use txc_sign::Credentials;

use crate::Client;
use crate::tls::Tls;
use crate::transport::default_client;

/// Configures a [`Client`]; [`Client::builder`] starts one.
///
/// Its setters are `txc-blocking`'s too: both builders wrap one configuration, a
/// [`ClientConfig`](txc_core::ClientConfig), and can start from one made elsewhere
/// ([`ClientBuilder::from`]). Only [`http`](Self::http) is this crate's own.
///
#[doc = txc_core::client_settings!(__settings_defaults)]
/// | [`http`](Self::http) | a new reqwest client with the settings above |
///
/// ```
/// use std::time::Duration;
/// let client = txc_async::Client::builder(txc_async::Credentials::new("key", "secret")?)
///     .base_url("http://127.0.0.1:8080")
///     .timeout(Duration::from_secs(5))
///     .build()?;
/// assert_eq!(client.base_url(), "http://127.0.0.1:8080");
/// # Ok::<(), txc_async::Error>(())
/// ```
#[derive(Debug)]
#[must_use = "call .build() to get the client"]
pub struct ClientBuilder {
    config: ClientConfig,
    client: Option<reqwest::Client>,
}

impl ClientBuilder {
    pub(crate) fn new(credentials: Credentials) -> Self {
        Self::from(ClientConfig::new(credentials))
    }

    txc_core::client_settings!(__forward_settings);

    /// Sends through your own reqwest client (proxy, TLS roots, pool settings…). Its own
    /// timeouts (reqwest has none by default: set one) and redirect policy apply (consider
    /// `Policy::none()`: a signed request is never meant to go elsewhere); combining it with
    /// [`connect_timeout`](Self::connect_timeout), [`timeout`](Self::timeout) or
    /// [`user_agent`](Self::user_agent) is refused.
    ///
    /// ```
    /// let http = reqwest::Client::builder()
    ///     .redirect(reqwest::redirect::Policy::none())
    ///     .timeout(std::time::Duration::from_secs(10))
    ///     .build()?;
    /// let credentials = txc_async::Credentials::new("key", "secret")?;
    /// let client = txc_async::Client::builder(credentials).http(http).build()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn http(mut self, client: reqwest::Client) -> Self {
        self.client = Some(client);
        self
    }

    /// Checks the configuration and makes the client. No I/O happens here.
    ///
    /// Fails with [`Error::InvalidConfig`] for a base URL that is not `http(s)://host[:port]`,
    /// a fleet worker with strict nonces, a zero timeout or size cap, a `User-Agent` that is
    /// not a header value, or an own client combined with timeouts or a `User-Agent`.
    ///
    /// The TLS is chosen here, once, for REST and the event stream: see the crate's
    /// [TLS section](crate#tls); with the `rustls-no-provider` feature alone, building fails
    /// when no provider is installed as rustls' process default. With an own reqwest client,
    /// the event stream still follows this crate's features.
    pub fn build(self) -> Result<Client, Error> {
        let tls = Tls::choose()?;
        // reqwest has no setting that would hide the exchange's answers: nothing to check.
        let (core, client) = self.config.build_with_http(
            self.client,
            |_| Ok(()),
            |settings| default_client(settings, &tls),
        )?;
        Ok(Client::from_parts(core, client, tls))
    }
}

impl From<ClientConfig> for ClientBuilder {
    /// Starts from a configuration made elsewhere — for example one that a blocking and an
    /// async client of the same settings share.
    fn from(config: ClientConfig) -> Self {
        Self {
            config,
            client: None,
        }
    }
}

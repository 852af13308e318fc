//! [`Reqwest`], the transport: how the shared builder makes a reqwest client, and one round
//! trip (send the signed request, read the capped answer).
//!
//! Nothing here signs, decodes or retries; that is [`txc_sign::Call`]'s job.

use txc_sign::{ClientCore, Error, HttpSettings, Transport};

use crate::Client;
use crate::body::read_capped;
use crate::error_map::transport_error;

/// The reqwest transport: what [`ClientBuilder`](crate::ClientBuilder) finishes a [`Client`]
/// with.
///
/// An own client given to [`ClientBuilder::http`](txc_sign::ClientBuilder::http) keeps its
/// own timeouts (reqwest has none by default: set one) and redirect policy (consider
/// `Policy::none()`: a signed request is never meant to go elsewhere).
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
#[derive(Debug, Clone, Copy)]
pub struct Reqwest;

impl Transport for Reqwest {
    type Http = reqwest::Client;
    type Client = Client;

    fn default_http(settings: &HttpSettings) -> Result<reqwest::Client, Error> {
        reqwest::Client::builder()
            // A signed POST is never followed elsewhere; a 3xx reaches the decoder as it is.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.timeout)
            .user_agent(&settings.user_agent)
            .build()
            .map_err(|e| Error::invalid_config("http", e.to_string()))
    }

    fn check_own(_http: &reqwest::Client) -> Result<(), Error> {
        // reqwest hands every status through; nothing can be checked about its settings.
        Ok(())
    }

    fn assemble(core: ClientCore, http: reqwest::Client) -> Client {
        Client::from_parts(core, http)
    }
}

/// Sends `request` and reads the answer, at most `max_response_bytes` of body.
pub(crate) async fn round_trip(
    client: &reqwest::Client,
    request: http::Request<Vec<u8>>,
    max_response_bytes: usize,
) -> Result<(u16, Vec<u8>), Error> {
    let request = reqwest::Request::try_from(request).map_err(transport_error)?;
    let response = client.execute(request).await.map_err(transport_error)?;
    read_capped(response, max_response_bytes).await
}

//! [`Reqwest`], the transport: how the shared builder makes a reqwest client, and one round
//! trip (send the signed request, read the capped answer).
//!
//! Nothing here signs, decodes or retries; that is [`txc_sign::Call`]'s job.

use txc_sign::{ClientCore, Error, HttpSettings, SignedRequest, Transport};
use txc_types::{ENDPOINT_PATHS, Endpoint};

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

/// The request URLs of the endpoints this crate names, parsed once when the client is built.
///
/// reqwest wants a `Url`, and turning the signed request's `http::Uri` into one formats and
/// re-parses it on every request; any other endpoint's URL is still parsed per request.
pub(crate) struct Urls {
    base_url: String,
    known: Vec<(&'static str, reqwest::Url)>,
}

impl Urls {
    pub(crate) fn new(base_url: &str) -> Self {
        let known = ENDPOINT_PATHS
            .into_iter()
            .filter_map(|path| Some((path, parse(base_url, path).ok()?)))
            .collect();
        Self {
            base_url: base_url.to_owned(),
            known,
        }
    }

    /// The URL of endpoint `E`.
    pub(crate) fn of<E: Endpoint>(&self) -> Result<reqwest::Url, Error> {
        self.of_path(E::PATH)
    }

    fn of_path(&self, path: &str) -> Result<reqwest::Url, Error> {
        match self.known.iter().find(|(known, _)| *known == path) {
            Some((_, url)) => Ok(url.clone()),
            None => parse(&self.base_url, path),
        }
    }
}

fn parse(base_url: &str, path: &str) -> Result<reqwest::Url, Error> {
    reqwest::Url::parse(&format!("{base_url}{path}"))
        .map_err(|e| Error::invalid_config("base_url", e.to_string()))
}

/// Sends `signed` to `url` and reads the answer, at most `max_response_bytes` of body.
pub(crate) async fn round_trip(
    client: &reqwest::Client,
    url: reqwest::Url,
    signed: SignedRequest,
    max_response_bytes: usize,
) -> Result<(u16, Vec<u8>), Error> {
    let mut request = reqwest::Request::new(reqwest::Method::POST, url);
    *request.headers_mut() = signed.headers()?;
    *request.body_mut() = Some(signed.into_body().into());
    let response = client.execute(request).await.map_err(transport_error)?;
    read_capped(response, max_response_bytes).await
}

#[cfg(test)]
mod tests {
    use txc_types::{CollateralMarketOrder, ENDPOINT_PATHS};

    use super::Urls;

    #[test]
    fn known_endpoints_are_parsed_once_and_others_per_request() {
        let urls = Urls::new("http://127.0.0.1:8080");
        assert_eq!(urls.known.len(), ENDPOINT_PATHS.len());
        let market = urls.of::<CollateralMarketOrder>().ok();
        assert_eq!(
            market.as_ref().map(reqwest::Url::as_str),
            Some("http://127.0.0.1:8080/api/v4/order/collateral/market")
        );
        let other = urls.of_path("/api/v4/other").ok();
        assert_eq!(
            other.as_ref().map(reqwest::Url::as_str),
            Some("http://127.0.0.1:8080/api/v4/other")
        );
    }
}

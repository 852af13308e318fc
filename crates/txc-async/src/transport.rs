//! The reqwest side: how the builder makes a client, the endpoints' URLs, and one round trip
//! (send the signed request, read the capped response).
//!
//! Nothing here signs, decodes or retries; that is [`txc_core::machine::Call`]'s job.

use txc_core::Error;
use txc_core::decode::TransportError;
use txc_core::machine::HttpSettings;
use txc_sign::SignedRequest;
use txc_types::endpoint::ENDPOINT_PATHS;

use crate::body::{RawResponse, read_capped};
use crate::error_map::transport_error;
use crate::tls::{Tls, with_tls};

/// The reqwest client the builder makes when none is given, over `tls`.
pub(crate) fn default_client(settings: &HttpSettings, tls: &Tls) -> Result<reqwest::Client, Error> {
    let builder = reqwest::Client::builder()
        // A signed POST is never followed elsewhere; a 3xx reaches the decoder as it is.
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(settings.connect_timeout)
        .timeout(settings.timeout)
        .user_agent(&settings.user_agent);
    with_tls(builder, tls)?
        .build()
        .map_err(|e| Error::invalid_config("http", e.to_string()))
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

    /// The URL of the endpoint at `path`; a URL that cannot be made means nothing was sent.
    pub(crate) fn of_path(&self, path: &str) -> Result<reqwest::Url, TransportError> {
        match self.known.iter().find(|(known, _)| *known == path) {
            Some((_, url)) => Ok(url.clone()),
            None => parse(&self.base_url, path),
        }
    }
}

fn parse(base_url: &str, path: &str) -> Result<reqwest::Url, TransportError> {
    reqwest::Url::parse(&format!("{base_url}{path}"))
        .map_err(|e| TransportError::not_sent(txc_core::decode::TransportErrorKind::Other, e))
}

/// Sends `signed` to `url` and reads the response, at most `max_response_bytes` of body.
///
/// The request is built before the future: only reqwest's (boxed) future and the response
/// are held across the awaits, not the URL and the signed request as well.
pub(crate) fn round_trip(
    client: &reqwest::Client,
    url: reqwest::Url,
    signed: SignedRequest,
    max_response_bytes: usize,
) -> impl Future<Output = Result<RawResponse, TransportError>> {
    let mut request = reqwest::Request::new(signed.method(), url);
    *request.headers_mut() = signed.headers();
    if signed.is_signed() {
        *request.body_mut() = Some(signed.into_body().into());
    }
    let sent = client.execute(request);
    async move {
        let response = sent.await.map_err(transport_error)?;
        read_capped(response, max_response_bytes).await
    }
}

#[cfg(test)]
mod tests {
    use txc_types::endpoint::{ENDPOINT_PATHS, Endpoint};
    use txc_types::orders::CollateralMarketOrder;

    use super::Urls;

    #[test]
    fn known_endpoints_are_parsed_once_and_others_per_request() {
        let urls = Urls::new("http://127.0.0.1:8080");
        assert_eq!(urls.known.len(), ENDPOINT_PATHS.len());
        let market = urls.of_path(CollateralMarketOrder::PATH).ok();
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

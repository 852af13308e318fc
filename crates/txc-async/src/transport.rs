//! One round trip over reqwest: send the signed request, read the capped answer.
//!
//! Nothing here signs, decodes or retries; that is [`txc_sign::Call`]'s job.

use std::time::Duration;

use txc_sign::Error;

use crate::body::read_capped;
use crate::error_map::transport_error;

/// The HTTP client the builder makes when none is given.
pub(crate) fn default_client(
    connect_timeout: Duration,
    timeout: Duration,
    user_agent: &str,
) -> Result<reqwest::Client, Error> {
    reqwest::Client::builder()
        // A signed POST is never followed elsewhere; a 3xx reaches the decoder as it is.
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(connect_timeout)
        .timeout(timeout)
        .user_agent(user_agent)
        .build()
        .map_err(|e| Error::InvalidConfig {
            what: "http client",
            reason: e.to_string(),
        })
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

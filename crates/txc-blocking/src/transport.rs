//! One round trip over ureq: send the signed request, read the capped answer.
//!
//! Nothing here signs, decodes or retries; that is [`txc_sign::Call`]'s job.

use std::time::Duration;

use txc_sign::Error;

use crate::body::read_capped;
use crate::error_map::transport_error;

/// The agent the builder makes when none is given.
pub(crate) fn default_agent(
    connect_timeout: Duration,
    timeout: Duration,
    user_agent: &str,
) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        // Error statuses carry the exchange's error body: the decoder must see them.
        .http_status_as_error(false)
        // A signed POST is never followed elsewhere; a 3xx reaches the decoder as it is.
        .max_redirects(0)
        .timeout_connect(Some(connect_timeout))
        .timeout_global(Some(timeout))
        .user_agent(user_agent);
    #[cfg(feature = "native-tls")]
    let config = config.tls_config(
        ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::NativeTls)
            .build(),
    );
    config.build().into()
}

/// Sends `request` and reads the answer, at most `max_response_bytes` of body.
pub(crate) fn round_trip(
    agent: &ureq::Agent,
    request: http::Request<Vec<u8>>,
    max_response_bytes: usize,
) -> Result<(u16, Vec<u8>), Error> {
    let response = agent.run(request).map_err(transport_error)?;
    read_capped(response, max_response_bytes)
}

//! The ureq side: how the builder makes or checks an agent, and one round trip (send the
//! signed request, read the capped response).
//!
//! Nothing here signs, decodes or retries; that is [`txc_core::machine::Call`]'s job.

use txc_core::Error;
use txc_core::decode::TransportError;
use txc_core::machine::HttpSettings;

use crate::body::{RawResponse, read_capped};
use crate::error_map::transport_error;
use crate::tls::{Tls, with_tls};

/// Refuses an own agent that would hide the exchange's error responses.
pub(crate) fn check_agent(agent: &ureq::Agent) -> Result<(), Error> {
    if agent.config().http_status_as_error() {
        return Err(Error::invalid_config(
            "http",
            "the ureq agent must be built with http_status_as_error(false), or the exchange's \
             error responses are lost",
        ));
    }
    Ok(())
}

/// The agent the builder makes when none is given, over `tls`.
pub(crate) fn default_agent(settings: &HttpSettings, tls: &Tls) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        // Error statuses carry the exchange's error body: the decoder must see them.
        .http_status_as_error(false)
        // A signed POST is never followed elsewhere; a 3xx reaches the decoder as it is.
        .max_redirects(0)
        .timeout_connect(Some(settings.connect_timeout))
        // `timeout` bounds each phase rather than the whole call: ureq's whole-call timer
        // (timeout_global/timeout_per_call) costs about 90 us per request on loopback, the
        // phase timers nothing measurable (BENCHMARKS.md). A server that never answers is
        // still cut off after `timeout`.
        .timeout_send_request(Some(settings.timeout))
        .timeout_send_body(Some(settings.timeout))
        .timeout_recv_response(Some(settings.timeout))
        .timeout_recv_body(Some(settings.timeout))
        .user_agent(&settings.user_agent);
    with_tls(config, tls).build().into()
}

/// Sends `request` and reads the response, at most `max_response_bytes` of body.
pub(crate) fn round_trip(
    agent: &ureq::Agent,
    request: http::Request<Vec<u8>>,
    max_response_bytes: usize,
) -> Result<RawResponse, TransportError> {
    let response = agent.run(request).map_err(transport_error)?;
    read_capped(response, max_response_bytes)
}

#[cfg(test)]
mod tests {
    use super::check_agent;

    #[test]
    fn an_own_agent_must_pass_error_statuses_through() {
        // ureq's default treats 4xx/5xx as errors and would hide the exchange's error body.
        assert!(check_agent(&ureq::Agent::new_with_defaults()).is_err());
        let fit: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        assert!(check_agent(&fit).is_ok());
    }
}

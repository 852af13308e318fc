//! [`Ureq`], the transport: how the shared builder makes or checks a ureq agent, and one
//! round trip (send the signed request, read the capped answer).
//!
//! Nothing here signs, decodes or retries; that is [`txc_sign::Call`]'s job.

use txc_sign::{ClientCore, Error, HttpSettings, Transport};

use crate::Client;
use crate::body::read_capped;
use crate::error_map::transport_error;

/// The ureq transport: what [`ClientBuilder`](crate::ClientBuilder) finishes a [`Client`] with.
///
/// An own agent given to [`ClientBuilder::http`](txc_sign::ClientBuilder::http) must be built
/// with `http_status_as_error(false)`, so that the exchange's error answers (4xx and 5xx with
/// a JSON body) reach the decoder; `build` refuses one that treats statuses as errors.
/// Consider `max_redirects(0)` too: a signed request is never meant to go elsewhere.
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
#[derive(Debug, Clone, Copy)]
pub struct Ureq;

impl Transport for Ureq {
    type Http = ureq::Agent;
    type Client = Client;

    fn default_http(settings: &HttpSettings) -> Result<ureq::Agent, Error> {
        Ok(default_agent(settings))
    }

    fn check_own(agent: &ureq::Agent) -> Result<(), Error> {
        if agent.config().http_status_as_error() {
            return Err(Error::invalid_config(
                "http",
                "the ureq agent must be built with http_status_as_error(false), or the \
                 exchange's error answers are lost",
            ));
        }
        Ok(())
    }

    fn assemble(core: ClientCore, agent: ureq::Agent) -> Client {
        Client::from_parts(core, agent)
    }
}

/// The agent the builder makes when none is given.
fn default_agent(settings: &HttpSettings) -> ureq::Agent {
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

//! Optional `tracing` output of [`crate::Call`]: one `txc.request` span per attempt with the
//! operation, the attempt number, the HTTP status or the transport failure's kind, and the
//! latency from signing to the response.
//!
//! Beside them, the events of checks made before sending: an order sent without its market's
//! rules checked ([`rules_unchecked`]).
//!
//! Never recorded: the API key, the payload, the signature, the body. Without the `tracing`
//! feature [`Attempt`] is an empty type whose methods do nothing, and so are the events.

use std::time::Duration;

use crate::{Response, TransportError};

#[cfg(feature = "tracing")]
pub(crate) struct Attempt(tracing::Span);

#[cfg(not(feature = "tracing"))]
pub(crate) struct Attempt;

impl Attempt {
    /// Opens the span of attempt number `attempt` of `operation`.
    pub(crate) fn start(operation: &'static str, attempt: u32) -> Self {
        #[cfg(feature = "tracing")]
        {
            use tracing::field::Empty;
            Self(tracing::debug_span!(
                "txc.request",
                operation,
                attempt,
                status = Empty,
                error = Empty,
                latency_ms = Empty,
            ))
        }
        #[cfg(not(feature = "tracing"))]
        {
            let _ = (operation, attempt);
            Self
        }
    }

    /// Records how the round trip ended: the status, or the transport failure's kind.
    pub(crate) fn outcome(&self, response: &Result<Response<'_>, TransportError>) {
        #[cfg(feature = "tracing")]
        {
            let _entered = self.0.enter();
            match response {
                Ok(response) => {
                    let status = response.status();
                    self.0.record("status", status);
                    tracing::debug!(status, "txc response");
                }
                Err(e) => {
                    self.0.record("error", tracing::field::display(e.kind));
                    tracing::debug!(error = %e.kind, delivery = ?e.delivery, "txc transport failure");
                }
            }
        }
        #[cfg(not(feature = "tracing"))]
        let _ = response;
    }

    /// Records the round trip's latency.
    pub(crate) fn latency(&self, latency: Duration) {
        #[cfg(feature = "tracing")]
        self.0.record("latency_ms", millis(latency));
        #[cfg(not(feature = "tracing"))]
        let _ = latency;
    }

    /// Notes that the call is retried after `delay`.
    pub(crate) fn retry(&self, delay: Duration) {
        #[cfg(feature = "tracing")]
        {
            let _entered = self.0.enter();
            tracing::debug!(delay_ms = millis(delay), "txc retry");
        }
        #[cfg(not(feature = "tracing"))]
        let _ = delay;
    }
}

/// An event: an order of `operation` on `market` goes without its market's rules checked,
/// because of `why` (the market is not listed, the rules could not be read).
pub(crate) fn rules_unchecked(operation: &'static str, market: &str, why: &str) {
    #[cfg(feature = "tracing")]
    tracing::info!(
        operation,
        market,
        why,
        "txc order sent without its market's rules checked"
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (operation, market, why);
}

#[cfg(feature = "tracing")]
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

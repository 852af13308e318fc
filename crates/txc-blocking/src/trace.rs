//! Optional `tracing` output: one span per attempt (`txc.request`) with the operation, the
//! attempt number, the HTTP status or the transport failure's kind, and the latency.
//!
//! Never recorded: the API key, the payload, the signature, the body. Without the `tracing`
//! feature [`Attempt`] is an empty type whose methods do nothing.

#[cfg(feature = "tracing")]
pub(crate) use on::Attempt;

#[cfg(not(feature = "tracing"))]
pub(crate) use off::Attempt;

#[cfg(feature = "tracing")]
mod on {
    use std::time::{Duration, Instant};

    use tracing::field::{Empty, display};
    use txc_sign::Error;

    /// The span of one attempt, and when it started.
    pub(crate) struct Attempt {
        span: tracing::Span,
        started: Instant,
    }

    impl Attempt {
        /// Opens the span of attempt number `attempt` of `operation`.
        pub(crate) fn start(operation: &'static str, attempt: u32) -> Self {
            let span = tracing::debug_span!(
                "txc.request",
                operation,
                attempt,
                status = Empty,
                error = Empty,
                latency_ms = Empty,
            );
            Self {
                span,
                started: Instant::now(),
            }
        }

        /// Runs `f` inside the span.
        pub(crate) fn in_scope<T>(&self, f: impl FnOnce() -> T) -> T {
            self.span.in_scope(f)
        }

        /// Records how the round trip ended: the status, or the transport failure's kind.
        pub(crate) fn finish(&self, answer: &Result<(u16, Vec<u8>), Error>) {
            let latency_ms = millis(self.started.elapsed());
            self.span.record("latency_ms", latency_ms);
            let _entered = self.span.enter();
            match answer {
                Ok((status, _)) => {
                    self.span.record("status", status);
                    tracing::debug!(status, latency_ms, "txc answer");
                }
                Err(Error::Transport(e)) => {
                    self.span.record("error", display(e.kind));
                    tracing::debug!(error = %e.kind, delivery = ?e.delivery, latency_ms, "txc transport failure");
                }
                Err(_) => tracing::debug!(latency_ms, "txc failure"),
            }
        }

        /// Notes that the call is retried after `delay`.
        pub(crate) fn retry(&self, delay: Duration) {
            let _entered = self.span.enter();
            tracing::debug!(delay_ms = millis(delay), "txc retry");
        }
    }

    fn millis(d: Duration) -> u64 {
        u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
    }
}

#[cfg(not(feature = "tracing"))]
mod off {
    use std::time::Duration;

    use txc_sign::Error;

    /// Nothing: the `tracing` feature is off.
    pub(crate) struct Attempt;

    impl Attempt {
        pub(crate) fn start(_operation: &'static str, _attempt: u32) -> Self {
            Self
        }

        pub(crate) fn in_scope<T>(&self, f: impl FnOnce() -> T) -> T {
            f()
        }

        pub(crate) fn finish(&self, _answer: &Result<(u16, Vec<u8>), Error>) {}

        pub(crate) fn retry(&self, _delay: Duration) {}
    }
}

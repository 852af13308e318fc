//! The hidden, test-only timings (`--unproven-acceptance-window`, `--test-backoff`,
//! `--test-token-limit`): shorter waits than the exchange's documented ones, so that the CLI's own tests against the embedded
//! sandbox do not wait out windows meant for the real exchange. Both are refused unless the
//! server is on loopback: against the exchange they would give up the exactly-once guarantee
//! or retry, reconnect and ask for tokens faster than it allows.

use std::time::Duration;

use txc_blocking::endpoint::{Endpoint as _, RateLimit};
use txc_blocking::events::{Backoff, StreamConfig, WebSocketTokenQuery};
use txc_blocking::settings::{ClientConfig, RateLimits, RetryPolicy};

use crate::args::GlobalArgs;
use crate::config::Target;
use crate::exit::CliError;

/// The default policy's attempts in all (`RetryPolicy::default`): the test backoff keeps them.
const ATTEMPTS: u32 = 4;

/// Whether any test-only timing was asked for.
fn asked(global: &GlobalArgs) -> bool {
    global.unproven_acceptance_window.is_some()
        || global.test_backoff.is_some()
        || global.test_token_limit.is_some()
}

/// `config` with the test-only timings asked for — refused unless `target` is on loopback.
pub(crate) fn apply(
    global: &GlobalArgs,
    target: &Target,
    config: ClientConfig,
) -> Result<ClientConfig, CliError> {
    if asked(global) && !txc_sign::is_loopback(&target.base_url) {
        return Err(CliError::invalid(format!(
            "--unproven-acceptance-window, --test-backoff and --test-token-limit are for tests \
             against a sandbox on loopback, not {}; nothing was sent",
            target.base_url
        )));
    }
    let config = match global.unproven_acceptance_window {
        Some(ms) => config.unproven_acceptance_window(Duration::from_millis(ms)),
        None => config,
    };
    Ok(match global.test_backoff {
        Some(ms) => {
            let delay = Duration::from_millis(ms);
            config.retry_policy(RetryPolicy::new(ATTEMPTS, delay, delay))
        }
        None => config,
    })
}

/// The event stream's settings: with `--test-backoff`, reconnects after that delay (the
/// client it streams for was built through [`apply`], which checked the server).
pub(crate) fn stream_config(global: &GlobalArgs) -> StreamConfig {
    match global.test_backoff {
        Some(ms) => {
            let delay = Duration::from_millis(ms);
            StreamConfig::default().with_backoff(Backoff::new(delay, delay))
        }
        None => StreamConfig::default(),
    }
}

/// The documented limits with `--test-token-limit`'s instead of the WebSocket token's 10 a
/// minute (`None` without it; [`apply`] checks the server).
pub(crate) fn rate_limits(global: &GlobalArgs) -> Option<RateLimits> {
    global.test_token_limit.map(|n| {
        RateLimits::documented()
            .with_limit(WebSocketTokenQuery::PATH, Some(RateLimit::new(n.get(), 60)))
    })
}

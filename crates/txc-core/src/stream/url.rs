//! [`websocket_url`]: where the stream of a client with a given REST base URL connects, and
//! [`host_deprecation`]: whether that host is one the exchange is retiring.

use super::config_error::StreamConfigError;

/// The exchange's current WebSocket host for `whitebit.com`: one socket for spot, margin,
/// perpetuals and TradFi (the exchange's WebSocket overview, 2026-09).
pub const CURRENT_HOST: &str = "wss.whitebit.com";

/// The WebSocket URL of the exchange whose REST API is at `base_url`: `https` becomes `wss`
/// and `http` `ws`, the path is `/ws`, and the exchange's own hosts take their WebSocket
/// host: `whitebit.com` the current [`CURRENT_HOST`] (`api.whitebit.com` is deprecated since
/// 2026-09-01 and refuses connections from 2027-03-01), `whitebit.eu` `api.whitebit.eu` (the
/// docs' region switch).
///
/// ```
/// use txc_core::stream::websocket_url;
/// assert_eq!(websocket_url("https://whitebit.com")?, "wss://wss.whitebit.com/ws");
/// assert_eq!(websocket_url("https://whitebit.eu/")?, "wss://api.whitebit.eu/ws");
/// assert_eq!(websocket_url("http://127.0.0.1:8080")?, "ws://127.0.0.1:8080/ws");
/// assert!(websocket_url("ftp://example.com").is_err());
/// # Ok::<(), txc_core::stream::StreamConfigError>(())
/// ```
pub fn websocket_url(base_url: &str) -> Result<String, StreamConfigError> {
    let (scheme, rest) = if let Some(rest) = base_url.strip_prefix("https://") {
        ("wss", rest)
    } else if let Some(rest) = base_url.strip_prefix("http://") {
        ("ws", rest)
    } else {
        return Err(StreamConfigError::setting(
            "url",
            "the base URL must start with http:// or https://",
        ));
    };
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') {
        return Err(StreamConfigError::setting(
            "url",
            "the base URL must be scheme://host[:port]",
        ));
    }
    let host = match host {
        "whitebit.com" | "www.whitebit.com" => CURRENT_HOST,
        "whitebit.eu" | "www.whitebit.eu" => "api.whitebit.eu",
        other => other,
    };
    Ok(format!("{scheme}://{host}/ws"))
}

/// A WebSocket host the exchange has deprecated, as [`host_deprecation`] finds it in a URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostDeprecation {
    /// The deprecated host.
    pub host: &'static str,
    /// Since when it is deprecated (ISO date).
    pub deprecated_since: &'static str,
    /// From when it refuses connections (ISO date).
    pub refused_from: &'static str,
    /// The URL to use instead.
    pub use_instead: &'static str,
}

impl std::fmt::Display for HostDeprecation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is a deprecated WebSocket host (since {}; it refuses connections from {}): use {}",
            self.host, self.deprecated_since, self.refused_from, self.use_instead
        )
    }
}

/// The deprecation of the host of a WebSocket `url`, if the exchange has deprecated it:
/// `api.whitebit.com` (the legacy host of `whitebit.com`). The stream's drivers add it to the
/// reason of a failed connection ([`StreamInput::connect_failed`](super::StreamInput::connect_failed)),
/// so that a refusal after 2027-03-01 says why.
///
/// ```
/// use txc_core::stream::host_deprecation;
/// let old = host_deprecation("wss://api.whitebit.com/ws").expect("deprecated");
/// assert_eq!(old.refused_from, "2027-03-01");
/// assert!(host_deprecation("wss://wss.whitebit.com/ws").is_none());
/// assert!(host_deprecation("wss://api.whitebit.eu/ws").is_none());
/// ```
pub fn host_deprecation(url: &str) -> Option<HostDeprecation> {
    let rest = url
        .strip_prefix("wss://")
        .or_else(|| url.strip_prefix("ws://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(host, port)| {
            if port.chars().all(|c| c.is_ascii_digit()) {
                host
            } else {
                authority
            }
        });
    host.eq_ignore_ascii_case("api.whitebit.com")
        .then_some(HostDeprecation {
            host: "api.whitebit.com",
            deprecated_since: "2026-09-01",
            refused_from: "2027-03-01",
            use_instead: "wss://wss.whitebit.com/ws",
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legacy_host_is_found_with_any_port_path_or_case() {
        for url in [
            "wss://api.whitebit.com/ws",
            "wss://API.WhiteBIT.com:443/ws",
            "ws://api.whitebit.com",
            "wss://api.whitebit.com?x=1",
        ] {
            assert!(host_deprecation(url).is_some(), "{url}");
        }
        for url in [
            "wss://wss.whitebit.com/ws",
            "wss://api.whitebit.eu/ws",
            "ws://127.0.0.1:8080/ws",
            "wss://api.whitebit.com.example.org/ws",
            "https://api.whitebit.com",
        ] {
            assert!(host_deprecation(url).is_none(), "{url}");
        }
    }

    #[test]
    fn every_exchange_base_url_maps_to_a_host_that_is_not_deprecated() {
        for base in [
            "https://whitebit.com",
            "https://www.whitebit.com/",
            "https://whitebit.eu",
        ] {
            let url = websocket_url(base).expect("a valid base URL");
            assert!(host_deprecation(&url).is_none(), "{base} -> {url}");
        }
    }
}

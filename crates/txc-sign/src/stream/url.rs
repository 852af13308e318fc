//! [`websocket_url`]: where the stream of a client with a given REST base URL connects.

use super::StreamConfigError;

/// The WebSocket URL of the exchange whose REST API is at `base_url`: `https` becomes `wss`
/// and `http` `ws`, the path is `/ws`, and the exchange's own hosts take their API host (the
/// AsyncAPI files' servers: `api.whitebit.com`, `api.whitebit.eu`).
///
/// ```
/// use txc_sign::stream::websocket_url;
/// assert_eq!(websocket_url("https://whitebit.com")?, "wss://api.whitebit.com/ws");
/// assert_eq!(websocket_url("https://whitebit.eu/")?, "wss://api.whitebit.eu/ws");
/// assert_eq!(websocket_url("http://127.0.0.1:8080")?, "ws://127.0.0.1:8080/ws");
/// assert!(websocket_url("ftp://example.com").is_err());
/// # Ok::<(), txc_sign::stream::StreamConfigError>(())
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
        "whitebit.com" | "www.whitebit.com" => "api.whitebit.com",
        "whitebit.eu" | "www.whitebit.eu" => "api.whitebit.eu",
        other => other,
    };
    Ok(format!("{scheme}://{host}/ws"))
}

//! Opening the event stream's WebSocket: over TLS with rustls (aws-lc-rs) and the platform's
//! certificate verifier — the same as the REST client — or with the platform's TLS library
//! (`native-tls` without `rustls`), or in the clear for `ws://` (a sandbox on loopback).

use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A connected WebSocket.
pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens the WebSocket at `url`; why not, as text.
#[cfg(any(feature = "rustls", feature = "native-tls"))]
pub(crate) async fn connect(url: String) -> Result<Socket, String> {
    let connector = connector()?;
    tokio_tungstenite::connect_async_tls_with_config(url.as_str(), None, true, connector)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// Opens the WebSocket at `url` (`ws://` only: no TLS feature); why not, as text.
#[cfg(not(any(feature = "rustls", feature = "native-tls")))]
pub(crate) async fn connect(url: String) -> Result<Socket, String> {
    tokio_tungstenite::connect_async_with_config(url.as_str(), None, true)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

#[cfg(feature = "rustls")]
fn connector() -> Result<Option<tokio_tungstenite::Connector>, String> {
    use std::sync::Arc;

    use rustls_platform_verifier::BuilderVerifierExt;

    // An explicit provider: with another TLS backend in the same program (a blocking client's
    // ring), rustls has no single default to pick.
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(BuilderVerifierExt::with_platform_verifier)
        .map_err(|e| format!("TLS configuration: {e}"))?
        .with_no_client_auth();
    Ok(Some(tokio_tungstenite::Connector::Rustls(Arc::new(config))))
}

#[cfg(all(feature = "native-tls", not(feature = "rustls")))]
fn connector() -> Result<Option<tokio_tungstenite::Connector>, String> {
    // native-tls (if enabled) for wss://; plain for ws://.
    Ok(None)
}

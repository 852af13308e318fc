//! Opening the event stream's WebSocket over the TLS the client was built with ([`Tls`]:
//! rustls with its provider and the platform's certificate verifier, or the platform's
//! library) — the same as the REST client — or in the clear for `ws://` (a sandbox on
//! loopback).

use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use txc_core::stream::StreamInput;

use crate::tls::Tls;

/// A connected WebSocket.
pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens the WebSocket at `url`, over `tls` for `wss://`; why not, as text.
#[cfg(any(feature = "rustls-no-provider", feature = "native-tls"))]
pub(crate) async fn connect(url: String, tls: Tls) -> Result<Socket, String> {
    let connector = connector(&tls)?;
    tokio_tungstenite::connect_async_tls_with_config(url.as_str(), None, true, Some(connector))
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// Opens the WebSocket at `url` (`ws://` only: no TLS feature); why not, as text.
#[cfg(not(any(feature = "rustls-no-provider", feature = "native-tls")))]
pub(crate) async fn connect(url: String, tls: Tls) -> Result<Socket, String> {
    let Tls::Plain = tls;
    tokio_tungstenite::connect_async_with_config(url.as_str(), None, true)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// The WebSocket's TLS for `tls` (used for `wss://` only).
#[cfg(any(feature = "rustls-no-provider", feature = "native-tls"))]
fn connector(tls: &Tls) -> Result<tokio_tungstenite::Connector, String> {
    match tls {
        Tls::Plain => Ok(tokio_tungstenite::Connector::Plain),
        #[cfg(feature = "native-tls")]
        Tls::Native => native_tls::TlsConnector::new()
            .map(tokio_tungstenite::Connector::NativeTls)
            .map_err(|e| format!("TLS configuration: {e}")),
        #[cfg(feature = "rustls-no-provider")]
        Tls::Rustls(provider) => crate::tls::rustls_config(provider)
            .map(|config| tokio_tungstenite::Connector::Rustls(std::sync::Arc::new(config))),
    }
}

/// What a frame read from the socket (or its end: `None`) is to the machine: a text or binary
/// frame, or the socket's end; `None` for a frame that says nothing (pings are answered by
/// the library; pongs and raw frames).
pub(crate) fn input_of(
    frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
) -> Option<StreamInput> {
    let closed = |code, reason| Some(StreamInput::Closed { code, reason });
    match frame {
        Some(Ok(Message::Text(text))) => Some(StreamInput::Text(text.as_str().to_owned())),
        Some(Ok(Message::Binary(bytes))) => Some(StreamInput::Binary(bytes.to_vec())),
        Some(Ok(Message::Close(frame))) => {
            let (code, reason) = frame.map_or((None, "closed".to_owned()), |f| {
                (Some(u16::from(f.code)), f.reason.as_str().to_owned())
            });
            closed(code, reason)
        }
        Some(Ok(_)) => None,
        Some(Err(e)) => closed(None, e.to_string()),
        None => closed(None, "the connection ended".to_owned()),
    }
}

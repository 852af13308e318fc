//! Opening the event stream's WebSocket on a std socket: over the TLS the client was built
//! with ([`Tls`]: rustls with its provider and the webpki roots, or the platform's library) —
//! the same as the REST agent — or in the clear for `ws://` (a sandbox on loopback). No async
//! runtime.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use tungstenite::{Message, WebSocket};
use txc_core::stream::StreamInput;

use crate::tls::Tls;

/// A connected WebSocket.
pub(crate) type Socket = WebSocket<Stream>;

/// The socket under the WebSocket.
pub(crate) enum Stream {
    /// `ws://`.
    Plain(TcpStream),
    /// `wss://` over rustls.
    #[cfg(feature = "rustls-no-provider")]
    Rustls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
    /// `wss://` over the platform's TLS library.
    #[cfg(feature = "native-tls")]
    Native(Box<native_tls::TlsStream<TcpStream>>),
}

impl Stream {
    /// The TCP socket.
    pub(crate) fn tcp(&self) -> &TcpStream {
        match self {
            Self::Plain(tcp) => tcp,
            #[cfg(feature = "rustls-no-provider")]
            Self::Rustls(tls) => tls.get_ref(),
            #[cfg(feature = "native-tls")]
            Self::Native(tls) => tls.get_ref(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Self::Plain(tcp) => tcp.read(buf),
            #[cfg(feature = "rustls-no-provider")]
            Self::Rustls(tls) => tls.read(buf),
            #[cfg(feature = "native-tls")]
            Self::Native(tls) => tls.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Plain(tcp) => tcp.write(buf),
            #[cfg(feature = "rustls-no-provider")]
            Self::Rustls(tls) => tls.write(buf),
            #[cfg(feature = "native-tls")]
            Self::Native(tls) => tls.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Plain(tcp) => tcp.flush(),
            #[cfg(feature = "rustls-no-provider")]
            Self::Rustls(tls) => tls.flush(),
            #[cfg(feature = "native-tls")]
            Self::Native(tls) => tls.flush(),
        }
    }
}

/// Opens the WebSocket at `url` within `timeout` (each of the TCP connection, the TLS and the
/// WebSocket handshakes), over `tls` for `wss://`; why not, as text.
pub(crate) fn connect(url: &str, timeout: Duration, tls: &Tls) -> Result<Socket, String> {
    let uri: http::Uri = url.parse().map_err(|e| format!("{url}: {e}"))?;
    let secure = match uri.scheme_str() {
        Some("wss") => true,
        Some("ws") => false,
        _ => return Err(format!("{url}: not a ws:// or wss:// URL")),
    };
    let host = uri.host().ok_or_else(|| format!("{url}: no host"))?;
    let port = uri.port_u16().unwrap_or(if secure { 443 } else { 80 });
    let addrs = (host.trim_start_matches('[').trim_end_matches(']'), port)
        .to_socket_addrs()
        .map_err(|e| format!("{host}: {e}"))?;
    let mut last = format!("{host}: no address");
    let mut tcp = None;
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(stream) => {
                tcp = Some(stream);
                break;
            }
            Err(e) => last = format!("{addr}: {e}"),
        }
    }
    let tcp = tcp.ok_or(last)?;
    let _ = tcp.set_nodelay(true);
    tcp.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    tcp.set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let stream = if secure {
        tls_stream(tls, host, tcp)?
    } else {
        Stream::Plain(tcp)
    };
    let (socket, _) = tungstenite::client(url, stream).map_err(|e| match e {
        tungstenite::HandshakeError::Failure(e) => e.to_string(),
        tungstenite::HandshakeError::Interrupted(_) => "the handshake timed out".to_owned(),
    })?;
    Ok(socket)
}

/// The TLS session over `tcp` to `host`.
fn tls_stream(tls: &Tls, host: &str, tcp: TcpStream) -> Result<Stream, String> {
    match tls {
        Tls::Plain => {
            let _ = (host, tcp);
            Err("wss:// needs one of txc-blocking's TLS features".to_owned())
        }
        #[cfg(feature = "native-tls")]
        Tls::Native => {
            let connector = native_tls::TlsConnector::new().map_err(|e| format!("TLS: {e}"))?;
            let stream = connector.connect(host, tcp).map_err(|e| match e {
                native_tls::HandshakeError::Failure(e) => format!("TLS: {e}"),
                native_tls::HandshakeError::WouldBlock(_) => {
                    "the TLS handshake timed out".to_owned()
                }
            })?;
            Ok(Stream::Native(Box::new(stream)))
        }
        #[cfg(feature = "rustls-no-provider")]
        Tls::Rustls(provider) => {
            let config = crate::tls::rustls_config(provider)?;
            let name = rustls::pki_types::ServerName::try_from(host.to_owned())
                .map_err(|e| format!("{host}: {e}"))?;
            let connection =
                rustls::ClientConnection::new(config, name).map_err(|e| format!("TLS: {e}"))?;
            Ok(Stream::Rustls(Box::new(rustls::StreamOwned::new(
                connection, tcp,
            ))))
        }
    }
}

/// Waits up to `delay` for a frame on `socket`: what to hand the machine — a text or binary
/// frame, or the socket's end — or `None` when the wait ran out (or the frame says nothing:
/// pings are answered by the library on the next write or flush).
pub(crate) fn read_input(socket: &mut Socket, delay: Duration) -> Option<StreamInput> {
    if let Err(e) = socket.get_ref().tcp().set_read_timeout(Some(delay)) {
        return Some(StreamInput::Closed {
            code: None,
            reason: e.to_string(),
        });
    }
    match socket.read() {
        Ok(Message::Text(text)) => Some(StreamInput::Text(text.as_str().to_owned())),
        Ok(Message::Binary(bytes)) => Some(StreamInput::Binary(bytes.to_vec())),
        Ok(Message::Close(frame)) => {
            let (code, reason) = frame.map_or((None, "closed".to_owned()), |f| {
                (Some(u16::from(f.code)), f.reason.as_str().to_owned())
            });
            Some(StreamInput::Closed { code, reason })
        }
        Ok(_) => {
            let _ = socket.flush();
            None
        }
        Err(tungstenite::Error::Io(e))
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            None
        }
        Err(e) => Some(StreamInput::Closed {
            code: None,
            reason: e.to_string(),
        }),
    }
}

/// Opens the WebSocket at `url` for a machine: the socket, if it opened, and what to tell the
/// machine — connected, or why not (a deprecated host named).
pub(crate) fn open(url: &str, timeout: Duration, tls: &Tls) -> (Option<Socket>, StreamInput) {
    match connect(url, timeout, tls) {
        Ok(socket) => (Some(socket), StreamInput::Connected),
        Err(e) => (None, StreamInput::connect_failed(url, e)),
    }
}

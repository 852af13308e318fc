//! Opening the event stream's WebSocket on a std socket: over TLS with rustls (ring) and the
//! webpki roots — the same as the REST client — or in the clear for `ws://` (a sandbox on
//! loopback). No async runtime.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use tungstenite::WebSocket;

/// A connected WebSocket.
pub(crate) type Socket = WebSocket<Stream>;

/// The socket under the WebSocket.
pub(crate) enum Stream {
    /// `ws://`.
    Plain(TcpStream),
    /// `wss://`.
    #[cfg(feature = "rustls")]
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Stream {
    /// The TCP socket.
    pub(crate) fn tcp(&self) -> &TcpStream {
        match self {
            Self::Plain(tcp) => tcp,
            #[cfg(feature = "rustls")]
            Self::Tls(tls) => tls.get_ref(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Self::Plain(tcp) => tcp.read(buf),
            #[cfg(feature = "rustls")]
            Self::Tls(tls) => tls.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Plain(tcp) => tcp.write(buf),
            #[cfg(feature = "rustls")]
            Self::Tls(tls) => tls.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Plain(tcp) => tcp.flush(),
            #[cfg(feature = "rustls")]
            Self::Tls(tls) => tls.flush(),
        }
    }
}

/// Opens the WebSocket at `url` within `timeout` (each of the TCP connection, the TLS and the
/// WebSocket handshakes); why not, as text.
pub(crate) fn connect(url: &str, timeout: Duration) -> Result<Socket, String> {
    let uri: http::Uri = url.parse().map_err(|e| format!("{url}: {e}"))?;
    let tls = match uri.scheme_str() {
        Some("wss") => true,
        Some("ws") => false,
        _ => return Err(format!("{url}: not a ws:// or wss:// URL")),
    };
    let host = uri.host().ok_or_else(|| format!("{url}: no host"))?;
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
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
    let stream = if tls {
        tls_stream(host, tcp)?
    } else {
        Stream::Plain(tcp)
    };
    let (socket, _) = tungstenite::client(url, stream).map_err(|e| match e {
        tungstenite::HandshakeError::Failure(e) => e.to_string(),
        tungstenite::HandshakeError::Interrupted(_) => "the handshake timed out".to_owned(),
    })?;
    Ok(socket)
}

#[cfg(feature = "rustls")]
fn tls_stream(host: &str, tcp: TcpStream) -> Result<Stream, String> {
    use std::sync::Arc;

    // An explicit provider: with another TLS backend in the same program (an async client's
    // aws-lc-rs), rustls has no single default to pick.
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| format!("TLS configuration: {e}"))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_owned())
        .map_err(|e| format!("{host}: {e}"))?;
    let connection =
        rustls::ClientConnection::new(Arc::new(config), name).map_err(|e| format!("TLS: {e}"))?;
    Ok(Stream::Tls(Box::new(rustls::StreamOwned::new(
        connection, tcp,
    ))))
}

#[cfg(not(feature = "rustls"))]
fn tls_stream(_host: &str, _tcp: TcpStream) -> Result<Stream, String> {
    Err("wss:// needs txc-blocking's `rustls` feature".to_owned())
}

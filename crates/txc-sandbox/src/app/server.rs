//! The server: a dedicated tokio runtime on its own thread, and listeners that accept HTTP/1
//! connections on it.
//!
//! Running on its own runtime is what makes [`crate::Sandbox::start`] work from plain code and
//! from inside any tokio runtime alike. A listener can be stopped hard (connections dropped,
//! for [`crate::Sandbox::stop_listener`]) or gracefully (idle connections closed, in-flight
//! answers finished within a grace period, for drop); either way the caller waits, with a
//! bound, until the socket is closed.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::mpsc;
use std::task::{Context, Poll};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::Router;
use hyper::service::Service as _;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinSet;

use crate::config::SandboxError;
use crate::routes::ConnectionControl;

/// How long in-flight answers may take to finish on a graceful stop.
const GRACE: Duration = Duration::from_secs(1);
/// The accept queue. std's `TcpListener::bind` asks for 128: 500 clients connecting at once
/// overflowed it, and the kernel's SYN-cookie fallback then reset some of the connections.
const BACKLOG: u32 = 1024;

/// How long a caller waits for a listener to report that it stopped.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// What a listener should be doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Accept and serve.
    Run,
    /// Stop accepting; let connections finish their current answer, close idle ones.
    Graceful,
    /// Stop accepting; drop every connection now.
    Kill,
}

/// The runtime thread.
#[derive(Debug)]
pub(crate) struct Runtime {
    handle: Handle,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Runtime {
    /// Starts a multi-thread runtime with 2 workers on a new thread.
    pub(crate) fn start() -> Result<Self, SandboxError> {
        let (ready_tx, ready_rx) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("txc-sandbox".to_owned())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name("txc-sandbox-worker")
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let (stop_tx, stop_rx) = oneshot::channel::<()>();
                if ready_tx
                    .send(Ok((runtime.handle().clone(), stop_tx)))
                    .is_err()
                {
                    return;
                }
                runtime.block_on(async {
                    let _ = stop_rx.await;
                });
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(SandboxError::Startup)?;
        match ready_rx.recv() {
            Ok(Ok((handle, stop))) => Ok(Self {
                handle,
                stop: Some(stop),
                thread: Some(thread),
            }),
            Ok(Err(e)) => {
                let _ = thread.join();
                Err(SandboxError::Startup(e))
            }
            Err(_) => {
                let _ = thread.join();
                Err(SandboxError::Startup(std::io::Error::other(
                    "the server thread exited during startup",
                )))
            }
        }
    }

    /// Runs `task` on the runtime until it ends or the runtime stops.
    pub(crate) fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        drop(self.handle.spawn(task));
    }

    /// Binds `addr` and serves `app` on it.
    pub(crate) fn listen(&self, addr: SocketAddr, app: Router) -> Result<Listener, SandboxError> {
        let bind_error = |source| SandboxError::Bind { addr, source };
        let listener = {
            let _entered = self.handle.enter();
            let socket = if addr.is_ipv4() {
                TcpSocket::new_v4()
            } else {
                TcpSocket::new_v6()
            }
            .map_err(bind_error)?;
            // What `std::net::TcpListener::bind` does, with a longer accept queue.
            socket.set_reuseaddr(true).map_err(bind_error)?;
            socket.bind(addr).map_err(bind_error)?;
            socket.listen(BACKLOG).map_err(bind_error)?
        };
        let local = listener.local_addr().map_err(bind_error)?;
        let (mode_tx, mode_rx) = watch::channel(Mode::Run);
        let (done_tx, done_rx) = mpsc::sync_channel(1);
        self.handle
            .spawn(accept_loop(listener, app, mode_rx, Done(done_tx)));
        Ok(Listener {
            addr: local,
            mode: mode_tx,
            done: done_rx,
        })
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A running listener.
#[derive(Debug)]
pub(crate) struct Listener {
    addr: SocketAddr,
    mode: watch::Sender<Mode>,
    done: mpsc::Receiver<()>,
}

impl Listener {
    /// The bound address.
    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops it (`Graceful` or `Kill`) and waits, with a bound, until the socket is closed.
    pub(crate) fn stop(self, mode: Mode) {
        let _ = self.mode.send(mode);
        let _ = self.done.recv_timeout(STOP_WAIT);
    }
}

/// Reports the end of an accept loop when dropped, however it ends.
struct Done(mpsc::SyncSender<()>);

impl Drop for Done {
    fn drop(&mut self) {
        let _ = self.0.try_send(());
    }
}

async fn accept_loop(
    listener: TcpListener,
    app: Router,
    mut mode: watch::Receiver<Mode>,
    done: Done,
) {
    let mut connections = JoinSet::new();
    let stop = loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    connections.spawn(serve_connection(stream, app.clone(), mode.clone()));
                }
                // Out of file descriptors and the like: wait instead of spinning.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
            changed = mode.changed() => {
                let now = if changed.is_ok() { *mode.borrow_and_update() } else { Mode::Kill };
                if now != Mode::Run {
                    break now;
                }
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    };
    drop(listener);
    let grace = if stop == Mode::Kill {
        Duration::from_millis(500)
    } else {
        GRACE
    };
    let _ = tokio::time::timeout(grace, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    connections.shutdown().await;
    drop(done);
}

async fn serve_connection(stream: TcpStream, app: Router, mut mode: watch::Receiver<Mode>) {
    let _ = stream.set_nodelay(true);
    let control = ConnectionControl::default();
    let io = Io {
        stream,
        reset: control.clone(),
    };
    let dropped = control.clone();
    // Every request carries its connection's switches, for `Fault::ResetMidBody` and
    // `Fault::DropAfterProcessing`.
    let app = TowerToHyperService::new(app);
    let service = hyper::service::service_fn(move |mut request| {
        request.extensions_mut().insert(control.clone());
        app.call(request)
    });
    // Half-closed connections (the client shut its write side after the request) still get
    // their answer, as from a reverse proxy; without this hyper may drop them unanswered.
    let connection = hyper::server::conn::http1::Builder::new()
        .half_close(true)
        .serve_connection(TokioIo::new(io), service)
        // `GET /ws` upgrades the connection to a WebSocket.
        .with_upgrades();
    tokio::pin!(connection);
    loop {
        let now = *mode.borrow_and_update();
        match now {
            Mode::Kill => return,
            Mode::Graceful => {
                connection.as_mut().graceful_shutdown();
                let _ = connection.as_mut().await;
                return;
            }
            Mode::Run => {}
        }
        tokio::select! {
            _ = connection.as_mut() => return,
            () = dropped.dropped() => return,
            changed = mode.changed() => if changed.is_err() {
                return;
            },
        }
    }
}

/// A connection's socket, which is reset rather than closed once its [`ConnectionControl`]'s
/// reset is armed.
struct Io {
    stream: TcpStream,
    reset: ConnectionControl,
}

impl Drop for Io {
    fn drop(&mut self) {
        if self.reset.armed() {
            // A zero linger makes closing send RST and never blocks (the deprecation is about
            // non-zero values, which block on close).
            #[allow(deprecated)]
            let _ = self.stream.set_linger(Some(Duration::ZERO));
        }
    }
}

impl AsyncRead for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.reset.armed() {
            // No FIN before the reset: the client must see the connection reset, not an end.
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}

//! [`SocketTrading`]: orders placed, modified and canceled over the authorized WebSocket — a
//! driver of `txc-core`'s [`SocketSession`] over tokio-tungstenite, resolving what a lost
//! answer leaves unknown over REST with the client's resolver.

use std::fmt;
use std::time::{Duration, SystemTime};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;
use txc_core::Error;
use txc_core::resolve::Found;
use txc_core::socket::{
    OnceStep, SessionConfig, SessionIo, Settled, SocketCallState, SocketPlaceOnce, SocketPlaced,
    SocketSession, finish_call,
};
use txc_core::stream::{StreamEvent, StreamInput};
use txc_types::events::WebSocketTokenQuery;
use txc_types::orders::{CancelAllOrders, CancelConditionalOrder, CancelOrder, ModifyOrder};
use txc_types::socket::{SocketAnswer, SocketRequest, ToSocket};

use crate::Client;
use crate::websocket::{Socket, connect, input_of};

/// The most steps [`SocketTrading::take_events`] takes reading what has arrived.
const IDLE_STEPS: usize = 256;

/// How long closing a socket may take before it is dropped.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

impl Client {
    /// A trading session over the WebSocket with the default settings: orders placed,
    /// modified and canceled as JSON-RPC calls on one authorized connection — the same typed
    /// orders as REST. It connects (fetching a token over REST, authorizing) at its first
    /// call. See [`SocketTrading`].
    pub fn socket_trading(&self) -> Result<SocketTrading, Error> {
        self.socket_trading_with(SessionConfig::default())
    }

    /// A trading session over the WebSocket with `config`: its URL, pacing, answer time-out,
    /// connect wait and the channels subscribed on its connection.
    pub fn socket_trading_with(&self, config: SessionConfig) -> Result<SocketTrading, Error> {
        let session = SocketSession::for_client(self.core(), config)?;
        Ok(SocketTrading {
            client: self.clone(),
            session,
            socket: None,
        })
    }
}

/// Orders over the exchange's authorized WebSocket: the typed orders REST places — a user
/// switches with one call, `client.collateral_limit_order(&order).await` to
/// `session.place(&order).await` — answered by request id while pushes interleave on the
/// connection.
///
/// **What it is for:** lower placement latency on one long-lived connection, for the
/// collateral placements (limit, market, stop-limit, stop-market, BBO, stop-BBO, OCO, an order
/// with stop-loss/take-profit — the socket's OTO — and TPSL on a position), `order_modify` and
/// the three cancels. **What it is not for:** look-ups (use REST), spot orders, or a
/// stream of events you must not miss (use [`Client::events`], which resyncs after every
/// reconnection; this session's pushes — its configured subscriptions — are kept for
/// [`take_events`](Self::take_events) without a resync).
///
/// **Exactly once.** A placement with a `client_order_id` is journaled (the client's
/// [`Journal`](crate::outcomes::Journal), its pending records) **before** its frame is written.
/// A frame written whose answer does not come within the answer time-out, or whose connection
/// drops, is [`Error::OutcomeUnknown`] with the [`PendingOrder`](crate::outcomes::PendingOrder)
/// [`Client::resolve`] takes — the same resolver as REST (events, then look-ups). It is never
/// sent again by itself: [`place_once`](Self::place_once) resolves, and resends only what was
/// proven not placed; `43` answering a resend is evidence the first send placed it.
///
/// **Checked like REST.** Before its frame is journaled or written, an order is checked
/// against its market's published rules and its position side against the account's mode —
/// REST's checks, by the same code (txc-core's `ClientCore::socket_checks`), reading the rules
/// or the mode over REST first when not known: a refusal is the same
/// [`Error::InvalidRequest`] as over REST, nothing sent.
///
/// **Pacing.** The session keeps to the socket's documented limits
/// ([`SocketLimits`](txc_core::socket::SocketLimits)): a call over budget **waits** for a slot
/// up to the session's pacing wait ([`SessionConfig::pacing_wait`], 10 s by default; zero
/// fails at once), then fails with
/// [`SocketError::Paced`](txc_core::socket::SocketError::Paced), nothing sent.
///
/// **Errors.** Refusals by the socket's own numbering are
/// [`Error::Socket`] with a [`SocketError`](txc_core::socket::SocketError) (its
/// [`SocketRefusal`](txc_types::socket::SocketRefusal)); an unknown outcome of an order with a
/// `client_order_id` is [`Error::OutcomeUnknown`] (its cause the socket error); one of a
/// call without (a cancel, a TPSL pair) is [`Error::Socket`] with
/// [`SocketError::Unknown`](txc_core::socket::SocketError::Unknown).
///
/// Calls run one at a time (`&mut self`), on the caller's task: nothing is spawned, and
/// between calls nothing is read (pings are sent while a call runs). A future dropped
/// mid-call leaves its order's record unresolved (the client's `pending_orders`).
pub struct SocketTrading {
    client: Client,
    session: SocketSession,
    socket: Option<Socket>,
}

impl SocketTrading {
    /// Places `order` — any typed collateral order with a socket twin, an order with
    /// stop-loss/take-profit (sent as the socket's OTO), an OCO pair, or a
    /// [`CollateralTpslOrder`](txc_types::socket::CollateralTpslOrder) — over the socket,
    /// once: never resent after an unknown outcome ([`Error::OutcomeUnknown`]; resolve it with
    /// [`Client::resolve`], or use [`place_once`](Self::place_once)). What the socket does not
    /// take of the order is refused before anything is sent.
    pub async fn place<O: ToSocket + ?Sized>(&mut self, order: &O) -> Result<SocketAnswer, Error> {
        self.call(order).await
    }

    /// Places `order` exactly once over the socket: an unknown outcome is resolved (events,
    /// then look-ups over REST) and the order sent again only when proven not placed; an
    /// unresolved record of its `client_order_id` — of this process, or of an earlier one read
    /// from the journal — is resolved first. See
    /// [`SocketPlaceOnce`](txc_core::socket::SocketPlaceOnce) for the rule.
    pub async fn place_once<O: ToSocket + ?Sized>(
        &mut self,
        order: &O,
    ) -> Result<Found<SocketPlaced>, Error> {
        let client = self.client.clone();
        let request = order.to_socket()?;
        self.check(order, &request).await?;
        let mut once = SocketPlaceOnce::new(client.core(), request)?;
        loop {
            match once.step() {
                OnceStep::Send(mut call) => {
                    let result = self.run(&mut call).await;
                    once.sent(call, result);
                }
                OnceStep::Resolve(resolver) => {
                    let result = client.drive(*resolver).await;
                    once.resolved(result);
                }
                OnceStep::Done(result) => return result,
                _ => {
                    return Err(Error::invalid_config(
                        "place_once",
                        "a step this version does not know",
                    ));
                }
            }
        }
    }

    /// Replaces a resting order's amount, price or trigger (`order_modify`): the answer is the
    /// replacement, with a new id. Never resent after an unknown outcome.
    pub async fn order_modify(&mut self, modify: &ModifyOrder) -> Result<SocketAnswer, Error> {
        self.call(modify).await
    }

    /// Cancels one order (`order_cancel`); one not found is
    /// [`SocketRefusal::OrderNotFound`](txc_types::socket::SocketRefusal::OrderNotFound).
    pub async fn order_cancel(&mut self, cancel: &CancelOrder) -> Result<SocketAnswer, Error> {
        self.call(cancel).await
    }

    /// Cancels an OCO or OTO group by its id (`order_cancel_conditional`).
    pub async fn order_cancel_conditional(
        &mut self,
        cancel: &CancelConditionalOrder,
    ) -> Result<SocketAnswer, Error> {
        self.call(cancel).await
    }

    /// Cancels every order of the given kinds on one market (`order_cancel_all`; the socket
    /// needs the market).
    pub async fn order_cancel_all(
        &mut self,
        cancel: &CancelAllOrders,
    ) -> Result<SocketAnswer, Error> {
        self.call(cancel).await
    }

    /// The pushes received on the session's connection (its subscriptions' updates, and its
    /// subscriptions, disconnections and errors), oldest first, taken out — after reading
    /// what has already arrived (and doing the connection's own work: pings) without
    /// waiting.
    pub async fn take_events(&mut self) -> Vec<StreamEvent> {
        self.idle().await;
        self.session.take_events()
    }

    /// Does the connection's own work and reads what has already arrived, without waiting
    /// for more (a bounded number of steps).
    async fn idle(&mut self) {
        for _ in 0..IDLE_STEPS {
            match self.session.idle(SystemTime::now()) {
                SessionIo::Wait(_) => {
                    if !self.read_ready().await {
                        return;
                    }
                }
                SessionIo::Write(text, id) => self.write(text, id).await,
                SessionIo::Done(()) => return,
                // Connecting, a token, closing: for a call to do, not an idle read.
                _ => return,
            }
        }
    }

    /// Answers that came after their call had timed out, taken out: evidence of what the
    /// call did (resolving does not need them).
    pub fn take_late(&mut self) -> Vec<Settled> {
        self.session.take_late()
    }

    /// Whether the connection is up and authorized.
    pub fn is_established(&self) -> bool {
        self.session.is_established()
    }

    /// The WebSocket URL.
    pub fn url(&self) -> &str {
        self.session.url()
    }

    /// Closes the connection; the session cannot be used after.
    pub async fn close(mut self) {
        self.session.stop();
        if let Some(mut socket) = self.socket.take() {
            let _ = tokio::time::timeout(CLOSE_WAIT, socket.close(None)).await;
        }
    }

    /// One standalone call of `request`, read for its caller.
    async fn call<O: ToSocket + ?Sized>(&mut self, request: &O) -> Result<SocketAnswer, Error> {
        let socket = request.to_socket()?;
        self.check(request, &socket).await?;
        let mut call = SocketCallState::new(socket);
        let result = self.run(&mut call).await;
        finish_call(self.client.core(), &call, result)
    }

    /// The checks REST makes before sending the same order (its market's rules, its position
    /// side against the account's mode; read over REST first if not known): a refusal is the
    /// same typed error as REST's, and nothing is journaled or written.
    async fn check<O: ToSocket + ?Sized>(
        &self,
        order: &O,
        request: &SocketRequest,
    ) -> Result<(), Error> {
        match self.client.core().socket_checks(order.pre_send(), request) {
            Some(checks) => self.client.drive(checks).await,
            None => Ok(()),
        }
    }

    /// Drives `call` through the session to its end.
    async fn run(&mut self, call: &mut SocketCallState) -> Result<Settled, Error> {
        loop {
            let now = SystemTime::now();
            match self.session.step(self.client.core(), call, now) {
                SessionIo::Connect => {
                    let timeout = self.session.config().stream.connect_timeout();
                    let url = self.session.url().to_owned();
                    let tls = self.client.tls().clone();
                    let opened = tokio::time::timeout(timeout, connect(url.clone(), tls)).await;
                    let input = match opened {
                        Ok(Ok(socket)) => {
                            self.socket = Some(socket);
                            StreamInput::Connected
                        }
                        Ok(Err(e)) => StreamInput::connect_failed(&url, e),
                        Err(_) => StreamInput::connect_failed(&url, "the connection timed out"),
                    };
                    self.session.handle(SystemTime::now(), input);
                }
                SessionIo::NeedToken => {
                    let input = match self.client.send(&WebSocketTokenQuery).await {
                        Ok(token) => StreamInput::Token(token),
                        Err(e) => StreamInput::TokenFailed(e),
                    };
                    self.session.handle(SystemTime::now(), input);
                }
                SessionIo::Write(text, id) => self.write(text, id).await,
                SessionIo::Close => {
                    if let Some(mut socket) = self.socket.take() {
                        let _ = tokio::time::timeout(CLOSE_WAIT, socket.close(None)).await;
                    }
                }
                SessionIo::Wait(delay) => self.wait(delay).await,
                SessionIo::Done(result) => return result,
                _ => tokio::task::yield_now().await,
            }
        }
    }

    /// Writes a frame; a failed write loses the connection (a frame that may have gone out is
    /// then unknown).
    async fn write(&mut self, text: String, id: Option<u64>) {
        let Some(socket) = self.socket.as_mut() else {
            self.lost("no connection to write on".to_owned());
            return;
        };
        match socket.send(Message::text(text)).await {
            Ok(()) => {
                if let Some(id) = id {
                    self.session.written(id, SystemTime::now());
                }
            }
            Err(e) => self.lost(e.to_string()),
        }
    }

    /// Waits up to `delay` for a frame and hands it (or the socket's end) to the session.
    async fn wait(&mut self, delay: Duration) {
        let delay = delay.max(Duration::from_millis(1));
        let Some(socket) = self.socket.as_mut() else {
            tokio::time::sleep(delay).await;
            return;
        };
        let Ok(frame) = tokio::time::timeout(delay, socket.next()).await else {
            return;
        };
        match input_of(frame) {
            Some(StreamInput::Closed { reason, .. }) => self.lost(reason),
            Some(input) => self.session.handle(SystemTime::now(), input),
            None => {}
        }
    }

    /// Reads a frame if one has arrived (waiting a millisecond at most): whether one did.
    async fn read_ready(&mut self) -> bool {
        let Some(socket) = self.socket.as_mut() else {
            return false;
        };
        let Ok(frame) = tokio::time::timeout(Duration::from_millis(1), socket.next()).await else {
            return false;
        };
        match input_of(frame) {
            Some(StreamInput::Closed { reason, .. }) => {
                self.lost(reason);
                false
            }
            Some(input) => {
                self.session.handle(SystemTime::now(), input);
                true
            }
            None => true,
        }
    }

    /// The socket is gone: tell the session.
    fn lost(&mut self, reason: String) {
        self.socket = None;
        self.session.handle(
            SystemTime::now(),
            StreamInput::Closed { code: None, reason },
        );
    }
}

impl fmt::Debug for SocketTrading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SocketTrading")
            .field("url", &self.session.url())
            .field("established", &self.session.is_established())
            .finish_non_exhaustive()
    }
}

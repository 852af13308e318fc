//! The private WebSocket at `GET /ws`, written from the exchange's AsyncAPI files and guide:
//! JSON-RPC requests `{"id", "method", "params"}` answered `{"id", "result", "error"}`;
//! `authorize` with a token from `POST /api/v4/profile/websocket_token` and `"public"`; `ping`
//! answered `"pong"`; the private channels' `_subscribe`/`_unsubscribe`, and their `_update`s
//! fed by the sandbox's own changes ([`Feed`]: the order store's `add`/`update`, fills,
//! balance changes).
//!
//! | what | the sandbox does | source |
//! |---|---|---|
//! | idle connection | closed (code 1000, `idle`) when nothing arrived for 60 s ([`SandboxBuilder::ws_idle_timeout`](crate::SandboxBuilder::ws_idle_timeout)) | guide: "Inactivity timeout 60 seconds" |
//! | requests per connection | more than 200 in any minute closes it (code 1008) ([`SandboxBuilder::ws_requests_per_minute`](crate::SandboxBuilder::ws_requests_per_minute)) | AsyncAPI `x-rate-limits`; what happens past it is not documented (sandbox's choice) |
//! | errors | code 1 `invalid argument` (bad params, unknown market or method), code 6 `require authentication` (a private channel before `authorize`), code 6 `authorization failed` (an unknown token) | the guide's one example is code 1; the others are the sandbox's choice |
//! | `ordersPending` | event 1 for a resting (trigger) order, 3 when it fills or is canceled; an order that fills at once sends only 3 | AsyncAPI `orders_pending.yaml` |
//! | `ordersExecuted` | each filled order of the markets (filter 1, limit orders only, gets none: the sandbox has none) | `orders_executed.yaml` |
//! | `deals` | one deal per fill, as taker | `deals.yaml` |
//! | `balanceMargin` | the subscribed assets' balances when they change (no snapshot on subscribing: "query first, then subscribe") | `balance_margin.yaml`, guide |
//! | `positionsMargin` | every open position on subscribing and after every change (not every second) | `positions.yaml` |
//! | `positionsAccountMargin` | accepted, never fed: the sandbox has no liquidation | `margin_positions_events.yaml` |
//!
//! Faults ([`WsFault`], [`crate::Sandbox::ws_fault`]): drop every connection, stall them,
//! refuse the next `authorize`s, send an unknown event, send malformed frames. A refused token
//! is a fault of the token route ([`crate::Route::WebSocketToken`]).

mod connection;
mod feed;
mod records;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::State as Extract;
use axum::extract::ws::WebSocketUpgrade;
use axum::response::Response;
use tokio::sync::broadcast;

pub(crate) use feed::{Change, Feed, OrderChange};

use crate::app::Shared;

/// A failure to inject into the WebSocket's open connections.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WsFault {
    /// Every open connection is dropped at once, without a close frame.
    Drop,
    /// Every open connection stops reading and writing for this long (its requests wait,
    /// unanswered, and so do the updates).
    Stall(Duration),
    /// The next this many `authorize` requests are refused (an expired or invalid token).
    RefuseAuthorize(u32),
    /// Every authorized connection is sent an update of a method the exchange does not
    /// document (`sandbox_unknown_update`).
    UnknownEvent,
    /// Every open connection is sent frames that are not JSON-RPC messages: text that is not
    /// JSON, JSON that is not an object, an id that is not an integer, a binary frame that is
    /// not UTF-8, and an update of a known channel whose parameters do not fit its record.
    MalformedFrames,
}

/// A fault sent to every connection.
#[derive(Debug, Clone)]
pub(crate) enum Command {
    Drop,
    Stall(Duration),
    UnknownEvent,
    MalformedFrames,
}

/// What the WebSocket's connections share: the change feed, the faults, the count of open
/// connections.
#[derive(Debug)]
pub(crate) struct WsHub {
    pub(crate) feed: Feed,
    commands: broadcast::Sender<Command>,
    refuse_authorize: AtomicU32,
    connections: AtomicUsize,
}

impl Default for WsHub {
    fn default() -> Self {
        Self {
            feed: Feed::default(),
            commands: broadcast::channel(64).0,
            refuse_authorize: AtomicU32::new(0),
            connections: AtomicUsize::new(0),
        }
    }
}

impl WsHub {
    /// Injects `fault`.
    pub(crate) fn inject(&self, fault: WsFault) {
        let command = match fault {
            WsFault::RefuseAuthorize(times) => {
                self.refuse_authorize.store(times, Ordering::SeqCst);
                return;
            }
            WsFault::Drop => Command::Drop,
            WsFault::Stall(d) => Command::Stall(d),
            WsFault::UnknownEvent => Command::UnknownEvent,
            WsFault::MalformedFrames => Command::MalformedFrames,
        };
        let _ = self.commands.send(command);
    }

    /// How many connections are open.
    pub(crate) fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// Whether this `authorize` is to be refused (and one fewer after it).
    fn take_refusal(&self) -> bool {
        self.refuse_authorize
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// `GET /ws`: upgrades to a WebSocket and serves it.
pub(crate) async fn handler(
    Extract(shared): Extract<Arc<Shared>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade.on_upgrade(move |socket| connection::serve(socket, shared))
}

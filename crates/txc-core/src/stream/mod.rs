//! The exchange's private WebSocket stream, sans-IO: [`StreamMachine`] speaks the protocol
//! (authorize with a token, subscribe channels, ping, match answers to requests, stay within
//! the per-connection request limit, reconnect with backoff and resubscribe) and tells its
//! driver what to do as [`StreamStep`]s and its consumer what happened as [`StreamEvent`]s.
//!
//! **What it is for:** the part of a WebSocket client that decides — the same for any socket
//! library and any runtime, and testable with the time passed in.
//!
//! **What it is not for:** sockets, timers or HTTP. A driver opens the connection, fetches
//! the token over REST (`POST /api/v4/profile/websocket_token`, [`txc_types::events::WebSocketTokenQuery`]),
//! writes and reads frames, and sleeps as told. Channel updates come decoded into their records
//! ([`StreamEvent::Account`], `txc-types`' [`AccountEvent`](txc_types::events::AccountEvent),
//! routed in one place by channel), or as an [`Update`] keeping the parameters as sent with the
//! error when they do not decode.
//!
//! **Resync**: after every establishment a driver reads the state again over REST with a
//! [`Resyncer`] — it keeps what the consumer was told about orders, says which look-ups are
//! due ([`ResyncPlan`], run by [`ResyncLookups`], a [`Machine`](crate::Machine) any transport
//! drives) and turns what they found into [`ResyncChange`]s ([`StreamEvent::Resynced`], then
//! [`StreamEvent::ResyncDone`]). `txc-async`'s `EventStream` and `txc-blocking`'s `EventIter`
//! are such drivers, each started by the one [`StreamBuilder`] over its client
//! ([`StreamClient`]).
//!
//! What the exchange documents, and this module follows: one endpoint `wss://…/ws` (for
//! `whitebit.com` the current host `wss.whitebit.com`: [`websocket_url`]), JSON-RPC
//! messages `{"id", "method", "params"}` answered by `{"id", "result", "error"}` (`error`
//! `{"code", "message"}` or `null`) and updates `{"id": null, "method": "<stem>_update",
//! "params"}`; `authorize` with `[token, "public"]`; `ping` with `[]`, answered `"pong"`; the
//! server closes a connection idle for 60 s; 200 requests per minute per connection; after a
//! drop, reconnect with growing delays, authorize with a fresh token, resubscribe every
//! channel (the server forgets them), then read the state again.
//!
//! The machine and the builder ([`StreamMachine`], [`StreamBuilder`]) need the `events`
//! feature (on by default; the transports' `events` turn it on): a REST-only client compiles
//! neither, nor the reconnect jitter's generator. The rest of this module — the events,
//! subscriptions, resync and the [`OrderSightings`] that settle unknown orders — is always
//! there.

// Without `events`, the machine's own helpers (the request budget, reading frames and
// updates, checking a configuration) have no caller: compiled, not used.
#[cfg(feature = "events")]
mod budget;
#[cfg(feature = "events")]
mod builder;
mod channel;
#[cfg_attr(not(feature = "events"), allow(dead_code))]
mod config;
mod config_error;
#[cfg_attr(not(feature = "events"), allow(dead_code))]
mod error;
mod event;
#[cfg_attr(not(feature = "events"), allow(dead_code))]
mod frame;
#[cfg(feature = "events")]
mod machine;
mod resync;
mod sightings;
#[cfg_attr(not(feature = "events"), allow(dead_code))]
mod update;
mod url;

#[cfg(feature = "events")]
#[cfg_attr(docsrs, doc(cfg(feature = "events")))]
pub use builder::{OpenedStream, StreamBuilder, StreamClient};
pub use channel::{Channel, ExecutedFilter, Subscription};
pub use config::{
    Backoff, DEFAULT_ANSWER_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_AUTHORIZE_REFUSALS,
    DEFAULT_MAX_HELD_EVENTS, DEFAULT_PING_INTERVAL, DEFAULT_REQUESTS_PER_MINUTE, MAX_PING_INTERVAL,
    REQUESTS_PER_MINUTE_LIMIT, SERVER_IDLE_TIMEOUT, StreamConfig, jitter_seed,
};
pub use config_error::StreamConfigError;
pub use error::{RpcError, StreamError};
pub use event::{Disconnect, DisconnectReason, Resync, StopReason, StreamEvent};
pub use frame::OutgoingFrame;
#[cfg(feature = "events")]
#[cfg_attr(docsrs, doc(cfg(feature = "events")))]
pub use machine::{StreamInput, StreamMachine, StreamStep};
pub use resync::{
    MAX_PAGES, RESYNC_OVERLAP, ResyncChange, ResyncFindings, ResyncLookups, ResyncPlan,
    ResyncReport, Resyncer,
};
pub use sightings::{OrderSightings, Seen, Sighting, SightingWatch};
pub use update::{UnknownMessage, Update};
pub use url::{CURRENT_HOST, HostDeprecation, host_deprecation, websocket_url};

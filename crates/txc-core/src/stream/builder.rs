//! [`StreamBuilder`]: what an event stream is opened with — its subscriptions, timings, URL and
//! sightings registry — written once for every transport. A transport's client says how to run
//! the stream ([`StreamClient`]): `txc-async`'s `EventStreamBuilder` and `txc-blocking`'s
//! `EventIterBuilder` are this builder over their clients.

use std::fmt;

use super::{
    OrderSightings, StreamConfig, StreamConfigError, StreamMachine, Subscription, jitter_seed,
    websocket_url,
};
use crate::ClientCore;

/// A client that runs event streams: its core (the stream's default URL and sightings come
/// from it) and how it starts a stream's driver once the builder made the stream's machine.
/// Each transport's `Client` is one.
pub trait StreamClient: Sized {
    /// The running stream: `txc-async`'s `EventStream`, `txc-blocking`'s `EventIter`.
    type Stream;

    /// The client's core.
    fn core(&self) -> &ClientCore;

    /// Starts driving `stream`: its machine, the URL to connect to and the registry to publish
    /// what it sees to.
    fn start_stream(self, stream: OpenedStream) -> Self::Stream;
}

/// A stream's settings, checked: the machine to drive, the URL to connect to and the registry
/// to publish sightings to.
#[derive(Debug)]
#[non_exhaustive]
pub struct OpenedStream {
    /// The protocol machine, with the builder's configuration and subscriptions.
    pub machine: StreamMachine,
    /// The WebSocket URL to connect to.
    pub url: String,
    /// Where the stream publishes the orders it sees.
    pub sightings: OrderSightings,
}

/// Configures an event stream of a client's key; the client's `events` starts one.
///
/// | setting | default |
/// |---|---|
/// | [`config`](Self::config) | [`StreamConfig::default`] |
/// | [`url`](Self::url) | the client's base URL's WebSocket |
/// | [`sightings`](Self::sightings) | the client's own registry |
#[must_use = "call .start() to open the stream"]
pub struct StreamBuilder<C> {
    client: C,
    subscriptions: Vec<Subscription>,
    config: StreamConfig,
    url: Option<String>,
    sightings: OrderSightings,
}

impl<C: StreamClient> StreamBuilder<C> {
    /// A stream of `client`'s key with `subscriptions` (one per channel): its URL the WebSocket
    /// of the client's base URL, its sightings published to the client's own registry.
    pub fn new(client: C, subscriptions: impl IntoIterator<Item = Subscription>) -> Self {
        let sightings = client.core().order_sightings().clone();
        Self {
            client,
            subscriptions: subscriptions.into_iter().collect(),
            config: StreamConfig::default(),
            url: None,
            sightings,
        }
    }

    /// The timings and limits (ping interval, answer and connect timeouts, request budget,
    /// reconnect delays); the defaults follow the exchange's guide.
    pub fn config(mut self, config: StreamConfig) -> Self {
        self.config = config;
        self
    }

    /// Where to connect; by default the client's base URL's WebSocket
    /// ([`websocket_url`](super::websocket_url): `wss://wss.whitebit.com/ws` for
    /// `https://whitebit.com`).
    pub fn url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// Publishes every event to `sightings`, where a resolver waits for the order carrying its
    /// `clientOrderId` ([`OrderSightings::expect`]), instead of to the client's own registry
    /// (by default: so the client's `resolve` and `place_once` settle an order at its event
    /// while the stream runs). Give a client the same registry with its `order_sightings`
    /// setting to link a stream to a client other than its own.
    pub fn sightings(mut self, sightings: OrderSightings) -> Self {
        self.sightings = sightings;
        self
    }

    /// Checks the configuration, makes the stream's machine (its reconnect jitter seeded from
    /// the clock) and starts the client's driver of it — `txc-blocking`'s connects at the
    /// first `next`, `txc-async`'s at once on the current tokio runtime.
    pub fn start(self) -> Result<C::Stream, StreamConfigError> {
        let url = match self.url {
            Some(url) => url,
            None => websocket_url(self.client.core().signer().base_url())?,
        };
        let machine = StreamMachine::new(self.config, self.subscriptions, jitter_seed())?;
        Ok(self.client.start_stream(OpenedStream {
            machine,
            url,
            sightings: self.sightings,
        }))
    }
}

impl<C: fmt::Debug> fmt::Debug for StreamBuilder<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamBuilder")
            .field("client", &self.client)
            .field("subscriptions", &self.subscriptions)
            .field("config", &self.config)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

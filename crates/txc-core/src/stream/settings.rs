//! [`StreamSettings`]: what an event stream is opened with — its subscriptions, timings, URL
//! and sightings registry — the one value both transports' stream builders wrap. Its setters
//! are declared once, in [`stream_settings!`](crate::stream_settings), and written out by the
//! same macros as a client's settings (see `settings.rs`): here as [`StreamSettings`]'
//! own, in each transport as its builder's, handing each call on to the settings it holds.

use crate::ClientCore;

use super::{
    OrderSightings, StreamConfig, StreamConfigError, StreamMachine, Subscription, jitter_seed,
    websocket_url,
};

/// Hands the list of a stream builder's settings to `$then` (a settings macro of this crate's
/// `settings.rs`), in the form [`client_settings!`](crate::client_settings) gives.
#[doc(hidden)]
#[macro_export]
macro_rules! stream_settings {
    ($then:ident) => {
        $crate::$then! {
            /// The timings and limits (ping interval, answer and connect timeouts, request budget,
            /// reconnect delays); the defaults follow the exchange's guide.
            config(config: $crate::stream::StreamConfig)
                default "[`StreamConfig::default`](txc_core::stream::StreamConfig::default)"
                |settings| { settings.config = config; }

            /// Where to connect; by default the client's base URL's WebSocket
            /// ([`websocket_url`](txc_core::stream::websocket_url): `wss://wss.whitebit.com/ws` for
            /// `https://whitebit.com`).
            url(url: impl ::std::convert::Into<::std::string::String>)
                default "the client's base URL's WebSocket"
                |settings| { settings.url = Some(url.into()); }

            /// Publishes every event to `sightings`, where a resolver waits for the order carrying
            /// its `clientOrderId`
            /// ([`OrderSightings::expect`](txc_core::stream::OrderSightings::expect)), instead of
            /// to the client's own registry (by default: so the client's `resolve` and
            /// `place_once` settle an order at its event while the stream runs). Give a client the
            /// same registry with its `order_sightings` setting to link a stream to a client other
            /// than its own.
            sightings(sightings: $crate::stream::OrderSightings)
                default "the client's own registry"
                |settings| { settings.sightings = sightings; }
        }
    };
}

/// What an event stream is opened with: the subscriptions (one per channel), the
/// [`StreamConfig`], where to connect and the [`OrderSightings`] registry its events go to.
/// `txc-async`'s `EventStreamBuilder` and `txc-blocking`'s `EventIterBuilder` each hold one
/// and hand their setters on to it; [`open`](Self::open) checks it and makes the stream's
/// machine.
#[derive(Debug, Clone)]
pub struct StreamSettings {
    subscriptions: Vec<Subscription>,
    config: StreamConfig,
    url: Option<String>,
    sightings: OrderSightings,
    base_url: String,
}

/// A stream's settings, checked: the machine to drive, the URL to connect to and the registry
/// to publish sightings to.
#[derive(Debug)]
#[non_exhaustive]
pub struct OpenedStream {
    /// The protocol machine, with the settings' configuration and subscriptions.
    pub machine: StreamMachine,
    /// The WebSocket URL to connect to.
    pub url: String,
    /// Where the stream publishes the orders it sees.
    pub sightings: OrderSightings,
}

impl StreamSettings {
    /// The default settings of a stream of `client`'s key with `subscriptions`: its URL the
    /// WebSocket of the client's base URL, its sightings published to the client's own
    /// registry.
    pub fn new(client: &ClientCore, subscriptions: impl IntoIterator<Item = Subscription>) -> Self {
        Self {
            subscriptions: subscriptions.into_iter().collect(),
            config: StreamConfig::default(),
            url: None,
            sightings: client.order_sightings().clone(),
            base_url: client.signer().base_url().to_owned(),
        }
    }

    crate::stream_settings!(__define_settings);

    /// Checks the configuration and makes the stream's machine (its reconnect jitter seeded
    /// from the clock).
    pub fn open(self) -> Result<OpenedStream, StreamConfigError> {
        let url = match self.url {
            Some(url) => url,
            None => websocket_url(&self.base_url)?,
        };
        let machine = StreamMachine::new(self.config, self.subscriptions, jitter_seed())?;
        Ok(OpenedStream {
            machine,
            url,
            sightings: self.sightings,
        })
    }
}

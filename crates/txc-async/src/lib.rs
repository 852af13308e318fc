//! An async client for WhiteBIT's private v4 collateral-trading and smart-investment API, over
//! [reqwest](https://docs.rs/reqwest) on tokio: collateral market and trigger market orders, the open
//! orders, the order history, cancel, smart investments — and resolving every order (and
//! investment) whose outcome is unknown.
//!
//! | module | what is there |
//! |---|---|
//! | the crate root | [`Client`], [`ClientBuilder`], [`Credentials`], [`Error`] — and [`reqwest`], the HTTP crate [`ClientBuilder::http`] takes |
//! | [`orders`] | placing and canceling orders: the requests, their builder, the [`Order`](orders::Order) answered, [`Side`](orders::Side) and the other order enums |
//! | [`lookups`] | finding orders: the open orders and the order history; the executed deals ([`Client::executed_history`]) and one order's deals ([`Client::order_deals`]) |
//! | [`positions`] | the collateral account: balances, summary, open positions and their history, closing a position, leverage, hedge mode; its reports — closed positions' PnL ([`Client::closed_pnl`]), funding ([`Client::funding_history`]), ADL quantiles ([`Client::adl_quantile`]) |
//! | [`investments`] | smart investments (B2B partners): plans, investing — checked against the plan, exactly once with `invest_once` —, the investments, closing one, interest payments; and [`flex`](investments::flex) lending for every account: plans, investing and withdrawing (exactly once with `flex_invest_once`, `flex_withdraw_once`), closing, auto-reinvestment, the investments and histories |
//! | [`events`] | the private event stream: orders, executions, deals, balances and positions as they happen, recovered after every disconnection |
//! | [`socket`] | trading over the WebSocket: [`SocketTrading`](socket::SocketTrading) (from [`Client::socket_trading`]) places, modifies and cancels the same typed orders on one authorized connection, exactly once with `place_once`; TPSL on a position |
//! | [`values`] | markets, amounts, prices, order ids, tickers, exact decimals, timestamps |
//! | [`time`] | the exchange's clock |
//! | [`outcomes`] | an order, a close or an investment whose outcome is unknown, what resolving it found and what proved it |
//! | [`paging`] | reading a whole paged list: [`Client::pages`], an async stream of pages |
//! | [`guards`] | the [`KillSwitch`](guards::KillSwitch) guard that keeps a market's kill-switch timer armed |
//! | [`settings`] | what the builder takes beyond its defaults: retries, rate limits, fleets, clocks, nonces, the position-mode check |
//! | [`errors`] | the parts of an [`Error`]: API, transport, decode and validation errors |
//! | [`endpoint`] | for [`Client::send`] and dry runs: the [`Endpoint`](endpoint::Endpoint) trait, signed requests |
//!
//! The first seven are `txc-types`' modules, cut by what a trader looks for, one operation's
//! request and answer in one module; the client adds its own outcomes, guards, settings and
//! errors. Every
//! module lists its items one by one; txc-blocking has the same modules with the same items.
//!
//! **What it is for:** async programs on a tokio runtime (with its time driver) — services and
//! bots placing orders from many tasks at once: clients are cheap to clone, futures are `Send`.
//!
//! **What it is not for:** programs without tokio (use `txc-blocking`: the same methods,
//! blocking, and no tokio), or WhiteBIT endpoints beyond the ones above. It holds no logic of
//! its own: signing, nonces, decoding, retries and reconciliation are `txc-core`'s state
//! machines, shared with `txc-blocking`; this crate moves bytes, keeps time, sleeps and caps the
//! response's size.
//!
//! # Placing an order
//!
//! ```
//! use txc_async::{Client, Credentials};
//! use txc_async::orders::{CollateralMarketOrder, Side};
//! use txc_sandbox::{demo, Sandbox};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start()?; // a WhiteBIT-compatible exchange on 127.0.0.1
//! let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//! let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
//!
//! let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
//!     .stop_loss("50000") // every field is checked here, before anything is sent
//!     .build()?;
//! let placed = client.collateral_market_order(&order).await?;
//! assert_eq!(placed.market, "BTC_USDT");
//! assert_eq!(placed.deal_money.as_str(), "650"); // exact decimals, as the exchange wrote them
//! // The id is the order's from the moment it is built (generated, since none was given).
//! assert_eq!(placed.client_order_id.as_ref(), Some(order.fields().client_order_id()));
//! # Ok(())
//! # }
//! ```
//!
//! # When an order's outcome is unknown
//!
//! A timeout after sending, a reset connection, a 5xx — whatever its body says — or a 2xx that
//! is not an order: the order may have been placed. The client never sends it again by itself;
//! the error is [`Error::OutcomeUnknown`], carrying the [`PendingOrder`](outcomes::PendingOrder)
//! (market, `clientOrderId`, each attempt's nonce and time) — which the client also keeps
//! ([`Client::pending_orders`]) from before the first byte is sent, so a dropped future or a
//! crash (with a [`Journal`](outcomes::Journal)) loses nothing. [`Client::resolve`] finds out
//! from proof, and every answer says what proved it ([`Evidence`](outcomes::Evidence)):
//! [`Resolution::Placed`](outcomes::Resolution::Placed) only for a record with the id created
//! inside the attempts' acceptance window on the exchange's clock;
//! [`Resolution::NotPlaced`](outcomes::Resolution::NotPlaced) only when two rounds of look-ups
//! (open orders, history, and the conditional orders for trigger orders), made after the window
//! and the settling delay, found nothing; [`Resolution::CannotTell`](outcomes::Resolution::CannotTell)
//! for a B2B account, whose canceled orders the history omits; anything else unknown, with the
//! reason. [`Client::place_once`] does all of it. The rule, and what it assumes:
//! [`Resolve`](outcomes::Resolve).
//!
//! ```
//! use txc_async::{Client, Credentials, Error};
//! use txc_async::orders::{CollateralMarketOrder, Side};
//! use txc_async::outcomes::Resolution;
//! use txc_sandbox::{demo, Fault, Route, Sandbox};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start()?;
//! let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//! let client = Client::builder(credentials)
//!     .base_url(sandbox.base_url())
//!     // The sandbox shares this host's clock and shows orders at once: no need to wait out
//!     // a real exchange's window (this gives up the guarantee; never against the exchange).
//!     .unproven_settle_delay(std::time::Duration::from_millis(100))
//!     .build()?;
//! // The order executes; the connection breaks before the response arrives.
//! sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
//! let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
//! let err = client.collateral_market_order(&order).await.unwrap_err();
//! assert!(err.outcome_unknown() && !err.is_retryable());
//! let pending = err.pending_order().unwrap();
//! assert!(matches!(client.resolve(pending).await?, Resolution::Placed(_)));
//! # Ok(())
//! # }
//! ```
//!
//! # Pacing, clocks and fleets
//!
//! Every client paces itself per endpoint within the exchange's documented limits, sharing the
//! allowance with every client of its key in the process; with no slot free it waits (up to
//! 10 s by default) or fails with [`Error::Throttled`] ([`RatePolicy::FailFast`](settings::RatePolicy::FailFast)), nothing
//! sent; each wait is told to an `on_rate_wait` observer first
//! ([`RateWait`](settings::RateWait)). [`Client::server_time`] reads the exchange's clock; [`Client::sync_clock`] corrects
//! window nonces when [`ApiError::clock_skew`](errors::ApiError::clock_skew) says the local clock is off. Processes sharing a
//! key each take a [`FleetWorker`](settings::FleetWorker) place ([`ClientBuilder::fleet_worker`]), so their nonces
//! cannot collide and their limits add up to the key's; see `txc-blocking`'s docs for a full
//! example, the behaviour is the same.
//!
//! ```
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use txc_async::{Client, Credentials};
//! use txc_async::settings::FleetWorker;
//! use txc_sandbox::{demo, Sandbox};
//!
//! let sandbox = Sandbox::start()?;
//! let client = Client::builder(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?)
//!     .base_url(sandbox.base_url())
//!     .fleet_worker(FleetWorker::new(1, 4)?)
//!     .build()?;
//! let now = client.server_time().await?;
//! assert!(now.time.unix_seconds() > 1_700_000_000);
//! # Ok(())
//! # }
//! ```
//!
//! # Errors
//!
//! Every method returns [`Error`], judged by the exchange's rules, status first:
//! [`Error::InvalidRequest`] / [`Error::InvalidConfig`] (nothing was sent), a
//! [`TransportError`](errors::TransportError) saying whether the request may have been written ([`Delivery`](errors::Delivery)), an
//! [`ApiError`](errors::ApiError) with the exchange's status, code, message and field errors (its
//! [`ApiErrorClass`](errors::ApiErrorClass) read from status, code and field; an order's refusal
//! codes each a class of their own, [`OrderRefusal`](orders::OrderRefusal)), a [`DecodeError`](errors::DecodeError), or an unresolved
//! order. An order that breaks its market's published rules never reaches the exchange
//! ([`MarketRulesCheck`](settings::MarketRulesCheck)). [`Error::is_retryable`] (a 429, or a request certainly not sent) and
//! [`Error::outcome_unknown`] are never both true.
//!
//! ```
//! use txc_async::{Client, Credentials, Error};
//! use txc_async::errors::{ApiErrorClass, ValidationError};
//! use txc_async::markets::Rule;
//! use txc_async::orders::{CollateralMarketOrder, OrderRefusal, Side};
//! use txc_sandbox::{demo, Sandbox};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start()?;
//! let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//! let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
//!
//! // Below the market's minimum amount: refused before anything is sent, naming the rule,
//! // the market's value and the nearest valid value (the client read the market's rules).
//! let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001").build()?;
//! let err = client.collateral_market_order(&too_small).await.unwrap_err();
//! let Error::InvalidRequest(ValidationError::MarketRule(rule)) = &err else { panic!("{err}") };
//! assert_eq!((rule.rule, rule.nearest.as_deref()), (Rule::MinAmount, Some("0.001")));
//!
//! // More than the margin allows: the exchange refuses it (code 10), its own class.
//! let too_big = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "100").build()?;
//! let err = client.collateral_market_order(&too_big).await.unwrap_err();
//! let api = err.api().unwrap();
//! assert_eq!((api.status, api.code, api.class), (422, Some(10), ApiErrorClass::InsufficientBalance));
//! assert_eq!(api.refusal, Some(OrderRefusal::InsufficientBalance));
//! assert!(!err.outcome_unknown());
//! # Ok(())
//! # }
//! ```
//!
//! # Retries and nonces
//!
//! Every attempt is signed afresh with a nonce from the API key's sequence, which every client
//! of the key in the process shares. A 429 is retried (after 100 ms, then 1 s doubling to 30 s,
//! or the server's `Retry-After`); reads are also retried after 5xx and transport failures;
//! an order never after an unknown outcome. See [`RetryPolicy`](settings::RetryPolicy).
//!
//! # Events
//!
//! [`Client::events`] opens the private event stream: an [`EventStream`](events::EventStream)
//! of [`StreamEvent`](events::StreamEvent)s — each channel's update decoded into its record,
//! every (re)connection's resync over REST with what changed while away, every disconnection
//! and every error as an event — over tokio-tungstenite. See the [`events`] module (the `events` feature, on by default).
//!
//! # Trading over the WebSocket
//!
//! [`Client::socket_trading`] opens a [`SocketTrading`](socket::SocketTrading) session (the
//! [`socket`] module, the `events` feature): the same typed orders as REST — limit, market,
//! stop-limit, stop-market, BBO, stop-BBO, OCO, an order with stop-loss/take-profit (the
//! socket's OTO), and TPSL on a position, which only the socket places — sent as JSON-RPC calls
//! on one authorized connection, with `order_modify` and the three cancels. Switching is one
//! call with the same order value. Each placement with a `clientOrderId` is journaled before
//! its frame is written; a lost answer is [`Error::OutcomeUnknown`], resolved by the same
//! resolver as REST; `place_once` places exactly once.
//!
//! **What it is for:** placement latency on a long-lived connection. **What it is not for:**
//! look-ups (REST), events you must not miss (the [`events`] stream, which resyncs after every
//! reconnection). **Checked like REST:** before a frame is journaled or written, the order is
//! checked against its market's published rules
//! ([`MarketRulesCheck`](settings::MarketRulesCheck)) and its position side against the
//! account's mode — the same checks, by the same code, as before REST sends it — and refused
//! with the same typed error ([`Error::InvalidRequest`]), nothing sent. What passes them and
//! the exchange still refuses comes back as a typed [`SocketError`](socket::SocketError).
//!
//! ```
//! use txc_async::{Client, Credentials};
//! use txc_async::orders::{CollateralLimitOrder, Side};
//! use txc_async::socket::SocketAnswer;
//! use txc_sandbox::{demo, Sandbox};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start()?;
//! let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//! let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
//! let order = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000").build()?;
//! // Over REST this would be `client.collateral_limit_order(&order).await?`; over the socket:
//! let mut session = client.socket_trading()?; // connects and authorizes at its first call
//! let SocketAnswer::Order(placed) = session.place(&order).await? else { unreachable!() };
//! assert_eq!(placed.client_order_id.as_ref(), Some(order.fields().client_order_id()));
//! // Exactly once: a lost answer is resolved (events, then look-ups) before any resend.
//! let next = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000").build()?;
//! let found = session.place_once(&next).await?;
//! assert!(found.record.order_id().is_some());
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//!
//! | feature | default | what |
//! |---|---|---|
//! | `events` | yes | the private event stream ([`Client::events`], the [`events`] module) and trading over the socket ([`Client::socket_trading`], the [`socket`] module): a WebSocket over tokio-tungstenite. Without it the client is REST only and compiles no WebSocket crate |
//! | `rustls` | yes | TLS with rustls and this crate's default provider: the same as `rustls-aws-lc` |
//! | `rustls-aws-lc` | via `rustls` | TLS with rustls, aws-lc-rs and the platform's certificate verifier, for REST and the event stream |
//! | `rustls-ring` | no | the same with ring |
//! | `rustls-no-provider` | via the two above | rustls and the platform's verifier with the provider your program installs: see [TLS](#tls) |
//! | `native-tls` | no | TLS with the platform's library and roots (OpenSSL, Secure Transport, SChannel), for REST and the event stream; chosen over rustls when both are enabled |
//! | `decimal` | yes | `values::ExactDecimal::to_decimal` and `Decimal` amounts and prices in builders |
//! | `tracing` | no | a `txc.request` span per attempt: operation, attempt, status or failure kind, latency — never the key, payload, signature or body |
//!
//! A REST-only client: `txc-async = { version = "0.4", default-features = false, features =
//! ["rustls-aws-lc"] }` (or `rustls-ring`; add `decimal` for `rust_decimal`). With no TLS
//! feature at all the client speaks `http://` and `ws://` only (a sandbox on loopback).
//!
//! # TLS
//!
//! The TLS is chosen once, when the client is built ([`ClientBuilder::build`]), and the event
//! stream's WebSocket uses the same as REST: `native-tls` when enabled; otherwise rustls with
//! the platform's certificate verifier and the provider that is, in this order, **rustls'
//! process default** if your program installed one, aws-lc-rs (`rustls-aws-lc`), ring
//! (`rustls-ring`).
//!
//! To bring your own provider (FIPS, another crate's, a tuned one), enable
//! `rustls-no-provider` (alone: no ring, no aws-lc-rs compiled) and install the provider
//! before building a client; without one, `build` fails with [`Error::InvalidConfig`]
//! (`tls`) — never a panic:
//!
//! ```toml
//! txc-async = { version = "0.4", default-features = false, features = ["rustls-no-provider", "events"] }
//! rustls = { version = "0.23", default-features = false, features = ["ring"] } # or your provider's crate
//! ```
//!
//! ```ignore
//! rustls::crypto::ring::default_provider()
//!     .install_default()
//!     .expect("the first provider installed in this process");
//! let client = txc_async::Client::builder(credentials).build()?;
//! ```
//!
//! An own reqwest client ([`ClientBuilder::http`]) brings its own TLS for REST; the event
//! stream follows this crate's features.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod body;
mod builder;
mod client;
mod error_map;
#[cfg(feature = "events")]
mod event_stream;
mod flex;
mod kill_switch;
mod pages;
mod reports;
#[cfg(feature = "events")]
mod socket_orders;
mod tls;
mod trading;
mod transport;
#[cfg(feature = "events")]
mod websocket;

pub use builder::ClientBuilder;
pub use client::Client;
#[doc = "The reqwest version this crate is built on, for [`ClientBuilder::http`]."]
pub use reqwest;
pub use txc_core::Error;
#[doc(inline)]
pub use txc_core::client_modules::{endpoint, errors, outcomes, settings};
pub use txc_sign::Credentials;
#[doc(inline)]
pub use txc_types::{investments, lookups, markets, orders, positions, time, values};

#[cfg(feature = "events")]
#[cfg_attr(docsrs, doc(cfg(feature = "events")))]
pub mod events {
    //! The private event stream: [`EventStream`] (from [`Client::events`](crate::Client::events))
    //! of [`StreamEvent`]s — the channels' records ([`AccountEvent`] and the types it holds),
    //! each (re)connection's [`Resync`] and the [`ResyncChange`]s a resync finds, every
    //! [`Disconnect`] and every [`StreamError`] — with the [`Subscription`]s and
    //! [`StreamConfig`] that shape it.
    //!
    //! ```
    //! use txc_async::{Client, Credentials};
    //! use txc_async::events::{AccountEvent, StreamEvent, Subscription};
    //! use txc_async::orders::{CollateralMarketOrder, Side};
    //! use txc_sandbox::{demo, Sandbox};
    //!
    //! # #[tokio::main]
    //! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    //! let sandbox = Sandbox::start()?;
    //! let client = Client::builder(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?)
    //!     .base_url(sandbox.base_url())
    //!     .build()?;
    //! let mut events = client.events([Subscription::orders_pending(["BTC_USDT"])?]).start()?;
    //! while let Some(event) = events.next().await {
    //!     match event {
    //!         // Established, and the open orders read again: place an order.
    //!         StreamEvent::ResyncDone(_) => {
    //!             let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
    //!             client.collateral_market_order(&order).await?;
    //!         }
    //!         StreamEvent::Account(AccountEvent::Order(e)) => {
    //!             assert_eq!(e.order.deal_money.as_str(), "650");
    //!             break;
    //!         }
    //!         _ => {}
    //!     }
    //! }
    //! # Ok(())
    //! # }
    //! ```

    pub use crate::event_stream::{EventStream, EventStreamBuilder};
    pub use txc_core::machine::{Wake, Woken};
    pub use txc_core::stream::{
        Backoff, Channel, Disconnect, DisconnectReason, ExecutedFilter, OrderSightings, Resync,
        ResyncChange, ResyncReport, RpcError, Seen, Sighting, SightingWatch, StopReason,
        StreamConfig, StreamConfigError, StreamError, StreamEvent, Subscription, UnknownMessage,
        Update,
    };
    pub use txc_types::events::{
        AccountEvent, Deal, DealRole, EventDecodeError, ExecutedOrders, LiquidationStage,
        MarginBalance, MarginBalances, OrderEvent, OrderEventKind, PositionEvent,
        PositionEventKind, Positions, StreamOrder, StreamPosition, WebSocketToken,
        WebSocketTokenQuery,
    };
}

#[cfg(feature = "events")]
#[cfg_attr(docsrs, doc(cfg(feature = "events")))]
pub mod socket {
    //! Trading over the WebSocket: [`SocketTrading`] (from
    //! [`Client::socket_trading`](crate::Client::socket_trading)) places, modifies and cancels
    //! the same typed orders as REST as JSON-RPC calls on one authorized connection, exactly
    //! once with [`SocketTrading::place_once`]; its settings ([`SessionConfig`],
    //! [`SocketOrdersConfig`], [`SocketLimits`]), its answers ([`SocketAnswer`] and the
    //! objects it holds), its errors ([`SocketError`], the socket's numbering
    //! [`SocketRefusal`]) and TPSL on a position ([`CollateralTpslOrder`]), which only the
    //! socket places. The same as txc-blocking's `socket` module, `async`.
    //!
    //! ```no_run
    //! use txc_async::{Client, Credentials};
    //! use txc_async::orders::{CollateralLimitOrder, Side};
    //!
    //! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    //! let client = Client::builder(Credentials::new("key", "secret")?).build()?;
    //! let order = CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "60000")
    //!     .client_order_id("ws-1")
    //!     .build()?;
    //! client.collateral_limit_order(&order).await?; // over REST, or the same value over the socket:
    //! let mut session = client.socket_trading()?;
    //! let placed = session.place_once(&order).await?;
    //! println!("order {:?}", placed.record.order_id());
    //! # Ok(())
    //! # }
    //! ```

    pub use crate::socket_orders::SocketTrading;
    pub use txc_core::socket::{
        DEFAULT_ANSWER_TIMEOUT, DEFAULT_CONNECT_WAIT, DEFAULT_PACING_WAIT, SessionConfig, Settled,
        SocketAttempt, SocketError, SocketLimits, SocketOrdersConfig, SocketOutcome, SocketPlaced,
        UnknownCause,
    };
    pub use txc_types::socket::{
        CollateralTpslOrder, CollateralTpslOrderBuilder, SocketAnswer, SocketMethod, SocketOco,
        SocketOrder, SocketOto, SocketRefusal, SocketRequest, SocketTpsl, ToSocket,
    };
}

pub mod paging {
    //! Reading a whole paged list: [`PageStream`] (from [`Client::pages`](crate::Client::pages)),
    //! an async stream of pages for any [`Paged`] query, over the shared [`PageCursor`] —
    //! stopping by each endpoint's own last-page rule, and at its offset cap or a list that
    //! changed under it with a typed error ([`PagingError`]), never silently.

    pub use crate::pages::PageStream;
    pub use txc_types::paging::{LastPage, OffsetCap, PageCursor, Paged, PagingError, Tally};
}

pub mod guards {
    //! Guards that keep something armed on the exchange while they live: the [`KillSwitch`]
    //! (made by [`Client::arm_kill_switch`](crate::Client::arm_kill_switch)), the
    //! [`KillSwitchSchedule`] it re-arms by, and the [`KillSwitchEvent`]s it reports.

    pub use crate::kill_switch::KillSwitch;
    pub use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule};
}

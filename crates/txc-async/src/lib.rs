//! An async client for WhiteBIT's private v4 collateral-trading and smart-investment API, over
//! [reqwest](https://docs.rs/reqwest) on tokio: collateral market and trigger market orders, the open
//! orders, the order history, cancel, smart investment plans — and resolving every order whose
//! outcome is unknown.
//!
//! **What it is for:** async programs on a tokio runtime (with its time driver) — services and
//! bots placing orders from many tasks at once: clients are cheap to clone, futures are `Send`.
//!
//! **What it is not for:** programs without tokio (use `txc-blocking`: the same methods,
//! blocking, and no tokio), or WhiteBIT endpoints beyond the ones above. It holds no logic of
//! its own: signing, nonces, decoding, retries and reconciliation are `txc-sign`'s state
//! machines, shared with `txc-blocking`; this crate moves bytes, keeps time, sleeps and caps the
//! response's size.
//!
//! # Placing an order
//!
//! ```
//! use txc_async::{Client, CollateralMarketOrder, Credentials, Side};
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
//! assert!(placed.client_order_id.is_some()); // generated, since the order had none
//! # Ok(())
//! # }
//! ```
//!
//! # When an order's outcome is unknown
//!
//! A timeout after sending, a reset connection, a 5xx — whatever its body says — or a 2xx that
//! is not an order: the order may have been placed. The client never sends it again by itself;
//! the error is [`Error::OutcomeUnknown`], carrying the [`PendingOrder`] (market,
//! `clientOrderId`, each attempt's nonce and time). The exchange's advice is to look the
//! `clientOrderId` up before resubmitting, and [`Client::resolve`] does: it waits until no
//! attempt can still be accepted (the settling delay, 10 s by default, counted from each
//! attempt's nonce time: the exchange refuses a request arriving more than 5 s after it), looks
//! the id up in the open orders, then in the order history, and answers
//! [`Resolution::Placed`] or [`Resolution::NotPlaced`]. A look-up that fails leaves the order
//! unknown — never "not placed". [`Client::place_once`] does all of it for you.
//!
//! ```
//! use txc_async::{Client, CollateralMarketOrder, Credentials, Error, Resolution, Side};
//! use txc_sandbox::{demo, Fault, Route, Sandbox};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start()?;
//! let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//! let client = Client::builder(credentials)
//!     .base_url(sandbox.base_url())
//!     .settle_delay(std::time::Duration::from_secs(6)) // the sandbox shares our clock
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
//! 10 s by default) or fails with [`Error::Throttled`] ([`RatePolicy::FailFast`]), nothing
//! sent. [`Client::server_time`] reads the exchange's clock; [`Client::sync_clock`] corrects
//! window nonces when [`ApiError::clock_skew`] says the local clock is off. Processes sharing a
//! key each take a [`FleetWorker`] place ([`ClientBuilder::fleet_worker`]), so their nonces
//! cannot collide and their limits add up to the key's; see `txc-blocking`'s docs for a full
//! example, the behaviour is the same.
//!
//! ```
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use txc_async::{Client, Credentials, FleetWorker};
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
//! [`TransportError`] saying whether the request may have been written ([`Delivery`]), an
//! [`ApiError`] with the exchange's status, code, message and field errors (its
//! [`ApiErrorClass`] read from status, code and field), a [`DecodeError`], or an unresolved
//! order. [`Error::is_retryable`] (a 429, or a request certainly not sent) and
//! [`Error::outcome_unknown`] are never both true.
//!
//! ```
//! use txc_async::{ApiErrorClass, Client, CollateralMarketOrder, Credentials, Side};
//! use txc_sandbox::{demo, Sandbox};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::start()?;
//! let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//! let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
//!
//! let too_small = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001").build()?;
//! let err = client.collateral_market_order(&too_small).await.unwrap_err();
//! let api = err.api().unwrap();
//! assert_eq!((api.status, api.code, api.class), (422, Some(32), ApiErrorClass::Validation));
//! assert!(!api.field_errors("amount").is_empty());
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
//! an order never after an unknown outcome. See [`RetryPolicy`].
//!
//! # What this crate exports
//!
//! | for | items |
//! |---|---|
//! | the client | [`Client`], [`ClientBuilder`], [`Credentials`], [`Endpoint`] (for [`Client::send`]), [`RetryPolicy`], [`NonceSequence`], [`ClientOrderIds`], [`SignedRequest`] (dry runs), [`reqwest`] |
//! | orders | [`CollateralMarketOrder`], [`CollateralTriggerMarketOrder`], [`OrderBuilder`], [`BuildableOrder`] (sealed: generic code over both), [`NewOrder`], [`Side`], [`PositionSide`], [`Stp`] |
//! | look-ups and cancel | [`OpenOrdersQuery`], [`OpenOrdersQueryBuilder`], [`OrderHistoryQuery`], [`OrderHistoryQueryBuilder`] (both a [`QueryBuilder`] of a [`LookupQuery`]), [`Lookup`], [`HistoryStatus`], [`CancelOrder`], [`OrderRef`] |
//! | plans | [`SmartPlansQuery`], [`SmartPlansQueryBuilder`], [`InvestmentPlan`], [`PlanStatus`] |
//! | validated values | [`Market`], [`Amount`], [`Price`], [`ClientOrderId`], [`Ticker`] |
//! | responses | [`Order`], [`Oto`], [`OrderStatus`], [`OrderType`], [`ActivationCondition`], [`OrderHistory`], [`HistoryOrder`], [`Cancellation`], [`ExactDecimal`], [`Timestamp`], [`Decimal`] (with `decimal`) |
//! | pacing and clocks | [`RateLimits`], [`RateLimiter`], [`RatePolicy`], [`RateLimit`], [`FleetWorker`], [`ClockOffset`], [`ServerTimeQuery`], [`ServerTime`] |
//! | outcomes | [`PendingOrder`], [`AttemptRecord`], [`Nonce`], [`Resolution`], [`Placed`] |
//! | errors | [`Error`], [`Unresolved`], [`ApiError`], [`ApiErrorClass`], [`RetryAfter`], [`Throttled`], [`TransportError`], [`TransportErrorKind`], [`Delivery`], [`DecodeError`], [`DecodeErrorKind`], [`ValidationError`], [`Reason`] |
//!
//! # Features
//!
//! | feature | default | what |
//! |---|---|---|
//! | `rustls` | yes | TLS with rustls (aws-lc-rs) and the platform's certificate verifier |
//! | `native-tls` | no | TLS with the platform's library; used when enabled, also alongside `rustls` |
//! | `decimal` | yes | [`ExactDecimal::to_decimal`] and `Decimal` amounts and prices in builders |
//! | `tracing` | no | a `txc.request` span per attempt: operation, attempt, status or failure kind, latency — never the key, payload, signature or body |

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod body;
mod builder;
mod client;
mod error_map;
mod transport;

pub use builder::ClientBuilder;
pub use client::Client;
#[doc = "The reqwest version this crate is built on, for [`ClientBuilder::http`]."]
pub use reqwest;
pub use txc_sign::{
    ApiError, ApiErrorClass, AttemptRecord, ClientOrderIds, ClockOffset, Credentials, DecodeError,
    DecodeErrorKind, Delivery, Error, FleetWorker, Nonce, NonceSequence, PendingOrder, Placed,
    RateLimiter, RateLimits, RatePolicy, Resolution, RetryAfter, RetryPolicy, SignedRequest,
    Throttled, TransportError, TransportErrorKind, Unresolved,
};
#[cfg(feature = "decimal")]
pub use txc_types::Decimal;
pub use txc_types::{
    ActivationCondition, Amount, BuildableOrder, CancelOrder, Cancellation, ClientOrderId,
    CollateralMarketOrder, CollateralTriggerMarketOrder, Endpoint, ExactDecimal, HistoryOrder,
    HistoryStatus, InvestmentPlan, Lookup, LookupQuery, Market, NewOrder, OpenOrdersQuery,
    OpenOrdersQueryBuilder, Order, OrderBuilder, OrderHistory, OrderHistoryQuery,
    OrderHistoryQueryBuilder, OrderRef, OrderStatus, OrderType, Oto, PlanStatus, PositionSide,
    Price, QueryBuilder, RateLimit, Reason, ServerTime, ServerTimeQuery, Side, SmartPlansQuery,
    SmartPlansQueryBuilder, Stp, Ticker, Timestamp, ValidationError,
};

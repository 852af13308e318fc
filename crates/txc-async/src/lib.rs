//! An async client for WhiteBIT's private v4 API: collateral market orders, collateral
//! trigger market orders and smart investment plans, over [reqwest](https://docs.rs/reqwest)
//! on tokio.
//!
//! **What it is for:** async programs on a tokio runtime — services and bots placing orders
//! from many tasks at once (clients are cheap to clone, futures are `Send`). The request and
//! response types of [`txc_types`] and the error, credential and retry types of [`txc_sign`]
//! are re-exported here.
//!
//! **What it is not for:** programs without tokio (use `txc-blocking`, which has the same
//! methods without `async`, and no tokio), or other WhiteBIT endpoints than the three above
//! (the generic [`Client::send`] takes any [`Endpoint`], if you define one). It holds no logic
//! of its own: signing, nonces, decoding and retry decisions live in `txc-sign`, shared with
//! `txc-blocking`; this crate only moves bytes, keeps time, sleeps and caps the answer's size.
//!
//! ```
//! use txc_async::{Client, CollateralMarketOrder, Credentials, Side};
//! use txc_sandbox::{demo, Sandbox};
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let sandbox = Sandbox::start()?; // a WhiteBIT-compatible exchange on 127.0.0.1
//!     let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
//!     let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
//!
//!     let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
//!     let placed = client.collateral_market_order(&order).await?;
//!     assert_eq!(placed.market.as_deref(), Some("BTC_USDT"));
//!     assert!(placed.order_id.is_some());
//!     Ok(())
//! }
//! ```
//!
//! # Errors
//!
//! Every method returns [`Error`]: an invalid request or configuration (nothing was sent), a
//! [`TransportError`] that says whether the request may have reached the server
//! ([`Delivery`]), an [`ApiError`] with the exchange's status, code, message and field errors,
//! or a [`DecodeError`]. [`Error::outcome_unknown`] tells when an order may have been placed
//! although an error came back; such orders are never resent automatically.
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
//! # Features
//!
//! | feature | default | what |
//! |---|---|---|
//! | `rustls` | yes | TLS with rustls (aws-lc-rs) and the platform's certificate verifier |
//! | `native-tls` | no | TLS with the platform's library; used when enabled, also alongside `rustls` |
//! | `tracing` | no | a `txc.request` span per attempt: operation, attempt, status or failure kind, latency — never the key, payload, signature or body |

#![forbid(unsafe_code)]

mod body;
mod client;
mod error_map;
mod transport;

pub use client::Client;
pub use transport::Reqwest;

/// Configures a [`Client`]: the shared builder of `txc-sign` finishing with [`Reqwest`].
pub type ClientBuilder = txc_sign::ClientBuilder<Reqwest>;
#[doc = "The reqwest version this crate is built on, for [`ClientBuilder::http`](txc_sign::ClientBuilder::http)."]
pub use reqwest;
pub use txc_sign::{
    ApiError, ApiErrorClass, Credentials, DecodeError, DecodeErrorKind, Delivery, Error, Nonce,
    NonceSequence, RetryPolicy, SignedRequest, TransportError, TransportErrorKind,
};
pub use txc_types::*;

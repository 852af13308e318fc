//! Signing requests to WhiteBIT's private v4 API: HMAC-SHA512 over a base64 payload of the
//! exact body, with the API key, in three headers.
//!
//! A [`Signer`] holds the [`Credentials`] and the base URL; [`Signer::sign`] turns a
//! `txc-types` request and a nonce into a [`SignedRequest`] — the URL, the exact body bytes,
//! the payload and the signature — which [`SignedRequest::into_http`] makes an
//! `http::Request<Vec<u8>>` for any HTTP client.
//!
//! ```
//! use txc_sign::nonce::{NonceMode, NonceSequence};
//! use txc_sign::{Credentials, Signer};
//! use txc_types::orders::{CollateralMarketOrder, Side};
//!
//! let signer = Signer::new(Credentials::new("my-key", "my-secret")?, "https://whitebit.com")?;
//! let nonces = NonceSequence::new();
//! let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
//!
//! let now_ms = 1_700_000_000_000; // your clock
//! let request = signer.sign(&order, nonces.next(now_ms), NonceMode::Window)?.into_http();
//! assert_eq!(request.uri(), "https://whitebit.com/api/v4/order/collateral/market");
//! assert_eq!(request.headers()["x-txc-apikey"], "my-key");
//! assert_eq!(request.headers()["x-txc-signature"].len(), 128);
//! // ...send it with any HTTP client.
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | item | what |
//! |---|---|
//! | [`Credentials`], [`ApiSecret`] | the API key and its secret (never printed, zeroized on drop), the HMAC keyed once |
//! | [`nonce`] | the request nonce: [`Nonce`](nonce::Nonce), [`NonceMode`](nonce::NonceMode) (`nonceWindow` or strictly increasing), the key's [`NonceSequence`](nonce::NonceSequence), a [`FleetWorker`](nonce::FleetWorker) place for processes sharing a key, the [`ClockOffset`](nonce::ClockOffset) |
//! | [`Signer`], [`SignedRequest`] | signing a request, and the signed value with its `into_http` |
//! | [`stages`] | the three stages one by one — body bytes, payload, signature — each with its known-answer vectors |
//! | [`headers`] | the header names |
//! | `server` | checking a signed request the way the exchange does (the `server` feature) |
//! | [`Error`], [`DEFAULT_BASE_URL`], [`is_loopback`] | a refused key, base URL or path; the production base URL; whether a base URL is this host |
//!
//! **What it is for:** signing — for `txc-core`'s machines (and so both transports), or for an
//! HTTP client of your own: this crate and `txc-types` are all it takes.
//!
//! **What it is not for:** sending, reading answers, retrying or pacing. It has no sockets, no
//! clock and no runtime: the nonce's time comes in as an argument. Decoding the exchange's
//! answers, retries, pacing and resolving unknown outcomes are `txc-core`'s; a ready client is
//! `txc-blocking` or `txc-async`.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod base64;
mod body;
mod credentials;
pub mod headers;
mod hex;
mod invalid_config;
pub mod nonce;
mod signed_request;
mod signer;
#[cfg(feature = "server")]
mod verify;

pub use credentials::{ApiSecret, Credentials};
pub use invalid_config::Error;
pub use signed_request::SignedRequest;
pub use signer::{DEFAULT_BASE_URL, Signer, is_loopback};

pub mod stages {
    //! Signing stage by stage — body bytes → payload → signature — each stage a function with
    //! its own known-answer vectors; [`Signer::sign`](crate::Signer::sign) makes all three in
    //! one buffer.
    //!
    //! The body is serialized once, compactly, and those exact bytes are both base64-encoded
    //! into `X-TXC-PAYLOAD` and sent: the server compares them.

    pub use crate::signer::{body_bytes, payload, signature};
}

#[cfg(feature = "server")]
pub mod server {
    //! Checking a signed request the way the exchange does, for servers and test doubles:
    //! [`verify`] (stateless, with the exchange's own messages as [`AuthRejection`]s) and the
    //! per-key nonce rules ([`NonceGuard`], with the time passed in).

    pub use crate::verify::{AuthRejection, KeyStatus, NonceGuard, VerifiedRequest, verify};
}

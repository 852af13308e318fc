//! The sans-IO protocol of txc, the client of WhiteBIT's private v4 API: what a client decides
//! between sending a request and handing back an answer, written once for every transport.
//!
//! | module | what is there |
//! |---|---|
//! | [`machine`] | the protocol a transport drives: [`Machine`] and its [`Step`]s, the [`Wake`] that ends a wait early, one endpoint's [`Call`] across its attempts, and [`ClientConfig`] → [`ClientCore`], where every machine starts |
//! | [`decode`](mod@decode) | an answer read by the exchange's rules, status first: the [`Response`] a transport received, [`decode`](fn@decode::decode) into the endpoint's typed answer, and the SDK's one [`Error`] with its parts |
//! | [`pacing`] | staying within the exchange's limits and clock: the [`RateLimiter`], the [`RetryPolicy`], the exchange's clock as measured ([`ClockBounds`]) and corrected ([`SyncClock`]) |
//! | [`resolve`] | placing and investing exactly once, and resolving an order, a close or an investment whose outcome is unknown — from proof, by one [`Resolver`] with a search per operation —, with the pending records, the journal and the [`Evidence`] of every answer |
//! | [`risk`] | checks before an order is sent: its market's published rules ([`RulesCheck`], [`MarketRulesCheck`]), the position mode ([`Preflight`], [`ModeCheck`]), and when a kill-switch guard re-arms ([`KillSwitchSchedule`]) |
//! | [`stream`] | the private WebSocket stream's protocol: [`StreamMachine`](stream::StreamMachine), its events, the resync over REST after every connection, the [`OrderSightings`](stream::OrderSightings) that settle unknown orders |
//!
//! Signing — credentials, nonces, payload and signature — is [`txc_sign`]'s (re-exported), and
//! the requests and answers are `txc-types`'.
//!
//! **What it is for:** driving WhiteBIT's private API from any HTTP client and any runtime —
//! or none — with everything a client decides in one place: what to sign when, how to read an
//! answer, whether and when to retry, how long to wait for a rate limit, whether an order whose
//! answer was lost was placed. `txc-blocking` and `txc-async` are thin drivers of these
//! machines; so is the custom-runtime example, which drives them over hyper's own connection
//! ([`examples/examples/embed_hyper.rs`](https://github.com/txc-rs/txc/blob/main/examples/examples/embed_hyper.rs)).
//!
//! **What it is not for:** sending anything. It has no sockets, no clock, no runtime and no
//! randomness: time, nonce and jitter come in as arguments, and a driver sleeps, sends and
//! receives as a machine's [`Step`] says. For a ready client use `txc-blocking` or
//! `txc-async`; to sign requests for an HTTP client of your own, `txc-sign` alone.
//!
//! ```
//! use std::time::SystemTime;
//! use txc_core::decode::Response;
//! use txc_core::{ClientConfig, Machine, Step};
//! use txc_core::txc_sign::Credentials;
//! use txc_types::investments::SmartPlansQuery;
//!
//! let core = ClientConfig::new(Credentials::new("my-key", "my-secret")?)
//!     .base_url("http://127.0.0.1:9")
//!     .build()?;
//! let query = SmartPlansQuery::new();
//! let mut call = core.call(&query);
//! let now = SystemTime::now(); // your clock
//! let Step::Send(request) = call.next(now) else { unreachable!() };
//! let request = request.into_http(); // send it with any HTTP client...
//! assert_eq!(request.uri(), "http://127.0.0.1:9/api/v4/main-account/smart/plans");
//! // ...and hand the machine what came back.
//! call.receive(Ok(Response::new(200, b"[]")));
//! let Step::Done(plans) = call.next(now) else { unreachable!() };
//! assert!(plans?.is_empty());
//! # Ok::<(), txc_core::Error>(())
//! ```

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The settings' documentation links `txc_core::` items, and is expanded here as well as in the
// transports (see `machine::settings`); only rustdoc reads the name.
#[allow(unused_extern_crates)]
extern crate self as txc_core;

// The transports' shared modules (`endpoint`, `errors`, `outcomes`, `settings`), inlined by
// each; this crate's own items are in its modules.
#[doc(hidden)]
pub mod client_modules;
pub mod decode;
mod fast_hash;
pub mod machine;
mod observer;
pub mod pacing;
mod registry;
pub mod resolve;
pub mod risk;
pub mod socket;
pub mod stream;

pub use decode::Error;
pub use machine::{ClientConfig, ClientCore, Machine, Step};
pub use observer::Observer;
pub use txc_sign;

// Short paths inside the crate: its files name each other's items `crate::Item`; the public
// paths are the modules'.
pub(crate) use decode::*;
pub(crate) use machine::*;
pub(crate) use pacing::*;
pub(crate) use resolve::*;
pub(crate) use risk::*;
pub(crate) use txc_sign::nonce::{
    ClockOffset, FleetWorker, Nonce, NonceMode, NonceSequence, unix_millis,
};
pub(crate) use txc_sign::{Credentials, DEFAULT_BASE_URL, SignedRequest, Signer};

//! The sans-IO core of txc: credentials, nonces, signing, response decoding, the SDK's error
//! type, retry decisions and request verification for WhiteBIT's private v4 API.
//!
//! **What it is for:** turning a `txc-types` request into a signed request value
//! ([`Signer::sign`] → [`SignedRequest`], convertible to `http::Request<Vec<u8>>` by
//! [`SignedRequest::into_http`]), turning a [`Response`] (status, headers, body) into a typed
//! result or a typed [`Error`] ([`decode`]) judged by the exchange's rules, deciding whether
//! and when to retry ([`RetryPolicy`]), pacing within the exchange's rate limits
//! ([`RateLimiter`], with the time passed in) and its clock ([`ClockOffset`], [`SyncClock`],
//! [`ClockBounds`]; fleets of processes on one key: [`FleetWorker`]), driving all of that as one
//! sans-IO state machine per call ([`Machine`], [`Call`]); placing an order exactly once
//! ([`Place`], [`PlaceOnce`]), with each order's and investment's pending record kept before
//! its first byte is sent and read back by the next process ([`PendingOrder`],
//! [`PendingRecord`], [`Journal`]) and an unknown outcome resolved from proof by one rule
//! ([`Resolve`]: [`AbsenceRule`] over an [`AcceptanceWindow`], every answer with its
//! [`Evidence`]); checking an order against the account's position mode before it is sent
//! ([`Preflight`], [`ModeCheck`]), closing a position and resolving a close whose outcome is
//! unknown ([`Close`], [`ResolveClose`]), deciding when a kill-switch guard re-arms
//! ([`KillSwitchSchedule`]), investing exactly once ([`InvestOnce`]) and resolving an
//! investment from the investments list ([`ResolveInvestment`]) — the three resolved by one
//! [`Resolver`], each with its [`Search`] — and, for servers and test
//! doubles, checking a signed request the way the exchange does (`verify`, `NonceGuard`: the
//! `server` feature).
//!
//! **What it is not for:** sending anything. It has no sockets, no clock, no runtime and no
//! randomness: time, nonce and jitter come in as arguments. Use `txc-blocking` or `txc-async`
//! for a ready client, or drive a [`Call`] with your own HTTP client: configure a
//! [`ClientCore`] with [`ClientConfig`] (the one configuration both transports' builders wrap)
//! and see [`Machine`].
//!
//! ```
//! use txc_sign::{decode, Credentials, NonceMode, NonceSequence, Response, Signer};
//! use txc_types::orders::{CollateralMarketOrder, Side};
//!
//! let signer = Signer::new(Credentials::new("my-key", "my-secret")?, "https://whitebit.com")?;
//! let nonces = NonceSequence::new();
//! let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
//! // The order has its clientOrderId from here on (generated, since none was given).
//! let id = order.fields().client_order_id().clone();
//! assert!(id.as_str().starts_with("txc-"));
//!
//! let now_ms = 1_700_000_000_000; // your clock
//! let request = signer.sign(&order, nonces.next(now_ms), NonceMode::Window)?.into_http();
//! assert_eq!(request.headers()["x-txc-apikey"], "my-key");
//!
//! // ...send it with any HTTP client, then decode the response:
//! let body = br#"{"orderId":4180284841,"clientOrderId":"","market":"BTC_USDT","side":"buy",
//!     "type":"market","timestamp":1595792396.165973,"dealMoney":"650","dealStock":"0.01",
//!     "amount":"0.01","left":"0","dealFee":"0.65","status":"FILLED"}"#;
//! let placed = decode::<CollateralMarketOrder>(&Response::new(200, body))?;
//! assert_eq!(placed.order_id, 4180284841);
//! # Ok::<(), txc_sign::Error>(())
//! ```

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The settings' documentation links `txc_sign::` items, and is expanded here as well as in the
// transports (see `settings`); only rustdoc reads the name.
#[allow(unused_extern_crates)]
extern crate self as txc_sign;

mod base64;
mod body;
mod call;
mod client_core;
// The transports' shared modules (`endpoint`, `errors`, `outcomes`, `settings`), inlined by
// each; this crate's own items are at its root.
#[doc(hidden)]
pub mod client_modules;
mod close;
mod close_search;
mod config;
mod credentials;
mod decode;
mod error;
mod evidence;
mod exchange_clock;
mod hex;
mod invest_once;
mod invest_resolve;
mod invest_search;
mod investment_ledger;
mod kill_switch;
mod ledger;
mod machine;
mod nonce;
mod order_search;
mod pacing;
mod pending;
mod pending_investment;
mod pending_record;
mod place;
mod preflight;
mod registry;
mod resolve;
mod resolve_stage;
mod retry;
mod rule;
mod search;
mod settings;
mod signed_request;
mod signer;
pub mod stream;
mod sync_clock;
mod trace;
#[cfg(feature = "server")]
mod verify;

pub use call::{AttemptRecord, Call};
pub use client_core::{ClientCore, DEFAULT_MAX_RESPONSE_BYTES, MAX_NONCE_LEAD_MS};
pub use close::{Close, CloseResolution, PendingClose, ResolveClose, UnresolvedClose};
pub use close_search::{CloseSearch, PositionState};
pub use config::{
    ClientConfig, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, DEFAULT_USER_AGENT, HttpSettings,
};
pub use credentials::{ApiSecret, Credentials};
pub use decode::{Response, api_error, classify, decode};
pub use error::{
    ApiError, ApiErrorClass, DecodeError, DecodeErrorKind, Delivery, Error, RetryAfter, Throttled,
    TransportError, TransportErrorKind, Unresolved, UnresolvedInvestment,
};
pub use evidence::{
    AcceptanceWindow, CREATION_ALLOWANCE, Evidence, Flaw, Look, NONCE_WINDOW, Round, RoundVerdict,
    Sighting, Span,
};
pub use exchange_clock::ClockBounds;
pub use invest_once::{InvestOnce, Invested, Investing};
pub use invest_resolve::{InvestResolution, InvestmentWriters, ResolveInvestment};
pub use invest_search::InvestmentSearch;
pub use kill_switch::{KillSwitchEvent, KillSwitchSchedule, MIN_REARM_EVERY};
pub use ledger::Journal;
pub use machine::{Machine, Step};
pub use nonce::{ClockOffset, FleetWorker, Nonce, NonceMode, NonceSequence, unix_millis};
pub use order_search::OrderSearch;
pub use pacing::{RateLimiter, RateLimits, RatePolicy};
pub use pending::PendingOrder;
pub use pending_investment::PendingInvestment;
pub use pending_record::PendingRecord;
pub use place::{DEFAULT_MAX_PLACEMENTS, Place, PlaceOnce};
pub use preflight::{ModeChange, ModeCheck, Preflight, check_position_side};
pub use resolve::{
    DEFAULT_SETTLE_DELAY, Found, Placed, PlacedOrder, Resolution, Resolve, Resolver,
};
pub use resolve_stage::{ResolveStage, StageKind, StageObserver};
pub use retry::{Retry, RetryPolicy};
pub use rule::{AbsenceRule, Timing};
pub use search::{Candidate, Outcome, Presence, RoundFindings, RoundMachine, Search};
pub use signed_request::SignedRequest;
pub use signer::{
    DEFAULT_BASE_URL, Signer, X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE, body_bytes,
    is_loopback, payload, signature,
};
pub use sync_clock::SyncClock;
pub use txc_types;
pub use txc_types::values::ClientOrderIds;
#[cfg(feature = "server")]
pub use verify::{AuthRejection, KeyStatus, NonceGuard, VerifiedRequest, verify};

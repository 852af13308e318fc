//! A WhiteBIT-compatible exchange on loopback, for testing txc clients (and any other client of
//! WhiteBIT's private v4 API) without the real exchange.
//!
//! **What it is for:** integration tests and demos. It serves the three operations of the
//! project's wire contract over real HTTP/1.1 — `POST /api/v4/order/collateral/market`,
//! `POST /api/v4/order/collateral/trigger-market`, `POST /api/v4/main-account/smart/plans` —
//! with the exchange's authentication (via [`txc_sign::verify`] and [`txc_sign::NonceGuard`]),
//! rate limits, validation codes and answer shapes (built from [`txc_types::Order`] and
//! [`txc_types::InvestmentPlan`], so they match the SDK's decoder). Tests drive it from the
//! [`Sandbox`] handle — prices, balances, faults, reset — or over HTTP through the control API.
//!
//! **What it is not for:** trading, or a faithful model of the exchange's matching engine and
//! risk system. There is no order book (market orders fill at the market's set price), no TLS,
//! no liquidation, and its [`demo`] secrets are public: never expose it beyond loopback.
//!
//! ```
//! use txc_sandbox::{demo, Sandbox};
//! use txc_sign::{decode, Credentials, NonceSequence, Signer};
//! use txc_types::{CollateralMarketOrder, Side};
//!
//! let sandbox = Sandbox::start()?;
//! let signer = Signer::new(
//!     Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?,
//!     sandbox.base_url(),
//! )?;
//! let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
//! let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_millis() as u64;
//! let request = signer.sign(&order, NonceSequence::new().next(now_ms), true)?.into_http()?;
//!
//! let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
//! let mut response = agent.run(request)?;
//! let status = response.status().as_u16();
//! let body = response.body_mut().read_to_vec()?;
//! let placed = decode::<CollateralMarketOrder>(status, &body)?;
//! assert_eq!(placed.deal_money.as_deref(), Some("650")); // 0.01 × 65000
//! assert_eq!(sandbox.orders().len(), 1);
//! assert_eq!(sandbox.balance(demo::PARTNER_API_KEY, "USDT").as_deref(), Some("9934.35"));
//!
//! drop(sandbox); // graceful shutdown
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Defaults
//!
//! | what | value |
//! |---|---|
//! | address | `127.0.0.1`, an ephemeral port (see [`SandboxBuilder::port`]) |
//! | accounts | see [`demo`]: a B2B partner (one-way), a regular key (hedge mode), a disabled key; 10 000 USDT each, leverage 10 |
//! | markets | `BTC_USDT` 65000 (min 0.001, step 0.000001), `ETH_USDT` 3500 (min 0.01, step 0.0001), `BTC_PERP` 65000 (min 0.001, step 0.000001); taker fee 0.1 %, collateral USDT |
//! | plans | `USDT` plans with statuses 1–4, `BTC` plans with statuses 1 and 4 |
//! | limits | 10 000 requests / 10 s per key for each order operation, 1 000 for plans; bodies up to 64 KiB |
//!
//! # What a request goes through
//!
//! 1. A fault injected for the route, if any ([`Fault`]).
//! 2. The body size limit: HTTP 413 `{"code":0,"message":"Request body is too large.","errors":{}}`.
//! 3. [`txc_sign::verify`]: API key, payload, signature, payload equals body, `request` equals
//!    the path, `nonce` an integer or digit string, `nonceWindow` boolean — answered with the
//!    exchange's status, code and message ([`txc_sign::AuthRejection`]).
//! 4. The per-key rate limit: HTTP 429 `{"code":0,"errors":{},"message":"Too many requests."}`.
//! 5. The nonce rules of [`txc_sign::NonceGuard`] (server time from the system clock). From
//!    here on the nonce is used, even if the operation rejects the request.
//! 6. The operation. Orders are checked in this order, each with HTTP 422 and
//!    `{"code":N,"message":"Validation failed","errors":{field:[...]}}`: field rules (`market`
//!    31, `amount` 32, prices 33, `clientOrderId` 36, others and reduceOnly with
//!    stopLoss/takeProfit 30), market exists (31), amount ≥ minimum and on the step (32),
//!    `clientOrderId` not used by an open order of the account on that market (36), hedge mode
//!    needs `positionSide` `LONG`/`SHORT` (114), reduce-only must reduce (116), margin (10,
//!    `Inner validation failed`, `{"amount":["Not enough balance."]}`). Smart plans: non-partner
//!    keys get 403 ([`txc_sign::AuthRejection::PERMISSION_DENIED`]); an unknown `ticker` (no
//!    plan, market or balance currency of that name) gets HTTP 400 code 0
//!    `{"ticker":["The selected ticker is invalid."]}`.
//!
//! Rejections change nothing but the counters, the rate limit and the used nonce. Unknown paths
//! get HTTP 404 and wrong methods 405, both with a JSON body.
//!
//! The sandbox accepts what the live server accepts beyond the SDK's own wire form: `nonce` as
//! a digit string, `positionSide` in any case, the legacy `stp` names (`cancel_both`, …), keys
//! in any order, and `clientOrderId: ""` (taken as none).
//!
//! # Orders, positions and margin
//!
//! A market order fills completely at the market's current price and answers `status`
//! `FILLED`, `type` `market`, `left` `"0"`, `dealMoney` = amount × price, `dealFee` = dealMoney
//! × taker fee, `clientOrderId` `""` when none was given, `stp` in the short form (`no` by
//! default), `oto` `{otoId, stopLoss, takeProfit}` when a stop-loss or take-profit was given
//! (else `null`), `positionSide` `BOTH` in one-way mode (whatever was sent) and the sent side
//! in hedge mode.
//!
//! Margin: the part of an order that opens or grows a position locks amount × price / leverage
//! of the market's collateral currency; the part that reduces one releases its share of the
//! locked margin plus the realized profit or loss; the fee is always paid. An order is rejected
//! with code 10 when the balance plus what it releases does not cover what it locks plus the
//! fee. In one-way mode an order larger than the opposite position flips it. In hedge mode a
//! sell on `LONG` or a buy on `SHORT` closes, and like a reduce-only order it needs a position
//! on that side at least as large as the amount (else 116). Positions and balances are visible
//! through [`Sandbox::positions`], [`Sandbox::balance`] and `GET /sandbox/v1/accounts/{apiKey}`.
//!
//! # Trigger orders
//!
//! A trigger market order rests with `status` `OPEN`, `type` `stop market`, `activated` 0 and
//! `activationCondition` `gte` (buy) or `lte` (sell); its `clientOrderId` counts as used while
//! it rests. Its margin is checked at placement, at the activation price, but nothing is locked
//! until it fires. When a price set by [`Sandbox::set_price`] or `POST /sandbox/v1/price`
//! reaches it (buy: price ≥ activation; sell: price ≤ activation), it executes as a market
//! order at that price (`activated` 1, `FILLED`), or — when the margin or position no longer
//! allows it — becomes `CANCELED` (`activated` 1). Triggers fire in order id order.
//!
//! **Decision:** an order whose activation price is already reached when it is placed is
//! activated immediately: it fills at the current price and the answer is the filled order
//! (`activated` 1, `FILLED`), rather than being rejected or waiting for the next price move.
//!
//! # Control API
//!
//! Plain JSON over HTTP under `/sandbox/v1/` (no authentication, not counted, never faulted):
//!
//! | request | effect and answer |
//! |---|---|
//! | `POST /sandbox/v1/price` `{"market":"BTC_USDT","price":"65000"}` | sets the price, fires triggers; `{"market","price","triggered":N}` |
//! | `POST /sandbox/v1/balance` `{"apiKey":"…","ticker":"USDT","amount":"5000"}` | sets a balance; echoes the body |
//! | `GET /sandbox/v1/orders` | every accepted order, in id order |
//! | `GET /sandbox/v1/stats` | the [`SandboxStats`] counters (camelCase) |
//! | `GET /sandbox/v1/accounts/{apiKey}` | `{"apiKey","enabled","partner","positionMode","leverage","balances":{…},"positions":[…]}` |
//! | `POST /sandbox/v1/reset` | back to the initial state; `{"reset":true}` |
//!
//! Errors: HTTP 400 (bad body or value) or 404 (unknown market or account) with
//! `{"code":0,"message":"…","errors":{}}`.
//!
//! # Faults
//!
//! [`Sandbox::inject_fault`] makes a route ([`Route`]) answer with a [`Fault`] for a number of
//! requests or until [`Sandbox::clear_faults`]:
//!
//! | fault | request processed | what the client gets |
//! |---|---|---|
//! | [`Fault::Delay`] | yes | the real answer, late |
//! | [`Fault::Unavailable`] | no | HTTP 503, empty body |
//! | [`Fault::HtmlBadGateway`] | no | HTTP 502, a proxy's HTML page |
//! | [`Fault::Answer`] | no | any status, content type and body, verbatim |
//! | [`Fault::Stall`] | no | nothing: the connection stays silent until the client gives up |
//! | [`Fault::TruncatedBody`] | yes | HTTP 200, half the JSON |
//! | [`Fault::CloseMidResponse`] | yes | the full `Content-Length` announced, half the body, then a clean close |
//! | [`Fault::ResetMidBody`] | yes | the same, then a TCP reset (`RST`) |
//! | [`Fault::OversizedBody`] | yes | HTTP 200, a JSON-looking body of any size with its `Content-Length` |
//! | [`Fault::Chunked`] | yes | the real answer padded to any size, chunked, without `Content-Length` |
//!
//! Streamed bodies are generated while they are sent (a 64 MiB answer costs the sandbox no
//! memory), and [`SandboxStats::fault_body_bytes`] shows how much of them the client let the
//! server write. [`Sandbox::stop_listener`] and [`Sandbox::restart_listener`] simulate the
//! server going away and coming back on the same port.
//!
//! # Binary
//!
//! `cargo run -p txc-sandbox -- --port 8080` serves the defaults until Ctrl-C and prints the
//! base URL and the demo credentials; `--help` lists every flag.

#![forbid(unsafe_code)]

mod answer;
mod app;
mod auth;
mod builder;
mod clock;
mod config;
mod decimal;
mod defaults;
pub mod demo;
mod error;
mod faults;
mod op;
mod rate_limit;
mod routes;
mod sandbox;
mod server;
mod state;
mod stats;

pub use builder::{
    DEFAULT_MAX_BODY_BYTES, DEFAULT_ORDER_RATE_LIMIT, DEFAULT_PLANS_RATE_LIMIT, SandboxBuilder,
};
pub use config::{AccountConfig, MarketConfig, PositionMode};
pub use error::SandboxError;
pub use faults::{Fault, Route};
pub use sandbox::Sandbox;
pub use state::Position;
pub use stats::SandboxStats;

//! A WhiteBIT-compatible exchange on loopback, for testing txc clients (and any other client of
//! WhiteBIT's private v4 API) without the real exchange.
//!
//! **What it is for:** integration tests and demos. It serves, over real HTTP/1.1, the three
//! operations of the project's wire contract — `POST /api/v4/order/collateral/market`,
//! `POST /api/v4/order/collateral/trigger-market`, `POST /api/v4/main-account/smart/plans` —
//! every other collateral order type on a market with an order book (limit, stop-limit, bulk,
//! OCO, modify, the OCO listing and the conditional cancels: see [The market](#the-market)),
//! the markets' published rules (`GET /api/v4/public/markets`, `…/collateral/markets`,
//! `…/futures`), the four that close the loop on an order: open orders (`POST
//! /api/v4/orders`), order history (`POST /api/v4/trade-account/order/history`), the
//! conditional orders (`POST /api/v4/conditional-orders`) and cancel (`POST
//! /api/v4/order/cancel`), the collateral account's positions and risk controls (see
//! [Positions and risk controls](#positions-and-risk-controls)), and the rest of smart
//! investing — investing in a plan, closing an investment, the investments and interest
//! payment lists (`POST /api/v4/main-account/smart/investment`, `…/investment/close`,
//! `…/investments`, `…/interest-payment-history`) — flexible lending (the eight
//! `/api/v4/main-account/smart-flex/…` routes, see [Flexible lending](#flexible-lending)) —
//! with the exchange's authentication, rate
//! limits, validation and answer shapes — and the private event stream: the token (`POST
//! /api/v4/profile/websocket_token`) and the WebSocket at `GET /ws`
//! ([`Sandbox::websocket_url`]), whose channels report the sandbox's own order, fill, balance and
//! position changes, with its faults ([`WsFault`]). It judges requests by **its own rules, written from the exchange's docs**
//! (see [Checks and answers](#checks-and-answers)) — its authentication included: it never
//! verifies with `txc-sign`, the code that signs txc's requests, so a signing mistake in txc
//! fails against it — and answers with **its own records** written from the docs' examples:
//! it never validates with `txc-types`' builders or newtypes and never serializes `txc-types`
//! models, so it can catch the SDK being stricter or looser than the exchange, and the wire
//! does not move when the SDK's types do.
//! Tests drive it from the [`Sandbox`] handle — prices, balances, faults, reset — or over HTTP
//! through the control API.
//!
//! **What it is not for:** trading, or a faithful model of the exchange's matching engine and
//! risk system. Its book holds only the sandbox's own orders, beside a market price that
//! stands for the rest of the exchange ([The market](#the-market)); there is no TLS, no
//! liquidation, no funding, and its [`demo`] secrets are public: never expose it beyond
//! loopback.
//!
//! ```
//! use base64::Engine as _;
//! use hmac::{KeyInit, Mac};
//! use txc_sandbox::{demo, Sandbox};
//!
//! let sandbox = Sandbox::start()?;
//! // A hand-written body, signed as the docs say: the payload is the base64 of the body's
//! // bytes, the signature the lowercase hex of HMAC-SHA512 of the payload's text.
//! let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_millis();
//! let body = format!(
//!     r#"{{"request":"/api/v4/order/collateral/market","nonce":{now_ms},"nonceWindow":true,"market":"BTC_USDT","side":"buy","amount":"0.01"}}"#
//! );
//! let payload = base64::engine::general_purpose::STANDARD.encode(&body);
//! let mut mac = hmac::Hmac::<sha2::Sha512>::new_from_slice(demo::PARTNER_API_SECRET.as_bytes())?;
//! mac.update(payload.as_bytes());
//! let signature = const_hex::encode(mac.finalize().into_bytes());
//!
//! let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
//! let mut response = agent
//!     .post(format!("{}/api/v4/order/collateral/market", sandbox.base_url()))
//!     .header("content-type", "application/json")
//!     .header("x-txc-apikey", demo::PARTNER_API_KEY)
//!     .header("x-txc-payload", payload.as_str())
//!     .header("x-txc-signature", signature.as_str())
//!     .send(body.as_str())?;
//! assert_eq!(response.status().as_u16(), 200);
//! let order: serde_json::Value = serde_json::from_slice(&response.body_mut().read_to_vec()?)?;
//! assert_eq!(order["dealMoney"], "650"); // 0.01 × 65000
//! assert_eq!(sandbox.order_records(), vec![order]);
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
//! | accounts | see [`demo`]: a **B2B** partner (one-way; its canceled orders never reach the history), a regular key (hedge mode), a disabled key; 10 000 USDT each, leverage 10 |
//! | markets | `BTC_USDT` 65000 (min 0.001, step 0.000001: `stockPrec` 6; `moneyPrec` 2), `ETH_USDT` 3500 (min 0.01, step 0.0001; `moneyPrec` 2), `BTC_PERP` 65000 (min 0.001, step 0.000001; `moneyPrec` 1); totals from 5 to 10 000 000 000; taker fee 0.1 %, maker fee 0.05 %; collateral USDT; no position limit ([`MarketConfig`]) |
//! | plans | `USDT` plans with statuses 1–4 (the first is the docs' example), `BTC` plans with statuses 1 and 4 ([`PlanConfig`]); the partner's main account holds 10 000 USDT and 1 BTC to invest; a plan minute lasts a minute ([`SandboxBuilder::investment_minute`]) |
//! | flex plans | the spec's two examples — [`demo::FLEX_USDT_PLAN`] (10–100 000, 15 %) and [`demo::FLEX_BTC_PLAN`] (0.001–10, 12 %) — a paused `USDT` plan ([`demo::FLEX_PAUSED_PLAN`]) and one private to the partner ([`demo::FLEX_PARTNER_PLAN`]) ([`FlexPlanConfig`]); every account may use them ([`AccountConfig::flex_lending`]), the regular one with 10 000 USDT in its main account; a flex day lasts a day ([`SandboxBuilder::flex_accrual_interval`]) |
//! | limits | per key per 10 s: 10 000 for each order operation, 1 000 for plans and the other smart-investment operations together (the docs' `/api/v4/main-account/*` scope), 12 000 for each look-up (open orders, history, conditional orders), 10 000 for cancel; bodies up to 64 KiB |
//! | positions and risk controls | their documented limits per key per 10 s ([`SandboxBuilder::rate_limit`]): 12 000 for the balances, summaries, positions, history and hedge-mode read; 10 000 for close, cancel-all, bulk cancel and the kill switch; 1 000 for leverage and the hedge-mode switch |
//! | kill-switch second | one second ([`SandboxBuilder::kill_switch_second`]) |
//! | OTO orders | listed by the open orders as well as the conditional orders ([`SandboxBuilder::oto_orders_in_open_orders`]) |
//! | RPI orders | allowed for every account ([`AccountConfig::rpi`]) |
//!
//! # What a request goes through
//!
//! Answered in this order of precedence:
//!
//! 1. A fault injected for the route, if any ([`Fault`]).
//! 2. The body size limit: HTTP 413 `{"code":0,"message":"Request body is too large.","errors":{}}`.
//! 3. Authentication, the sandbox's own: key, payload, signature, payload equals the body's
//!    base64, `request`, `nonce`, `nonceWindow`, compact body (see the table below).
//! 4. The per-key rate limit.
//! 5. The nonce rules (server time from the sandbox's clock). From here on the nonce is used,
//!    even if the operation rejects the request.
//! 6. The operation: the body's field rules, then the checks against the account's state.
//!
//! Rejections change nothing but the counters, the rate limit and the used nonce.
//!
//! The state's one lock is held only for steps 4 and 5 and the state change of step 6:
//! authentication (the HMAC), parsing the body, the field rules and encoding the answer run
//! without it. Every look-up goes through an index — open orders by account and market, by
//! id and by `clientOrderId`; history by account and market, by id and by `clientOrderId`;
//! each market's book of resting limit orders by price and time and of waiting stop orders by
//! activation price — so a request costs the same with 1 000 or 100 000 orders stored
//! (`BENCHMARKS.md`, "Sandbox: cost per request as orders accumulate"), and placing a limit
//! order or moving the price through a few orders the same with 1 000 or 100 000 resting
//! (`benches/stored_orders.rs`).
//!
//! # Checks and answers
//!
//! Every check, the answer (HTTP status, `code`, message; field errors in `errors`) and where
//! the exchange's docs say it. Sources: `wire-contract.md` (WC), `exchange-docs-notes.md` §N
//! (EDN), `companion-endpoints.md` §N (CE). "Not documented" marks the sandbox's own choice,
//! with its reason. Error bodies are `{"code":N,"message":"…","errors":{field:[…]}}`, except
//! authentication answers, which carry only `code` and `message` (EDN §7.4's observed bodies)
//! and the 429, which is `{"code":0,"errors":{},"message":"Too many requests."}` (EDN §7.4).
//!
//! **Authentication** (all routes, in this order; written from the docs, never with
//! `txc-sign`'s verifier):
//!
//! | check | answer | source |
//! |---|---|---|
//! | `X-TXC-APIKEY`, `X-TXC-PAYLOAD` or `X-TXC-SIGNATURE` sent more than once | 401, 10, `Unauthorized request.` | not documented: official clients send each once, and which copy counts would be a guess (sandbox's choice) |
//! | `X-TXC-APIKEY` missing or empty | 401, 10, `Unauthorized request.` | not documented: answered like an unknown key |
//! | `X-TXC-PAYLOAD` missing or empty | 400, 9, `Payload not provided.` | message EDN §7.4; status and code not documented (those of `Invalid payload.`) |
//! | key unknown | 401, 10, `Unauthorized request.` | message and code EDN §7.4 (observed body); status EDN §7.2 (401: invalid authentication) |
//! | key disabled | 403, 2, `This action is unauthorized. Enable your key in API settings` | message and code EDN §7.4; status EDN §7.2 (403) |
//! | signature wrong: not the HMAC-SHA512 of the payload's text with the key's secret (compared in constant time) | 401, 10, `Unauthorized request.` | EDN §2.1 (the HMAC's input is the base64 text), §7.4 ("Request signed incorrectly") |
//! | signature not exactly 128 **lowercase** hex digits (upper or mixed case, `0x`, spaces) | 401, 10, `Unauthorized request.` | not documented: the docs give only lowercase hex and every official client sends it (Go `%x`, Python `hexdigest()`, PHP `hash_hmac`, Node `digest('hex')`, EDN §2.1), so the sandbox takes the strictest reading |
//! | payload not the standard base64, with padding, of exactly the body's bytes (unpadded, URL-safe alphabet, another body) | 400, 9, `Invalid payload.` | EDN §2.2, §7.4 (guides/first-api-call gives status and code); "standard base64 with padding" is what every official client sends (EDN §2.1): the strictest reading |
//! | body not a JSON object (not JSON, not UTF-8, an array, a duplicated `request`/`nonce`/`nonceWindow`) | 400, 9, `Invalid payload.` | not documented: the nearest documented response |
//! | `request` missing | 400, 0, `Request not provided.` | message EDN §7.4; status and code not documented |
//! | `request` is not the path | 401, 10, `Unauthorized request.` | not documented (the docs only say it "must match the endpoint path exactly") |
//! | `nonce` missing, or not an integer or a digit string | 400, 0, `Nonce not provided.` | message EDN §7.4; digit strings accepted: WC "Decisions" |
//! | `nonceWindow` not a boolean | 400, 0, `Invalid nonceWindow.` | message EDN §7.4 |
//! | body not compact (whitespace outside strings) | 400, 9, `Invalid payload.` | EDN §2.2: "rejects spaced JSON with HTTP 400" (first-api-call) |
//! | more than the rate limit | 429, 0, `Too many requests.` | EDN §8, §7.4 |
//! | no `nonceWindow`: nonce not greater than the key's previous one | 429, 0, `Too many requests.` | EDN §2.3, §7.4 |
//! | `nonceWindow`: nonce more than 5 s from server time (either way) | 401, 0, `Your nonce is more than 5 seconds lesser than the current nonce` | message: the docs' text, no final period (CE §9); status not documented (401: EDN §7.2, and the JWT endpoint's 401 for a bad nonce) |
//! | `nonceWindow`: nonce already used within the window (one request per key per millisecond) | 429, 0, `Too many requests.` | not documented ("must be unique"): the other nonce rejection's answer |
//!
//! `Content-Type` is not checked: the docs ask for `application/json` but give no answer for
//! another. A body whose envelope is readable but one of whose values is not (a number beyond
//! a double, nesting deeper than 128) passes authentication and is answered `Invalid
//! payload.` by the operation, its nonce used.
//!
//! **Orders** (market, trigger market, limit and stop-limit orders, each order of a bulk, an
//! OCO's fields; HTTP 422 and `Validation failed` unless the row says otherwise; the collateral
//! pages document only 422, EDN §3.3). Field rules first: all missing required fields at once,
//! then one field at a time — `market`, `side`, `amount`, `price`, `activation_price`, the
//! total, `clientOrderId`, `stopLoss`, `takeProfit`, `positionSide`, `stp`, `reduceOnly`, the
//! limit flags, then the combinations; then the checks against the state, in the table's order
//! from the `clientOrderId` in use on; `null` counts as absent; unknown fields are
//! ignored (CE conventions) — `price`, `postOnly`, `ioc`, `rpi` on the market and trigger
//! endpoints too, which do not take them. The market's rules are those `GET
//! /api/v4/public/markets` publishes for it.
//!
//! | check | answer | source |
//! |---|---|---|
//! | `market`, `side`, `amount` (`price` on limit and stop-limit orders, `activation_price` on trigger and stop-limit orders) missing | 30, each missing field: `Market field is required.`, … | EDN §7.5's example and the limit page's (`Price field is required.`); `Activation_price field is required.` by the same pattern (not documented) |
//! | `market` not a string | 31, `Market field should be a string.`, `Market field format is invalid.` | CE §1, §3 (the same messages on other endpoints) |
//! | `market` empty | 31, `Market field should not be empty string.` | EDN §7.5 |
//! | `market` not `BASE_QUOTE` (letters or digits, one `_`) | 31, `Market field format is invalid.` | message CE §1; the form is the docs' examples |
//! | `market` not a market (exact name) | 31, `Market is not available.` | EDN §7.5 |
//! | `side` not `buy`/`sell` | 30, `Side field should contain only 'buy' or 'sell' values.` | EDN §7.5 |
//! | `amount` neither a numeric string nor a JSON number | 32, `Amount field should be numeric string or number.` | EDN §7.5; "numeric" is PHP's `is_numeric` (`1e5`, `.5`, `" 1"` are numeric): not documented, see below |
//! | `amount` zero or negative | 32, `Amount should be greater than 0.` | EDN §7.5 |
//! | `amount` or a price beyond 28 digits or decimal places | 422, 1, `Inner validation failed`, `Invalid argument.` on the field | EDN §7.5's code-1 answer; when the exchange gives it is not documented |
//! | `amount` below the market's minimum / not a multiple of its step | 32, `Given amount is less than min amount 0.001`, `Min amount step = 0.000001` (both when both) | EDN §3.3, §7.5 |
//! | `activation_price` (trigger), `stopLoss`, `takeProfit`: not numeric / not above 0 | 33, `Activation_price field should be numeric string or number.` / `StopLoss should be greater than 0.`, … | code 33 "incorrect price" EDN §3.3 (older docs); messages by the `amount` pattern (not documented) |
//! | `clientOrderId` not a string | 36, `ClientOrderId field should be a string.` | EDN §7.5 |
//! | `clientOrderId` empty | 36, `ClientOrderId field should not be empty string.` | rule EDN §6 ("Cannot be an empty string if provided"); message like the `market` one (not documented) |
//! | `clientOrderId` with a character other than letters, digits, `-`, `.`, `_` | 36, `ClientOrderId field should contain only latin letters, numbers and dashes.` | EDN §6, §7.5 (the current spec's text) |
//! | `clientOrderId` over 64 characters | 36, `ClientOrderId field should not be longer than 64 characters.` | limit EDN §6; message not documented |
//! | `positionSide` not `LONG`/`SHORT`/`BOTH` (any case) | 30, `PositionSide field should contain only 'LONG', 'SHORT' or 'BOTH' values.` | any case: WC "Decisions"; message not documented (like `side`'s) |
//! | `stp` not `no`/`cb`/`cn`/`co`/`cancel_both`/`cancel_new`/`cancel_old` | 30, `Stp field should contain only 'no', 'cb', 'cn' or 'co' values.` | values EDN §3.1; message not documented |
//! | `reduceOnly` not a boolean | 30, `ReduceOnly field should be a boolean.` | type EDN §3.1; message not documented |
//! | `reduceOnly: true` with `stopLoss` or `takeProfit` | 30, `ReduceOnly cannot be combined with stopLoss or takeProfit.` | code EDN §3.1, §3.3; message not documented |
//! | `price` (limit, stop-limit) or `activation_price` with more decimal places than the market's `moneyPrec` (`stopLoss`, `takeProfit` too) | 33, `Min price step = 0.01` | rule: the spec's "Order validation rules" (`GET /api/v4/public/markets`); message not documented (worded like the amount's step) |
//! | `amount × price` (the activation price for a trigger order, the market's price for a market order, checked against the state) below `minTotal` / above `maxTotal` (when not `0`) | 32 on `amount`, `Total amount should be no less than 5` / `… no greater than 10000000000` | rule: the spec; code and the first wording EDN §7.5 (whose "+ trade fee" the sandbox does not add: not documented) |
//! | limit orders: `postOnly`, `ioc`, `rpi` not booleans | 30, `PostOnly field should be a boolean.` | types: the spec; message not documented |
//! | `ioc` with `postOnly` | 37, `Ioc cannot be combined with postOnly.` on `ioc` | code: the spec; message not documented |
//! | `ioc` with `rpi` | 40, `Rpi cannot be combined with ioc.` on `rpi` | the limit page's code (the bulk page's error list says 37, its field text 40: the sandbox answers 40 everywhere); message not documented |
//! | `rpi` with `postOnly: true` | 30 on `postOnly` | the spot page: "fails validation", no code: the default validation code |
//! | `clientOrderId` held by an open order of the account on that market | 36, `This client order id is already used by the current account.` | EDN §6, §7.5 |
//! | `rpi: true` for an account without RPI ([`AccountConfig::rpi`]) | 43, `Rpi orders are not allowed for the account.` on `rpi` | code: the spec; message not documented |
//! | hedge mode and `positionSide` missing or `BOTH` | 114, `Hedge mode position side does not match` on `positionSide` | EDN §3.3, §7.5 |
//! | reduce-only (or, in hedge mode, against its side) with no position it reduces | 116, `Reduce-only: Position doesn't exist or wrong side` on `reduceOnly` | EDN §7.5 |
//! | reduce-only larger than the position | accepted: the amount is cut to the position's size, and the answer's `amount` says so | EDN §3.1 |
//! | the position would exceed the market's maximum ([`MarketConfig::max_position`]) | 111, `Position would exceed the market maximum 10.` on `amount` | code: the spec; message not documented |
//! | margin and fee not covered | 422, 10, `Inner validation failed`, `{"amount":["Not enough balance."]}` | WC "Errors" |
//! | a post-only (or RPI) limit order that would execute at once | 30, `The order would be executed immediately as a taker.` on `postOnly` (`rpi`) | the spec: "The system rejects the order if it would immediately match as taker", no code: the default validation code |
//!
//! 112 (pending orders' value) and 115 (one-way mode's opposite direction) are not modelled:
//! the sandbox has no pending-value limit, and a one-way order larger than the opposite
//! position flips it (see [Orders, positions and margin](#orders-positions-and-margin)).
//!
//! **Bulk** (`POST /api/v4/order/collateral/bulk`): `orders` missing or not an array: 30
//! `{"orders":["validation.required"]}`; empty or more than 20 (the spot page's bound; the
//! collateral page gives none): 30 `validation.between`; `stopOnFail` not a boolean: 30. Each
//! order is checked as a limit order and answered in its place — `{"result":{…},"error":null}`
//! (the limit answer's fields, `oto` only when it opens a group: the bulk schema has none) or
//! `{"result":null,"error":{"code","message","errors"}}`. With `stopOnFail`, every order after
//! the first refused one is not processed and answered `{"code":30,"message":"Validation
//! failed","errors":{"stopOnFail":["Not processed: …"]}}`, so that `answer[i]` is always
//! `orders[i]`'s. A bulk counts once against the rate limit.
//!
//! **OCO** (`POST /api/v4/order/collateral/oco`): the required fields together (30: `market`,
//! `side`, `amount`, `price`, `activation_price`, `stop_limit_price`), then a limit order's
//! rules for each (31, 30, 32, 33, each leg's total 32, 36, 30); both legs' state checks (116,
//! 114, margin 10) before either is placed. Answers `{id, reduceOnly, stop_loss, take_profit}`
//! with the example's legs (`takerFee`, `makerFee`, snake_case `post_only`,
//! `activation_price`, `activation_condition`, `mtime`).
//!
//! **The OCO listing** (`POST /api/v4/oco-orders`): `market` (31, the open orders' messages),
//! `limit` 1–100 (default 50), `offset` (30); the account's pending OCOs, newest first, each
//! `{id, stop_loss, take_profit}` in the `OcoOrderLeg` shape (`type` `margin stop limit` /
//! `margin limit` as the examples; `positionSide` on futures markets only, as the schema
//! says). No `total`.
//!
//! **The cancels of conditional orders.** `oco-cancel`: `market` and exactly one of `orderId`
//! (the OCO's id) and `clientOrderId` (its legs'), with the cancel's messages (30, 31); answers
//! the OCO with both legs `CANCELED`. `conditional-cancel`: `market`, `id` (30, 31); `oto-cancel`:
//! `market`, `otoId`; both answer `[]`. A pending conditional order not found — unknown,
//! another account's or market's, executed or canceled, not distinguished — is **400**, 2,
//! `Inner validation failed`, `Unexecuted order was not found.` on `orderId` / `id` / `otoId`,
//! the spec's examples.
//!
//! **Modify** (`POST /api/v4/order/modify`): see [Modify](#modify).
//!
//! **The public market information** (no signature; 2 000 per 10 s of every caller
//! together): `GET /api/v4/public/markets` answers each market's rules in the spec's schema
//! (`name`, `stock`, `money` — a perpetual market's collateral —, `stockPrec` the amount step's
//! decimal places, `moneyPrec`, `feePrec` `8`, `makerFee` and `takerFee` as percentages,
//! `minAmount`, `minTotal`, `maxTotal`, `tradesEnabled`, `isCollateral` `true`, `type` `spot` or
//! `futures`, `isTradFiFutures` `false`, `delistedAt` `null`), in name order;
//! `…/collateral/markets` `{"success":true,"message":null,"result":[…]}` with the spot
//! markets' names; `…/futures` the same envelope with each `…_PERP` market at its current price
//! (`bid` and `ask` the book's best, else the price; volumes, open interest and funding `0`).
//! They take faults ([`Route::Markets`], …); the server time takes none.
//!
//! **Smart plans:**
//!
//! | check | answer | source |
//! |---|---|---|
//! | key not a B2B partner's | 403, 0, `You don't have permission to use this endpoint. Please contact support for more details` | EDN §5.1, §5.4 |
//! | `ticker` not a string | 400, 0, `Validation failed`, `{"ticker":["The ticker must be a string."]}` | not documented (Laravel's wording, as the documented message is Laravel's) |
//! | `ticker` not a known currency (empty and other case included) | 400, 0, `Validation failed`, `{"ticker":["The selected ticker is invalid."]}` | EDN §5.4 |
//!
//! **Smart investments** (main_api_v4.yaml, "Crypto Lending - Fixed"; every check of a body's
//! fields answers HTTP 400, code 0, `Validation failed`, all fields' problems together):
//!
//! | check | answer | source |
//! |---|---|---|
//! | key not a B2B partner's (every operation) | 403, 0, `You don't have permission to use this endpoint. …` | spec, each endpoint's 403 |
//! | invest: `planId` missing / not a plan's id | 400, `The planId field is required.` / `The selected planId is invalid.` | spec example (invalid); required: Laravel's wording, not documented |
//! | invest: `amount` missing / not numeric | 400, `The amount field is required.` / `The amount field must be a valid number` | spec example (number); required not documented |
//! | invest: `amount` below 0.000001 (zero and negative included) / more than 6 decimal places | 400, `The amount must be at least 0.000001.` / `Invalid decimal amount` | spec examples; which one answers `0.0000001` is not documented (sandbox: the first) |
//! | invest: plan status 3 / 4 / 2, or active with nothing left / any other status | 400 on `planId`: `Plan is inactive` / `Plan is paused` / `There are no coins left in the plan` / `Plan is disabled` | spec examples |
//! | invest: below `minInvestment` / above `maxInvestment` | 422, 2 / 3, `Inner validation failed`, `Amount is less than min investment` / `Amount is more than max investment` | spec |
//! | invest: above `maxPossibleInvestment` | 400 on `amount`: `The amount you are trying to invest is bigger than the amount left in this SMART plan. …` | spec example |
//! | invest: an active investment in the plan, for an account with [`AccountConfig::one_investment_per_plan`] | 422, 1, `The investment in this investment plan already exists` | spec |
//! | invest: main balance below the amount | 422, 4, `Available <balance> < <amount>` | spec example |
//! | close: `id` missing / not the account's investment | 400 on `id`: `The id field is required.` / `Investment not found` | spec examples |
//! | close: already closed | 422, 0, `Inner validation failed`, `{"error":["Investment is already closed"]}` | spec example |
//! | lists: `id` not the account's investment, `ticker` not a currency, `status` not 1 or 2 | 400: `The selected id is invalid.` / `… ticker …` / `… status …` | spec example |
//! | lists: `limit` not 1–100, `offset` not 0–10 000 | 400: `The limit must be at least 1.`, `The offset may not be greater than 10000.`, … | bounds: spec; messages Laravel's, not documented |
//! | interest payments: `planId` not a plan's id | 400, `The selected planId is invalid.` | spec example |
//!
//! Investing answers **201** `{"id":"…"}` (a UUID-shaped id), takes the amount from the
//! account's main balance and from the plan's `maxPossibleInvestment` — an active plan left
//! with nothing lists with status 2 and answers "no coins left" — and is listed at once (or
//! after a [`Fault::VisibleAfter`]'s delay). The list answers `{"offset","limit","records"}`
//! newest first (the order is not documented), each record with its plan's current record.
//! Interest accrues linearly over the plan's term, `amount × percent / 100 × elapsed / term`
//! (the spec does not say over what period `percent` runs: the sandbox takes the whole term's),
//! paid in the `interestTicker` as the source currency's interest divided by `interestRatio`,
//! rounded down to 8 places. Closing answers `{}`, pays the principal and the interest
//! accrued so far into the main balance (the spec: "Early closure is allowed and carries no
//! penalty"), records an interest payment (when not zero) and gives the amount back to the
//! plan; an investment whose term has ended is closed so at its end, when an investment
//! request next arrives.
//!
//! # Flexible lending
//!
//! The spec's "Crypto Lending - Flex" (main_api_v4.yaml): the plans, the investments, the
//! investment and payment histories, invest, withdraw, close and auto-invest, each at its
//! `/api/v4/main-account/smart-flex/…` path, counted with the main-account operations' rate
//! limit. Field problems answer **400**, code 0, `Validation failed`, every field's together;
//! the operations' refusals **422** `Inner validation failed`. Messages are the spec's
//! examples' unless the row says otherwise.
//!
//! | check | answer | source |
//! |---|---|---|
//! | flex lending off on the account ([`AccountConfig::flex_lending`]; every route, before the body) | 403, 0, `You don't have permission to use this endpoint. …` | spec, each endpoint's 403 |
//! | plans: `ticker` not a known currency / `limit` not 1–100 / `offset` below 0 | 400: `The selected ticker is invalid.` / `The limit may not be greater than 100.` (`… must be at least 1.`: Laravel's) / `The offset must be at least 0.` | spec example |
//! | investments: unknown `ticker`, `plan`, `investment` (not the account's), `investmentStatus` not 0 or 1 | 400: `The selected … is invalid.` | spec example |
//! | histories: unknown `plan`, `investment`, `transaction` (not the account's); `dateFrom`/`dateTo` not non-negative integers; `actionTypes` not an array / an item not 1–6 | 400: `The selected … is invalid.`, `The date from is invalid.`, `The action types must be an array.`, on `actionTypes.N`: `The selected action type is invalid.` | spec example (a reversed window matches nothing: not documented) |
//! | invest, withdraw, close, auto-invest: `plan` missing / not a flex plan | 400: `The plan field is required.` / `The selected plan is invalid.` | spec examples |
//! | invest, withdraw: `amount` missing / not numeric / more than 6 decimal places | 400: `The amount field is required.` (Laravel's) / `The amount field must be a valid number` / `Invalid decimal amount` (the fixed plans' rule: not documented for flex) | spec example |
//! | invest `withReinvest`, auto-invest `enabled` not a boolean (`true`, `false`, `1`, `0`, `"1"`, `"0"`) | 400: `The with reinvest field must be true or false.` (Laravel's) / `The enabled field must be true or false.` | spec example |
//! | invest: `amount` zero or negative / plan inactive (3) / unavailable (2, any other) / paused (4) / private to other accounts | 422, 0: `Amount is too small` / 400 `The selected plan is invalid.` / `Plan is unavailable` / `Plan is paused` / `Private plan not available for this user` | spec examples |
//! | invest: below `minInvestment` / above `maxInvestment` / what is invested plus the amount above `maxInvestment` / main balance short | 422, 2 / 3 / 0 `Investment limit is exceeded` / 4 `Available 9 < 10` | spec examples; the cap being `maxInvestment` is the sandbox's reading |
//! | withdraw: plan not active or not offered to the account / no investment / closed / amount zero or negative / below the plan's least withdrawal ([`FlexPlanConfig::min_withdrawal`]) / above what is invested / leaving less than `minInvestment` | 400 `The selected plan is invalid.` ("Plan must be active and accessible") / 422, 0: `Investment does not exist` / `Cannot withdraw from closed investment` (on `investment`) / `Withdraw amount is too small` / `Cannot withdraw amount < min possible` / `Withdraw amount exceeds total invested` / on `minAmountLeft`: `Amount left < min investment` | spec examples; nothing left counts as less than the minimum (close takes everything) |
//! | close: no investment / closed | 422, 0: `Investment does not exist` / `Cannot withdraw from closed investment` | spec examples |
//! | auto-invest: no active investment in the plan | 422, 0, on `plan`: `No existing investments for this plan` | spec example |
//!
//! Answers: the plans a bare array of `{id, ticker, minInvestment, maxInvestment, maxRate}`
//! (the active ones offered to the account: public, or private to it); the lists `{"data",
//! "limit", "offset"}`, newest first (not documented); invest, withdraw and close **201**
//! `{"data":{"transaction_id":"tx_…"}}`; auto-invest `{"data":[]}`. One investment per
//! account and plan: investing creates it (history `INVEST`), tops it up (`INVEST`) or
//! reopens it once closed (`OPEN_INVESTMENT`); `withReinvest` sets its reinvestment when
//! sent, else a new one does not reinvest and an existing one keeps its setting. A closed
//! investment lists with status 0 and `invested` `"0"`. At the end of each flex day (a
//! multiple of [`SandboxBuilder::flex_accrual_interval`] since the Unix epoch), each active
//! investment earns `principal × maxRate / 365`, cut to 8 places, on the least amount that
//! stayed invested all day: a `DAILY_EARNING` paid into the main balance, or with
//! auto-reinvestment also a `REINVEST` that adds it to the investment. Accrual is settled
//! before every flex request and [`Sandbox`] read, and every 10 ms; records carry the day's
//! end. [`Sandbox::set_flex_plan_status`] pauses or reopens a plan while the sandbox runs;
//! [`Sandbox::flex_plan_records`], [`Sandbox::flex_investment_records`] and
//! [`Sandbox::flex_history_records`] show the state.
//!
//! **Open orders** (`POST /api/v4/orders`; CE §1). `market` problems first (31), then every
//! other field's together (30), as in the docs' example:
//!
//! | check | answer | source |
//! |---|---|---|
//! | `market` not a string / empty / not `BASE_QUOTE` | 422, 31, `Market field should be a string.` / `Market field should not be empty string.` / `Market field format is invalid.` | CE §1 (older docs) |
//! | `market` not a market | 422, 31, `Market is not available` (no final period) | CE §1, verbatim |
//! | `limit` not an integer / below 1 / above 100 | 422, 30, `The limit must be an integer.` / `The limit must be at least 1.` / `The limit may not be greater than 100.` | CE §1 |
//! | `offset` not an integer / below 0 / above 4294967295 | 422, 30, `The offset must be an integer.` / `… must be at least 0.` / `… may not be greater than 4294967295.` | CE §1 |
//! | `orderId` not an integer (an integer or a digit string) | 422, 30, `The order id must be an integer.` | not documented (this endpoint's wording) |
//! | `clientOrderId` not a string / empty | 422, 30, `The client order id must be a string.` / `… must not be empty.` | not documented |
//! | `orderId` or `clientOrderId` without `market` | 422, 31, `The market field is required.` | rule CE §1 ("search across all markets is available only if …"); message CE §1 (older docs) |
//! | nothing matches | 200 `[]` | not documented |
//!
//! It lists the key's open orders — resting limit orders and stop orders; market orders
//! execute at once — newest first (the order is not documented), `limit` 50 and `offset` 0 by
//! default, in the shared `OrderResponse` shape, keys in the order of the spec's one example
//! (the OTO `conditionalOrder`): the placement record's head, `ioc`, `status` (`OPEN`, or
//! `PARTIALLY_FILLED` once a resting order executed in part), `stp`, `oto` only for an OTO order
//! (never `null`), `rpi`, `reduceOnly`, `price` and `postOnly` on limit and stop-limit orders
//! (none on stop-market orders), `positionSide`, and on stop orders `activated`,
//! `activationCondition` and `activation_price` (snake_case). An OCO's two legs share its
//! `clientOrderId`: a look-up by it lists both.
//!
//! **Order history** (`POST /api/v4/trade-account/order/history`; CE §2). Every field's type
//! problems together (30, the older docs' wording for this endpoint), then `market`'s form and
//! existence (31), then the date rules (30):
//!
//! | check | answer | source |
//! |---|---|---|
//! | `market` not a string | 422, 30, `Market field should be a string.` | CE §2 (older docs) |
//! | `market` not `BASE_QUOTE` / not a market | 422, 31, `Market field format is invalid.` / `Market is not available.` | CE §2 (older docs) / not documented |
//! | `limit` not an integer / below 1 / above 500 | 422, 30, `Limit field should be an integer.` / `Limit should be at least 1.` / `Limit should not be greater than 500.` | CE §2 (older docs' wording, current bound) |
//! | `offset` not an integer / below 0 | 422, 30, `Offset field should be an integer.` / `Offset should be at least 0.` | CE §2 |
//! | `orderId`, `startDate`, `endDate` not integers | 422, 30, `OrderId field should be an integer.`, `StartDate field …`, `EndDate field …` | wording of CE §3's `orderId` message; dates not documented |
//! | `clientOrderId` not a string / empty | 422, 30, `ClientOrderId field should be a string.` / `… should not be empty string.` | EDN §7.5 / not documented |
//! | `status` not `ALL`/`FILLED`/`CANCELED`/`PARTIALLY_FILLED` | 422, 30, `Status field should contain only 'ALL', 'FILLED', 'CANCELED' or 'PARTIALLY_FILLED' values.` | values CE §2; message not documented |
//! | `startDate` before 6 months ago (00:00 UTC; 183 days) | 422, 30, `StartDate should not be earlier than 6 months ago.` | rule CE §2; message not documented |
//! | `endDate − startDate` over 31 days | 422, 30, `The period between startDate and endDate should not be greater than 31 days.` | rule CE §2; message not documented |
//! | `startDate` after `endDate` | 422, 30, `StartDate should not be greater than endDate.` | not documented |
//! | `clientOrderId` look-up matching nothing | 422, 30, `{"orderHistory":["OrderHistory was not found."]}` | CE §2, verbatim |
//! | `orderId` look-up matching nothing, or an empty list | 200 `[]` | CE §2 ("an empty result"); `[]` rather than `{}` because PHP writes an empty array so (not documented) |
//!
//! It answers an object keyed by market (markets in name order), each an array of the key's
//! finished orders (filled, canceled, auto-canceled; open orders are not history) newest first,
//! `limit` and `offset` applied across markets. Records: `id` (not `orderId`), no `market`,
//! `ctime`, `ftime` (when the order was filled or canceled), `price` (a limit or stop-limit
//! order's, else `"0"`), `postOnly`, `ioc`, `rpi` as sent, `feeAsset` the market's collateral,
//! and on stop orders `activationPrice`
//! (camelCase), `activated` the activation's Unix time (`0` if it never fired) and
//! `activationCondition` `">="` / `"<="`. Look-up mode (`orderId`, which wins, or
//! `clientOrderId`, matching every order that carried it) ignores `status` and the dates; list
//! mode takes creation times from `startDate` (default now − 30 days) to `endDate` (default
//! now; later values clamped to now). `status` `CANCELED` takes every canceled status;
//! `PARTIALLY_FILLED` the finished orders that executed in part before their rest was canceled
//! (the history lists finished orders only).
//! [`AccountConfig::canceled_orders_in_history`]`(false)` models the docs' B2B accounts, whose
//! canceled orders are not recorded; the demo partner ([`demo::PARTNER_API_KEY`]) is one.
//!
//! **Conditional orders** (`POST /api/v4/conditional-orders`; the spec's
//! `getConditionalOrders`). `market` problems first (31), then the page (30):
//!
//! | check | answer | source |
//! |---|---|---|
//! | `market` not a string / empty / not `BASE_QUOTE` | 422, 31, the open orders' messages | code: the spec ("the `market` filter is unknown"); messages not documented (CE §1's) |
//! | `market` not a market | 422, 31, `Market is not available` | code: the spec; message CE §1's |
//! | `limit` not an integer / below 1 / above 100 | 422, 30, `The limit must be an integer.` / `… at least 1.` / `… may not be greater than 100.` | bounds: the spec; messages CE §1's |
//! | `offset` not an integer / below 0 / above 4294967295 | 422, 30, as for the open orders | the spec |
//!
//! It answers `{"limit","offset","total","records"}`: every pending conditional order of the
//! key of the market (or all), newest first, the page cut from them and `total` counting them
//! all. An OTO group — a resting order with a stop-loss or take-profit — is `{"id"` (the
//! group's `otoId`), `"type":"oto"`, `"stopLossPrice"`, `"takeProfitPrice"` (each only when
//! given), `"conditionalOrder"` (the order in the `OrderResponse` shape)`}`; an OCO whose legs
//! are both pending is `{"id","type":"oco","stopLoss","takeProfit"}` with camelCase legs (the
//! spec's `ConditionalOrderLeg`, `positionSide` always, as its example) — each in the spec
//! example's order. A group whose order executed is no longer pending (see [OTO groups and
//! OCOs](#oto-groups-and-ocos)).
//!
//! **Cancel** (`POST /api/v4/order/cancel`; CE §3). Field problems together (30), then the
//! market's existence (31):
//!
//! | check | answer | source |
//! |---|---|---|
//! | `market` missing or empty; neither id | 422, 30, `{"market":["Market field is required."],"orderId":["OrderId field is required."]}` | CE §3, verbatim |
//! | `market` not a string | 422, 30, `Market field should be a string.`, `Market field format is invalid.` | CE §3, verbatim |
//! | `market` not `BASE_QUOTE` | 422, 30, `Market field format is invalid.` | CE §3 |
//! | `orderId` not an integer (an integer or a digit string) | 422, 30, `OrderId field should be an integer.` | CE §3 |
//! | `clientOrderId` not a string | 422, 30, `ClientOrderId field should be a string.` | EDN §7.5's wording |
//! | both ids | 422, 30, `{"orderId":["Only one of orderId and clientOrderId may be sent."]}` | rule CE §3; message not documented |
//! | `market` not a market | 422, 31, `Market is not available.` | CE §3 |
//! | no such open order of the key on that market (unknown, filled, already canceled) | **400**, 2, `Inner validation failed`, `{"orderId":["Unexecuted order was not found."]}` | CE §3: the spec labels `Inner validation failed` HTTP 400; filled and canceled are not distinguished, as on the docs' other cancel endpoints |
//!
//! Success answers the canceled order's final state in the `OrderResponse` shape (`status`
//! `CANCELED`); the order is then history, its `clientOrderId` free, and it never fires. Only
//! resting orders can be canceled (limit orders, partly executed or not, and stop orders):
//! market orders execute at once. An OCO leg canceled here takes the other leg with it; an OTO
//! order its group. Cancel acts on an order even while [`Fault::VisibleAfter`] hides it from
//! the look-ups.
//!
//! **Outside the exchange's protocol** (answered with `{"code":0,"message":…,"errors":{}}`):
//! unknown paths 404 `Not found.`, wrong methods 405 `Method not allowed.`, bodies over the
//! limit 413, and — after authentication — a JSON number beyond a double's range (`1e400`),
//! which the sandbox cannot read: 400, 9, `Invalid payload.`.
//!
//! **Numeric strings.** The docs say only "numeric string or number". The exchange's messages
//! are Laravel's (`The selected ticker is invalid.`, `validation.required` keys, EDN §7.1), whose
//! `numeric` rule is PHP's `is_numeric`: surrounding whitespace, a sign, digits with an optional
//! fraction (`1.`, `.5`) and an optional exponent. The sandbox uses that definition and the
//! number's value (`"1e5"` is 100 000; JSON numbers are read as doubles, as PHP reads them).
//!
//! **Contradiction.** The docs' error list gives 114 for "LONG/SHORT in one-way mode", while the
//! field's own description says it "is ignored" there and answered as `BOTH` (EDN §3.1, §3.3).
//! The sandbox follows the field description, as the wire contract does.
//!
//! # Orders, positions and margin
//!
//! With an empty book a market order fills completely at the market's current price (see [The
//! market](#the-market) for what the book changes) and answers the docs' record (EDN §3.2),
//! keys in the docs' order: `orderId`, `clientOrderId` (`""` when none was given),
//! `market`, `side`, `type` `market`, `timestamp` (seconds with a microsecond fraction),
//! `dealMoney` = amount × price, `dealStock`, `amount`, `left` `"0"`, `dealFee` = dealMoney ×
//! taker fee, `status` `FILLED`, `stp` in the short form, `oto` `{otoId, stopLoss, takeProfit}`
//! when a stop-loss or take-profit was given (else `null`), `positionSide` (`BOTH` in one-way
//! mode, whatever was sent; the sent side in hedge mode) and `reduceOnly`. Prices are echoed as
//! sent; amounts are written without trailing zeros.
//!
//! Margin: the part of a fill that opens or grows a position locks amount × price / leverage
//! of the market's collateral currency; the part that reduces one releases its share of the
//! locked margin plus the realized profit or loss; the fee (taker or maker, to 8 decimal
//! places) is always paid. An order is rejected with code 10 when the balance plus what it
//! releases does not cover what it locks plus the taker fee, at the price it would first
//! execute at (the market's for a market order or a marketable limit order, its limit price
//! for a resting one, its activation price for a waiting stop-market order); a resting order
//! locks nothing until it executes, and one whose fill the balance no longer covers is then
//! canceled (`CANCELED`, keeping what it executed). In one-way mode an order larger than the opposite position flips it. A reduce-only
//! order, and in hedge mode a sell on `LONG` or a buy on `SHORT` (which can only close that
//! side: sandbox's choice), needs a position on the other side (else 116) and is cut to its
//! size. Positions and balances are visible through [`Sandbox::positions`], [`Sandbox::balance`]
//! and `GET /sandbox/v1/accounts/{apiKey}`.
//!
//! # Positions and risk controls
//!
//! Sources: the exchange's OpenAPI file `http-trade-v4.yaml` (HT, by path) and
//! `companion-endpoints.md` (CE). Every field problem is HTTP 422 `Validation failed` with the
//! code below; messages the docs do not give are Laravel's or the older docs' field wording
//! (sandbox's choice).
//!
//! | route | checks and answers | source |
//! |---|---|---|
//! | `collateral-account/balance`, `…/balance-summary` | `ticker` not a string or not a currency of the markets: 30 `ticker is invalid.`; answers ticker → JSON number of each balance / one record per asset (`borrow` `"0"`, `availableWithBorrow` = balance × leverage) | HT (the docs' one error example) |
//! | `collateral-account/summary` | equity = free collateral + margin + unrealized profit, `marginFraction` = margin / equity (4 places), `unrealizedFunding` `"0"` | HT |
//! | `collateral-account/positions/open` | `market` not a string or not `BASE_QUOTE`: 30; a well-formed market with no position: `[]`; records in the docs' example's fields: `positionId`, dates, signed `amount` (negative short: the docs show only a long), `basePrice`, `pnl` (realized by partial closes), `pnlPercent`, `margin`, `freeMargin`, `unrealizedPnl` at the current price, `funding`/`unrealizedFunding` `"0"`, `liquidationPrice`/`liquidationState` `null` (no liquidation), `tpsl` the waiting take-profit and stop-loss attached over the socket (`takeProfitId`, `takeProfit`, `stopLossId`, `stopLoss`; a leg not attached left out) or `null` | HT; CE §7 |
//! | `collateral-account/positions/history` | `positionId`, `startDate`, `endDate`, `limit` (1–100, default 50: not documented), `offset` (≥ 0) integers; `startDate ≤ endDate ≤ now + 1 s`: else 30; events newest first, each fill that changed a position (a flip closes one and opens another), in the current shape (`side`, `isHedge`, no `positionSide`) with the order behind it | HT ("Date filter window") |
//! | `collateral-account/position/close` | `positionId` and `market` required (30); in hedge mode `positionSide` `LONG`/`SHORT` required (30: sandbox's choice, the docs say it "defines the position direction when hedge mode is enabled"); not the key's open position on that market (or side): **400** 104 `Position not found.`; a reduce-only market order for the whole position is placed (it shows in the order history), 10 when the balance cannot fund it; success: an **empty** body (none is documented) | HT |
//! | `collateral-account/leverage` | `leverage` one of 1, 2, 3, 5, 10, 20, 50, 100 (30); 113 while a position or order is open — the docs contradict themselves ("affects all open positions" and code 113), and the sandbox's margins are locked at each fill; answers `{"leverage": n}` | HT; CE "Surprises" 5 |
//! | `collateral-account/hedge-mode`, `…/hedge-mode/update` | `hedgeMode` a boolean (30); 113 while a position or order is open, with the older docs' message; the switch answers an **empty** body (none is documented) | HT; CE §4 |
//! | `order/cancel/all` | `market` not a string / not `BASE_QUOTE`: 30; not a market: 31; `type` not an array or an unknown kind: 30; `positionSide` (`both`/`long`/`short`, lower case) only with a `_PERP` market: 30; cancels the key's open orders that match, through the order book's index; answers `[]` | HT |
//! | `order/cancel/bulk` | `orders` missing or not an array: 30 `validation.required`; empty or over 100: 30 `validation.between`; each item answered in place, `{"result":…,"error":null}` or the reverse: not an object (`Invalid order format`), no `market` (`validation.required`), not a market (`validation.market_not_exist`), neither or both ids (`validation.required`, `api.validation.order.chooseOneId`), not the key's open order (404 `Order does not exist or already cancelled`) | HT |
//! | `order/kill-switch` | `market` and the `timeout` key required (30, both reported together); not a market: 31; `timeout` `"5"`–`"600"` (an integer is read too; 30 `Timeout should be at least 5.`), `null` deletes (answer `[]`); `types` 1–3 kinds; answers `{market, startTime, cancellationTime = startTime + timeout, types}` (`types` `null` when not given) | HT |
//! | `order/kill-switch/status` | `market` not a market: 31; the key's timers by market | HT |
//!
//! **The kill switch** runs on the sandbox's clock: a timer set at `t` runs out at `t +
//! timeout` (each second lasting [`SandboxBuilder::kill_switch_second`]) unless set again, and
//! then the key's open orders on that market of the targeted kinds — `margin` on a spot market,
//! `futures` on a `_PERP` one — are canceled (`CANCELED`). A timer runs out at the first moment
//! the state is touched after its deadline — before any request is processed and before any
//! [`Sandbox`] read — and a task looks every 10 ms, so it runs out on time without requests.
//! [`Sandbox::kill_switch_timers`] lists the timers that have not run out.
//!
//! # Stop orders
//!
//! A trigger market order (stop-market) answers the same record with `type` `stop market`,
//! `activation_price` as sent, `activated` 0 and `activationCondition` `gte` (buy) or `lte`
//! (sell) (EDN §4.2, the shared `OrderResponse` schema); its `clientOrderId` counts as used
//! while it rests. Its margin is checked at placement, at the activation price, but nothing is
//! locked until it fires. When a price set by [`Sandbox::set_price`] or `POST
//! /sandbox/v1/price` reaches it (buy: price ≥ activation; sell: price ≤ activation), it
//! executes as a market order at that price (`activated` 1, `FILLED`; a reduce-only order cut
//! to the position), or becomes `AUTO_CANCELED_REDUCE_ONLY` (a reduce-only order with nothing
//! left to reduce) or `CANCELED` (the margin no longer covers it), `activated` 1. Triggers
//! fire in order id order.
//!
//! **A resting trigger order answers `status: "OPEN"` — the sandbox's choice, not a
//! documented value.** The documented create-order statuses (`FILLED`, `PARTIALLY_FILLED`,
//! `CANCELED`) have no resting value, and the docs' own trigger example shows `FILLED` with
//! nothing dealt, which no client could tell from a fill; `NEW` is declared WebSocket-only.
//! The only captured record of a resting order in the docs (a staging capture of an
//! `/api/v4/orders`-shaped record) shows `OPEN` (CE "Surprises" 2), so the sandbox uses it.
//! Clients must keep unknown statuses anyway.
//!
//! **Decision:** an order whose activation price is already reached when it is placed is
//! activated immediately: it fills at the current price and the answer is the filled order
//! (`activated` 1, `FILLED`), rather than being rejected or waiting for the next price move.
//!
//! A stop-limit order (`POST /api/v4/order/collateral/stop-limit`) answers the spec example's
//! record — `type` `stop limit`, `price`, `activation_price` — plus `activated` and
//! `activationCondition`, as the stop-market one. Activated by the same rule, it becomes a
//! limit order at its `price` (its type unchanged, as the stream's docs say): it executes what
//! it can at once and rests with the rest. On the stream an activation is an `event_id=1` for
//! the same `orderId` (the AsyncAPI's "Stop Order Activation"), then its fills.
//!
//! # The market
//!
//! Each market has a book of the sandbox's resting limit orders — bids best (highest) first,
//! asks best (lowest) first, then oldest — and of its waiting stop orders, and a price: the
//! price stands for the rest of the exchange, which buys and sells any amount there.
//!
//! **Taking** (a market order, a fired stop-market order, the marketable part of a limit
//! order): the book's orders priced at least as well as the market's price come first, best
//! price then oldest, each at its own price as maker; then the rest from the market at its
//! price; a limit order stops at its limit price. A resting order is always priced worse than
//! the market (a bid below, an ask above) unless a price move with a volume left it crossed:
//! so with an empty book — or one holding only such orders — every taker executes at the
//! market's price, as market orders did before the book existed. Taker fills pay the market's
//! taker fee, resting orders' fills its maker fee ([`MarketConfig::taker_fee`],
//! [`MarketConfig::maker_fee`], published as percentages). A self-trade follows the taker's
//! `stp`: `no` trades, `cn` cancels the taker's rest, `co` the resting order, `cb` both
//! (`CANCELED_STP`).
//!
//! **Limit orders** (`POST /api/v4/order/collateral/limit`): the spec example's record (keys
//! in its order: `…`, `dealFee`, `price`, `postOnly`, `ioc`, `status`, `stp`, `oto`,
//! `positionSide`, `rpi`, `reduceOnly`). What executes at once is taken; the rest rests
//! (`OPEN`, or `PARTIALLY_FILLED`), or with `ioc` is canceled (`CANCELED`). A `postOnly` or
//! `rpi` order that would take is refused (30); `rpi` is post-only by design and otherwise a
//! limit order like another (the sandbox has no retail takers and no RPI fee premium).
//!
//! **Price moves** ([`Sandbox::set_price`], [`Sandbox::move_price`],
//! [`Sandbox::follow_price_path`], [`Sandbox::play_price_path`], `POST /sandbox/v1/price`,
//! `POST /sandbox/v1/price-path`): the new price executes the resting orders it crosses — bids
//! at or above it, asks at or below it — best first, then oldest, each at its own price as
//! maker, for as much as the move's volume ([`PriceStep::volume`]; none: all of them): the
//! last one reached in part, the rest staying crossed until a later move or a taker takes
//! them. Then it activates the stop orders it reached, in id order.
//!
//! **Statuses.** A resting order with nothing executed answers `OPEN`, one that executed in
//! part `PARTIALLY_FILLED`; then `FILLED`, or `CANCELED` (keeping what it executed),
//! `AUTO_CANCELED_REDUCE_ONLY` (a reduce-only order with no position left to reduce, cut
//! first to the position when there is one), `CANCELED_STP`.
//!
//! # OTO groups and OCOs
//!
//! **OCO** (`POST /api/v4/order/collateral/oco`): a stop-limit leg (the stop-loss: created
//! first, `activation_price` then a limit at `stop_limit_price`) and a limit leg (the
//! take-profit, at `price`), same side and amount, both carrying the `clientOrderId`. They are
//! linked: once one leg executes anything, activates (the stop-loss leg) or ends, the other
//! is canceled — an OCO never executes both legs. A take-profit leg that can execute when
//! placed does at once (canceling the stop-loss leg); a stop-loss leg already reached activates
//! at once (canceling the take-profit leg). An OCO is pending — listed, cancelable by its id —
//! while neither leg has executed, activated or ended.
//!
//! **OTO**: an order with a `stopLoss` or `takeProfit` (market, trigger, limit, stop-limit)
//! opens a group, pending while the order rests. When the order ends by executing — filled,
//! or its rest canceled by `ioc`, the market or self-trade prevention after executing a part —
//! the group activates for what it executed: a reduce-only stop-market order at the stop-loss
//! and a reduce-only limit order at the take-profit, on the other side, linked like an OCO's
//! legs (the open orders and the history show them; [`Sandbox::order_records`] does not:
//! no request placed them). An order that ends with nothing executed, or is canceled (by the
//! account, a kill switch, a group cancel), takes its group with it.
//!
//! **Cancels.** `conditional-cancel` takes the ids `POST /api/v4/conditional-orders` lists —
//! an OCO's id (not a leg's `orderId`, though the spec's examples show one) or an OTO's
//! `otoId` — and cancels the OCO's two legs, or the OTO's order with its group. `oto-cancel`
//! does the latter for OTO ids only: it cancels the OTO's order too — the group is the order
//! and what it would place (the spec does not say; the sandbox's choice). `oco-cancel` takes
//! the OCO's id as `orderId`, or its `clientOrderId`.
//!
//! # Modify
//!
//! `POST /api/v4/order/modify` (tagged Spot Trading in the spec, which lists limit, stop-limit
//! and stop-market orders: the sandbox serves it for its collateral orders) cancels the open
//! order named by `market` and exactly one of `orderId` / `clientOrderId` and creates a
//! replacement with a **new `orderId`** — the stream shows `event_id=3` for the original, then
//! `event_id=1` for the replacement, as the spec's note says. The replacement is the original
//! with `amount` (else what the original had left), `price`, `activationPrice`, `stp` as sent;
//! `total` gives a buy stop-market order the amount `total ÷ activation price`, rounded down
//! to the step. It keeps the `clientOrderId`, the flags, the OTO group and the OCO or linked
//! order, is checked as a new order before anything changes (a refused modify changes
//! nothing) and executes what it can at once. Answer: the replacement in the `OrderResponse`
//! shape.
//!
//! | check | answer | source |
//! |---|---|---|
//! | `market` missing, neither or both ids, `orderId` not an integer | 30, the cancel's messages | rule: the spec; messages CE §3 |
//! | `market` not a market | 31, `Market is not available.` | the spec's example |
//! | `amount`/`total` not numeric or not above 0; `amount` below the minimum or off the step | 32 | the order endpoints' code (modify's list has no validation code: sandbox's choice) |
//! | `price`/`activationPrice` not numeric, not above 0, beyond `moneyPrec` | 33 | likewise |
//! | none of `amount`, `total`, `price`, `activationPrice` | 30 on `amount` | rule: the spec; code: the default validation code |
//! | both `amount` and `total` | 30 on `total` | rule: the spec ("mutually exclusive") |
//! | `price` on a stop-market order; `activationPrice` on an order not waiting for one; `total` on anything but a buy stop-market order | 30 on that field | the spec's note; code: the default validation code |
//! | the new total below `minTotal` / above `maxTotal` | 32 | the markets' rules |
//! | no such open order of the key on that market | **400**, 2, `Inner validation failed`, `{"orderId":["Unexecuted order was not found."]}` | the spec's example |
//! | margin (10 on `amount`, as the spec's example), a post-only replacement that would take (30), 111 | as for a new order | the spec |
//!
//! # Control API
//!
//! Plain JSON over HTTP under `/sandbox/v1/` (no authentication, not counted, never faulted):
//!
//! | request | effect and answer |
//! |---|---|
//! | `POST /sandbox/v1/price` `{"market":"BTC_USDT","price":"65000"}` | sets the price: executes the resting orders it crosses, activates the stops it reaches; `{"market","price","triggered":N}` |
//! | `POST /sandbox/v1/price-path` `{"market":"BTC_USDT","steps":[{"price":"64000"},{"price":"63500","volume":"0.25"}]}` | moves the price along the steps at once (every step checked first): `{"market","moves":[{"market","price","filled","triggered"},…]}`; with `"intervalMs":N`, one step every N ms in the background: `{"market","scheduled":steps}` |
//! | `POST /sandbox/v1/balance` `{"apiKey":"…","ticker":"USDT","amount":"5000"}` | sets a balance; echoes the body |
//! | `GET /sandbox/v1/orders` | every accepted order's placement record in its current state, in id order (hidden orders included) |
//! | `GET /sandbox/v1/stats` | the [`SandboxStats`] counters (camelCase) |
//! | `GET /sandbox/v1/accounts/{apiKey}` | `{"apiKey","enabled","partner","positionMode","leverage","balances":{…},"mainBalances":{…},"positions":[…]}` |
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
//! | [`Fault::Answer`] | no | any status, content type and body, verbatim ("5xx without executing") |
//! | [`Fault::RetryAfter`] | no | HTTP 429 `Too many requests.` with that `Retry-After` |
//! | [`Fault::AnswerAfterProcessing`] | yes | the same, after the order was placed or canceled ("5xx after executing") |
//! | [`Fault::DropAfterProcessing`] | yes | no answer: the connection is closed once the request was executed |
//! | [`Fault::VisibleAfter`] | yes | the real answer; the order it places stays out of the look-ups for a while after placement |
//! | [`Fault::Lagging`] | yes | a look-up answers from the orders as they were a while ago (each look-up's route lags on its own) |
//! | [`Fault::Stall`] | no | nothing: the connection stays silent until the client gives up |
//! | [`Fault::TruncatedBody`] | yes | HTTP 200, half the JSON |
//! | [`Fault::CloseMidResponse`] | yes | the full `Content-Length` announced, half the body, then a clean close |
//! | [`Fault::ResetMidBody`] | yes | the same, then a TCP reset (`RST`) |
//! | [`Fault::OversizedBody`] | yes | HTTP 200, a JSON-looking body of any size with its `Content-Length` |
//! | [`Fault::Chunked`] | yes | the real answer padded to any size, chunked, without `Content-Length` |
//!
//! Every route of the positions and risk controls takes faults too: on close and cancel-all,
//! [`Fault::DropAfterProcessing`] and [`Fault::AnswerAfterProcessing`] leave a client not
//! knowing whether the position was closed or the orders canceled. So do the routes of
//! limit, stop-limit, bulk and OCO orders, modify and the conditional cancels (a lost answer,
//! a 5xx after or without processing; [`Fault::VisibleAfter`] hides the orders they place —
//! every order of a bulk, both legs of an OCO, a modify's replacement), the OCO listing
//! ([`Fault::Lagging`]) and the public market routes; and every flex route
//! ([`Route::FlexInvest`] and its kin): an investment, withdrawal, close or auto-invest
//! processed and its answer lost or replaced by a 5xx; [`Fault::Lagging`] makes the flex
//! investments and histories answer as they were a while ago, and [`Fault::VisibleAfter`]
//! keeps an investment's change out of them for a while.
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
#![cfg_attr(docsrs, feature(doc_cfg))]

// The layers, each importing only those below it (a module's doc says what it is and is not
// for):
//
//   wire, config   the exchange's words and records; what the builder configures
//   rules          pure checks of request bodies, from the spec
//   state          accounts, orders, positions, investments; emits its `Change`s
//   auth           authentication and limits; the state behind its one lock
//   routes, ws     HTTP (and the faults injected into it); the WebSocket, the state's subscriber
//   app            the `Sandbox` handle, its builder, the server
mod app;
mod auth;
mod config;
mod routes;
mod rules;
mod state;
mod wire;
mod ws;

pub use app::{Sandbox, SandboxBuilder};
pub use config::demo;
pub use config::{
    AccountConfig, DEFAULT_CANCEL_RATE_LIMIT, DEFAULT_FLEX_ACCRUAL_INTERVAL,
    DEFAULT_FUNDING_INTERVAL, DEFAULT_LOOKUP_RATE_LIMIT, DEFAULT_MAINTENANCE_MARGIN_RATE,
    DEFAULT_MARGIN_CALL_RATE, DEFAULT_MAX_BODY_BYTES, DEFAULT_ORDER_RATE_LIMIT,
    DEFAULT_PLANS_RATE_LIMIT, DEFAULT_WS_IDLE_TIMEOUT, DEFAULT_WS_REQUESTS_PER_MINUTE,
    FlexPlanConfig, MarketConfig, PlanConfig, PositionMode, PriceStep, Route, SandboxError,
};
pub use routes::Fault;
pub use state::{KillSwitchTimer, Position, PriceMove, SandboxStats};
pub use ws::WsFault;

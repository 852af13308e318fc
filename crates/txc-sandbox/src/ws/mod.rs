//! The private WebSocket at `GET /ws`, written from the exchange's AsyncAPI files and guide:
//! JSON-RPC requests `{"id", "method", "params"}` answered `{"id", "result", "error"}`;
//! `authorize` with a token from `POST /api/v4/profile/websocket_token` and `"public"`; `ping`
//! answered `"pong"`; the private channels' `_subscribe`/`_unsubscribe`, and their `_update`s
//! fed by the sandbox's own changes: the feed (`feed::Feed`) is the state's subscriber
//! (`crate::state::Subscriber`), broadcasting each change to every connection.
//!
//! | what | the sandbox does | source |
//! |---|---|---|
//! | idle connection | closed (code 1000, `idle`) when nothing arrived for 60 s ([`SandboxBuilder::ws_idle_timeout`](crate::SandboxBuilder::ws_idle_timeout)) | guide: "Inactivity timeout 60 seconds" |
//! | requests per connection | more than 200 in any minute closes it (code 1008) ([`SandboxBuilder::ws_requests_per_minute`](crate::SandboxBuilder::ws_requests_per_minute)) | AsyncAPI `x-rate-limits`; what happens past it is not documented (sandbox's choice) |
//! | errors | code 1 `invalid argument` (bad params, unknown market or method), code 6 `require authentication` (a private channel before `authorize`), code 6 `authorization failed` (an unknown token) | the guide's one example is code 1; the others are the sandbox's choice |
//! | `ordersPending` | event 1 for a resting order and when a stop order activates (same id), 2 when a resting order executes in part, 3 when it fills or is canceled; an order that fills at once sends only 3; a modify sends 3 for the original, then 1 for the replacement | AsyncAPI `orders_pending.yaml` |
//! | `ordersExecuted` | the order as it stands after each change that executed some of it (filter 1: limit and stop-limit orders only; 2: market and stop-market orders only) | `orders_executed.yaml` |
//! | `deals` | one deal per execution at its price and amount, role 1 maker (a resting order) or 2 taker | `deals.yaml` |
//! | `balanceMargin` | the subscribed assets' balances when they change (no snapshot on subscribing: "query first, then subscribe") | `balance_margin.yaml`, guide |
//! | `positionsMargin` | every open position on subscribing and after every change (not every second), each under its position id, with `liq_price` (`"0"` when no price liquidates it) and `liq_stage` | `positions.yaml` |
//! | `positionsAccountMargin` | event 1 for each position when its account enters margin call, event 2 for a position as its liquidation begins (then the liquidation order's `ordersExecuted` with `source` `liquidation`, its deals, the balance and positions); no snapshot on subscribing | `margin_positions_events.yaml`, the docs' page ("events fire when a position enters margin call or liquidation state") |
//! | `ADLQuantile` | the account's ADL quantiles (the REST report's) at once on subscribing, then every 30 s; `[]` every perpetual market with a position, or one `_PERP` market (another: code 1) | docs `websocket/account-streams/adl-quantile.mdx` |
//! | `premiumIndex` (public) | every 0.5 s: with no market one push of every perpetual market's `[market, mark, index, funding rate, next funding (s)]`, with named markets one push per market with the server's time as a sixth element; mark and index are the sandbox's price | docs `websocket/market-streams/premium-index.mdx` |
//! | `balanceMargin` after funding | each funding payment changes the balance, and is sent like any other change | `balance_margin.yaml` |
//!
//! Order methods (the docs' `websocket/order-management` pages): the nine collateral
//! placements (limit, market, stop-limit, stop-market, BBO, stop-BBO, OCO, OTO with every entry
//! and exit type, TPSL on a position), `order_modify`, `order_cancel`,
//! `order_cancel_conditional` and `order_cancel_all`, against the same book as the HTTP routes, with the socket's own error numbering (`orders.rs`); code 6 `require
//! authentication` before `authorize`.
//!
//! Faults ([`WsFault`], [`crate::Sandbox::ws_fault`]): drop every connection, stall them,
//! refuse the next `authorize`s, drop a connection after it processed an order method and
//! before its answer, send an unknown event, send malformed frames. A refused token
//! is a fault of the token route ([`crate::Route::WebSocketToken`]).
//!
//! **What it is for:** the WebSocket's transport and its channels' records. It reaches the
//! exchange only through `crate::auth::Exchange` (tokens, reads under the lock) and the state's
//! changes; the state never calls it.
//!
//! **What it is not for:** the exchange's logic. Order methods over the socket belong here
//! (`orders.rs`), running the same rules (`crate::rules`) and state operations
//! (`crate::state`) as the HTTP routes.

mod connection;
mod fault;
mod feed;
mod hub;
mod market_feeds;
mod orders;
mod records;

pub(crate) use connection::route;
pub use fault::WsFault;
pub(crate) use hub::WsHub;

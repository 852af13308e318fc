//! The HTTP routes: the exchange operations, the control API, 404 and 405 — and the faults a
//! test injects into them.
//!
//! **What it is for:** HTTP. Each exchange operation is written once (an `Endpoint`: its path,
//! rate limit and fault route, its rules, its effect) and run through one pipeline: count,
//! pick a fault, read the body (size limit), authenticate (`crate::auth`), check the body's
//! rules (`crate::rules`), admit and run the effect on the state (`crate::state`) under the
//! exchange's lock, answer (maybe faulted). The faults live here (`faults/`), with what a
//! connection's switches let them do.
//!
//! **What it is not for:** the exchange's logic: a route reads its request with the rules and
//! calls the state, nothing more. The WebSocket (`crate::ws`) is served beside the routes, not
//! by them: the router takes its route as given.

mod answer;
mod body;
mod conditional;
mod connection;
mod control;
mod fallback;
mod faults;
mod flex;
mod investments;
mod lookups;
mod placement;
mod positions;
mod private;
mod public;
mod reports;
mod risk;
mod shared;
mod smart_plans;
mod websocket_token;

use std::sync::Arc;

use axum::Router;
use axum::routing::MethodRouter;
use serde::Serialize;

pub(crate) use connection::ConnectionControl;
pub(crate) use control::play;
pub use faults::Fault;
pub(crate) use shared::Shared;

use fallback::{get_only, post_only};

/// The sandbox's router: the exchange's routes, the control API, and `websocket` at `GET /ws`.
pub(crate) fn router(shared: Arc<Shared>, websocket: MethodRouter<Arc<Shared>>) -> Router {
    let router = Router::new();
    let router = serve(router, placement::MARKET);
    let router = serve(router, placement::TRIGGER);
    let router = serve(router, smart_plans::SMART_PLANS);
    let router = serve(router, lookups::OPEN_ORDERS);
    let router = serve(router, lookups::HISTORY);
    let router = serve(router, positions::BALANCE);
    let router = serve(router, positions::BALANCE_SUMMARY);
    let router = serve(router, positions::SUMMARY);
    let router = serve(router, positions::OPEN_POSITIONS);
    let router = serve(router, positions::POSITION_HISTORY);
    let router = serve(router, positions::CLOSE_POSITION);
    let router = serve(router, positions::LEVERAGE);
    let router = serve(router, positions::HEDGE_MODE);
    let router = serve(router, positions::HEDGE_MODE_UPDATE);
    let router = serve(router, risk::CANCEL_ALL);
    let router = serve(router, risk::CANCEL_BULK);
    let router = serve(router, risk::KILL_SWITCH);
    let router = serve(router, risk::KILL_SWITCH_STATUS);
    let router = serve(router, investments::INVEST);
    let router = serve(router, investments::CLOSE);
    let router = serve(router, investments::INVESTMENTS);
    let router = serve(router, investments::INTEREST_PAYMENTS);
    let router = serve(router, flex::PLANS);
    let router = serve(router, flex::INVESTMENTS);
    let router = serve(router, flex::HISTORY);
    let router = serve(router, flex::PAYMENTS);
    let router = serve(router, flex::INVEST);
    let router = serve(router, flex::WITHDRAW);
    let router = serve(router, flex::CLOSE);
    let router = serve(router, flex::AUTO_INVEST);
    let router = serve(router, websocket_token::WEBSOCKET_TOKEN);
    let router = serve(router, lookups::CONDITIONAL_ORDERS);
    let router = serve(router, placement::LIMIT);
    let router = serve(router, placement::STOP_LIMIT);
    let router = serve(router, placement::BULK);
    let router = serve(router, placement::OCO);
    let router = serve(router, conditional::OCO_ORDERS);
    let router = serve(router, conditional::CANCEL_OCO);
    let router = serve(router, conditional::CANCEL_CONDITIONAL);
    let router = serve(router, conditional::CANCEL_OTO);
    let router = serve(router, conditional::MODIFY);
    let router = serve(router, reports::CLOSED_PNL);
    let router = serve(router, reports::FUNDING_HISTORY);
    let router = serve(router, reports::ADL_QUANTILE);
    let router = serve(router, reports::EXECUTED_HISTORY);
    let router = serve(router, reports::ORDER_DEALS);
    let router = [
        public::SERVER_TIME,
        public::MARKET_INFO,
        public::COLLATERAL_MARKET_LIST,
        public::FUTURES_LIST,
    ]
    .into_iter()
    .fold(router, |router, page| {
        router.route(page.path(), public::route(page))
    });
    serve(router, lookups::CANCEL)
        .route("/ws", fallback::only_get(websocket))
        .route("/sandbox/v1/price", post_only(control::price))
        .route("/sandbox/v1/price-path", post_only(control::price_path))
        .route("/sandbox/v1/balance", post_only(control::balance))
        .route("/sandbox/v1/funding", post_only(control::funding))
        .route("/sandbox/v1/funding-rate", post_only(control::funding_rate))
        .route("/sandbox/v1/reset", post_only(control::reset))
        .route("/sandbox/v1/orders", get_only(control::orders))
        .route("/sandbox/v1/stats", get_only(control::stats))
        .route("/sandbox/v1/accounts/{api_key}", get_only(control::account))
        .fallback(fallback::not_found)
        .layer(axum::middleware::map_response_with_state(
            Arc::clone(&shared),
            public::date,
        ))
        .with_state(shared)
}

/// Adds `endpoint`'s route at its path.
fn serve<Request: 'static, Reply: Serialize + 'static>(
    router: Router<Arc<Shared>>,
    endpoint: private::Endpoint<Request, Reply>,
) -> Router<Arc<Shared>> {
    router.route(endpoint.op.path, private::route(endpoint))
}

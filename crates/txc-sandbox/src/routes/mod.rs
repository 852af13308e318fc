//! The HTTP routes: the exchange operations, the control API, 404 and 405.

mod body;
mod control;
mod fallback;
mod investments;
mod lookups;
mod placement;
mod positions;
mod private;
mod public;
mod risk;
mod smart_plans;
mod websocket_token;

use std::sync::Arc;

use axum::Router;
use serde::Serialize;

use crate::app::Shared;
use fallback::{get_only, post_only};

/// The sandbox's router.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
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
    let router = serve(router, websocket_token::WEBSOCKET_TOKEN);
    let router = serve(router, lookups::CONDITIONAL_ORDERS);
    serve(router, lookups::CANCEL)
        .route("/ws", get_only(crate::ws::handler))
        .route("/sandbox/v1/price", post_only(control::price))
        .route("/sandbox/v1/balance", post_only(control::balance))
        .route("/sandbox/v1/reset", post_only(control::reset))
        .route("/sandbox/v1/orders", get_only(control::orders))
        .route("/sandbox/v1/stats", get_only(control::stats))
        .route("/sandbox/v1/accounts/{api_key}", get_only(control::account))
        .route(public::TIME.path, get_only(public::time))
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

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
use axum::routing::{get, post};

use crate::app::Shared;
use crate::op::Op;
use crate::rules::OrderKind;

/// The sandbox's router.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let router = Router::new();
    let router = serve(router, placement::Place(OrderKind::Market));
    let router = serve(router, placement::Place(OrderKind::Trigger));
    let router = serve(router, smart_plans::SmartPlans);
    let router = serve(router, lookups::OpenOrders);
    let router = serve(router, lookups::History);
    let router = serve(router, positions::Balance);
    let router = serve(router, positions::BalanceSummary);
    let router = serve(router, positions::Summary);
    let router = serve(router, positions::OpenPositions);
    let router = serve(router, positions::PositionHistory);
    let router = serve(router, positions::ClosePosition);
    let router = serve(router, positions::Leverage);
    let router = serve(router, positions::HedgeMode);
    let router = serve(router, positions::HedgeModeUpdate);
    let router = serve(router, risk::CancelAll);
    let router = serve(router, risk::CancelBulk);
    let router = serve(router, risk::KillSwitch);
    let router = serve(router, risk::KillSwitchStatus);
    let router = serve(router, investments::Invest);
    let router = serve(router, investments::Close);
    let router = serve(router, investments::Investments);
    let router = serve(router, investments::InterestPayments);
    let router = serve(router, websocket_token::WebSocketToken);
    let router = serve(router, lookups::ConditionalOrders);
    serve(router, lookups::Cancel)
        .route(
            "/ws",
            get(crate::ws::handler).fallback(fallback::method_not_allowed_get),
        )
        .route(
            "/sandbox/v1/price",
            post(control::price).fallback(fallback::method_not_allowed_post),
        )
        .route(
            "/sandbox/v1/balance",
            post(control::balance).fallback(fallback::method_not_allowed_post),
        )
        .route(
            "/sandbox/v1/reset",
            post(control::reset).fallback(fallback::method_not_allowed_post),
        )
        .route(
            "/sandbox/v1/orders",
            get(control::orders).fallback(fallback::method_not_allowed_get),
        )
        .route(
            "/sandbox/v1/stats",
            get(control::stats).fallback(fallback::method_not_allowed_get),
        )
        .route(
            "/sandbox/v1/accounts/{api_key}",
            get(control::account).fallback(fallback::method_not_allowed_get),
        )
        .route(
            Op::Time.path(),
            get(public::time).fallback(fallback::method_not_allowed_get),
        )
        .fallback(fallback::not_found)
        .layer(axum::middleware::map_response_with_state(
            Arc::clone(&shared),
            public::date,
        ))
        .with_state(shared)
}

/// Adds `operation`'s route at its path.
fn serve<O: private::Operation>(router: Router<Arc<Shared>>, operation: O) -> Router<Arc<Shared>> {
    router.route(operation.op().path(), private::route(operation))
}

//! The HTTP routes: the three exchange operations, the control API, 404 and 405.

mod body;
mod collateral_market;
mod control;
mod fallback;
mod order_body;
mod private;
mod smart_plans;
mod trigger_market;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use crate::app::Shared;

/// The sandbox's router.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(
            "/api/v4/order/collateral/market",
            post(collateral_market::handle).fallback(fallback::method_not_allowed_post),
        )
        .route(
            "/api/v4/order/collateral/trigger-market",
            post(trigger_market::handle).fallback(fallback::method_not_allowed_post),
        )
        .route(
            "/api/v4/main-account/smart/plans",
            post(smart_plans::handle).fallback(fallback::method_not_allowed_post),
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
        .fallback(fallback::not_found)
        .with_state(shared)
}

//! [`Op`]: the private operations the sandbox serves.

use crate::faults::Route;

/// One of the exchange operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    /// `POST /api/v4/order/collateral/market`.
    Market,
    /// `POST /api/v4/order/collateral/trigger-market`.
    Trigger,
    /// `POST /api/v4/main-account/smart/plans`.
    Plans,
    /// `POST /api/v4/orders`.
    OpenOrders,
    /// `POST /api/v4/trade-account/order/history`.
    History,
    /// `POST /api/v4/order/cancel`.
    Cancel,
    /// `POST /api/v4/conditional-orders`.
    ConditionalOrders,
    /// `GET /api/v4/public/time` (public: no key; limited for all callers together).
    Time,
}

impl Op {
    /// The request path, also the body's `request` field.
    pub(crate) fn path(self) -> &'static str {
        match self {
            Self::Market => "/api/v4/order/collateral/market",
            Self::Trigger => "/api/v4/order/collateral/trigger-market",
            Self::Plans => "/api/v4/main-account/smart/plans",
            Self::OpenOrders => "/api/v4/orders",
            Self::History => "/api/v4/trade-account/order/history",
            Self::Cancel => "/api/v4/order/cancel",
            Self::ConditionalOrders => "/api/v4/conditional-orders",
            Self::Time => "/api/v4/public/time",
        }
    }

    /// The fault-injection route.
    pub(crate) fn route(self) -> Route {
        match self {
            Self::Market => Route::CollateralMarket,
            Self::Trigger => Route::CollateralTriggerMarket,
            Self::Plans => Route::SmartPlans,
            Self::OpenOrders => Route::OpenOrders,
            Self::History => Route::OrderHistory,
            Self::Cancel => Route::CancelOrder,
            Self::ConditionalOrders => Route::ConditionalOrders,
            Self::Time => Route::ServerTime,
        }
    }
}

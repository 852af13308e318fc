//! [`Op`]: the three private operations the sandbox serves.

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
}

impl Op {
    /// The request path, also the body's `request` field.
    pub(crate) fn path(self) -> &'static str {
        match self {
            Self::Market => "/api/v4/order/collateral/market",
            Self::Trigger => "/api/v4/order/collateral/trigger-market",
            Self::Plans => "/api/v4/main-account/smart/plans",
        }
    }

    /// The fault-injection route.
    pub(crate) fn route(self) -> Route {
        match self {
            Self::Market => Route::CollateralMarket,
            Self::Trigger => Route::CollateralTriggerMarket,
            Self::Plans => Route::SmartPlans,
        }
    }
}

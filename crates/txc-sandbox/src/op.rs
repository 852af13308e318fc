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
    /// `GET /api/v4/public/time` (public: no key; limited for all callers together).
    Time,
    /// `POST /api/v4/main-account/smart/investment`.
    Invest,
    /// `POST /api/v4/main-account/smart/investment/close`.
    CloseInvestment,
    /// `POST /api/v4/main-account/smart/investments`.
    Investments,
    /// `POST /api/v4/main-account/smart/interest-payment-history`.
    InterestPayments,
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
            Self::Time => "/api/v4/public/time",
            Self::Invest => "/api/v4/main-account/smart/investment",
            Self::CloseInvestment => "/api/v4/main-account/smart/investment/close",
            Self::Investments => "/api/v4/main-account/smart/investments",
            Self::InterestPayments => "/api/v4/main-account/smart/interest-payment-history",
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
            Self::Time => Route::ServerTime,
            Self::Invest => Route::Invest,
            Self::CloseInvestment => Route::CloseInvestment,
            Self::Investments => Route::Investments,
            Self::InterestPayments => Route::InterestPayments,
        }
    }

    /// The operation whose rate limit `self` counts against: every `/api/v4/main-account/*`
    /// operation shares the plans' (the docs' table of limits counts them together, 1 000 per
    /// 10 s); the others their own.
    pub(crate) fn limit_group(self) -> Self {
        match self {
            Self::Invest | Self::CloseInvestment | Self::Investments | Self::InterestPayments => {
                Self::Plans
            }
            other => other,
        }
    }
}

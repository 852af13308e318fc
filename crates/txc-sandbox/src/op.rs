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
    /// `POST /api/v4/collateral-account/balance`.
    Balance,
    /// `POST /api/v4/collateral-account/balance-summary`.
    BalanceSummary,
    /// `POST /api/v4/collateral-account/summary`.
    Summary,
    /// `POST /api/v4/collateral-account/positions/open`.
    OpenPositions,
    /// `POST /api/v4/collateral-account/positions/history`.
    PositionHistory,
    /// `POST /api/v4/collateral-account/position/close`.
    ClosePosition,
    /// `POST /api/v4/collateral-account/leverage`.
    Leverage,
    /// `POST /api/v4/collateral-account/hedge-mode`.
    HedgeMode,
    /// `POST /api/v4/collateral-account/hedge-mode/update`.
    HedgeModeUpdate,
    /// `POST /api/v4/order/cancel/all`.
    CancelAll,
    /// `POST /api/v4/order/cancel/bulk`.
    CancelBulk,
    /// `POST /api/v4/order/kill-switch`.
    KillSwitch,
    /// `POST /api/v4/order/kill-switch/status`.
    KillSwitchStatus,
    /// `POST /api/v4/main-account/smart/investment`.
    Invest,
    /// `POST /api/v4/main-account/smart/investment/close`.
    CloseInvestment,
    /// `POST /api/v4/main-account/smart/investments`.
    Investments,
    /// `POST /api/v4/main-account/smart/interest-payment-history`.
    InterestPayments,
    /// `POST /api/v4/profile/websocket_token`.
    WebSocketToken,
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
            Self::Balance => "/api/v4/collateral-account/balance",
            Self::BalanceSummary => "/api/v4/collateral-account/balance-summary",
            Self::Summary => "/api/v4/collateral-account/summary",
            Self::OpenPositions => "/api/v4/collateral-account/positions/open",
            Self::PositionHistory => "/api/v4/collateral-account/positions/history",
            Self::ClosePosition => "/api/v4/collateral-account/position/close",
            Self::Leverage => "/api/v4/collateral-account/leverage",
            Self::HedgeMode => "/api/v4/collateral-account/hedge-mode",
            Self::HedgeModeUpdate => "/api/v4/collateral-account/hedge-mode/update",
            Self::CancelAll => "/api/v4/order/cancel/all",
            Self::CancelBulk => "/api/v4/order/cancel/bulk",
            Self::KillSwitch => "/api/v4/order/kill-switch",
            Self::KillSwitchStatus => "/api/v4/order/kill-switch/status",
            Self::Invest => "/api/v4/main-account/smart/investment",
            Self::CloseInvestment => "/api/v4/main-account/smart/investment/close",
            Self::Investments => "/api/v4/main-account/smart/investments",
            Self::InterestPayments => "/api/v4/main-account/smart/interest-payment-history",
            Self::WebSocketToken => "/api/v4/profile/websocket_token",
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
            Self::Balance => Route::CollateralBalance,
            Self::BalanceSummary => Route::BalanceSummary,
            Self::Summary => Route::AccountSummary,
            Self::OpenPositions => Route::OpenPositions,
            Self::PositionHistory => Route::PositionHistory,
            Self::ClosePosition => Route::ClosePosition,
            Self::Leverage => Route::Leverage,
            Self::HedgeMode => Route::HedgeMode,
            Self::HedgeModeUpdate => Route::HedgeModeUpdate,
            Self::CancelAll => Route::CancelAll,
            Self::CancelBulk => Route::CancelBulk,
            Self::KillSwitch => Route::KillSwitch,
            Self::KillSwitchStatus => Route::KillSwitchStatus,
            Self::Invest => Route::Invest,
            Self::CloseInvestment => Route::CloseInvestment,
            Self::Investments => Route::Investments,
            Self::InterestPayments => Route::InterestPayments,
            Self::WebSocketToken => Route::WebSocketToken,
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

    /// The documented rate limit per 10 s of an operation this sandbox serves since issue 22
    /// (the older ones have their own settings); `None` for those.
    pub(crate) fn documented_limit(self) -> Option<u32> {
        Some(match self {
            Self::Balance
            | Self::BalanceSummary
            | Self::Summary
            | Self::OpenPositions
            | Self::PositionHistory
            | Self::HedgeMode => 12_000,
            Self::ClosePosition
            | Self::CancelAll
            | Self::CancelBulk
            | Self::KillSwitch
            | Self::KillSwitchStatus => 10_000,
            Self::Leverage | Self::HedgeModeUpdate => 1_000,
            _ => return None,
        })
    }
}

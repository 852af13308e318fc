//! [`Route`]: which exchange route a fault (or a rate limit) applies to.

/// Which exchange route a fault (or a rate limit) applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Route {
    /// `POST /api/v4/order/collateral/market`.
    CollateralMarket,
    /// `POST /api/v4/order/collateral/trigger-market`.
    CollateralTriggerMarket,
    /// `POST /api/v4/main-account/smart/plans`.
    SmartPlans,
    /// `POST /api/v4/orders`: open orders.
    OpenOrders,
    /// `POST /api/v4/trade-account/order/history`: finished orders.
    OrderHistory,
    /// `POST /api/v4/order/cancel`.
    CancelOrder,
    /// `POST /api/v4/conditional-orders`: the OTO groups.
    ConditionalOrders,
    /// `GET /api/v4/public/time` (its rate limit only: no faults are injected there).
    ServerTime,
    /// `POST /api/v4/collateral-account/balance`.
    CollateralBalance,
    /// `POST /api/v4/collateral-account/balance-summary`.
    BalanceSummary,
    /// `POST /api/v4/collateral-account/summary`.
    AccountSummary,
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
    /// `POST /api/v4/order/collateral/limit`.
    CollateralLimit,
    /// `POST /api/v4/order/collateral/stop-limit`.
    CollateralStopLimit,
    /// `POST /api/v4/order/collateral/bulk`.
    CollateralBulk,
    /// `POST /api/v4/order/collateral/oco`.
    CollateralOco,
    /// `POST /api/v4/oco-orders`: the open OCO orders.
    OcoOrders,
    /// `POST /api/v4/order/oco-cancel`.
    CancelOco,
    /// `POST /api/v4/order/conditional-cancel`.
    CancelConditional,
    /// `POST /api/v4/order/oto-cancel`.
    CancelOto,
    /// `POST /api/v4/order/modify`.
    ModifyOrder,
    /// `GET /api/v4/public/markets`: the markets' rules.
    Markets,
    /// `GET /api/v4/public/collateral/markets`: the collateral markets' names.
    CollateralMarkets,
    /// `GET /api/v4/public/futures`: the futures markets.
    FuturesMarkets,
    /// `POST /api/v4/main-account/smart-flex/plans`.
    FlexPlans,
    /// `POST /api/v4/main-account/smart-flex/investments`.
    FlexInvestments,
    /// `POST /api/v4/main-account/smart-flex/investments/history`.
    FlexHistory,
    /// `POST /api/v4/main-account/smart-flex/investments/payment-history`.
    FlexPayments,
    /// `POST /api/v4/main-account/smart-flex/investments/invest`.
    FlexInvest,
    /// `POST /api/v4/main-account/smart-flex/investments/withdraw`.
    FlexWithdraw,
    /// `POST /api/v4/main-account/smart-flex/investments/close`.
    FlexClose,
    /// `POST /api/v4/main-account/smart-flex/investments/auto-invest`.
    FlexAutoInvest,
    /// `POST /api/v4/collateral-account/positions/closed-pnl`.
    ClosedPnl,
    /// `POST /api/v4/collateral-account/funding-history`.
    FundingHistory,
    /// `POST /api/v4/collateral-account/adl-quantile`.
    AdlQuantile,
    /// `POST /api/v4/trade-account/executed-history`: the account's deals.
    ExecutedHistory,
    /// `POST /api/v4/trade-account/order`: one order's deals.
    OrderDeals,
    /// Every exchange route (a route's own fault takes precedence).
    All,
}

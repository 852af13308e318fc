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
    /// Every exchange route (a route's own fault takes precedence).
    All,
}

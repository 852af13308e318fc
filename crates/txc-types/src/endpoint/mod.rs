//! Defining an operation: the [`Endpoint`] trait every request type implements (path, kind,
//! [`RateLimit`], response, body fields as [`WireValue`]s), and what builders accept
//! ([`FieldValue`], [`Validated`]).
//!
//! For code that signs or sends requests generically, or defines an endpoint this crate does
//! not have yet; a trader placing orders finds the requests in [`crate::orders`] and its kin.

mod acknowledged;
mod body;
mod field_value;
mod operation;
mod wire_value;

pub use acknowledged::Acknowledged;
pub(crate) use body::{BodyFields, ToWire, Visit, visit_objects};
pub use field_value::{FieldValue, Validated};
pub use operation::{Endpoint, EndpointKind, MAIN_ACCOUNT_SCOPE, RateLimit};
pub use wire_value::WireValue;
pub(crate) use wire_value::serialize_fields;

use crate::events::WebSocketTokenQuery;
use crate::investments::flex::{
    CloseFlexInvestment, FlexHistoryQuery, FlexInvest, FlexInvestmentsQuery, FlexPaymentsQuery,
    FlexPlansQuery, FlexWithdraw, SetFlexAutoInvest,
};
use crate::investments::{
    CloseInvestment, InterestPaymentsQuery, Invest, InvestmentsQuery, SmartPlansQuery,
};
use crate::lookups::{
    ConditionalOrdersQuery, ExecutedHistoryQuery, OpenOrdersQuery, OrderDealsQuery,
    OrderHistoryQuery,
};
use crate::orders::{
    CancelAllOrders, CancelConditionalOrder, CancelOcoOrder, CancelOrder, CancelOrders,
    CancelOtoOrder, CollateralBulkOrder, CollateralLimitOrder, CollateralMarketOrder,
    CollateralOcoOrder, CollateralStopLimitOrder, CollateralTriggerMarketOrder,
    KillSwitchStatusQuery, ModifyOrder, OcoOrdersQuery, SetKillSwitch,
};
use crate::positions::{
    AccountSummaryQuery, AdlQuantileQuery, BalanceSummaryQuery, ClosePosition, ClosedPnlQuery,
    CollateralBalanceQuery, FundingHistoryQuery, HedgeModeQuery, OpenPositionsQuery,
    PositionHistoryQuery, SetHedgeMode, SetLeverage,
};
use crate::time::ServerTimeQuery;

/// The request path of every endpoint this crate defines, for code that prepares something
/// per endpoint up front (URLs, say).
pub const ENDPOINT_PATHS: [&str; 48] = [
    CollateralMarketOrder::PATH,
    CollateralTriggerMarketOrder::PATH,
    CollateralLimitOrder::PATH,
    CollateralStopLimitOrder::PATH,
    CollateralBulkOrder::PATH,
    CollateralOcoOrder::PATH,
    OcoOrdersQuery::PATH,
    CancelOcoOrder::PATH,
    CancelConditionalOrder::PATH,
    CancelOtoOrder::PATH,
    ModifyOrder::PATH,
    SmartPlansQuery::PATH,
    OpenOrdersQuery::PATH,
    OrderHistoryQuery::PATH,
    ExecutedHistoryQuery::PATH,
    OrderDealsQuery::PATH,
    ConditionalOrdersQuery::PATH,
    CancelOrder::PATH,
    ServerTimeQuery::PATH,
    WebSocketTokenQuery::PATH,
    CollateralBalanceQuery::PATH,
    BalanceSummaryQuery::PATH,
    AccountSummaryQuery::PATH,
    OpenPositionsQuery::PATH,
    PositionHistoryQuery::PATH,
    ClosedPnlQuery::PATH,
    FundingHistoryQuery::PATH,
    AdlQuantileQuery::PATH,
    ClosePosition::PATH,
    SetLeverage::PATH,
    HedgeModeQuery::PATH,
    SetHedgeMode::PATH,
    CancelAllOrders::PATH,
    CancelOrders::PATH,
    SetKillSwitch::PATH,
    KillSwitchStatusQuery::PATH,
    Invest::PATH,
    CloseInvestment::PATH,
    InvestmentsQuery::PATH,
    InterestPaymentsQuery::PATH,
    FlexPlansQuery::PATH,
    FlexInvestmentsQuery::PATH,
    FlexHistoryQuery::PATH,
    FlexPaymentsQuery::PATH,
    FlexInvest::PATH,
    FlexWithdraw::PATH,
    CloseFlexInvestment::PATH,
    SetFlexAutoInvest::PATH,
];

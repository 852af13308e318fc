//! The sandbox's own wire vocabulary and records, written from the exchange's docs: the words
//! it reads in requests (`buy`, `LONG`, `cb`, a market's `BASE_QUOTE` name, plain decimals) and
//! the JSON records it answers with, a [`Rejection`] among them.
//!
//! **What it is for:** the bottom of the sandbox — plain data and its text forms, importing
//! nothing of the sandbox's. Every other layer speaks it.
//!
//! **What it is not for:** deciding anything. Which record an order makes, which rejection a
//! body earns, is the state's and the rules' business; how an answer travels (HTTP, the
//! WebSocket) is the routes' and the feed's. Nothing here comes from `txc-types` either: the
//! SDK's models may change shape (decimals, integer ids, timestamps) without moving what the
//! sandbox sends.

mod account_record;
mod active_record;
mod conditional_record;
mod deal_record;
pub(crate) mod decimal;
mod enums;
mod flex_record;
mod history_record;
mod investment_record;
mod market_name;
mod market_record;
mod oco_record;
mod order_record;
mod plan_record;
mod position_record;
mod rejection;
mod report_record;
mod risk_record;
pub(crate) mod time;

pub(crate) use account_record::{
    AssetBalanceRecord, HedgeModeRecord, LeverageRecord, NoContent, SummaryRecord,
};
pub(crate) use active_record::ActiveOrderRecord;
pub(crate) use conditional_record::{ConditionalPage, ConditionalRecord, OtoGroupRecord};
pub(crate) use deal_record::{DealsPage, ExecutedDealRecord, ExecutedDeals, OrderDealRecord};
pub(crate) use enums::{
    LiquidationStage, OrderClass, OrderStatus, OrderType, PositionSide, Side, Stp,
};
pub(crate) use flex_record::{
    DataPage, EmptyData, FlexHistoryRecord, FlexInvestmentRecord, FlexPlanRecord, TransactionRecord,
};
pub(crate) use history_record::{HistoryByMarket, HistoryRecord};
pub(crate) use investment_record::{
    ClosedRecord, InterestPaymentRecord, InvestmentRecord, NewInvestmentRecord, PageRecord,
};
pub(crate) use market_name::is_market_name;
pub(crate) use market_record::{FuturesRecord, MarketRecord, PublicList};
pub(crate) use oco_record::{
    CamelTrigger, ConditionalLeg, LegState, OcoCreatedLeg, OcoCreatedRecord, OcoGroupRecord,
    OcoLeg, OcoRecord, SnakeTrigger,
};
pub(crate) use order_record::{OrderHead, OrderRecord, OtoField, OtoRecord};
pub(crate) use plan_record::PlanRecord;
pub(crate) use position_record::{
    OpenPositionRecord, OrderDetailRecord, PositionEventRecord, PositionHead, TpslRecord,
};
pub(crate) use rejection::Rejection;
pub(crate) use report_record::{AdlRecord, ClosedPositionRecord, FundingPage, FundingRecord};
pub(crate) use risk_record::{
    BulkItemRecord, CanceledRecord, ItemRecord, TimerAnswer, TimerRecord,
};

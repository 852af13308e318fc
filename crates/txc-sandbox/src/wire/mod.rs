//! The sandbox's own wire vocabulary and records, written from the exchange's docs: the words
//! it reads in requests (`buy`, `LONG`, `cb`, …) and the JSON records it answers with.
//!
//! Nothing here comes from `txc-types`: the SDK's models may change shape (decimals, integer
//! ids, timestamps) without moving what the sandbox sends.

mod account_record;
mod active_record;
mod conditional_record;
mod enums;
mod history_record;
mod investment_record;
mod order_record;
mod plan_record;
mod position_record;
mod risk_record;

pub(crate) use account_record::{
    AssetBalanceRecord, HedgeModeRecord, LeverageRecord, NoContent, SummaryRecord,
};
pub(crate) use active_record::ActiveOrderRecord;
pub(crate) use conditional_record::{ConditionalPage, OtoGroupRecord};
pub(crate) use enums::{OrderClass, OrderStatus, PositionSide, Side, Stp};
pub(crate) use history_record::{HistoryByMarket, HistoryRecord};
pub(crate) use investment_record::{
    ClosedRecord, InterestPaymentRecord, InvestmentRecord, NewInvestmentRecord, PageRecord,
};
pub(crate) use order_record::OrderRecord;
pub(crate) use plan_record::PlanRecord;
pub(crate) use position_record::{
    OpenPositionRecord, OrderDetailRecord, PositionEventRecord, PositionHead,
};
pub(crate) use risk_record::{BulkItemRecord, CanceledRecord, TimerAnswer, TimerRecord};

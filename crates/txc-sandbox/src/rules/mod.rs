//! The sandbox's own validation of request bodies, written from the exchange's docs
//! (wire-contract.md, exchange-docs-notes §3–7): its own JSON reading, its own checks and the
//! exchange's codes and messages. Nothing here uses `txc-types`' builders or newtypes, so the
//! sandbox can tell when the SDK is stricter or looser than the exchange.
//!
//! **What it is for:** pure checks — a body's fields (and the configuration's fixed facts: the
//! markets' terms, the plans' ids) in, a typed request or a [`Rejection`](crate::wire::Rejection) out. No clock, no
//! lock, no state: each rule can be tested with a JSON object and nothing else. It imports the
//! wire and the configuration only.
//!
//! **What it is not for:** the checks that need the account's state (a `clientOrderId` already
//! in use, margin, a position to reduce, an order to cancel): those are the state's, run under
//! its lock. Nor reading HTTP: the routes hand over the body's fields.
//!
//! Every check, its answer and its source are listed in the crate docs' table.

mod account;
mod bulk;
mod cancel;
mod cancel_all;
mod cancel_bulk;
pub(crate) mod client_order_id;
mod conditional_orders;
mod deals;
mod fields;
mod flex_changes;
mod flex_reads;
mod group_cancel;
mod history;
mod investments;
mod kill_switch;
pub(crate) mod market_name;
mod market_rule;
pub(crate) mod market_terms;
mod modify;
pub(crate) mod numeric;
mod oco;
mod oco_orders;
mod open_orders;
mod order;
mod order_ref;
mod page;
mod plans;
mod positions;
mod reports;
mod tpsl;
mod values;

pub(crate) use account::{parse_hedge_mode, parse_leverage, parse_ticker_filter};
pub(crate) use bulk::BulkRequest;
pub(crate) use cancel::CancelRequest;
pub(crate) use cancel_all::CancelAllRequest;
pub(crate) use cancel_bulk::BulkItem;
pub(crate) use conditional_orders::ConditionalQuery;
pub(crate) use deals::{
    ExecutedHistoryQuery, OrderDealsQuery, parse_executed_history, parse_order_deals,
};
pub(crate) use flex_changes::{
    AutoInvestRequest, FlexInvestRequest, FlexWithdrawRequest, parse_flex_auto_invest,
    parse_flex_close, parse_flex_invest, parse_flex_withdraw,
};
pub(crate) use flex_reads::{
    FlexHistoryFilter, FlexInvestmentsFilter, FlexPlansQuery, parse_flex_history,
    parse_flex_investments, parse_flex_plans,
};
pub(crate) use group_cancel::{ConditionalCancel, GroupRef, OtoCancel};
pub(crate) use history::{HistoryQuery, HistoryStatus, parse_history};
pub(crate) use investments::{
    InvestRequest, InvestmentsFilter, PaymentsFilter, invalid_field, parse_close_investment,
    parse_invest, parse_investments, parse_payments,
};
pub(crate) use kill_switch::{KillSwitchRequest, parse_kill_switch_status};
pub(crate) use market_rule::MarketRule;
pub(crate) use modify::ModifyRequest;
pub(crate) use oco::OcoRequest;
pub(crate) use oco_orders::OcoOrdersQuery;
pub(crate) use open_orders::OpenOrdersQuery;
#[cfg(test)]
pub(crate) use order::Flags;
pub(crate) use order::{BboRole, OrderKind, OrderRequest, Price, SocketTerms, parse_order};
pub(crate) use order_ref::OrderRef;
#[cfg(test)]
pub(crate) use page::Page;
pub(crate) use plans::{parse_ticker, unknown_ticker};
pub(crate) use positions::{
    ClosePositionRequest, PositionHistoryQuery, parse_market_filter, parse_position_history,
};
pub(crate) use reports::{ClosedPnlQuery, FundingHistoryQuery, parse_closed_pnl};
pub(crate) use tpsl::TpslRequest;

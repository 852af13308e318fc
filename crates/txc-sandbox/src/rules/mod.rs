//! The sandbox's own validation of request bodies, written from the exchange's docs
//! (wire-contract.md, exchange-docs-notes §3–7): its own JSON reading, its own checks and the
//! exchange's codes and messages. Nothing here uses `txc-types`' builders or newtypes, so the
//! sandbox can tell when the SDK is stricter or looser than the exchange.
//!
//! **What it is for:** pure checks — a body's fields (and the configuration's fixed facts: the
//! markets' terms, the plans' ids) in, a typed request or a [`Rejection`] out. No clock, no
//! lock, no state: each rule can be tested with a JSON object and nothing else. It imports the
//! wire and the configuration only.
//!
//! **What it is not for:** the checks that need the account's state (a `clientOrderId` already
//! in use, margin, a position to reduce, an order to cancel): those are the state's, run under
//! its lock. Nor reading HTTP: the routes hand over the body's fields.
//!
//! Every check, its answer and its source are listed in the crate docs' table.

mod account;
mod amount;
mod cancel;
mod cancel_all;
mod cancel_bulk;
pub(crate) mod client_order_id;
mod conditional_orders;
mod fields;
mod history;
mod investments;
mod kill_switch;
pub(crate) mod market_name;
pub(crate) mod numeric;
mod open_orders;
mod order;
mod order_ref;
mod page;
mod plans;
mod positions;

use serde_json::{Map, Value};

use crate::config::Markets;
use crate::wire::Rejection;

pub(crate) use account::{parse_hedge_mode, parse_leverage, parse_ticker_filter};
pub(crate) use cancel::CancelRequest;
pub(crate) use cancel_all::CancelAllRequest;
pub(crate) use cancel_bulk::BulkItem;
pub(crate) use conditional_orders::ConditionalQuery;
pub(crate) use history::{HistoryQuery, HistoryStatus, parse_history};
pub(crate) use investments::{
    InvestRequest, InvestmentsFilter, PaymentsFilter, invalid_field, parse_close_investment,
    parse_invest, parse_investments, parse_payments,
};
pub(crate) use kill_switch::{KillSwitchRequest, parse_kill_switch_status};
pub(crate) use open_orders::OpenOrdersQuery;
pub(crate) use order::{OrderKind, OrderRequest, Price, parse_order};
pub(crate) use order_ref::OrderRef;
pub(crate) use plans::{parse_ticker, unknown_ticker};
pub(crate) use positions::{
    ClosePositionRequest, PositionHistoryQuery, parse_market_filter, parse_position_history,
};

/// A request read from a body's fields with the sandbox's markets at hand (the cancels, the
/// look-ups by market, close, the kill switch): implemented once per request type, so each of
/// these endpoints' rules step is the one generic reading of it.
pub(crate) trait MarketRule: Sized {
    /// The request `map`'s fields make, or the exchange's rejection.
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection>;
}

/// The field's value unless absent or `null` (the sandbox reads `null` as absent).
pub(crate) fn present<'a>(map: &'a Map<String, Value>, field: &str) -> Option<&'a Value> {
    map.get(field).filter(|v| !v.is_null())
}

/// A field's name as the exchange's messages start with it: the wire name with its first
/// letter in upper case (`Market`, `ClientOrderId`, as documented; `Activation_price` by the
/// same rule).
pub(crate) fn label(field: &str) -> String {
    let mut chars = field.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// A JSON integer, or a string of digits with an optional sign (Laravel's `integer` rule takes
/// both; the older docs type `orderId` "String/Int").
pub(crate) fn integer(value: &Value) -> Option<i128> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        Value::String(s) => {
            let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
            if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            s.parse().ok()
        }
        _ => None,
    }
}

//! The sandbox's own validation of request bodies, written from the exchange's docs
//! (wire-contract.md, exchange-docs-notes §3–7): its own JSON reading, its own checks and the
//! exchange's codes and messages. Nothing here uses `txc-types`' builders or newtypes, so the
//! sandbox can tell when the SDK is stricter or looser than the exchange.
//!
//! Every check, its answer and its source are listed in the crate docs' table.

mod account;
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
mod page;
mod plans;
mod positions;

use serde_json::{Map, Value};

pub(crate) use account::{parse_hedge_mode, parse_leverage, parse_ticker_filter};
pub(crate) use cancel::{CancelRequest, parse_cancel};
pub(crate) use cancel_all::{CancelAllRequest, parse_cancel_all};
pub(crate) use cancel_bulk::{BulkItem, parse_bulk};
pub(crate) use conditional_orders::{ConditionalQuery, parse_conditional_orders};
pub(crate) use history::{HistoryQuery, HistoryStatus, parse_history};
pub(crate) use investments::{
    InvestRequest, InvestmentsFilter, PaymentsFilter, invalid_field, parse_close_investment,
    parse_invest, parse_investments, parse_payments,
};
pub(crate) use kill_switch::{KillSwitchRequest, parse_kill_switch, parse_kill_switch_status};
pub(crate) use open_orders::{OpenOrdersQuery, parse_open_orders};
pub(crate) use order::{OrderKind, OrderRequest, Price, parse_order};
pub(crate) use page::Page;
pub(crate) use plans::{parse_ticker, unknown_ticker};
pub(crate) use positions::{
    ClosePositionRequest, PositionHistoryQuery, parse_close, parse_market_filter,
    parse_position_history,
};

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

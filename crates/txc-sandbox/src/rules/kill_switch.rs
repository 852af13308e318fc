//! The bodies of `POST /api/v4/order/kill-switch` and its status.
//!
//! Setting a timer: `market` and the `timeout` key are required (both missing: both reported,
//! code 30, as in the docs' example), `timeout` a string of 5 to 600 seconds (an integer is
//! read too) or `null` to delete, `types` an array of 1 to 3 kinds. Field problems answer 30
//! with the docs' wording where it gives one (`Market field is required.`, `Timeout field is
//! required.`, `Timeout should be at least 5.`); an unknown market is 31 `Market is not
//! available.`.

use serde_json::{Map, Value};

use super::cancel_all::classes;
use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::market_rule::MarketRule;
use super::values::integer;
use crate::config::Markets;
use crate::wire::{OrderClass, Rejection};

/// The shortest timeout, in seconds.
const MIN_TIMEOUT: i128 = 5;
/// The longest timeout, in seconds.
const MAX_TIMEOUT: i128 = 600;

/// A timer request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KillSwitchRequest {
    pub(crate) market: String,
    /// `None`: delete the timer.
    pub(crate) timeout_secs: Option<u64>,
    /// `None`: every kind.
    pub(crate) types: Option<Vec<OrderClass>>,
}

/// Checks a kill-switch body.
impl MarketRule for KillSwitchRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let mut fields = Fields::new(map, Wording::Field);
        let market = fields.required_market();
        // The key must be present; `null` deletes.
        let timeout = match map.get("timeout") {
            None => {
                fields.required("timeout");
                None
            }
            Some(Value::Null) => Some(None),
            Some(value) => match integer(value) {
                None => {
                    fields.push("timeout", "Timeout field should be a numeric string.");
                    None
                }
                Some(n) if n < MIN_TIMEOUT => {
                    fields.push("timeout", "Timeout should be at least 5.");
                    None
                }
                Some(n) if n > MAX_TIMEOUT => {
                    fields.push("timeout", "Timeout should not be greater than 600.");
                    None
                }
                Some(n) => Some(u64::try_from(n).ok()),
            },
        };
        let types = classes(&mut fields, "types");
        if fields
            .get("types")
            .and_then(Value::as_array)
            .is_some_and(|t| t.is_empty() || t.len() > 3)
        {
            fields.push("types", "The types must have between 1 and 3 items.");
        }
        fields.finish(30)?;
        let (market, timeout_secs) = market_name::available(market, timeout, markets)?;
        Ok(KillSwitchRequest {
            market,
            timeout_secs,
            types,
        })
    }
}

/// Checks a kill-switch status body: an optional `market` (31 when unknown, as documented).
pub(crate) fn parse_kill_switch_status(
    map: &Map<String, Value>,
    markets: &Markets,
) -> Result<Option<String>, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let market = fields.text("market", Empty::Rejected).flatten();
    fields.finish(30)?;
    match market {
        Some(name) if markets.get(&name).is_none() => {
            Err(market_name::rejection(market_name::UNAVAILABLE))
        }
        other => Ok(other),
    }
}

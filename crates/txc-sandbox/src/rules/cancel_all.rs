//! The body of `POST /api/v4/order/cancel/all`: `market`, `type` and `positionSide`, all
//! optional.
//!
//! Problems answer HTTP 422 with the docs' examples: code 30 for a `market` that is not a
//! string or not `BASE_QUOTE` (`Market field should be a string.`, `Market field format is
//! invalid.`) and for a `type` that is not an array (`The type must be an array.`); code 31
//! `Market is not available.` for a market the sandbox does not have.

use serde_json::{Map, Value};

use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::market_rule::MarketRule;
use crate::config::Markets;
use crate::wire::{self, OrderClass, PositionSide, Rejection};

/// A cancel-all request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CancelAllRequest {
    pub(crate) market: Option<String>,
    /// `None`: every kind.
    pub(crate) types: Option<Vec<OrderClass>>,
    pub(crate) position_side: Option<PositionSide>,
}

/// Checks a cancel-all body.
impl MarketRule for CancelAllRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let mut fields = Fields::new(map, Wording::Field);
        let market = match fields.get("market") {
            None => None,
            Some(Value::String(name)) if wire::is_market_name(name) => Some(name.clone()),
            Some(Value::String(_)) => {
                fields.push("market", market_name::FORMAT_INVALID);
                None
            }
            Some(_) => {
                fields.push("market", "Market field should be a string.");
                fields.push("market", market_name::FORMAT_INVALID);
                None
            }
        };
        let types = classes(&mut fields, "type");
        let position_side = match fields.text("positionSide", Empty::Rejected).flatten() {
            None => None,
            // Lower case on this endpoint, as the docs write it.
            Some(text) => match text.as_str() {
                "both" => Some(PositionSide::Both),
                "long" => Some(PositionSide::Long),
                "short" => Some(PositionSide::Short),
                _ => {
                    fields.push(
                        "positionSide",
                        "PositionSide field should contain only 'both', 'long' or 'short' values.",
                    );
                    None
                }
            },
        };
        if position_side.is_some() && !market.as_deref().is_some_and(|m| m.ends_with("_PERP")) {
            // "Accepted only when `market` is a perpetual futures market"; message not documented.
            fields.push(
                "positionSide",
                "PositionSide is accepted only for perpetual futures markets.",
            );
        }
        fields.finish(30)?;
        if let Some(name) = &market
            && markets.get(name).is_none()
        {
            return Err(market_name::rejection(market_name::UNAVAILABLE));
        }
        Ok(CancelAllRequest {
            market,
            types,
            position_side,
        })
    }
}

/// A list of order kinds under `field`: an array of `spot`, `margin`, `futures`. Problems
/// are recorded: not an array (`The {field} must be an array.`, the docs' example), an
/// unknown kind (`The selected {field} is invalid.`, Laravel's). An empty list counts as an
/// absent one (every kind); the kill switch refuses it (its `minItems: 1`).
pub(crate) fn classes(fields: &mut Fields<'_>, field: &str) -> Option<Vec<OrderClass>> {
    let items = match fields.get(field)? {
        Value::Array(items) => items,
        _ => {
            fields.push(field, &format!("The {field} must be an array."));
            return None;
        }
    };
    let parsed: Option<Vec<OrderClass>> = items
        .iter()
        .map(|v| v.as_str().and_then(OrderClass::parse))
        .collect();
    match parsed {
        Some(list) if list.is_empty() => None,
        Some(list) => Some(list),
        None => {
            fields.push(field, &format!("The selected {field} is invalid."));
            None
        }
    }
}

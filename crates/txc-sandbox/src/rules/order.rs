//! The body of a collateral market or trigger market order, checked by the docs' rules.
//!
//! First the required fields (`market`, `side`, `amount`, and `activation_price` for a
//! trigger order): all missing ones are reported together with code 30, as in the docs'
//! example. Then each field in this order, the first field that breaks a rule answering with
//! its code and every message it earned: `market` 31, `side` 30, `amount` 32,
//! `activation_price` 33, `clientOrderId` 36, `stopLoss` and `takeProfit` 33, `positionSide`,
//! `stp`, `reduceOnly` 30, then `reduceOnly` with `stopLoss`/`takeProfit` 30. Unknown fields
//! are ignored, and `null` counts as absent.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::amount::check_amount;
use super::client_order_id;
use super::market_name;
use super::numeric::{self, Verdict};
use super::values::{label, present};
use crate::config::Markets;
use crate::wire::{self, PositionSide, Rejection, Side, Stp};

/// Which order endpoint a body was sent to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrderKind {
    /// `POST /api/v4/order/collateral/market`.
    Market,
    /// `POST /api/v4/order/collateral/trigger-market`: `activation_price` required.
    Trigger,
}

/// A price as a number and as sent (answers echo prices as sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Price {
    pub(crate) value: Decimal,
    pub(crate) text: String,
}

/// An order body that passed every field rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OrderRequest {
    pub(crate) market: String,
    pub(crate) side: Side,
    pub(crate) amount: Decimal,
    pub(crate) client_order_id: Option<String>,
    pub(crate) stop_loss: Option<Price>,
    pub(crate) take_profit: Option<Price>,
    /// As sent; the account's mode decides the position side used.
    pub(crate) position_side: Option<PositionSide>,
    pub(crate) reduce_only: bool,
    pub(crate) stp: Stp,
    /// The trigger order's activation price.
    pub(crate) activation: Option<Price>,
}

/// Checks an order body against the docs' rules and the markets.
pub(crate) fn parse_order(
    map: &Map<String, Value>,
    kind: OrderKind,
    markets: &Markets,
) -> Result<OrderRequest, Rejection> {
    required(map, kind)?;
    let market = market(map, markets)?;
    let side = side(map)?;
    let amount = match decimal(map, "amount", 32)? {
        Some(price) => price.value,
        None => return Err(missing("amount")),
    };
    if let Some(spec) = markets.get(&market) {
        check_amount(spec, amount)?;
    }
    let activation = match kind {
        OrderKind::Trigger => {
            Some(decimal(map, "activation_price", 33)?.ok_or_else(|| missing("activation_price"))?)
        }
        OrderKind::Market => None,
    };
    let client_order_id = client_order_id(map)?;
    let stop_loss = decimal(map, "stopLoss", 33)?;
    let take_profit = decimal(map, "takeProfit", 33)?;
    let position_side = word(
        map,
        "positionSide",
        PositionSide::parse,
        "'LONG', 'SHORT' or 'BOTH'",
    )?;
    let stp = word(map, "stp", Stp::parse, "'no', 'cb', 'cn' or 'co'")?.unwrap_or_default();
    let reduce_only = match present(map, "reduceOnly") {
        None => false,
        Some(Value::Bool(b)) => *b,
        // Not documented: worded like the documented "should be a string".
        Some(_) => {
            return Err(invalid(
                30,
                "reduceOnly",
                "ReduceOnly field should be a boolean.",
            ));
        }
    };
    if reduce_only && (stop_loss.is_some() || take_profit.is_some()) {
        // Documented code (30), undocumented message.
        return Err(invalid(
            30,
            "reduceOnly",
            "ReduceOnly cannot be combined with stopLoss or takeProfit.",
        ));
    }
    Ok(OrderRequest {
        market,
        side,
        amount,
        client_order_id,
        stop_loss,
        take_profit,
        position_side,
        reduce_only,
        stp,
        activation,
    })
}

fn invalid(code: i64, field: &str, message: &str) -> Rejection {
    Rejection::validation(code, field, vec![message.to_owned()])
}

/// `{Label} field is required.`, code 30 (documented for market, side and amount).
fn missing(field: &str) -> Rejection {
    invalid(30, field, &format!("{} field is required.", label(field)))
}

/// Every missing required field at once, code 30.
fn required(map: &Map<String, Value>, kind: OrderKind) -> Result<(), Rejection> {
    let trigger: &[&str] = match kind {
        OrderKind::Trigger => &["activation_price"],
        OrderKind::Market => &[],
    };
    let errors: BTreeMap<String, Vec<String>> = ["market", "side", "amount"]
        .iter()
        .chain(trigger)
        .filter(|f| present(map, f).is_none())
        .map(|f| {
            (
                (*f).to_owned(),
                vec![format!("{} field is required.", label(f))],
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Rejection::fields(30, errors))
    }
}

/// `market`, code 31: a non-empty string of the form `BASE_QUOTE` naming a market.
fn market(map: &Map<String, Value>, markets: &Markets) -> Result<String, Rejection> {
    let reject = |messages: &[&str]| {
        Rejection::validation(
            31,
            "market",
            messages.iter().map(|m| (*m).to_owned()).collect(),
        )
    };
    match present(map, "market") {
        Some(Value::String(name)) if name.is_empty() => {
            Err(reject(&["Market field should not be empty string."]))
        }
        Some(Value::String(name)) if !wire::is_market_name(name) => {
            Err(reject(&[market_name::FORMAT_INVALID]))
        }
        Some(Value::String(name)) if markets.get(name).is_none() => {
            Err(reject(&[market_name::UNAVAILABLE]))
        }
        Some(Value::String(name)) => Ok(name.clone()),
        Some(_) => Err(reject(&[
            "Market field should be a string.",
            market_name::FORMAT_INVALID,
        ])),
        None => Err(missing("market")),
    }
}

/// `side`, code 30: `buy` or `sell`.
fn side(map: &Map<String, Value>) -> Result<Side, Rejection> {
    present(map, "side")
        .and_then(Value::as_str)
        .and_then(Side::parse)
        .ok_or_else(|| {
            invalid(
                30,
                "side",
                "Side field should contain only 'buy' or 'sell' values.",
            )
        })
}

/// A decimal field (`amount`, prices) with `code`: numeric string or number, above 0. A
/// positive value beyond the sandbox's decimals is HTTP 422 code 1 `Inner validation failed`
/// `Invalid argument.` — the catalogue's code-1 answer; which input the exchange gives it for
/// is not documented.
fn decimal(map: &Map<String, Value>, field: &str, code: i64) -> Result<Option<Price>, Rejection> {
    let Some(value) = present(map, field) else {
        return Ok(None);
    };
    let (verdict, text) = numeric::classify(value);
    let name = label(field);
    match verdict {
        Verdict::Positive(value) => Ok(Some(Price { value, text })),
        Verdict::NotNumeric => Err(invalid(
            code,
            field,
            &format!("{name} field should be numeric string or number."),
        )),
        Verdict::NotPositive => Err(invalid(
            code,
            field,
            &format!("{name} should be greater than 0."),
        )),
        Verdict::OutOfRange => Err(Rejection::inner(1, field, "Invalid argument.")),
    }
}

/// `clientOrderId`, code 36.
fn client_order_id(map: &Map<String, Value>) -> Result<Option<String>, Rejection> {
    match present(map, "clientOrderId") {
        None => Ok(None),
        Some(Value::String(id)) => {
            let problems = client_order_id::problems(id);
            if problems.is_empty() {
                Ok(Some(id.clone()))
            } else {
                Err(Rejection::validation(36, "clientOrderId", problems))
            }
        }
        Some(_) => Err(invalid(
            36,
            "clientOrderId",
            "ClientOrderId field should be a string.",
        )),
    }
}

/// An enumerated text field with code 30; the message is worded like the documented `side`
/// one (not documented for these fields).
fn word<T>(
    map: &Map<String, Value>,
    field: &str,
    parse: impl Fn(&str) -> Option<T>,
    values: &str,
) -> Result<Option<T>, Rejection> {
    match present(map, field) {
        None => Ok(None),
        Some(value) => value.as_str().and_then(parse).map(Some).ok_or_else(|| {
            invalid(
                30,
                field,
                &format!(
                    "{} field should contain only {values} values.",
                    label(field)
                ),
            )
        }),
    }
}

//! The body of a collateral order — market, trigger market (stop market), limit or stop-limit
//! — checked by the docs' rules and the market's published rules.
//!
//! First the required fields (`market`, `side`, `amount`; `price` on limit and stop-limit
//! orders; `activation_price` on trigger and stop-limit orders): all missing ones are reported
//! together with code 30, as in the docs' examples. Then each field in this order, the first
//! field that breaks a rule answering with its code and every message it earned: `market` 31,
//! `side` 30, `amount` 32 (numeric, above 0, the market's minimum and step), `price` 33
//! (numeric, above 0, the market's `moneyPrec`), `activation_price` 33, the total `amount ×
//! price` (the activation price for a trigger order; a market order's is checked at the
//! market's price, against the state) 32, `clientOrderId` 36, `stopLoss` and `takeProfit` 33,
//! `positionSide`, `stp`, `reduceOnly` 30; on limit orders `postOnly`, `ioc`, `rpi` booleans
//! 30. Then the combinations: `reduceOnly` with `stopLoss`/`takeProfit` 30, `ioc` with
//! `postOnly` 37, `ioc` with `rpi` 40, `rpi` with an explicit `postOnly: true` 30 (the spot
//! page's "fails validation"). Unknown fields are ignored — `price`, `postOnly`, `ioc`, `rpi`
//! on the market and trigger endpoints too, whose docs do not accept them — and `null` counts
//! as absent.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::client_order_id;
use super::market_name;
use super::market_terms::{check_amount, check_price, check_total};
use super::numeric::{self, Verdict};
use super::values::{label, present};
use crate::config::{MarketSpec, Markets};
use crate::wire::{self, OrderType, PositionSide, Rejection, Side, Stp};

/// Which order endpoint a body was sent to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrderKind {
    /// `POST /api/v4/order/collateral/market`.
    Market,
    /// `POST /api/v4/order/collateral/trigger-market`: `activation_price` required.
    Trigger,
    /// `POST /api/v4/order/collateral/limit` (and each order of `…/bulk`): `price` required.
    Limit,
    /// `POST /api/v4/order/collateral/stop-limit`: `price` and `activation_price` required.
    StopLimit,
}

impl OrderKind {
    /// Whether the body carries a limit price.
    fn priced(self) -> bool {
        matches!(self, Self::Limit | Self::StopLimit)
    }

    /// Whether the body carries an activation price.
    fn triggered(self) -> bool {
        matches!(self, Self::Trigger | Self::StopLimit)
    }
}

/// A price as a number and as sent (answers echo prices as sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Price {
    pub(crate) value: Decimal,
    pub(crate) text: String,
}

/// A limit order's execution flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Flags {
    /// Maker only: refused when it would take.
    pub(crate) post_only: bool,
    /// Immediate or cancel: what does not execute at once is canceled.
    pub(crate) ioc: bool,
    /// Retail Price Improvement: post-only by design.
    pub(crate) rpi: bool,
}

impl Flags {
    /// Whether the order may only make (post-only, or RPI).
    pub(crate) fn maker_only(self) -> bool {
        self.post_only || self.rpi
    }
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
    /// A stop order's activation price.
    pub(crate) activation: Option<Price>,
    /// A limit or stop-limit order's price.
    pub(crate) price: Option<Price>,
    /// A limit order's flags.
    pub(crate) flags: Flags,
    /// What the socket's order methods add: a stop-BBO's role, an explicit trigger
    /// direction, the kind of an OTO's stop-loss exit.
    pub(crate) terms: SocketTerms,
}

/// Which side of the spread prices a BBO order (`bbo_role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BboRole {
    /// 1: the order's own side's best (and `post_only`).
    Maker,
    /// 2: the other side's best.
    Taker,
}

/// The terms only the socket's order methods set; all off for a REST order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SocketTerms {
    /// A stop-BBO order: waits with no price, and is priced from the book at activation by
    /// this role.
    pub(crate) bbo: Option<BboRole>,
    /// The direction that activates a stop order, as the stop rule of that side reads it
    /// (`Buy`: a price at or above the activation, `Sell`: at or below); `None`: the order's
    /// own side (a TPSL leg's take-profit rises to its trigger while selling).
    pub(crate) trigger: Option<Side>,
    /// An OTO whose stop-loss exit is a stop-limit order (limit at the stop-loss price), not
    /// a stop-market order (`conditional_order_type` `margin_stop_limit`).
    pub(crate) stop_limit_exit: bool,
}

impl OrderRequest {
    /// A market order of `amount` on `market` with no other field set.
    pub(crate) fn market(market: &str, side: Side, amount: Decimal) -> Self {
        Self {
            market: market.to_owned(),
            side,
            amount,
            client_order_id: None,
            stop_loss: None,
            take_profit: None,
            position_side: None,
            reduce_only: false,
            stp: Stp::default(),
            activation: None,
            price: None,
            flags: Flags::default(),
            terms: SocketTerms::default(),
        }
    }

    /// The side whose stop rule activates it: [`SocketTerms::trigger`], else its own.
    pub(crate) fn trigger_side(&self) -> Side {
        self.terms.trigger.unwrap_or(self.side)
    }

    /// What kind of order it is.
    pub(crate) fn order_type(&self) -> OrderType {
        match (&self.price, &self.activation) {
            (None, None) => OrderType::Market,
            (None, Some(_)) if self.terms.bbo.is_some() => OrderType::StopLimit,
            (None, Some(_)) => OrderType::StopMarket,
            (Some(_), None) => OrderType::Limit,
            (Some(_), Some(_)) => OrderType::StopLimit,
        }
    }
}

/// Checks an order body against the docs' rules and the market's.
pub(crate) fn parse_order(
    map: &Map<String, Value>,
    kind: OrderKind,
    markets: &Markets,
) -> Result<OrderRequest, Rejection> {
    required(map, kind)?;
    let market = market(map, markets)?;
    let spec = markets
        .get(&market)
        .ok_or_else(|| market_name::rejection(market_name::UNAVAILABLE))?;
    let side = side(map)?;
    let amount = match decimal(map, "amount", 32)? {
        Some(price) => price.value,
        None => return Err(missing("amount")),
    };
    check_amount(spec, amount)?;
    let price = if kind.priced() {
        Some(required_price(map, spec, "price")?)
    } else {
        None
    };
    let activation = if kind.triggered() {
        Some(required_price(map, spec, "activation_price")?)
    } else {
        None
    };
    if let Some(at) = price.as_ref().or(activation.as_ref()) {
        check_total(spec, amount, at.value)?;
    }
    let client_order_id = client_order_id(map)?;
    let stop_loss = optional_price(map, spec, "stopLoss")?;
    let take_profit = optional_price(map, spec, "takeProfit")?;
    let Position {
        side: position_side,
        stp,
        reduce_only,
    } = position(map)?;
    let flags = if kind == OrderKind::Limit {
        Flags {
            post_only: boolean(map, "postOnly")?,
            ioc: boolean(map, "ioc")?,
            rpi: boolean(map, "rpi")?,
        }
    } else {
        Flags::default()
    };
    if reduce_only && (stop_loss.is_some() || take_profit.is_some()) {
        // Documented code (30), undocumented message.
        return Err(invalid(
            30,
            "reduceOnly",
            "ReduceOnly cannot be combined with stopLoss or takeProfit.",
        ));
    }
    check_flags(flags)?;
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
        price,
        flags,
        terms: SocketTerms::default(),
    })
}

/// What an order says of its position: `positionSide`, `stp`, `reduceOnly` (30 each).
pub(super) struct Position {
    pub(super) side: Option<PositionSide>,
    pub(super) stp: Stp,
    pub(super) reduce_only: bool,
}

/// `positionSide`, `stp` and `reduceOnly`, in that order.
pub(super) fn position(map: &Map<String, Value>) -> Result<Position, Rejection> {
    Ok(Position {
        side: word(
            map,
            "positionSide",
            PositionSide::parse,
            "'LONG', 'SHORT' or 'BOTH'",
        )?,
        stp: word(map, "stp", Stp::parse, "'no', 'cb', 'cn' or 'co'")?.unwrap_or_default(),
        reduce_only: boolean(map, "reduceOnly")?,
    })
}

/// The combinations of a limit order's flags the docs refuse: `ioc` with `postOnly` (37), `ioc`
/// with `rpi` (40 — the limit page; the bulk page's error list says 37 where its field text
/// says 40: the sandbox answers 40 everywhere), `rpi` with an explicit `postOnly` (30: the
/// spot page's "fails validation", no code given). Messages not documented.
fn check_flags(flags: Flags) -> Result<(), Rejection> {
    if flags.ioc && flags.post_only {
        return Err(invalid(37, "ioc", "Ioc cannot be combined with postOnly."));
    }
    if flags.ioc && flags.rpi {
        return Err(invalid(40, "rpi", "Rpi cannot be combined with ioc."));
    }
    if flags.rpi && flags.post_only {
        return Err(invalid(
            30,
            "postOnly",
            "PostOnly cannot be sent with rpi: rpi orders are post-only.",
        ));
    }
    Ok(())
}

fn invalid(code: i64, field: &str, message: &str) -> Rejection {
    Rejection::validation(code, field, vec![message.to_owned()])
}

/// `{Label} field is required.`, code 30 (documented for market, side, amount and price).
fn missing(field: &str) -> Rejection {
    invalid(30, field, &format!("{} field is required.", label(field)))
}

/// Every missing required field at once, code 30.
fn required(map: &Map<String, Value>, kind: OrderKind) -> Result<(), Rejection> {
    let price: &[&str] = if kind.priced() { &["price"] } else { &[] };
    let activation: &[&str] = if kind.triggered() {
        &["activation_price"]
    } else {
        &[]
    };
    let fields: Vec<&str> = ["market", "side", "amount"]
        .into_iter()
        .chain(price.iter().copied())
        .chain(activation.iter().copied())
        .collect();
    required_fields(map, &fields)
}

/// Every one of `fields` missing from `map` at once, code 30: `{Label} field is required.`.
pub(super) fn required_fields(map: &Map<String, Value>, fields: &[&str]) -> Result<(), Rejection> {
    let errors: BTreeMap<String, Vec<String>> = fields
        .iter()
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
pub(super) fn market(map: &Map<String, Value>, markets: &Markets) -> Result<String, Rejection> {
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
pub(super) fn side(map: &Map<String, Value>) -> Result<Side, Rejection> {
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

/// A required price field: numeric, above 0, to the market's `moneyPrec` (code 33).
pub(super) fn required_price(
    map: &Map<String, Value>,
    market: &MarketSpec,
    field: &str,
) -> Result<Price, Rejection> {
    optional_price(map, market, field)?.ok_or_else(|| missing(field))
}

/// An optional price field: numeric, above 0, to the market's `moneyPrec` (code 33).
pub(super) fn optional_price(
    map: &Map<String, Value>,
    market: &MarketSpec,
    field: &str,
) -> Result<Option<Price>, Rejection> {
    let price = decimal(map, field, 33)?;
    if let Some(price) = &price {
        check_price(market, field, price.value)?;
    }
    Ok(price)
}

/// A decimal field (`amount`, prices) with `code`: numeric string or number, above 0. A
/// positive value beyond the sandbox's decimals is HTTP 422 code 1 `Inner validation failed`
/// `Invalid argument.` — the catalogue's code-1 answer; which input the exchange gives it for
/// is not documented.
pub(super) fn decimal(
    map: &Map<String, Value>,
    field: &str,
    code: i64,
) -> Result<Option<Price>, Rejection> {
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
pub(super) fn client_order_id(map: &Map<String, Value>) -> Result<Option<String>, Rejection> {
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

/// A boolean field, `false` when absent; code 30 otherwise (not documented: worded like the
/// documented "should be a string").
pub(super) fn boolean(map: &Map<String, Value>, field: &str) -> Result<bool, Rejection> {
    match present(map, field) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(invalid(
            30,
            field,
            &format!("{} field should be a boolean.", label(field)),
        )),
    }
}

/// An enumerated text field with code 30; the message is worded like the documented `side`
/// one (not documented for these fields).
pub(super) fn word<T>(
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

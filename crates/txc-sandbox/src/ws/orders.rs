//! The order methods over the WebSocket (the docs' `websocket/order-management` pages, newer
//! than the spec copy): the nine collateral placements (limit, market, stop-limit,
//! stop-market, BBO, stop-BBO, OCO, OTO, TPSL), `order_modify`, `order_cancel`,
//! `order_cancel_conditional` and `order_cancel_all`, run by the same rules
//! (`crate::rules`) and state operations as the HTTP routes, against the same book — the
//! socket's own parameter names (`client_order_id`, `post_only`, `reduce_only`,
//! `position_side`, `order_id`) in, its order object (numeric `side` and `type`, `ctime`)
//! and its own error numbering out.
//!
//! | the REST rules' refusal | the socket's code |
//! |---|---|
//! | 30 a field (its message names it), 31 unknown market, 33 price, 37/40 flag combinations | 1 with the message |
//! | 30 a post-only order that would take | 14 `margin order by taker price` |
//! | 32 an amount below the market's minimum | 11 `amount too small` (other amount problems: 1) |
//! | 36 a client order id an open order has | 43 `client order id already exists` |
//! | 10 balance | 17 `user margin balance not enough` |
//! | 104–106 (TPSL), 111–116 | the same code |
//! | a cancel's or modify's order not found | 6 `order not found` |
//!
//! `order_cancel_all` needs its market and a non-empty `type` array (code 1 otherwise, in the
//! docs' words) and answers `{}`.
//!
//! `collateral_order_bbo_place` prices a limit order at the book's best — the own side's for
//! `bbo_role` 1 (post-only), the opposite side's for 2 — and refuses with 12 `not enough
//! traders` when that side is empty. `collateral_order_stop_bbo_place` waits as a type-9 order
//! with price `"0"` and prices itself the same way when its activation price is reached (an
//! empty side then drops it: `CANCELED`), as the docs' page says; `bbo_role` out of 1..2 and
//! `post_only` with role 2 are code 1 on both.
//!
//! `collateral_order_tpsl_place` attaches a take-profit and/or stop-loss to the open position
//! (`crate::state`'s `tpsl.rs`): two type-10 legs with amount `"0"`, on the side that closes
//! it; 104 without a position, 105/106 for a trigger on the wrong side of the market, code 1
//! without either trigger; a leg is canceled by `order_cancel`, unknown to
//! `order_cancel_conditional` (6), and `order_modify` refuses it with 160.
//!
//! `collateral_order_oto_place` is REST's order with its exits (`stopLoss`/`takeProfit`): the
//! entry of any placement type (`margin_limit`, `margin_market`, `margin_stop_limit`,
//! `margin_stop_market`, `margin_bbo` priced now, `margin_stop_bbo` priced at activation;
//! another: 201), the exits `margin_market_oco` (both prices), `margin_take_profit` or
//! `margin_limit` (a limit order at `take_profit`), `margin_stop_loss` (a stop-market order at
//! `stop_loss`) or `margin_stop_limit` (a stop-limit order triggered and limited at
//! `stop_loss` — the docs give the exit two bare prices only, so its limit is its trigger:
//! sandbox's choice); another: 200. The exits sit beyond the entry's price (its limit, else
//! its trigger, else the market's): for a buy the take-profit above and the stop-loss below,
//! for a sell the reverse (105 / 106 otherwise). It answers the group (`type` `"oto"`, the group id, the
//! exit prices, the entry's order object).
//!
//! Stop orders' objects carry `activation_price`, `activation_condition` (`gte`/`lte`, the
//! direction that fires it) and `activated`; without a limit price their `price` is `"0"`.
//!
//! `collateral_order_oco_place` is REST's OCO (`limit_client_order_id` its one id; a distinct
//! `stop_client_order_id` is not served) answering the group with both legs;
//! `order_cancel_conditional` cancels an OCO or OTO by its group id (6 when there is none) and
//! answers the group as placed, its legs `CANCELED`.

use std::time::Duration;

use serde_json::{Map, Value};

use super::records;
use crate::auth::Exchange;
use crate::rules::{
    self, BboRole, CancelAllRequest, CancelRequest, ConditionalCancel, MarketRule, ModifyRequest,
    OcoRequest, OrderKind, SocketTerms, TpslRequest,
};
use crate::state::GroupKind;
use crate::state::Outcome;
use crate::wire::{OtoField, Rejection, Side};

/// An error answer: the socket's code and message.
pub(super) type Refusal = (i64, String);

/// What kind of call a method is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    Place(OrderKind),
    Bbo,
    StopBbo,
    Tpsl,
    Oto,
    Oco,
    CancelConditional,
    Modify,
    Cancel,
    CancelAll,
}

impl Method {
    /// The order method named `name`; `None` for any other method.
    pub(super) fn of(name: &str) -> Option<Self> {
        Some(match name {
            "collateral_order_limit_place" => Self::Place(OrderKind::Limit),
            "collateral_order_market_place" => Self::Place(OrderKind::Market),
            "collateral_order_stop_limit_place" => Self::Place(OrderKind::StopLimit),
            "collateral_order_stop_market_place" => Self::Place(OrderKind::Trigger),
            "collateral_order_bbo_place" => Self::Bbo,
            "collateral_order_stop_bbo_place" => Self::StopBbo,
            "collateral_order_tpsl_place" => Self::Tpsl,
            "collateral_order_oto_place" => Self::Oto,
            "collateral_order_oco_place" => Self::Oco,
            "order_cancel_conditional" => Self::CancelConditional,
            "order_modify" => Self::Modify,
            "order_cancel" => Self::Cancel,
            "order_cancel_all" => Self::CancelAll,
            _ => return None,
        })
    }
}

/// The REST name of a socket parameter.
fn rest_name(name: &str) -> &str {
    match name {
        "client_order_id" => "clientOrderId",
        "post_only" => "postOnly",
        "reduce_only" => "reduceOnly",
        "position_side" => "positionSide",
        "order_id" => "orderId",
        other => other,
    }
}

/// Serves `method` for `api_key` with `params` (the array holding one object): the order
/// object, or the refusal.
pub(super) fn serve(
    exchange: &Exchange,
    api_key: &str,
    method: Method,
    params: &[Value],
) -> Result<Value, Refusal> {
    let [Value::Object(object)] = params else {
        return Err((1, "invalid argument".to_owned()));
    };
    let mut map: Map<String, Value> = object
        .iter()
        .map(|(name, value)| (rest_name(name).to_owned(), value.clone()))
        .collect();
    match method {
        Method::Place(kind) => serve_rest(exchange, api_key, &map, kind),
        Method::Bbo => {
            bbo_terms(exchange, &mut map)?;
            serve_rest(exchange, api_key, &map, OrderKind::Limit)
        }
        Method::StopBbo => {
            let role = bbo_role(&mut map)?;
            let terms = SocketTerms {
                bbo: Some(role),
                ..SocketTerms::default()
            };
            placed(exchange, api_key, &map, OrderKind::Trigger, terms).map(|(order, _)| order)
        }
        Method::Tpsl => {
            let request =
                TpslRequest::parse(&map, exchange.markets()).map_err(|r| socket_code(&r))?;
            let mut locked = exchange.lock();
            let legs = locked
                .state
                .place_tpsl(api_key, &request)
                .map_err(|r| socket_code(&r))?;
            let leg = |id: Option<u64>| {
                id.map_or(Ok(Value::Null), |id| {
                    order_object(exchange, &locked.state, id)
                })
            };
            Ok(serde_json::json!({
                "take_profit": leg(legs.take_profit)?,
                "stop_loss": leg(legs.stop_loss)?,
            }))
        }
        Method::Oto => oto(exchange, api_key, &map),
        Method::Oco => {
            let limit_id = map.remove("limit_client_order_id");
            if let Some(stop_id) = map.remove("stop_client_order_id") {
                if Some(&stop_id) == limit_id.as_ref() {
                    return Err((
                        1,
                        "limit_client_order_id and stop_client_order_id cannot be equal".to_owned(),
                    ));
                }
                return Err((
                    1,
                    "the sandbox does not serve stop_client_order_id".to_owned(),
                ));
            }
            if let Some(id) = limit_id {
                map.insert("clientOrderId".to_owned(), id);
            }
            let request =
                OcoRequest::parse(&map, exchange.markets()).map_err(|r| socket_code(&r))?;
            let mut locked = exchange.lock();
            let created = locked
                .state
                .place_oco(api_key, &request, Duration::ZERO)
                .map_err(|r| socket_code(&r))?;
            let leg = |id| order_object(exchange, &locked.state, id);
            Ok(serde_json::json!({
                "type": "oco",
                "id": created.id,
                "stop_loss": leg(created.stop_loss.order_id)?,
                "take_profit": leg(created.take_profit.order_id)?,
            }))
        }
        Method::CancelConditional => {
            if let Some(id) = map.remove("orderId") {
                map.insert("id".to_owned(), id);
            }
            let ConditionalCancel(group) =
                ConditionalCancel::parse(&map, exchange.markets()).map_err(|r| socket_code(&r))?;
            let mut locked = exchange.lock();
            let oto = locked.state.orders.pending_oto(group.id);
            let oco = locked.state.orders.oco(group.id);
            locked
                .state
                .cancel_group(api_key, &group, GroupKind::Any)
                .map_err(|_| (6, "order not found".to_owned()))?;
            let leg = |id| order_object(exchange, &locked.state, id);
            match (oto, oco) {
                (Some(entry), _) => Ok(serde_json::json!({
                    "type": "oto", "id": group.id, "trigger_order": leg(entry)?,
                })),
                (None, Some(legs)) => Ok(serde_json::json!({
                    "type": "oco",
                    "id": group.id,
                    "stop_loss": leg(legs.stop_loss)?,
                    "take_profit": leg(legs.take_profit)?,
                })),
                (None, None) => Err((6, "order not found".to_owned())),
            }
        }
        Method::Modify => {
            // REST's modify names the trigger `activationPrice`.
            if let Some(price) = map.remove("activation_price") {
                map.insert("activationPrice".to_owned(), price);
            }
            if map.contains_key("stp") {
                return Err((1, "invalid argument".to_owned()));
            }
            let target = map.get("orderId").and_then(Value::as_u64);
            if target.is_some_and(|id| {
                exchange
                    .lock()
                    .state
                    .orders
                    .get(id)
                    .is_some_and(|o| o.tpsl.is_some())
            }) {
                return Err((160, "tpsl order modification".to_owned()));
            }
            let request =
                ModifyRequest::parse(&map, exchange.markets()).map_err(|r| socket_code(&r))?;
            let mut locked = exchange.lock();
            let record = locked
                .state
                .modify(api_key, &request, Duration::ZERO)
                .map_err(|r| match r.code {
                    2 => (6, "order not found".to_owned()),
                    _ => socket_code(&r),
                })?;
            order_object(exchange, &locked.state, record.head.order_id)
        }
        Method::CancelAll => {
            if !map.contains_key("market") {
                return Err((1, "market is required".to_owned()));
            }
            match map.get("type") {
                Some(Value::Array(types)) if types.is_empty() => {
                    return Err((1, "at least one order type should be specified".to_owned()));
                }
                Some(Value::Array(_)) => {}
                _ => return Err((1, "order types must be an array".to_owned())),
            }
            let request =
                CancelAllRequest::parse(&map, exchange.markets()).map_err(|r| match r.code {
                    30 => (1, "invalid or duplicate order type".to_owned()),
                    _ => socket_code(&r),
                })?;
            exchange.lock().state.cancel_all(api_key, &request);
            Ok(Value::Object(Map::new()))
        }
        Method::Cancel => {
            // The client order id takes precedence when both are sent (the docs).
            if map.contains_key("clientOrderId") {
                map.remove("orderId");
            }
            let request =
                CancelRequest::parse(&map, exchange.markets()).map_err(|r| socket_code(&r))?;
            let mut locked = exchange.lock();
            let record = locked
                .state
                .cancel(api_key, &request)
                .map_err(|_| (6, "order not found".to_owned()))?;
            order_object(exchange, &locked.state, record.head.order_id)
        }
    }
}

/// Places the order `map` (REST's field names) of `kind`: its order object.
fn serve_rest(
    exchange: &Exchange,
    api_key: &str,
    map: &Map<String, Value>,
    kind: OrderKind,
) -> Result<Value, Refusal> {
    placed(exchange, api_key, map, kind, SocketTerms::default()).map(|(order, _)| order)
}

/// Places the order `map` of `kind` with the socket's `terms`: its order object, and its OTO
/// group's id if it opened one.
fn placed(
    exchange: &Exchange,
    api_key: &str,
    map: &Map<String, Value>,
    kind: OrderKind,
    terms: SocketTerms,
) -> Result<(Value, Option<u64>), Refusal> {
    let mut request =
        rules::parse_order(map, kind, exchange.markets()).map_err(|r| socket_code(&r))?;
    request.terms = terms;
    let mut locked = exchange.lock();
    let record = locked
        .state
        .place(api_key, request, Duration::ZERO)
        .map_err(|r| socket_code(&r))?;
    locked.state.stats.record(&Outcome::OrderAccepted);
    let oto = match &record.oto {
        OtoField::Group(group) => Some(group.oto_id),
        OtoField::Null | OtoField::Absent => None,
    };
    let order = order_object(exchange, &locked.state, record.head.order_id)?;
    Ok((order, oto))
}

/// `bbo_role` (taken out of `map`): 1 maker, 2 taker; `post_only` with the taker role is a
/// wrong flags combination (code 1 both).
fn bbo_role(map: &mut Map<String, Value>) -> Result<BboRole, Refusal> {
    let role = match map.remove("bbo_role").and_then(|r| r.as_u64()) {
        Some(1) => BboRole::Maker,
        Some(2) => BboRole::Taker,
        _ => return Err((1, "bbo role must be an integer in range 1..2".to_owned())),
    };
    if role == BboRole::Taker && map.get("postOnly") == Some(&Value::Bool(true)) {
        return Err((1, "wrong flags combination".to_owned()));
    }
    Ok(role)
}

/// A BBO order's price from the book (and `postOnly` for the maker role), in `map`.
fn bbo_terms(exchange: &Exchange, map: &mut Map<String, Value>) -> Result<(), Refusal> {
    let maker = bbo_role(map)? == BboRole::Maker;
    let side = match map.get("side").and_then(Value::as_str) {
        Some("buy") => Side::Buy,
        Some("sell") => Side::Sell,
        _ => return Err((1, "side is invalid".to_owned())),
    };
    let market = map
        .get("market")
        .and_then(Value::as_str)
        .ok_or((1, "market is required".to_owned()))?;
    // The maker's price is its own side's best, the taker's the other side's.
    let quoted = if maker {
        side
    } else {
        match side {
            Side::Buy => Side::Sell,
            Side::Sell => Side::Buy,
        }
    };
    let best = exchange.lock().state.orders.best(market, quoted);
    let (price, _) = best.ok_or((12, "not enough traders".to_owned()))?;
    map.insert(
        "price".to_owned(),
        Value::from(price.normalize().to_string()),
    );
    if maker {
        map.insert("postOnly".to_owned(), Value::Bool(true));
    }
    Ok(())
}

/// An OTO group: REST's order with its exits.
fn oto(exchange: &Exchange, api_key: &str, map: &Map<String, Value>) -> Result<Value, Refusal> {
    let invalid = |message: &str| (1, message.to_owned());
    let entry_type = map.get("trigger_order_type").and_then(Value::as_str);
    let (kind, bbo) = match entry_type {
        Some("margin_limit") => (OrderKind::Limit, Entry::Plain),
        Some("margin_market") => (OrderKind::Market, Entry::Plain),
        Some("margin_stop_limit") => (OrderKind::StopLimit, Entry::Plain),
        Some("margin_stop_market") => (OrderKind::Trigger, Entry::Plain),
        Some("margin_bbo") => (OrderKind::Limit, Entry::Bbo),
        Some("margin_stop_bbo") => (OrderKind::Trigger, Entry::StopBbo),
        Some("margin_market_oco") => {
            return Err(invalid("trigger order can't be margin market OCO"));
        }
        _ => return Err((201, "unknown trigger order type in oto".to_owned())),
    };
    let Some(Value::Object(trigger)) = map.get("trigger_order") else {
        return Err(invalid("invalid argument"));
    };
    if trigger.get("rpi") == Some(&Value::Bool(true)) {
        return Err(invalid("flags: rpi=1 can't be set for trigger in oto"));
    }
    let exit = map.get("conditional_order_type").and_then(Value::as_str);
    let (take_profit, stop_loss) = (map.get("take_profit"), map.get("stop_loss"));
    match (exit, take_profit.is_some(), stop_loss.is_some()) {
        (Some("margin_market_oco"), true, true)
        | (Some("margin_take_profit" | "margin_limit"), true, false)
        | (Some("margin_stop_loss" | "margin_stop_limit"), false, true) => {}
        (Some("margin_market_oco"), ..) => {
            return Err(invalid("take_profit and stop_loss are required"));
        }
        (Some("margin_take_profit" | "margin_limit"), ..) => {
            return Err(invalid("only take_profit is required"));
        }
        (Some("margin_stop_loss" | "margin_stop_limit"), ..) => {
            return Err(invalid("only stop_loss is required"));
        }
        _ => return Err((200, "unknown conditional order type in oto".to_owned())),
    }
    let mut entry: Map<String, Value> = trigger
        .iter()
        .map(|(name, value)| (rest_name(name).to_owned(), value.clone()))
        .collect();
    let mut terms = SocketTerms {
        stop_limit_exit: exit == Some("margin_stop_limit"),
        ..SocketTerms::default()
    };
    match bbo {
        Entry::Plain => {}
        Entry::Bbo => bbo_terms(exchange, &mut entry)?,
        Entry::StopBbo => terms.bbo = Some(bbo_role(&mut entry)?),
    }
    if let Some(price) = take_profit {
        entry.insert("takeProfit".to_owned(), price.clone());
    }
    if let Some(price) = stop_loss {
        entry.insert("stopLoss".to_owned(), price.clone());
    }
    exits_beyond_entry(exchange, &entry, take_profit, stop_loss)?;
    let (order, group) = placed(exchange, api_key, &entry, kind, terms)?;
    let group = group.ok_or((2, "internal error".to_owned()))?;
    Ok(serde_json::json!({
        "type": "oto",
        "id": group,
        "conditional_order_type": exit,
        "take_profit_price": take_profit,
        "stop_loss_price": stop_loss,
        "trigger_order": order,
    }))
}

/// The exits of an OTO on the right side of its entry (`entry`, REST's field names, priced):
/// for a buy the take-profit above and the stop-loss below — for a sell the reverse — else
/// 105 `wrong activation price for take profit` / 106 `wrong activation price for stop
/// loss` (the docs' error table names 106 for this method). The entry's price is its limit
/// price, else its activation price, else the market's; a value that is not a number is left
/// to the order's own rules.
fn exits_beyond_entry(
    exchange: &Exchange,
    entry: &Map<String, Value>,
    take_profit: Option<&Value>,
    stop_loss: Option<&Value>,
) -> Result<(), Refusal> {
    let number = |value: Option<&Value>| {
        value
            .and_then(Value::as_str)
            .and_then(|text| text.parse::<rust_decimal::Decimal>().ok())
    };
    let buy = match entry.get("side").and_then(Value::as_str) {
        Some("buy") => true,
        Some("sell") => false,
        _ => return Ok(()),
    };
    let at = number(entry.get("price"))
        .or_else(|| number(entry.get("activation_price")))
        .or_else(|| {
            let market = entry.get("market").and_then(Value::as_str)?;
            exchange.lock().state.price(market)
        });
    let Some(at) = at else {
        return Ok(());
    };
    if let Some(tp) = number(take_profit)
        && (if buy { tp <= at } else { tp >= at })
    {
        return Err((105, "wrong activation price for take profit".to_owned()));
    }
    if let Some(sl) = number(stop_loss)
        && (if buy { sl >= at } else { sl <= at })
    {
        return Err((106, "wrong activation price for stop loss".to_owned()));
    }
    Ok(())
}

/// How an OTO's entry is priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// As its own method prices it.
    Plain,
    /// `margin_bbo`: from the book now.
    Bbo,
    /// `margin_stop_bbo`: from the book at activation.
    StopBbo,
}

/// The socket's order object of order `id`, as it stands.
fn order_object(
    exchange: &Exchange,
    state: &crate::state::State,
    id: u64,
) -> Result<Value, Refusal> {
    let now = exchange.clock().now_us();
    let order = state
        .orders
        .get(id)
        .ok_or_else(|| (2, "internal error".to_owned()))?;
    let mut record = records::order(order, now, None);
    // A stop order adds its activation fields; with no limit price (a stop-market order, a
    // stop-BBO order while it waits) its price is `"0"`, as the docs' examples show.
    if let ((Some(activated), Some(condition)), Some(activation), Some(map)) = (
        order.trigger_state(),
        order.activation(),
        record.as_object_mut(),
    ) {
        map.insert(
            "activation_price".to_owned(),
            Value::from(activation.text.clone()),
        );
        map.insert("activation_condition".to_owned(), Value::from(condition));
        map.insert("activated".to_owned(), Value::from(activated));
        if order.price().is_none() {
            map.insert("price".to_owned(), Value::from("0"));
        }
    }
    // The engine drops trailing zeros on the way out (`"1916.40"` answers as `"1916.4"`).
    if let Some(map) = record.as_object_mut() {
        for key in DECIMALS {
            if let Some(Value::String(text)) = map.get_mut(*key)
                && let Ok(value) = text.parse::<rust_decimal::Decimal>()
            {
                *text = value.normalize().to_string();
            }
        }
    }
    Ok(record)
}

/// The order object's decimal fields.
const DECIMALS: &[&str] = &[
    "price",
    "amount",
    "left",
    "deal_stock",
    "deal_money",
    "deal_fee",
    "activation_price",
];

/// The socket's code and message for a refusal of the REST rules.
fn socket_code(rejection: &Rejection) -> Refusal {
    let detail = rejection
        .errors
        .values()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_else(|| rejection.message.to_owned());
    match rejection.code {
        30 if detail.contains("taker") => (14, "margin order by taker price".to_owned()),
        32 if detail.contains("minimum") || detail.contains("less") => {
            (11, "amount too small".to_owned())
        }
        36 if detail.contains("already") => (43, "client order id already exists".to_owned()),
        10 => (17, "user margin balance not enough".to_owned()),
        code @ (104..=106 | 111..=116) => (code, detail),
        _ => (1, detail),
    }
}

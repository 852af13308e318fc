//! The WebSocket's records, the sandbox's own, written from the AsyncAPI files' schemas and
//! examples (never from `txc-types`): the order object of `ordersPending`/`ordersExecuted`, the
//! 11-element deal, the abbreviated balance and the position record (of `positionsMargin` and
//! `positionsAccountMargin`).

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::state::{Deal, PositionView, StoredOrder};
use crate::wire::{LiquidationStage, OrderType, Side, decimal, time};

/// The order type's number: 7 margin limit, 8 margin market, 9 margin stop-limit, 10 margin
/// stop-market (the AsyncAPI files name 9 and 10 for margin stop orders; 7 and 8 are the
/// exchange's order types table, which the spec copy does not include: sandbox's choice).
fn order_type(order: &StoredOrder) -> u8 {
    match order.order_type() {
        OrderType::Limit => 7,
        OrderType::Market => 8,
        OrderType::StopLimit => 9,
        OrderType::StopMarket => 10,
    }
}

/// `1` sell, `2` buy.
fn side_code(side: Side) -> u8 {
    match side {
        Side::Sell => 1,
        Side::Buy => 2,
    }
}

/// A time as the stream writes it: seconds with a microsecond fraction.
fn time(micros: u64) -> Value {
    json!(time::seconds(micros))
}

/// The order object of `ordersPending_update` (with `executed`, of `ordersExecuted_update`:
/// plus `ftime`, `source` and `fee_asset`).
pub(crate) fn order(order: &StoredOrder, now_us: u64, executed: Option<&str>) -> Value {
    let request = &order.request;
    let left = order
        .amount
        .checked_sub(order.deal_stock)
        .unwrap_or_default();
    let mtime = order
        .finished_us
        .or(order.activated_us)
        .unwrap_or(order.created_us)
        .min(now_us.max(order.created_us));
    // A limit order's price; a stop-market order's activation price; `0` for a market order.
    let price = order
        .price()
        .or(order.activation())
        .map_or_else(|| "0".to_owned(), |p| p.text.clone());
    let mut record = json!({
        "id": order.id,
        "market": request.market,
        "type": order_type(order),
        "side": side_code(request.side),
        "post_only": request.flags.post_only,
        "ioc": request.flags.ioc,
        "ctime": time(order.created_us),
        "mtime": time(mtime),
        "price": price,
        "amount": decimal::text(order.amount),
        "left": decimal::text(left),
        "deal_stock": decimal::text(order.deal_stock),
        "deal_money": decimal::text(order.deal_money),
        "deal_fee": decimal::text(order.deal_fee),
        "client_order_id": request.client_order_id.clone().unwrap_or_default(),
        "stp": request.stp.as_str(),
        "status": order.status.as_str(),
        "position_side": order.position_side.as_str(),
        "rpi": request.flags.rpi,
        "retail": false,
        "reduce_only": request.reduce_only,
    });
    if let (Some(fee_asset), Some(map)) = (executed, record.as_object_mut()) {
        map.insert("ftime".to_owned(), time(order.finished_us.unwrap_or(mtime)));
        map.insert("source".to_owned(), json!(order.source.as_str()));
        map.insert("fee_asset".to_owned(), json!(fee_asset));
    }
    record
}

/// The `deals_update` parameters of `deal`, one execution of `order`: `[id, time, market,
/// order_id, price, amount, fee, client_order_id, side, role, fee_asset]`, role 1 maker, 2
/// taker.
pub(crate) fn deal(order: &StoredOrder, deal: &Deal, fee_asset: &str) -> Value {
    let execution = &deal.execution;
    json!([
        deal.id,
        time(execution.at_us),
        order.request.market,
        order.id,
        decimal::text(execution.price),
        decimal::text(execution.amount),
        decimal::text(execution.fee),
        order.request.client_order_id.clone().unwrap_or_default(),
        side_code(order.request.side),
        if execution.maker { 1 } else { 2 },
        fee_asset,
    ])
}

/// One asset's collateral balance with the stream's abbreviated keys (no borrowing in the
/// sandbox: `b` is `0` and both availabilities the balance).
pub(crate) fn balance(asset: &str, amount: Decimal) -> Value {
    let text = decimal::text(amount);
    json!({"a": asset, "B": text, "b": "0", "av": text, "ab": text})
}

/// The `positionsMargin_update` parameters: every open position of the account, at the
/// markets' current prices.
pub(crate) fn positions(views: &[PositionView]) -> Value {
    let records: Vec<Value> = views.iter().map(position).collect();
    json!({"total": records.len(), "records": records})
}

/// The `positionsAccountMargin_update` parameters: the event (`1` margin call, `2`
/// liquidation) and the position as it stood.
pub(crate) fn margin_event(stage: LiquidationStage, view: &PositionView) -> Value {
    json!([stage.event(), position(view)])
}

/// A position record, the same in both channels (`positions.yaml`,
/// `margin_positions_events.yaml`): `liq_price` `"0"` when no price liquidates it, funding
/// `"0"` (perpetual funding is paid into the balance, not kept on the position, as the REST
/// records say).
fn position(view: &PositionView) -> Value {
    let in_money = view
        .amount
        .abs()
        .checked_mul(view.price)
        .unwrap_or_default();
    json!({
        "id": view.id,
        "market": view.market,
        "ctime": time(view.opened_us),
        "mtime": time(view.modified_us),
        "amount": decimal::text(view.amount),
        "amount_in_money": decimal::text(in_money),
        "base_price": decimal::text(view.entry),
        "pnl": decimal::text(view.unrealized.round_dp(8)),
        "liq_price": view.liquidation_price.map_or_else(|| "0".to_owned(), decimal::text),
        "liq_stage": view.stage.map(LiquidationStage::as_str),
        "unrealized_funding": "0",
        "funding": "0",
        "margin": decimal::text(view.margin),
        "free_margin": decimal::text(view.free),
        "realized_pnl": decimal::text(view.realized),
        "position_side": view.side.as_str(),
    })
}

//! The WebSocket's records, the sandbox's own, written from the AsyncAPI files' schemas and
//! examples (never from `txc-types`): the order object of `ordersPending`/`ordersExecuted`, the
//! 11-element deal, the abbreviated balance and the position record.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::state::{Deal, Position, StoredOrder};
use crate::wire::{OrderType, Side, decimal, time};

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
        map.insert("source".to_owned(), json!("api"));
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
pub(crate) fn positions(
    api_key: &str,
    positions: &[Position],
    price: impl Fn(&str) -> Option<Decimal>,
    now_us: u64,
) -> Value {
    let records: Vec<Value> = positions
        .iter()
        .map(|p| {
            let amount: Decimal = p.amount.parse().unwrap_or_default();
            let entry: Decimal = p.entry_price.parse().unwrap_or_default();
            let price = price(&p.market).unwrap_or(entry);
            let pnl = price
                .checked_sub(entry)
                .and_then(|d| d.checked_mul(amount))
                .unwrap_or_default();
            let in_money = amount.abs().checked_mul(price).unwrap_or_default();
            json!({
                "id": position_id(api_key, &p.market, &p.position_side),
                "market": p.market,
                "ctime": time(now_us),
                "mtime": time(now_us),
                "amount": p.amount,
                "amount_in_money": decimal::text(in_money),
                "base_price": p.entry_price,
                "pnl": decimal::text(pnl.round_dp(8)),
                "liq_price": "0",
                "liq_stage": null,
                "unrealized_funding": "0",
                "funding": "0",
                "margin": p.margin,
                "free_margin": "0",
                "realized_pnl": "0",
                "position_side": p.position_side,
            })
        })
        .collect();
    json!({"total": records.len(), "records": records})
}

/// A position's id: the sandbox keeps none, so one is derived from the account, market and
/// side (FNV-1a, 48 bits: stable for the position's life and exact in any JSON reader).
fn position_id(api_key: &str, market: &str, side: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in [api_key, "/", market, "/", side]
        .iter()
        .flat_map(|s| s.bytes())
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash & 0xffff_ffff_ffff
}

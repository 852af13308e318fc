//! What the commands of the other order types print, beside [`crate::output`] (which hands
//! their outcomes here): a readable table, or the `result` of the `--json` document — the
//! exchange's records, as its field names have them.
#![allow(clippy::print_stdout)]

use serde_json::{Value, json};
use txc_blocking::lookups::ConditionalOrder;
use txc_blocking::orders::{BulkOrderResult, Order};
use txc_blocking::outcomes::{BulkItem, ModifyResolution, Placed, PlacedOco, PlacedOrder};

use crate::run::TradingOutcome;
use crate::table::{optional, table};

/// The JSON value of a record.
fn value(record: &impl serde::Serialize) -> Value {
    serde_json::to_value(record).unwrap_or_default()
}

/// Where a placed order was found, and the order.
fn placed(placed: &Placed) -> Value {
    let (found_in, order) = match &placed.record {
        PlacedOrder::Answered(o) => ("response", value(o)),
        PlacedOrder::Open(o) => ("open_orders", value(o)),
        PlacedOrder::Finished(h) => ("history", value(h)),
        other => ("stream", json!(format!("{other:?}"))),
    };
    json!({
        "order_id": placed.order_id(),
        "found_in": found_in,
        "order": order,
        "proved_by": placed.evidence.to_string(),
    })
}

fn bulk_item(item: &BulkItem) -> Value {
    match item {
        BulkItem::Placed(p) => json!({ "placed": true, "found": placed(p) }),
        BulkItem::Refused(error) => json!({ "placed": false, "error": value(error) }),
        BulkItem::Skipped => json!({ "placed": false, "skipped": true }),
        BulkItem::NotPlaced(evidence) => {
            json!({ "placed": false, "proved_by": evidence.to_string() })
        }
        BulkItem::Unknown(unresolved) => json!({
            "placed": null,
            "unknown": unresolved.to_string(),
            "client_order_id": unresolved.order.client_order_id().as_str(),
        }),
        other => json!({ "item": format!("{other:?}") }),
    }
}

fn modify_resolution(resolution: &ModifyResolution) -> Value {
    match resolution {
        ModifyResolution::Replaced(found) => json!({
            "replaced": true,
            "new_order_id": found.order_id(),
            "found": placed(found),
        }),
        ModifyResolution::Unchanged { order, evidence } => json!({
            "replaced": false,
            "order": value(&**order),
            "proved_by": evidence.to_string(),
        }),
        ModifyResolution::Gone { order, evidence } => json!({
            "replaced": false,
            "gone": true,
            "order": order.as_deref().map(value),
            "proved_by": evidence.to_string(),
        }),
        other => json!({ "resolution": format!("{other:?}") }),
    }
}

/// The `result` of a `--json` document.
pub(crate) fn result(outcome: &TradingOutcome) -> Value {
    match outcome {
        TradingOutcome::Bulk(items) => value(items),
        TradingOutcome::BulkPlaced(bulk) => {
            Value::Array(bulk.items.iter().map(bulk_item).collect())
        }
        TradingOutcome::Oco(pair) => value(&**pair),
        TradingOutcome::OcoPlaced(found) => {
            let (found_in, pair) = match &found.record {
                PlacedOco::Answered(p) => ("response", value(p)),
                PlacedOco::Listed(p) => ("oco_orders", value(p)),
                PlacedOco::Leg(leg) => ("a leg", json!(format!("{leg:?}"))),
                other => ("elsewhere", json!(format!("{other:?}"))),
            };
            json!({
                "id": found.pair_id(),
                "found_in": found_in,
                "pair": pair,
                "proved_by": found.evidence.to_string(),
            })
        }
        TradingOutcome::OcoPairs(pairs) => value(pairs),
        TradingOutcome::OcoCanceled(pair) => json!({ "canceled": true, "pair": value(&**pair) }),
        TradingOutcome::GroupCanceled(id) => json!({ "canceled": true, "id": id }),
        TradingOutcome::Gone { what, lost } => {
            json!({ "canceled": true, "gone": true, "what": what, "lost_answers": lost })
        }
        TradingOutcome::Modified(modified) => json!({
            "new_order_id": modified.new_order_id,
            "order": value(&modified.replacement),
        }),
        TradingOutcome::ModifyResolved(resolution) => modify_resolution(resolution),
        TradingOutcome::Conditional(page) => value(page),
        TradingOutcome::BulkCanceled(items) => value(items),
        TradingOutcome::Markets(markets) => value(markets),
    }
}

/// The orders as a table.
fn orders<'a>(orders: impl IntoIterator<Item = &'a Order>) {
    let orders: Vec<&Order> = orders.into_iter().collect();
    crate::table::orders(&orders);
}

/// Prints an outcome as text.
pub(crate) fn print(outcome: &TradingOutcome) {
    match outcome {
        TradingOutcome::Bulk(items) => {
            for (i, item) in items.iter().enumerate() {
                match item {
                    BulkOrderResult::Placed(order) => {
                        println!("{i}: placed {}", order.order_id);
                    }
                    BulkOrderResult::Refused(error) => println!(
                        "{i}: refused, code {}: {}",
                        optional(error.code.as_ref()),
                        error.message.as_deref().unwrap_or_default()
                    ),
                    other => println!("{i}: {other:?}"),
                }
            }
        }
        TradingOutcome::BulkPlaced(bulk) => {
            for (i, item) in bulk.items.iter().enumerate() {
                match item {
                    BulkItem::Placed(p) => println!("{i}: placed {}", p.order_id()),
                    BulkItem::Unknown(u) => println!("{i}: outcome unknown: {u}"),
                    other => println!("{i}: {}", bulk_item(other)),
                }
            }
        }
        TradingOutcome::Oco(pair) | TradingOutcome::OcoCanceled(pair) => {
            println!("OCO pair {}", pair.id);
            orders(pair.legs());
        }
        TradingOutcome::OcoPlaced(found) => {
            println!(
                "OCO pair {} ({})",
                optional(found.pair_id().as_ref()),
                found.evidence
            );
            if let Some(pair) = found.record.pair() {
                orders(pair.legs());
            }
        }
        TradingOutcome::OcoPairs(pairs) => {
            if pairs.is_empty() {
                println!("(none)");
            }
            for pair in pairs {
                println!("OCO pair {}", pair.id);
                orders(pair.legs());
            }
        }
        TradingOutcome::GroupCanceled(id) => println!("canceled {id}"),
        TradingOutcome::Gone { what, lost } => println!(
            "{what}: nothing of it is active any more (a canceling answer was lost {lost} \
             time(s); then not found)"
        ),
        TradingOutcome::Modified(modified) => {
            println!("replaced: new orderId {}", modified.new_order_id);
            orders([&modified.replacement]);
        }
        TradingOutcome::ModifyResolved(resolution) => match &**resolution {
            ModifyResolution::Replaced(found) => {
                println!(
                    "replaced: new orderId {} ({})",
                    found.order_id(),
                    found.evidence
                );
            }
            other => println!("{}", modify_resolution(other)),
        },
        TradingOutcome::Conditional(page) => {
            if page.records.is_empty() {
                println!("(none)");
            }
            for record in &page.records {
                match record {
                    ConditionalOrder::Oco(group) => println!("oco {}", group.id),
                    ConditionalOrder::Oto(group) => println!(
                        "oto {}: stop-loss {}, take-profit {}",
                        group.id,
                        group.stop_loss_price.as_ref().map_or("-", |p| p.as_str()),
                        group.take_profit_price.as_ref().map_or("-", |p| p.as_str()),
                    ),
                    other => println!("{other:?}"),
                }
                orders(record.orders());
            }
        }
        TradingOutcome::BulkCanceled(items) => {
            let canceled = items.iter().filter(|i| i.canceled().is_some()).count();
            println!("canceled {canceled} of {}", items.len());
            let header = ["orderId", "clientOrderId", "market", "result"];
            table(&header, items, |item| {
                let order = item.result.as_ref();
                let result = match (&item.error, item.canceled()) {
                    (Some(e), _) => format!(
                        "not canceled: code {}: {}",
                        optional(e.code.as_ref()),
                        e.message.as_deref().unwrap_or_default()
                    ),
                    (None, Some(_)) => "canceled".to_owned(),
                    (None, None) => "no answer for it".to_owned(),
                };
                vec![
                    optional(order.and_then(|o| o.order_id.as_ref())),
                    optional(order.and_then(|o| o.client_order_id.as_ref())),
                    optional(order.and_then(|o| o.market.as_ref())),
                    result,
                ]
            });
        }
        TradingOutcome::Markets(markets) => {
            let header = [
                "market",
                "stockPrec",
                "moneyPrec",
                "minAmount",
                "minTotal",
                "maxTotal",
            ];
            table(&header, markets, |m| {
                vec![
                    m.name.to_string(),
                    optional(m.stock_prec.as_ref()),
                    optional(m.money_prec.as_ref()),
                    optional(m.min_amount.as_ref()),
                    optional(m.min_total.as_ref()),
                    optional(m.max_total.as_ref()),
                ]
            });
        }
    }
}

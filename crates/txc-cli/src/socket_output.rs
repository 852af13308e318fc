//! What a command sent over the WebSocket produced ([`SocketOutcome`]) and how it is printed:
//! the answer as the socket writes it in `--json` (`via`, the kind of answer, the record with
//! camelCase keys), a line per order otherwise; `--dry-run`'s call.

use serde_json::{Value, json};
use txc_blocking::socket::{SocketAnswer, SocketRequest};

/// What a command sent over the socket produced.
#[derive(Debug)]
pub(crate) enum SocketOutcome {
    /// The order method's answer.
    Answer(Box<SocketAnswer>),
    /// `--dry-run`: the call that would be sent (its frame's method and parameters).
    Frame(SocketRequest),
}

/// The `result` of a JSON document: the answer as the socket writes it (`via`, the method's
/// kind of answer), or the call `--dry-run` would send.
pub(crate) fn result(outcome: &SocketOutcome) -> Value {
    match outcome {
        SocketOutcome::Answer(answer) => {
            let (kind, value) = match &**answer {
                SocketAnswer::Order(order) => ("order", json!(order)),
                SocketAnswer::Oco(group) => ("oco", json!(group)),
                SocketAnswer::Oto(group) => ("oto", json!(group)),
                SocketAnswer::Tpsl(pair) => ("tpsl", json!(pair)),
                SocketAnswer::Done => ("done", json!({})),
                other => ("other", json!(format!("{other:?}"))),
            };
            json!({ "via": "ws", "answer": kind, "result": value })
        }
        SocketOutcome::Frame(request) => json!({
            "via": "ws",
            "dry_run": true,
            "method": request.method().name(),
            "params": request.params_value(),
        }),
    }
}

/// Prints `outcome` as lines: each order of the answer, or the call.
pub(crate) fn print(outcome: &SocketOutcome) {
    #![allow(clippy::print_stdout)]
    match outcome {
        SocketOutcome::Answer(answer) if matches!(**answer, SocketAnswer::Done) => {
            println!("done (over the WebSocket): read the open orders to confirm");
        }
        SocketOutcome::Answer(answer) => {
            let group = match &**answer {
                SocketAnswer::Oco(g) => Some(format!("OCO group {}", g.id)),
                SocketAnswer::Oto(g) => Some(format!("OTO group {}", g.id)),
                SocketAnswer::Tpsl(_) => Some("TPSL on the position".to_owned()),
                _ => None,
            };
            if let Some(group) = group {
                println!("{group} (over the WebSocket)");
            }
            for order in answer.orders() {
                let text = |v: Option<&txc_blocking::values::ExactDecimal>| {
                    v.map_or_else(|| "-".to_owned(), ToString::to_string)
                };
                println!(
                    "order {} {} {} type {} status {} price {} amount {} executed {}{}",
                    order.id,
                    order.market.as_ref().map_or("-", |m| m.as_str()),
                    order.side.map_or("-", |s| s.as_str()),
                    order
                        .order_type
                        .map_or_else(|| "-".to_owned(), |t| t.to_string()),
                    order.status.as_ref().map_or("-", |s| s.as_str()),
                    text(order.price.as_ref()),
                    text(order.amount.as_ref()),
                    text(order.deal_stock.as_ref()),
                    order
                        .activation_price
                        .as_ref()
                        .map_or_else(String::new, |p| format!(" trigger {p}")),
                );
            }
        }
        SocketOutcome::Frame(request) => println!(
            "would send over the WebSocket (--dry-run, nothing sent): {} {}",
            request.method().name(),
            request.params_value()
        ),
    }
}

//! What the positions and risk-control commands print, beside [`crate::output`] (which hands
//! their outcomes here): a readable table, or the `result` of the `--json` document — the
//! exchange's records, as its field names have them.
#![allow(clippy::print_stdout)]

use serde_json::{Value, json};
use txc_blocking::orders::{KillSwitchAnswer, KillSwitchTimer};
use txc_blocking::outcomes::{CloseResolution, Evidence};

use crate::output::table;
use crate::risk::RiskOutcome;

/// The JSON value of a record.
fn value(record: &impl serde::Serialize) -> Value {
    serde_json::to_value(record).unwrap_or_default()
}

/// What proved a close's resolution: each round (what it counted for, when the exchange
/// processed it at the earliest, its look-ups), and the whole in words.
fn proof(evidence: &Evidence) -> Value {
    let seconds = |t: std::time::SystemTime| {
        t.duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    };
    let rounds: Vec<Value> = evidence
        .rounds
        .iter()
        .map(|r| {
            let looks: Vec<&str> = r.looks.iter().map(|l| l.operation).collect();
            json!({
                "verdict": r.verdict.to_string(),
                "exchange_sent_at": r.exchange_sent_at.map(seconds),
                "looks": looks,
            })
        })
        .collect();
    json!({
        "rounds": rounds,
        "attempts_settled_at": evidence.attempts_settled_at.map(seconds),
        "evidence": evidence.to_string(),
    })
}

/// The `result` of a `--json` document.
pub(crate) fn result(outcome: &RiskOutcome) -> Value {
    match outcome {
        RiskOutcome::Balance(b) => value(b),
        RiskOutcome::Assets(a) => value(a),
        RiskOutcome::Summary(s) => value(s),
        RiskOutcome::Positions(p) => value(p),
        RiskOutcome::Events(e) => value(e),
        RiskOutcome::Closed {
            market,
            position_id,
        } => json!({ "closed": true, "market": market, "position_id": position_id }),
        RiskOutcome::Resolved(CloseResolution::Closed(event, p)) => {
            json!({ "closed": true, "last_event": value(event), "proof": proof(p) })
        }
        RiskOutcome::Resolved(CloseResolution::StillOpen(position, p)) => {
            json!({ "closed": false, "position": value(position), "proof": proof(p) })
        }
        RiskOutcome::Resolved(other) => json!({ "resolution": format!("{other:?}") }),
        RiskOutcome::Leverage(l) => value(l),
        RiskOutcome::HedgeMode(m) => value(m),
        RiskOutcome::ModeSet(mode) => json!({ "hedgeMode": mode.is_hedge() }),
        RiskOutcome::CanceledAll => json!({ "canceled": true }),
        RiskOutcome::KillSwitch(answer) => value(answer),
        RiskOutcome::Timers(t) => value(t),
    }
}

/// Prints an outcome as text.
pub(crate) fn print(outcome: &RiskOutcome) {
    match outcome {
        RiskOutcome::Balance(b) => {
            let rows: Vec<Vec<String>> = b
                .balances
                .iter()
                .map(|(t, d)| vec![t.as_str().to_owned(), d.as_str().to_owned()])
                .collect();
            table(&["asset", "balance"], &rows);
        }
        RiskOutcome::Assets(assets) => {
            let rows: Vec<Vec<String>> = assets
                .iter()
                .map(|a| {
                    vec![
                        a.asset.as_str().to_owned(),
                        a.balance.as_str().to_owned(),
                        a.borrow.as_str().to_owned(),
                        a.available_without_borrow.as_str().to_owned(),
                        a.available_with_borrow.as_str().to_owned(),
                    ]
                })
                .collect();
            table(
                &["asset", "balance", "borrow", "available", "withBorrow"],
                &rows,
            );
        }
        RiskOutcome::Summary(s) => {
            for (name, v) in [
                ("equity", s.equity.as_str()),
                ("margin", s.margin.as_str()),
                ("freeMargin", s.free_margin.as_str()),
                ("pnl", s.pnl.as_str()),
                ("marginFraction", s.margin_fraction.as_str()),
            ] {
                println!("{name:<15} {v}");
            }
            println!("{:<15} {}", "leverage", s.leverage);
        }
        RiskOutcome::Positions(positions) => {
            let text = |d: &Option<txc_blocking::values::ExactDecimal>| {
                d.as_ref()
                    .map(|d| d.as_str().to_owned())
                    .unwrap_or_default()
            };
            let rows: Vec<Vec<String>> = positions
                .iter()
                .map(|p| {
                    vec![
                        p.position_id.to_string(),
                        p.market.as_str().to_owned(),
                        p.position_side
                            .map(|s| s.as_str().to_owned())
                            .unwrap_or_default(),
                        text(&p.amount),
                        text(&p.base_price),
                        text(&p.margin),
                        text(&p.unrealized_pnl),
                    ]
                })
                .collect();
            table(
                &[
                    "positionId",
                    "market",
                    "side",
                    "amount",
                    "basePrice",
                    "margin",
                    "unrealizedPnl",
                ],
                &rows,
            );
        }
        RiskOutcome::Events(events) => {
            let rows: Vec<Vec<String>> = events
                .iter()
                .map(|e| {
                    let detail = e.order_detail.as_ref();
                    vec![
                        e.position_id.to_string(),
                        e.market.as_str().to_owned(),
                        e.amount
                            .as_ref()
                            .map(|a| a.as_str().to_owned())
                            .unwrap_or_default(),
                        detail.map(|d| d.id.to_string()).unwrap_or_default(),
                        detail
                            .and_then(|d| d.realized_pnl.as_ref())
                            .map(|p| p.as_str().to_owned())
                            .unwrap_or_default(),
                        e.modify_date
                            .as_ref()
                            .map(|t| t.as_str().to_owned())
                            .unwrap_or_default(),
                    ]
                })
                .collect();
            table(
                &[
                    "positionId",
                    "market",
                    "amount",
                    "orderId",
                    "realizedPnl",
                    "modifyDate",
                ],
                &rows,
            );
        }
        RiskOutcome::Closed {
            market,
            position_id,
        } => println!("closed position {position_id} of {market}"),
        RiskOutcome::Resolved(CloseResolution::Closed(_, p)) => {
            println!("closed: absent from the open positions ({p})");
        }
        RiskOutcome::Resolved(CloseResolution::StillOpen(position, _)) => println!(
            "still open: position {} was not closed, and no attempt can close it any more; \
             it is safe to close it again",
            position.position_id
        ),
        RiskOutcome::Resolved(other) => println!("{other:?}"),
        RiskOutcome::Leverage(l) => println!("leverage {}", l.leverage),
        RiskOutcome::HedgeMode(m) => println!("{}", m.mode()),
        RiskOutcome::ModeSet(mode) => println!("switched to {mode}"),
        RiskOutcome::CanceledAll => println!("canceled every matching open order"),
        RiskOutcome::KillSwitch(KillSwitchAnswer::Armed(timer)) => {
            print_timers(std::slice::from_ref(timer))
        }
        RiskOutcome::KillSwitch(_) => println!("timer deleted"),
        RiskOutcome::Timers(timers) => print_timers(timers),
    }
}

fn print_timers(timers: &[KillSwitchTimer]) {
    let rows: Vec<Vec<String>> = timers
        .iter()
        .map(|t| {
            let types = t.types.as_ref().map_or_else(
                || "all".to_owned(),
                |ts| ts.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(","),
            );
            vec![
                t.market.as_str().to_owned(),
                t.start_time.as_str().to_owned(),
                t.cancellation_time.as_str().to_owned(),
                types,
            ]
        })
        .collect();
    table(&["market", "startTime", "cancellationTime", "types"], &rows);
}

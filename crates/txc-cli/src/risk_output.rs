//! What the positions and risk-control commands print, beside [`crate::output`] (which hands
//! their outcomes here): a readable table, or the `result` of the `--json` document — the
//! exchange's records, as its field names have them.
#![allow(clippy::print_stdout)]

use serde_json::{Value, json};
use txc_blocking::orders::{KillSwitchAnswer, KillSwitchTimer};
use txc_blocking::outcomes::{CloseResolution, Evidence};

use crate::run::RiskOutcome;
use crate::table::{optional, position_side, table, utc};

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
        RiskOutcome::CanceledAll(Ok(count)) => json!({
            "canceled": true,
            "count": count.total(),
            "by_type": count.by_type,
            "still_open": count.still_open,
        }),
        RiskOutcome::CanceledAll(Err(why)) => {
            json!({ "canceled": true, "count": null, "uncounted": why })
        }
        RiskOutcome::KillSwitch(answer) => value(answer),
        RiskOutcome::Timers(t) => value(t),
    }
}

/// Prints an outcome as text.
pub(crate) fn print(outcome: &RiskOutcome) {
    match outcome {
        RiskOutcome::Balance(b) => table(&["asset", "balance"], &b.balances, |(t, d)| {
            vec![t.to_string(), d.to_string()]
        }),
        RiskOutcome::Assets(assets) => {
            let header = ["asset", "balance", "borrow", "available", "withBorrow"];
            table(&header, assets, |a| {
                vec![
                    a.asset.to_string(),
                    a.balance.to_string(),
                    a.borrow.to_string(),
                    a.available_without_borrow.to_string(),
                    a.available_with_borrow.to_string(),
                ]
            });
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
            let header = [
                "positionId",
                "market",
                "position",
                "amount",
                "basePrice",
                "margin",
                "unrealizedPnl",
            ];
            table(&header, positions, |p| {
                vec![
                    p.position_id.to_string(),
                    p.market.to_string(),
                    position_side(p.position_side, p.amount.as_ref()),
                    optional(p.amount.as_ref()),
                    optional(p.base_price.as_ref()),
                    optional(p.margin.as_ref()),
                    optional(p.unrealized_pnl.as_ref()),
                ]
            });
        }
        RiskOutcome::Events(events) => {
            let header = [
                "positionId",
                "market",
                "amount",
                "orderId",
                "realizedPnl",
                "modifyDate",
            ];
            table(&header, events, |e| {
                let detail = e.order_detail.as_ref();
                vec![
                    e.position_id.to_string(),
                    e.market.to_string(),
                    optional(e.amount.as_ref()),
                    optional(detail.map(|d| &d.id)),
                    optional(detail.and_then(|d| d.realized_pnl.as_ref())),
                    e.modify_date.as_ref().map(utc).unwrap_or_default(),
                ]
            });
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
        RiskOutcome::CanceledAll(Ok(count)) => println!("{}", count.line()),
        RiskOutcome::CanceledAll(Err(why)) => println!(
            "canceled every matching open order (not counted: reading the open orders failed: \
             {why})"
        ),
        RiskOutcome::KillSwitch(KillSwitchAnswer::Armed(timer)) => {
            print_timers(std::slice::from_ref(timer))
        }
        RiskOutcome::KillSwitch(_) => println!("timer deleted"),
        RiskOutcome::Timers(timers) => print_timers(timers),
    }
}

fn print_timers(timers: &[KillSwitchTimer]) {
    let header = ["market", "startTime", "cancellationTime", "types"];
    table(&header, timers, |t| {
        let types = t.types.as_ref().map_or_else(
            || "all".to_owned(),
            |ts| ts.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(","),
        );
        vec![
            t.market.to_string(),
            utc(&t.start_time),
            utc(&t.cancellation_time),
            types,
        ]
    });
}

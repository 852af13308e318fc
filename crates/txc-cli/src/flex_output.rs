//! What the `txc flex …` commands print, beside [`crate::output`] (which hands their outcomes
//! here): a readable table, or the `result` of the `--json` document — the exchange's records,
//! as its field names have them.
#![allow(clippy::print_stdout)]

use serde_json::{Map, Value, json};
use txc_blocking::investments::flex::{FlexAction, FlexHistoryRecord, FlexInvestment, FlexPlan};
use txc_blocking::outcomes::{FlexDone, MoveResolution, StateReached};

use crate::flex_outcome::FlexOutcome;
use crate::table::table;

/// The JSON value of a record.
fn value(record: &impl serde::Serialize) -> Value {
    serde_json::to_value(record).unwrap_or_default()
}

/// The word of a flex operation done (`"invest"` → `invested`), and how a command does it.
fn words(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "withdraw" => ("withdrawn", "withdraw"),
        _ => ("invested", "invest"),
    }
}

/// The `result` of a `--json` document.
pub(crate) fn result(outcome: &FlexOutcome) -> Value {
    match outcome {
        FlexOutcome::Plans(plans) => value(plans),
        FlexOutcome::Investments(investments) => value(investments),
        FlexOutcome::History(records) => value(records),
        FlexOutcome::Moved(_, FlexDone::Found { record, evidence }) => json!({
            "transaction_id": record.transaction_id,
            "found_in": "history",
            "record": value(&**record),
            "evidence": evidence.to_string(),
        }),
        FlexOutcome::Moved(_, done) => {
            json!({ "transaction_id": done.transaction_id(), "found_in": "response" })
        }
        FlexOutcome::Resolved(kind, resolution) => {
            let (done, _) = words(kind);
            match resolution {
                MoveResolution::Done { record, evidence } => json!({
                    done: true,
                    "transaction_id": record.transaction_id,
                    "record": value(&**record),
                    "evidence": evidence.to_string(),
                }),
                other => json!({ done: false, "evidence": other.evidence().to_string() }),
            }
        }
        FlexOutcome::Closed { plan_id, reached } => {
            let mut fields = state_fields(reached, |tx| json!(tx.transaction_id()));
            fields.insert("closed".into(), json!(true));
            fields.insert("plan_id".into(), json!(plan_id));
            Value::Object(fields)
        }
        FlexOutcome::AutoInvest {
            plan_id,
            on,
            reached,
        } => {
            let mut fields = state_fields(reached, |_| Value::Null);
            fields.insert("auto_invest".into(), json!(on));
            fields.insert("plan_id".into(), json!(plan_id));
            Value::Object(fields)
        }
    }
}

/// How a change idempotent by state was seen done: `found_by` — `response` (with the answer's
/// `transaction_id`, when it has one), `investment` (the investment read, after a lost answer)
/// or `refusal` (a later attempt refused as done, with the exchange's message).
fn state_fields<T>(reached: &StateReached<T>, id: impl Fn(&T) -> Value) -> Map<String, Value> {
    let mut fields = Map::new();
    match reached {
        StateReached::Answered(answer) => {
            fields.insert("found_by".into(), json!("response"));
            let id = id(answer);
            if !id.is_null() {
                fields.insert("transaction_id".into(), id);
            }
        }
        StateReached::Read(investment) => {
            fields.insert("found_by".into(), json!("investment"));
            fields.insert("investment".into(), value(&**investment));
        }
        StateReached::RefusedAsDone(refusal) => {
            fields.insert("found_by".into(), json!("refusal"));
            fields.insert("refusal".into(), json!(refusal.to_string()));
        }
        _ => {
            fields.insert("found_by".into(), json!("other"));
        }
    }
    fields
}

/// How a change idempotent by state was seen done, in words.
fn state_words<T>(reached: &StateReached<T>) -> &'static str {
    match reached {
        StateReached::Answered(_) => "the exchange answered",
        StateReached::Read(_) => "its answer was lost; the investment, read afterwards, shows it",
        StateReached::RefusedAsDone(_) => {
            "its answer was lost; a later attempt was refused as already done"
        }
        _ => "shown done",
    }
}

/// Prints a flex command's result as a table.
pub(crate) fn print(outcome: &FlexOutcome) {
    match outcome {
        FlexOutcome::Plans(plans) => print_plans(plans),
        FlexOutcome::Investments(investments) => print_investments(investments),
        FlexOutcome::History(records) => print_history(records),
        FlexOutcome::Moved(kind, FlexDone::Found { record, evidence }) => {
            println!("{}: found in the flex history ({evidence})", words(kind).0);
            print_history(std::slice::from_ref(&**record));
        }
        FlexOutcome::Moved(kind, done) => {
            println!("{}: transaction {}", words(kind).0, done.transaction_id());
        }
        FlexOutcome::Resolved(kind, resolution) => {
            let (done, verb) = words(kind);
            match resolution {
                MoveResolution::Done { record, evidence } => {
                    println!("{done} ({evidence})");
                    print_history(std::slice::from_ref(&**record));
                }
                other => println!(
                    "not {done}: it is safe to {verb} again ({})",
                    other.evidence()
                ),
            }
        }
        FlexOutcome::Closed { plan_id, reached } => {
            println!(
                "closed the investment in plan {plan_id}: {}",
                state_words(reached)
            );
            if let StateReached::Answered(tx) = reached {
                println!("transaction {}", tx.transaction_id());
            }
        }
        FlexOutcome::AutoInvest {
            plan_id,
            on,
            reached,
        } => {
            let state = if *on { "on" } else { "off" };
            println!(
                "auto-reinvestment {state} for the investment in plan {plan_id}: {}",
                state_words(reached)
            );
        }
    }
}

fn print_plans(plans: &[FlexPlan]) {
    let header = [
        "id",
        "ticker",
        "status",
        "maxRate",
        "minInvestment",
        "maxInvestment",
    ];
    table(&header, plans, |p| {
        vec![
            p.id.clone(),
            p.ticker.to_string(),
            p.status.map(crate::table::plan_status).unwrap_or_default(),
            p.max_rate.to_string(),
            p.min_investment.to_string(),
            p.max_investment.to_string(),
        ]
    });
}

fn print_investments(investments: &[FlexInvestment]) {
    let header = [
        "id",
        "plan",
        "currency",
        "status",
        "invested",
        "autoReinvest",
        "created",
        "updated",
    ];
    table(&header, investments, |i| {
        let status = if i.is_active() { "active" } else { "closed" };
        vec![
            i.id.clone(),
            i.plan_id.clone(),
            i.currency.to_string(),
            status.to_owned(),
            i.invested.to_string(),
            i.with_auto_reinvest.to_string(),
            i.created_at.to_string(),
            i.updated_at.to_string(),
        ]
    });
}

/// The spec's name of a history record's action.
fn action_name(action: FlexAction) -> String {
    match action {
        FlexAction::Invest => "INVEST".to_owned(),
        FlexAction::Reinvest => "REINVEST".to_owned(),
        FlexAction::Withdraw => "WITHDRAW_FROM_INVESTMENT".to_owned(),
        FlexAction::DailyEarning => "DAILY_EARNING".to_owned(),
        FlexAction::Close => "CLOSE_INVESTMENT".to_owned(),
        FlexAction::Open => "OPEN_INVESTMENT".to_owned(),
        other => other.code().to_string(),
    }
}

fn print_history(records: &[FlexHistoryRecord]) {
    let header = [
        "createdAt",
        "action",
        "plan",
        "investment",
        "amount",
        "currency",
        "transaction_id",
    ];
    table(&header, records, |r| {
        vec![
            r.created_at.to_string(),
            action_name(r.action_type),
            r.plan_id.clone(),
            r.investment_id.clone(),
            r.amount.to_string(),
            r.currency.to_string(),
            r.transaction_id.clone(),
        ]
    });
}

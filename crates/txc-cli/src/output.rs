//! What `txc` prints: a readable table by default, or one JSON document with `--json`.
//!
//! Printing is this module's purpose, so it alone writes to standard output and error.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use serde_json::{Map, Value, json};
use txc_blocking::endpoint::SignedRequest;
use txc_blocking::investments::{InterestPayment, Investment, InvestmentPlan};
use txc_blocking::lookups::HistoryOrder;
use txc_blocking::orders::Order;
use txc_blocking::outcomes::{
    AttemptRecord, Evidence, InvestResolution, Invested, MoneyMove, PendingMove, PendingRecord,
    Placed, PlacedOrder, Resolution,
};

use crate::commands::resolve_record_command;
use crate::exit::CliError;
use crate::journal::{Entry, What};
use crate::run::Outcome;
use crate::table::{optional, table, utc};

/// Headers shown only with `--show-signature`.
const SIGNATURE_HEADERS: [&str; 2] = ["x-txc-payload", "x-txc-signature"];

/// Prints a command's result.
pub(crate) fn success(command: &str, outcome: &Outcome, json: bool, show_signature: bool) {
    if json {
        let document = match outcome {
            // The request as it would be sent: its body's fields as on the wire.
            Outcome::DryRun(request) => {
                json!({ "command": command, "dryRun": dry_run(request, show_signature) })
            }
            // The call as it would be sent: its parameters as on the wire.
            Outcome::Socket(socket)
                if matches!(**socket, crate::socket_output::SocketOutcome::Frame(_)) =>
            {
                json!({ "command": command, "dryRun": crate::socket_output::result(socket) })
            }
            other => camel_case(json!({ "command": command, "result": result(other) })),
        };
        println!("{document}");
        return;
    }
    match outcome {
        Outcome::Order(order) => print_order(order),
        Outcome::Canceled(order) => {
            println!("canceled");
            print_order(order);
        }
        Outcome::Placed(placed) => print_placed(placed),
        Outcome::Plans(plans) => print_plans(plans),
        Outcome::Orders(orders) => crate::table::orders(&orders.iter().collect::<Vec<_>>()),
        Outcome::History(history) => print_history(history.orders()),
        Outcome::Resolved(resolution) => match &**resolution {
            Resolution::Placed(placed) => {
                println!("placed");
                print_placed(placed);
            }
            other => {
                println!("not placed: it is safe to place the order again");
                println!("proved by: {}", other.evidence());
            }
        },
        Outcome::Invested(invested) => print_invested(invested),
        Outcome::Investments(page) => print_investments(&page.records),
        Outcome::InvestmentClosed(id) => println!("closed {id}"),
        Outcome::InterestPayments(page) => print_payments(&page.records),
        Outcome::InvestResolved(resolution) => match &**resolution {
            InvestResolution::Invested {
                investment,
                evidence,
            } => {
                println!("invested ({evidence})");
                print_investments(std::slice::from_ref(&**investment));
            }
            other => println!(
                "not invested: it is safe to invest again ({})",
                other.evidence()
            ),
        },
        Outcome::Time(time) => println!("{}", utc(time.time.as_str())),
        Outcome::Pending(entries) => print_pending(entries),
        Outcome::Discarded(what) => println!("discarded {what}"),
        Outcome::DryRun(request) => print_dry_run(request, show_signature),
        Outcome::Risk(outcome) => crate::risk_output::print(outcome),
        Outcome::Flex(outcome) => crate::flex_output::print(outcome),
        Outcome::Config { path, written } => {
            if *written {
                println!(
                    "wrote {} (readable by you only); fill in a profile",
                    path.display()
                );
            } else {
                println!("{}", path.display());
            }
        }
        Outcome::Trading(outcome) => crate::trading_output::print(outcome),
        Outcome::Report(outcome) => crate::reports_output::print(outcome),
        Outcome::Socket(outcome) => crate::socket_output::print(outcome),
    }
}

/// `value` with every object key in camelCase (`exit_code` → `exitCode`): the exchange's
/// casing, and one casing for every document `txc --json` prints, whatever built it.
pub(crate) fn camel_case(value: Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(key, value)| (camel_key(&key), camel_case(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(camel_case).collect()),
        other => other,
    }
}

/// `snake_case` → `snakeCase`; any other key as it is (a market such as `BTC_USDT` keying the
/// history is data, not a field name).
fn camel_key(key: &str) -> String {
    use heck::ToLowerCamelCase as _;
    let snake = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
    if !key.contains('_') || !key.chars().all(snake) {
        return key.to_owned();
    }
    key.to_lower_camel_case()
}

/// Prints a failure: the JSON document on standard output with `--json`, else the message on
/// standard error.
pub(crate) fn failure(command: &str, error: &CliError, json: bool) {
    let exit = error.exit();
    if !json {
        eprintln!("error: {}", error.message());
        return;
    }
    let mut detail = Map::new();
    detail.insert("exit_code".into(), json!(exit as u8));
    detail.insert("kind".into(), json!(exit.kind()));
    detail.insert("message".into(), json!(error.message()));
    if let CliError::Client { error, check, .. } = error {
        if let Some(api) = error.api() {
            detail.insert("status".into(), json!(api.status));
            detail.insert("code".into(), json!(api.code));
        }
        // A refusal over the WebSocket, by the socket's own numbering.
        if let txc_blocking::Error::Socket(socket) = error {
            detail.insert("via".into(), json!("ws"));
            if let Some(refusal) = socket.refusal() {
                detail.insert("code".into(), json!(refusal.code()));
                detail.insert("refusal".into(), json!(format!("{refusal:?}")));
            }
        }
        let order = error.pending_order().map(|pending| {
            let mut order = json!({
                "market": pending.market().as_str(),
                "client_order_id": pending.client_order_id().as_str(),
                "trigger": pending.is_trigger(),
                "nonces": nonces(pending.attempts()),
                "reason": pending.reason(),
            });
            if let (false, Some(fields)) =
                (pending.socket_attempts().is_empty(), order.as_object_mut())
            {
                fields.insert(
                    "ws_attempts".into(),
                    crate::via::ws_attempts_value(pending.socket_attempts()),
                );
            }
            order
        });
        let close = error.pending_close().map(|close| {
            json!({
                "market": close.market().as_str(),
                "position_id": close.position_id(),
                "nonces": nonces(close.attempts()),
            })
        });
        let pending = [
            ("pending", order),
            ("pending_close", close),
            ("pending_investment", error.pending_investment().map(moved)),
            (
                "pending_flex_invest",
                error.pending_flex_invest().map(moved),
            ),
            (
                "pending_flex_withdraw",
                error.pending_flex_withdraw().map(moved),
            ),
        ];
        for (key, value) in pending {
            if let Some(value) = value {
                detail.insert(key.into(), value);
            }
        }
        if let Some(evidence) = error.evidence() {
            detail.insert("evidence".into(), json!(evidence.to_string()));
        }
        if let Some(check) = check {
            detail.insert("check".into(), json!(check));
        }
        if let Some(origin) = crate::origin::origin() {
            detail.insert("server".into(), json!(origin.base_url));
            detail.insert("credentials".into(), json!(origin.credentials));
        }
    }
    println!(
        "{}",
        camel_case(json!({ "command": command, "error": detail }))
    );
}

/// The `pending_investment`, `pending_flex_invest` or `pending_flex_withdraw` detail of an
/// operation that moves money: its plan, amount, nonces, nonce mode and why it is unresolved.
fn moved<R: MoneyMove>(pending: &PendingMove<R>) -> Value {
    let request = pending.request();
    json!({
        "plan_id": request.plan_id(),
        "amount": request.amount().as_str(),
        "nonces": nonces(pending.attempts()),
        "nonce_window": pending.nonce_mode().window(),
        "reason": pending.reason(),
    })
}

/// The nonces of what was sent, as the `pending*` details list them.
fn nonces(attempts: &[AttemptRecord]) -> Vec<u64> {
    attempts.iter().map(|a| a.nonce.get()).collect()
}

/// The `result` of a JSON document: the exchange's records, as its field names have them.
fn result(outcome: &Outcome) -> Value {
    let value = |v: &dyn erased::ToValue| v.to_value();
    match outcome {
        Outcome::Order(order) => value(&**order),
        Outcome::Canceled(order) => json!({ "canceled": true, "order": value(&**order) }),
        Outcome::Placed(placed) => placed_value(placed),
        Outcome::Plans(plans) => value(plans),
        Outcome::Orders(orders) => value(orders),
        Outcome::History(history) => value(&history.markets),
        Outcome::Resolved(resolution) => match &**resolution {
            Resolution::Placed(placed) => placed_value_with(placed, Some(true)),
            other => json!({ "placed": false, "proved_by": other.evidence().to_string() }),
        },
        Outcome::Invested(invested) => invested_value(invested),
        Outcome::Investments(page) => value(page),
        Outcome::InvestmentClosed(id) => json!({ "closed": true, "id": id }),
        Outcome::InterestPayments(page) => value(page),
        Outcome::InvestResolved(resolution) => match &**resolution {
            InvestResolution::Invested {
                investment,
                evidence,
            } => json!({
                "invested": true,
                "id": investment.id,
                "investment": value(&**investment),
                "evidence": evidence.to_string(),
            }),
            other => json!({ "invested": false, "evidence": other.evidence().to_string() }),
        },
        Outcome::Time(time) => json!({ "time": time.time.unix_seconds() }),
        Outcome::Pending(entries) => pending_value(entries),
        Outcome::Discarded(what) => json!({ "discarded": what }),
        Outcome::DryRun(request) => dry_run(request, false),
        Outcome::Risk(outcome) => crate::risk_output::result(outcome),
        Outcome::Flex(outcome) => crate::flex_output::result(outcome),
        Outcome::Config { path, written } => {
            json!({ "path": path.display().to_string(), "written": written })
        }
        Outcome::Trading(outcome) => crate::trading_output::result(outcome),
        Outcome::Report(outcome) => crate::reports_output::result(outcome),
        Outcome::Socket(outcome) => crate::socket_output::result(outcome),
    }
}

/// `{"found_in": "response" | "open_orders" | "history", "order_id": …, "market": …,
/// "order": {…}, "proved_by": "…"}`.
fn placed_value(placed: &Placed) -> Value {
    placed_value_with(placed, None)
}

/// The same, with `"placed"` when given.
fn placed_value_with(placed: &Placed, flag: Option<bool>) -> Value {
    let (found_in, market, order) = match &placed.record {
        PlacedOrder::Answered(o) => ("response", &o.market, erased::ToValue::to_value(o)),
        PlacedOrder::Open(o) => ("open_orders", &o.market, erased::ToValue::to_value(o)),
        // A history record does not repeat its market (it is the key it is listed under).
        PlacedOrder::Finished(h) => ("history", &h.market, erased::ToValue::to_value(h)),
        _ => return json!({ "order_id": placed.order_id() }),
    };
    let found_in = placed
        .evidence
        .found()
        .map_or(found_in, |(look, _)| look.operation);
    let mut value = Map::new();
    if let Some(flag) = flag {
        value.insert("placed".into(), json!(flag));
    }
    value.insert("found_in".into(), json!(found_in));
    value.insert("order_id".into(), json!(placed.order_id()));
    value.insert("market".into(), json!(market));
    value.insert("order".into(), order);
    value.insert("proved_by".into(), json!(placed.evidence.to_string()));
    Value::Object(value)
}

/// `{"id": …, "found_in": "response" | "investments", "investment": {…}, "evidence": "…"}`.
fn invested_value(invested: &Invested) -> Value {
    match invested {
        Invested::Found {
            investment,
            evidence,
        } => json!({
            "id": investment.id,
            "found_in": "investments",
            "investment": erased::ToValue::to_value(&**investment),
            "evidence": evidence.to_string(),
        }),
        other => json!({ "id": other.id(), "found_in": "response" }),
    }
}

/// The journal's entries, each with why it is unresolved (once known) and the command that
/// resolves it.
fn pending_value(entries: &[Entry]) -> Value {
    let list: Vec<Value> = entries
        .iter()
        .map(|e| {
            let nonces: Vec<u64> = e.attempts.iter().map(|a| a.nonce).collect();
            let mut value = match &e.what {
                What::Order {
                    market,
                    client_order_id,
                    trigger,
                } => json!({
                    "kind": "order",
                    "market": market,
                    "client_order_id": client_order_id,
                    "trigger": trigger,
                }),
                What::Investment(moved)
                | What::FlexInvest { moved, .. }
                | What::FlexWithdraw(moved) => json!({
                    "kind": e.what.kind(),
                    "plan_id": moved.plan_id,
                    "amount": moved.amount,
                }),
                What::Modify {
                    request,
                    original_order_id,
                    ..
                } => json!({
                    "kind": "modify",
                    "request": request,
                    "original_order_id": original_order_id,
                }),
            };
            if let Some(fields) = value.as_object_mut() {
                fields.insert("key".into(), json!(e.key()));
                fields.insert("nonces".into(), json!(nonces));
                fields.insert("base_url".into(), json!(e.base_url));
                fields.insert("reason".into(), json!(e.reason));
                fields.insert("resolve".into(), json!(resolve_line(e)));
            }
            value
        })
        .collect();
    Value::Array(list)
}

/// `txc resolve …` (or `txc resolve-investment …`, `txc flex resolve …`) for a journal entry.
fn resolve_line(entry: &Entry) -> String {
    // With the server the entry was sent to: the journal keeps one per server and key.
    crate::hint::runnable(&resolve_words(entry), &entry.base_url)
}

/// [`resolve_line`] without the options.
fn resolve_words(entry: &Entry) -> String {
    match entry.record() {
        Ok(PendingRecord::Modify(_)) => modify_line(entry),
        Ok(record) => resolve_record_command(&record),
        Err(_) => match (&entry.what, entry.what.moved()) {
            (What::Modify { .. }, _) => modify_line(entry),
            (
                What::Order {
                    market,
                    client_order_id,
                    ..
                },
                _,
            ) => format!("txc resolve {market} {client_order_id}"),
            (What::Investment(_), Some(m)) => {
                format!("txc resolve-investment {} {}", m.plan_id, m.amount)
            }
            (What::FlexInvest { .. }, Some(m)) => {
                format!("txc flex resolve invest {} {}", m.plan_id, m.amount)
            }
            (_, Some(m)) => format!("txc flex resolve withdraw {} {}", m.plan_id, m.amount),
            (_, None) => "txc pending".to_owned(),
        },
    }
}

/// How to settle a journal's modify: the same modify with `--once` reads the order first.
fn modify_line(entry: &Entry) -> String {
    match &entry.what {
        What::Modify { request, .. } => {
            let mut line = String::from("txc modify");
            for (key, flag) in [
                ("market", ""),
                ("orderId", "--order-id "),
                ("clientOrderId", "--client-order-id "),
                ("amount", "--amount "),
                ("total", "--total "),
                ("price", "--price "),
                ("activationPrice", "--activation-price "),
                ("stp", "--stp "),
            ] {
                if let Some(value) = request.get(key) {
                    let value = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                    line.push_str(&format!(" {flag}{value}"));
                }
            }
            line.push_str(" --once");
            line
        }
        _ => String::new(),
    }
}

fn print_pending(entries: &[Entry]) {
    if entries.is_empty() {
        println!("no orders or investments in flight or unresolved");
        return;
    }
    let header = [
        "key",
        "what",
        "attempts",
        "unresolved because",
        "resolve with",
    ];
    table(&header, entries, |e| {
        let what = match e.record() {
            Ok(record) => record.subject(),
            Err(why) => format!("unreadable: {why}"),
        };
        vec![
            e.key().map_or_else(String::new, |k| k.to_string()),
            what,
            e.attempts.len().to_string(),
            e.reason.clone().unwrap_or_else(|| "-".to_owned()),
            resolve_line(e),
        ]
    });
}

/// Prints what proved an answer.
fn print_evidence(evidence: &Evidence) {
    println!("{:<15} {evidence}", "proved by");
}

/// Serializing any of the record types to a JSON value, behind one object-safe trait.
mod erased {
    /// A value that becomes JSON.
    pub(super) trait ToValue {
        /// The JSON value (`null` if it could not be serialized, which these types always can).
        fn to_value(&self) -> serde_json::Value;
    }

    impl<T: serde::Serialize> ToValue for T {
        fn to_value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap_or_default()
        }
    }
}

/// The request a dry run signed: method, URL, headers (payload and signature redacted unless
/// asked for) and body.
fn dry_run(request: &SignedRequest, show_signature: bool) -> Value {
    let headers = shown_headers(request, show_signature);
    let body = serde_json::from_slice::<Value>(request.body()).unwrap_or(Value::Null);
    json!({
        "method": request.method().as_str(),
        "url": request.uri().to_string(),
        "headers": headers,
        "body": body,
    })
}

/// The request's headers, payload and signature redacted unless asked for.
fn shown_headers(request: &SignedRequest, show_signature: bool) -> Map<String, Value> {
    request
        .headers()
        .iter()
        .map(|(name, value)| {
            let shown = if SIGNATURE_HEADERS.contains(&name.as_str()) && !show_signature {
                "<redacted>".to_owned()
            } else {
                value.to_str().unwrap_or("<not text>").to_owned()
            };
            (name.as_str().to_owned(), Value::String(shown))
        })
        .collect()
}

fn print_dry_run(request: &SignedRequest, show_signature: bool) {
    println!("{} {}", request.method().as_str(), request.uri());
    for (name, value) in shown_headers(request, show_signature) {
        println!("{name}: {}", value.as_str().unwrap_or_default());
    }
    println!();
    println!("{}", String::from_utf8_lossy(request.body()));
    println!("(dry run: nothing was sent)");
}

fn print_order(order: &Order) {
    for (name, value) in crate::table::order_lines(order) {
        println!("{name:<15} {value}");
    }
}

fn print_placed(placed: &Placed) {
    match &placed.record {
        PlacedOrder::Answered(o) | PlacedOrder::Open(o) => print_order(o),
        PlacedOrder::Finished(h) => print_history(std::iter::once(h)),
        _ => println!("orderId {}", placed.order_id()),
    }
    print_evidence(&placed.evidence);
}

fn print_history<'a>(orders: impl Iterator<Item = &'a HistoryOrder>) {
    let header = [
        "id",
        "clientOrderId",
        "market",
        "side",
        "amount",
        "status",
        "ftime",
    ];
    table(&header, orders, |o| {
        vec![
            o.id.to_string(),
            optional(o.client_order_id.as_ref()),
            o.market.to_string(),
            o.side.to_string(),
            o.amount.to_string(),
            o.status.to_string(),
            utc(&o.ftime),
        ]
    });
}

fn print_plans(plans: &[InvestmentPlan]) {
    let header = ["id", "ticker", "status", "percent", "days", "min", "max"];
    table(&header, plans, |p| {
        vec![
            p.id.clone(),
            p.ticker.to_string(),
            crate::table::plan_status(p.status),
            p.percent.to_string(),
            (p.duration().as_secs() / 86_400).to_string(),
            p.min_investment.to_string(),
            p.max_investment.to_string(),
        ]
    });
}

fn print_invested(invested: &Invested) {
    match invested {
        Invested::Found {
            investment,
            evidence,
        } => {
            println!("invested: found in the investments list ({evidence})");
            print_investments(std::slice::from_ref(&**investment));
        }
        other => println!("invested {}", other.id()),
    }
}

fn print_investments(investments: &[Investment]) {
    let header = [
        "id",
        "plan",
        "ticker",
        "status",
        "amount",
        "interestPaid",
        "created",
        "paymentTime",
    ];
    table(&header, investments, |i| {
        let status = match i.status.code() {
            1 => "active".to_owned(),
            2 => "closed".to_owned(),
            n => n.to_string(),
        };
        vec![
            i.id.clone(),
            i.plan.id.clone(),
            i.plan.ticker.to_string(),
            status,
            i.amount.to_string(),
            i.interest_paid.to_string(),
            utc(&i.created),
            utc(&i.payment_time),
        ]
    });
}

fn print_payments(payments: &[InterestPayment]) {
    let header = ["investmentId", "planId", "amount", "ticker", "timestamp"];
    table(&header, payments, |p| {
        vec![
            p.investment_id.clone(),
            p.plan_id.clone(),
            p.amount.to_string(),
            p.ticker.to_string(),
            utc(&p.timestamp),
        ]
    });
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::camel_case;

    #[test]
    fn every_field_name_is_camel_case_and_data_keys_are_kept() {
        let document = json!({
            "exit_code": 2,
            "pending": [{ "client_order_id": "a", "orderId": 1, "nonces": [1] }],
            "BTC_USDT": [{ "deal_money": "1" }],
            "signed_at_ms": 1,
        });
        assert_eq!(
            camel_case(document),
            json!({
                "exitCode": 2,
                "pending": [{ "clientOrderId": "a", "orderId": 1, "nonces": [1] }],
                "BTC_USDT": [{ "dealMoney": "1" }],
                "signedAtMs": 1,
            })
        );
    }
}

//! Issue 38 through the CLI, as a user runs it against the embedded sandbox: `txc pnl`,
//! `txc funding`, `txc adl` and `txc deals [ORDER_ID]` — a page, every page with `--all`,
//! `--json` records as the exchange writes them, tables with times as RFC 3339 dates in UTC,
//! the offset cap an error (never a silent stop), bad input refused before anything is sent —
//! and `txc watch` printing a margin call and then a liquidation.

use super::*;

use txc_blocking::orders::{CollateralMarketOrder, Side};

/// A client of the partner's, for what the test sets up.
fn partner(sandbox: &Sandbox) -> txc_blocking::Client {
    let credentials =
        txc_blocking::Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap();
    txc_blocking::Client::builder(credentials)
        .base_url(sandbox.base_url())
        .build()
        .unwrap()
}

/// A market order of the partner's, which fills; its id.
fn trade(client: &txc_blocking::Client, side: Side, amount: &str) -> u64 {
    let order = CollateralMarketOrder::builder("BTC_PERP", side, amount)
        .build()
        .unwrap();
    client.collateral_market_order(&order).unwrap().order_id
}

/// The Unix second `seconds` as RFC 3339 in UTC.
fn rfc3339(seconds: &Value) -> String {
    let seconds = seconds
        .as_i64()
        .or_else(|| seconds.as_str().and_then(|s| s.parse().ok()))
        .unwrap();
    jiff::Timestamp::from_second(seconds).unwrap().to_string()
}

#[test]
fn pnl_funding_adl_and_deals_page_by_page_and_whole() {
    let sandbox = Sandbox::start().unwrap();
    sandbox
        .set_balance(demo::PARTNER_API_KEY, "USDT", "100000")
        .unwrap();
    let client = partner(&sandbox);
    let mut orders = Vec::new();
    for _ in 0..3 {
        orders.push(trade(&client, Side::Buy, "0.01"));
        orders.push(trade(&client, Side::Sell, "0.01"));
    }
    orders.push(trade(&client, Side::Buy, "0.02"));
    for rate in ["0.0001", "-0.0002", "0.0003"] {
        sandbox.set_funding_rate("BTC_PERP", rate).unwrap();
        assert_eq!(sandbox.funding_tick().len(), 1);
    }

    // pnl: a page of two, then every page (two a page) — the three closed positions.
    let closed: Vec<Value> = sandbox
        .closed_position_records()
        .into_iter()
        .rev()
        .collect();
    let page = ok(txc_at(&sandbox).line("--json pnl --limit 2"));
    assert_eq!(page.as_array().unwrap().len(), 2);
    let all = ok(txc_at(&sandbox).line("--json pnl --limit 2 --all"));
    let ids: Vec<&Value> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["positionId"])
        .collect();
    let want: Vec<&Value> = closed.iter().map(|p| &p["positionId"]).collect();
    assert_eq!(ids, want);
    assert_eq!(all[0]["netPnl"], closed[0]["netPnl"]);
    // The table: a row per position, its open and close times as dates.
    let (table, _) = run(txc_at(&sandbox).line("pnl --all"), 0);
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("position") && lines[0].contains("closed at"),
        "{table}"
    );
    assert_eq!(lines.len(), 4, "{table}");
    let newest = lines[1];
    assert!(
        newest.contains(&rfc3339(&closed[0]["closeDate"])),
        "{table}"
    );
    assert!(newest.contains(&rfc3339(&closed[0]["openDate"])), "{table}");

    // funding: the three payments of the open long, newest first.
    let payments = ok(txc_at(&sandbox).line("--json funding --market BTC_PERP --limit 2 --all"));
    let amounts: Vec<&str> = payments
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["fundingAmount"].as_str().unwrap())
        .collect();
    // A long of 0.02 at 65 000 pays the rate: 0.13, receives 0.26, pays 0.39.
    assert_eq!(amounts, ["-0.39", "0.26", "-0.13"]);
    let (table, _) = run(txc_at(&sandbox).line("funding"), 0);
    let first = table.lines().nth(1).unwrap();
    assert!(
        first.contains(&rfc3339(&payments[0]["fundingTime"])),
        "{table}"
    );
    assert!(first.contains("-0.39"), "{table}");

    // adl: the open long's quantile.
    let adl = ok(txc_at(&sandbox).line("--json adl"));
    assert_eq!(adl.as_array().unwrap().len(), 1);
    assert_eq!(adl[0]["market"], "BTC_PERP");
    assert!(
        adl[0]["long"].is_u64() && adl[0].get("short").is_none_or(Value::is_null),
        "{adl}"
    );
    let (table, _) = run(txc_at(&sandbox).line("adl"), 0);
    assert!(
        table.lines().nth(1).unwrap().starts_with("BTC_PERP"),
        "{table}"
    );

    // deals: one order's, then every deal of the market, three a page.
    let order = orders[0];
    let deals = ok(txc_at(&sandbox).line(&format!("--json deals {order}")));
    assert_eq!(deals.as_array().unwrap().len(), 1);
    let all = ok(txc_at(&sandbox).line("--json deals --market BTC_PERP --limit 3 --all"));
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 7, "one fill per order");
    let in_history = all.iter().find(|d| d["id"] == deals[0]["id"]).unwrap();
    assert_eq!(in_history["orderId"], order);
    let (table, _) = run(txc_at(&sandbox).line(&format!("deals {order}")), 0);
    let row = table.lines().nth(1).unwrap();
    let time = deals[0]["time"].as_f64().unwrap();
    let day = rfc3339(&Value::from(time.trunc() as i64));
    assert!(row.contains(&day[..19]), "{table}");
    assert!(row.contains(&deals[0]["id"].to_string()), "{table}");
}

#[test]
fn the_offset_cap_and_bad_input_are_errors() {
    let sandbox = Sandbox::start().unwrap();
    // Beyond offset + limit = 10 000: refused before anything is sent.
    let requests = sandbox.stats().requests;
    run(txc_at(&sandbox).line("pnl --limit 100 --offset 9901"), 2);
    run(txc_at(&sandbox).line("funding --limit 101"), 2);
    run(txc_at(&sandbox).line("deals 5 --market BTC_PERP"), 2);
    assert_eq!(sandbox.stats().requests, requests);
    // A full page at the deepest offset: its records are read, then the cap is an error.
    let records: Vec<String> = (0..100)
        .map(|id| format!(r#"{{"positionId":{},"market":"BTC_PERP"}}"#, 20_000 - id))
        .collect();
    sandbox.inject_fault(
        Route::ClosedPnl,
        Fault::Answer {
            status: 200,
            content_type: "application/json".into(),
            body: format!("[{}]", records.join(",")).into_bytes(),
        },
        Some(1),
    );
    let error = fails(
        txc_at(&sandbox).line("--json pnl --limit 100 --offset 9900 --all"),
        1,
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("past what the exchange serves"),
        "{message}"
    );
    assert!(message.contains("100 records were read"), "{message}");
    // --dry-run signs the first page and sends nothing.
    let signed = dry_run(txc_at(&sandbox).line("--json --dry-run pnl --limit 10 --all"));
    assert!(signed.to_string().contains("closed-pnl"), "{signed}");
}

#[test]
fn watch_prints_a_margin_call_then_a_liquidation() {
    let sandbox = Sandbox::start().unwrap();
    sandbox
        .set_balance(demo::PARTNER_API_KEY, "USDT", "1000")
        .unwrap();
    let mut child = txc_process_at(&sandbox, 100)
        .line("watch BTC_PERP")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The connection's lines are on standard error: once resynced, a long of 0.1 at 65 000 on
    // 1 000 USDT is opened and the price falls.
    let progress = BufReader::new(child.stderr.take().unwrap());
    let client = partner(&sandbox);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for line in progress.lines() {
                let Ok(line) = line else { break };
                if line.starts_with("resynced connection") {
                    trade(&client, Side::Buy, "0.1");
                    sandbox.set_price("BTC_PERP", "57900").unwrap();
                    break;
                }
            }
        });
    });
    let mut seen = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.starts_with("MARGIN CALL") {
            sandbox.set_price("BTC_PERP", "56700").unwrap();
        }
        let done = line.starts_with("LIQUIDATION");
        seen.push(line);
        if done {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let call = seen.iter().find(|l| l.starts_with("MARGIN CALL")).unwrap();
    assert!(
        call.contains("BTC_PERP") && call.contains("amount 0.1"),
        "{call}"
    );
    assert!(call.contains("liq price 56768"), "{call}");
    let liquidation = seen.last().unwrap();
    assert!(liquidation.starts_with("LIQUIDATION position"), "{seen:?}");
    assert!(liquidation.contains("BTC_PERP"), "{liquidation}");
}

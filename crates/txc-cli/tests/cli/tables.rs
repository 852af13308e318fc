//! Issue 39's tables, as a user reads them: what was just set shows (the limit and activation
//! prices, stop-loss and take-profit with their OTO group, the position side, a plan's status),
//! `long`/`short` rather than `BOTH`, `cancel-all` counts what it canceled, and every listing
//! says so when it is empty.

use super::*;

/// The value of the `name` line of a one-order table (`name  value`).
fn field<'a>(out: &'a str, name: &str) -> Option<&'a str> {
    out.lines().find_map(|l| {
        let (key, value) = l.split_once(' ')?;
        (key == name).then(|| value.trim())
    })
}

#[test]
fn a_placed_orders_table_shows_what_was_set() {
    let sandbox = Sandbox::start().unwrap();
    let (out, _) = run(
        txc_at(&sandbox).line("market BTC_USDT buy 0.01 --stop-loss 50000 --take-profit 80000"),
        0,
    );
    assert_eq!(field(&out, "stopLoss"), Some("50000"), "{out}");
    assert_eq!(field(&out, "takeProfit"), Some("80000"), "{out}");
    let oto = ok(txc_at(&sandbox).line("--json market BTC_USDT buy 0.01 --stop-loss 50000"));
    assert!(oto["oto"]["otoId"].as_u64().is_some(), "{oto}");
    assert!(
        field(&out, "otoId").unwrap().parse::<u64>().is_ok(),
        "{out}"
    );
    // One-way mode: an order's side alone cannot tell which position it changes.
    assert_eq!(field(&out, "position"), Some("one-way"), "{out}");
    assert!(!out.contains("BOTH"), "{out}");

    let (out, _) = run(txc_at(&sandbox).line("trigger BTC_USDT buy 0.01 90000"), 0);
    assert_eq!(field(&out, "activationPrice"), Some("90000"), "{out}");
    assert_eq!(field(&out, "stopLoss"), None, "only what was set: {out}");
    let (out, _) = run(
        // Reducing the long the market orders opened.
        txc_at(&sandbox).line("limit BTC_USDT sell 0.01 99000 --reduce-only"),
        0,
    );
    assert_eq!(field(&out, "price"), Some("99000"), "{out}");
    assert_eq!(field(&out, "reduceOnly"), Some("yes"), "{out}");
    // The listing shows the prices too.
    let (out, _) = run(txc_at(&sandbox).line("orders --market BTC_USDT"), 0);
    let header: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
    for column in ["price", "activationPrice", "position"] {
        assert!(header.contains(&column), "{out}");
    }
    assert!(out.lines().any(|l| l.contains("90000")), "{out}");
}

/// Positions read `long`/`short`: in one-way mode by the amount's sign.
#[test]
fn positions_read_long_or_short_rather_than_both() {
    let sandbox = Sandbox::start().unwrap();
    run(txc_at(&sandbox).line("market BTC_USDT buy 0.01"), 0);
    let (out, _) = run(txc_at(&sandbox).line("positions"), 0);
    let row = out.lines().nth(1).unwrap();
    assert_eq!(row.split_whitespace().nth(2), Some("long"), "{out}");
    run(txc_at(&sandbox).line("market BTC_USDT sell 0.03"), 0);
    let (out, _) = run(txc_at(&sandbox).line("positions"), 0);
    let row = out.lines().nth(1).unwrap();
    assert_eq!(row.split_whitespace().nth(2), Some("short"), "{out}");
    assert!(!out.contains("BOTH"), "{out}");
    // JSON keeps the exchange's value.
    assert_eq!(
        ok(txc_at(&sandbox).line("--json positions"))[0]["positionSide"],
        "BOTH"
    );
}

#[test]
fn plans_show_their_status() {
    let sandbox = Sandbox::start().unwrap();
    let (out, _) = run(txc_at(&sandbox).arg("plans"), 0);
    assert!(out.lines().next().unwrap().contains("status"), "{out}");
    let row = out.lines().find(|l| l.starts_with(PLAN)).unwrap();
    assert!(row.contains(" active "), "{out}");
    assert!(
        out.contains("no coins left") || out.contains("inactive"),
        "{out}"
    );
}

/// `cancel-all` counts what it canceled, by type — the exchange's answer is empty, so from
/// the open orders before and after — and leaves the other markets' orders alone.
#[test]
fn cancel_all_counts_what_it_canceled() {
    let sandbox = Sandbox::start().unwrap();
    for line in [
        "limit BTC_USDT buy 0.01 40000",
        "limit BTC_USDT buy 0.02 41000",
        "stop-limit BTC_USDT sell 0.01 59900 60000",
        "limit ETH_USDT buy 0.1 1000",
    ] {
        run(txc_at(&sandbox).line(line), 0);
    }
    let (out, _) = run(txc_at(&sandbox).line("cancel-all --market BTC_USDT"), 0);
    assert_eq!(
        out.trim_end(),
        "canceled 3 orders (2 limit, 1 stop limit); 0 open orders left"
    );
    let result = ok(txc_at(&sandbox).line("--json cancel-all"));
    assert_eq!(result["count"], 1, "{result}");
    assert_eq!(result["byType"]["limit"], 1, "{result}");
    assert_eq!(result["stillOpen"], 0, "{result}");
    let (out, _) = run(txc_at(&sandbox).line("cancel-all"), 0);
    assert_eq!(out.trim_end(), "canceled 0 orders; 0 open orders left");
}

/// Every listing says so when it lists nothing: one explicit line, never a lone header or
/// nothing at all.
#[test]
fn every_empty_listing_says_so() {
    let sandbox = Sandbox::start().unwrap();
    let listings = [
        "orders",
        "history",
        "oco-orders",
        "conditional-orders",
        "positions",
        "position-history",
        "investments",
        "interest",
        "pnl",
        "funding",
        "deals",
        "adl",
        "kill-switch --status",
        "flex investments",
        "flex history",
        "flex payments",
    ];
    for listing in listings {
        let (out, _) = run(txc_at(&sandbox).line(listing), 0);
        assert_eq!(out, "(none)\n", "{listing}");
    }
    let (out, _) = run(txc_at(&sandbox).line("pending"), 0);
    assert!(out.starts_with("no orders or investments"), "{out}");
    // A bulk cancel of orders that are not open: a table of the items, with a count.
    let (out, _) = run(
        txc_at(&sandbox).line("cancel-bulk BTC_USDT --order-id 1 --order-id 2"),
        0,
    );
    assert!(out.starts_with("canceled 0 of 2"), "{out}");
}

//! Issue 39's one argument style, as a user types it: the market positional wherever a
//! command needs it and a `--market` flag wherever it filters; prices and amounts positional
//! in the spec's order — with the spellings before txc 0.5 still working where they were
//! flags.

use super::*;

/// The `--json --dry-run` body of `line`: what would be sent.
fn body(line: &str) -> Value {
    let sandbox = Sandbox::start().unwrap();
    dry_run(txc_at(&sandbox).line(&format!("--json --dry-run {line}")))["body"].clone()
}

/// Every command's usage line (`txc CMD --help`, its `Usage:` line).
fn usage(command: &str) -> String {
    let (out, _) = run(txc().line(&format!("{command} --help")), 0);
    out.lines()
        .find(|l| l.starts_with("Usage:"))
        .unwrap_or_default()
        .to_owned()
}

/// The class: each command that needs a market takes it first and positional; each that
/// filters by one takes `--market`, never a positional.
#[test]
fn the_market_is_positional_where_required_and_a_flag_where_it_filters() {
    let required = [
        "market",
        "trigger",
        "limit",
        "stop-limit",
        "oco",
        "cancel",
        "cancel-oco",
        "cancel-conditional",
        "cancel-oto",
        "cancel-bulk",
        "modify",
        "resolve",
        "close",
    ];
    for command in required {
        let usage = usage(command);
        // A required group of flags (`<--order-id <N>|…>`) is listed before the positionals.
        assert!(
            usage.starts_with(&format!("Usage: txc {command} [OPTIONS] "))
                && usage.contains("<MARKET>")
                && !usage.contains("--market"),
            "{command}: {usage}"
        );
    }
    let filtering = [
        "orders",
        "history",
        "positions",
        "position-history",
        "cancel-all",
        "oco-orders",
        "conditional-orders",
        "funding",
        "deals",
        "kill-switch",
    ];
    for command in filtering {
        let (help, _) = run(txc().line(&format!("{command} --help")), 0);
        assert!(help.contains("--market <M>"), "{command}: {help}");
        if command != "kill-switch" {
            assert!(!usage(command).contains("MARKET"), "{command}");
        }
    }
}

/// Prices in the spec's order, positional: `trigger … ACTIVATION_PRICE`, `stop-limit … PRICE
/// ACTIVATION_PRICE`, `oco … PRICE ACTIVATION_PRICE STOP_LIMIT_PRICE`.
#[test]
fn prices_are_positional_in_the_specs_order_and_the_old_flag_still_works() {
    let trigger = body("trigger BTC_USDT buy 0.01 90000");
    assert_eq!(trigger["activation_price"], "90000");
    assert_eq!(trigger["amount"], "0.01");
    let old = body("trigger BTC_USDT buy 0.01 --activation-price 90000");
    assert_eq!(old["activation_price"], "90000");

    let stop = body("stop-limit BTC_USDT sell 0.01 59900 60000");
    assert_eq!(
        (&stop["price"], &stop["activation_price"]),
        (&"59900".into(), &"60000".into())
    );
    let old = body("stop-limit BTC_USDT sell 0.01 59900 --activation-price 60000");
    assert_eq!(old["activation_price"], "60000");
    assert_eq!(old["price"], "59900");

    let oco = body("oco BTC_USDT sell 0.01 70000 60000 59900");
    assert_eq!(oco["price"], "70000");
    assert_eq!(oco["activation_price"], "60000");
    assert_eq!(oco["stop_limit_price"], "59900");

    // Both spellings at once, or neither: refused before anything is sent, naming it.
    let both = fails(
        txc().line("--json trigger BTC_USDT buy 0.01 90000 --activation-price 90000"),
        2,
    );
    assert!(
        both["message"]
            .as_str()
            .unwrap()
            .contains("--activation-price"),
        "{both}"
    );
    let (_, err) = run(txc().line("stop-limit BTC_USDT sell 0.01 59900"), 2);
    assert!(err.contains("<ACTIVATION_PRICE>"), "{err}");
    // The help shows the positional, not the old flag.
    let (help, _) = run(txc().line("trigger --help"), 0);
    assert!(!help.contains("--activation-price"), "{help}");
    assert!(
        usage("trigger").ends_with("<AMOUNT> <ACTIVATION_PRICE>"),
        "{help}"
    );
    // A bad activation price is named as the user gave it.
    let error = fails(
        txc_at(&Sandbox::start().unwrap()).line("--json trigger BTC_USDT buy 0.01 0"),
        2,
    );
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("ACTIVATION_PRICE"), "{message}");
}

/// `kill-switch --status` filters by `--market`; the market positional still works there.
#[test]
fn the_kill_switchs_status_filters_by_a_market_flag() {
    let sandbox = Sandbox::start().unwrap();
    ok(txc_at(&sandbox).line("--json kill-switch BTC_USDT --timeout 60"));
    ok(txc_at(&sandbox).line("--json kill-switch ETH_USDT --timeout 60"));
    let all = ok(txc_at(&sandbox).line("--json kill-switch --status"));
    assert_eq!(all.as_array().unwrap().len(), 2, "{all}");
    let flag = ok(txc_at(&sandbox).line("--json kill-switch --status --market BTC_USDT"));
    assert_eq!(flag.as_array().unwrap().len(), 1, "{flag}");
    assert_eq!(flag[0]["market"], "BTC_USDT");
    let positional = ok(txc_at(&sandbox).line("--json kill-switch BTC_USDT --status"));
    assert_eq!(positional, flag);
    // The filter is --status's: with --timeout the market is positional.
    run(
        txc_at(&sandbox).line("kill-switch --market BTC_USDT --timeout 60"),
        2,
    );
}

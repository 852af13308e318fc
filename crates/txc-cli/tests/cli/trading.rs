//! Issue 37 through the CLI: `limit`, `stop-limit`, `bulk` (JSON lines from a file or
//! standard input), `oco`, `oco-orders`, `cancel-oco`, `cancel-conditional`, `cancel-oto`,
//! `modify`, `conditional-orders`, `cancel-bulk` and `markets` against the embedded sandbox —
//! `--json`, `--dry-run`, `--once`, the journal and the exit codes as `txc market` has them.

use super::*;

/// Three quotes as JSON lines, the middle one post-only at a price that would take.
const QUOTES: &str = concat!(
    r#"{"market":"BTC_USDT","side":"buy","amount":"0.01","price":"60000","clientOrderId":"cli-q0"}"#,
    "\n",
    r#"{"market":"BTC_USDT","side":"buy","amount":"0.01","price":"66000","postOnly":true,"clientOrderId":"cli-q1"}"#,
    "\n\n",
    r#"{"market":"BTC_USDT","side":"sell","amount":"0.01","price":"70000","clientOrderId":"cli-q2"}"#,
    "\n",
);

#[test]
fn limit_and_stop_limit_rest_and_modify_replaces_with_a_new_id() {
    let sandbox = Sandbox::start().unwrap();
    let result = |line: &str| ok(txc_at(&sandbox).arg("--json").line(line));
    let order = result("limit BTC_USDT buy 0.01 60000 --post-only --client-order-id cli-l1");
    assert_eq!(order["status"], "OPEN", "{order}");
    assert_eq!(order["postOnly"], true);
    let stop = result("stop-limit BTC_USDT sell 0.01 59900 60000");
    assert!(stop["orderId"].is_u64(), "{stop}");
    // A post-only order that would take: the exchange's refusal, exit 3.
    let refused = fails(
        txc_at(&sandbox).line("--json limit BTC_USDT buy 0.01 66000 --post-only"),
        3,
    );
    assert_eq!(refused["code"], 30);
    // Modify: a replacement with a new orderId, the clientOrderId carried over.
    let modified = result("modify BTC_USDT --client-order-id cli-l1 --price 60500");
    assert!(modified["newOrderId"].is_u64(), "{modified}");
    assert_ne!(modified["newOrderId"], order["orderId"]);
    assert_eq!(modified["order"]["clientOrderId"], "cli-l1");
    assert_eq!(modified["order"]["price"], "60500");
    // Nothing to change: refused before any I/O, exit 2.
    let before = sandbox.stats().requests;
    run(
        txc_at(&sandbox).line("modify BTC_USDT --client-order-id cli-l1"),
        2,
    );
    assert_eq!(sandbox.stats().requests, before);
    // Below the market's minimum: the rules read, nothing sent, exit 2 naming the rule.
    let (_, err) = run(txc_at(&sandbox).line("limit BTC_USDT buy 0.0005 60000"), 2);
    assert!(err.contains("minAmount") && err.contains("0.001"), "{err}");
    assert_eq!(sandbox.stats().requests, before + 1, "the rules read only");
    // --market-rules off: sent, and the exchange refuses it (code 32, exit 3).
    let refused = fails(
        txc_at(&sandbox).line("--json --market-rules off limit BTC_USDT buy 0.0005 60000"),
        3,
    );
    assert_eq!(refused["code"], 32);
    let before = sandbox.stats().requests;
    // A dry run signs the body and sends nothing.
    let body = dry_run(
        txc_at(&sandbox)
            .arg("--json")
            .arg("--dry-run")
            .line("limit BTC_USDT buy 0.01 60000 --ioc"),
    )["body"]
        .clone();
    assert_eq!(body["request"], "/api/v4/order/collateral/limit");
    assert_eq!(
        (body["price"].clone(), body["ioc"].clone()),
        ("60000".into(), true.into())
    );
    assert_eq!(sandbox.stats().requests, before, "a dry run sends nothing");
}

#[test]
fn bulk_reads_json_lines_from_a_file_or_stdin() {
    let sandbox = Sandbox::start().unwrap();
    let file = scratch().join("quotes.jsonl");
    std::fs::write(&file, QUOTES).unwrap();
    let answer = ok(txc_at(&sandbox).arg("--json").arg("bulk").arg(&file));
    let items = answer.as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert!(items[0]["result"]["orderId"].is_u64(), "{answer}");
    assert_eq!(items[1]["error"]["code"], 30, "{answer}");
    // From standard input, exactly once: each item's outcome.
    let stdin = QUOTES.replace("cli-q", "cli-s");
    let answer = ok(txc_at(&sandbox)
        .line("--json bulk --once")
        .write_stdin(stdin));
    let items = answer.as_array().unwrap();
    assert_eq!(items[0]["placed"], true, "{answer}");
    assert_eq!(items[1]["placed"], false, "{answer}");
    // A line that is no order: exit 2, naming the line; nothing sent.
    let before = sandbox.stats().requests;
    let (_, err) = run(
        txc_at(&sandbox)
            .arg("bulk")
            .write_stdin("{\"market\":\"BTC_USDT\",\"side\":\"up\"}\n"),
        2,
    );
    assert!(err.contains("line 1") && err.contains("side"), "{err}");
    assert_eq!(sandbox.stats().requests, before);
}

#[test]
fn a_lost_bulk_answer_exits_4_and_once_finds_the_items() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    sandbox.inject_fault(Route::CollateralBulk, Fault::DropAfterProcessing, Some(1));
    let error = fails(
        txc_journaled(&sandbox, &state)
            .line("--json bulk")
            .write_stdin(QUOTES),
        4,
    );
    assert!(
        error["check"]
            .as_str()
            .unwrap()
            .contains("txc resolve BTC_USDT cli-q0"),
        "{error}"
    );
    // The journal holds each item: a plain resend is refused before any I/O.
    let before = sandbox.stats().requests;
    run(
        txc_journaled(&sandbox, &state)
            .arg("bulk")
            .write_stdin(QUOTES),
        4,
    );
    assert_eq!(sandbox.stats().requests, before, "nothing sent");
    // --once resolves each item first: the placed ones found, never sent again.
    let answer = ok(txc_journaled(&sandbox, &state)
        .line("--json bulk --once")
        .write_stdin(QUOTES));
    assert_eq!(answer[0]["placed"], true, "{answer}");
    assert_eq!(answer[2]["placed"], true, "{answer}");
    assert_eq!(held(&sandbox, "cli-q0"), 1);
    assert_eq!(held(&sandbox, "cli-q2"), 1);
}

#[test]
fn oco_pairs_are_listed_and_canceled() {
    let sandbox = Sandbox::start().unwrap();
    let result = |line: &str| ok(txc_at(&sandbox).arg("--json").line(line));
    let pair = result("oco BTC_USDT buy 0.001 60000 70000 70100 --client-order-id cli-oco");
    let id = pair["id"].as_u64().unwrap();
    let listed = result("oco-orders --market BTC_USDT");
    assert_eq!(listed[0]["id"], id, "{listed}");
    let conditional = result("conditional-orders");
    assert!(
        conditional.to_string().contains(&id.to_string()),
        "{conditional}"
    );
    let canceled = result("cancel-oco BTC_USDT --client-order-id cli-oco");
    assert_eq!(canceled["canceled"], true);
    // Again: nothing active, exit 3.
    run(
        txc_at(&sandbox).line(&format!("cancel-oco BTC_USDT --order-id {id}")),
        3,
    );
    // --once: a lost answer settled by asking again.
    let pair = result("oco BTC_USDT buy 0.001 60000 70000 70100");
    let id = pair["id"].as_u64().unwrap();
    sandbox.inject_fault(
        Route::CancelConditional,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let gone = result(&format!("cancel-conditional BTC_USDT {id} --once"));
    assert_eq!(
        (gone["gone"].clone(), gone["lostAnswers"].clone()),
        (true.into(), 1.into())
    );
    // An OTO group, canceled with its order.
    let oto = result("limit BTC_USDT buy 0.01 60000 --stop-loss 55000");
    let oto_id = oto["oto"]["otoId"].as_u64().unwrap();
    assert_eq!(
        result(&format!("cancel-oto BTC_USDT {oto_id}"))["id"],
        oto_id
    );
    assert_eq!(result("orders").as_array().unwrap().len(), 0);
    // --once places a pair whose answer was lost exactly once.
    sandbox.inject_fault(Route::CollateralOco, Fault::DropAfterProcessing, Some(1));
    let found =
        result("oco BTC_USDT buy 0.001 60000 70000 70100 --client-order-id cli-oco2 --once");
    assert_eq!(found["foundIn"], "oco_orders", "{found}");
    assert_eq!(held(&sandbox, "cli-oco2"), 2, "its two legs, once");
}

#[test]
fn cancel_bulk_markets_and_a_lost_modify() {
    let sandbox = Sandbox::start().unwrap();
    let result = |line: &str| ok(txc_at(&sandbox).arg("--json").line(line));
    let a = result("limit BTC_USDT buy 0.01 60000 --client-order-id cli-b1");
    result("limit BTC_USDT buy 0.01 60000 --client-order-id cli-b2");
    let items = result(&format!(
        "cancel-bulk BTC_USDT --order-id {} --client-order-id cli-b2",
        a["orderId"]
    ));
    assert_eq!(items.as_array().unwrap().len(), 2, "{items}");
    assert_eq!(result("orders").as_array().unwrap().len(), 0);
    // Public: no key needed.
    let markets = ok(txc().line(&format!("--json --base-url {} markets", sandbox.base_url())));
    assert!(
        markets
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["name"] == "BTC_USDT"),
        "{markets}"
    );
    // A modify whose answer is lost: exit 4 with how to check; the journal keeps it.
    let state = scratch();
    let journaled = |line: &str| ok(txc_journaled(&sandbox, &state).arg("--json").line(line));
    result("limit BTC_USDT buy 0.01 60000 --client-order-id cli-m1");
    sandbox.inject_fault(Route::ModifyOrder, Fault::DropAfterProcessing, Some(1));
    let error = fails(
        txc_journaled(&sandbox, &state)
            .line("--json modify BTC_USDT --client-order-id cli-m1 --price 60100"),
        4,
    );
    assert!(
        error["check"].as_str().unwrap().contains("txc orders"),
        "{error}"
    );
    // `txc pending` lists it with how to settle it; a plain modify of the order is refused
    // before any I/O.
    let pending = journaled("pending");
    let modify = pending
        .as_array()
        .unwrap()
        .iter()
        .find(|record| record["kind"] == "modify")
        .unwrap_or_else(|| panic!("{pending}"));
    assert!(
        modify["resolve"]
            .as_str()
            .unwrap()
            .contains("--price 60100 --once --base-url "),
        "{modify}"
    );
    let before = sandbox.stats().requests;
    run(
        txc_journaled(&sandbox, &state)
            .line("modify BTC_USDT --client-order-id cli-m1 --price 60200"),
        4,
    );
    assert_eq!(sandbox.stats().requests, before, "nothing sent");
    // --once resolves the journaled one first (replaced: one modification), then modifies
    // once more, its own answer lost too and resolved.
    sandbox.inject_fault(Route::ModifyOrder, Fault::DropAfterProcessing, Some(1));
    let resolved = journaled("modify BTC_USDT --client-order-id cli-m1 --price 60200 --once");
    assert_eq!(resolved["replaced"], true, "{resolved}");
    assert_eq!(sandbox.stats().modified_orders, 2);
    assert!(journaled("pending").as_array().unwrap().is_empty());
    let open = result("orders --client-order-id cli-m1 --market BTC_USDT");
    assert_eq!(open[0]["price"], "60200", "{open}");
}

/// `--once` on the other placing and canceling commands: a limit and a stop-limit order
/// whose answers were lost are found, never placed twice; an OCO and an OTO cancel whose
/// answers were lost are settled by asking again.
#[test]
fn once_on_every_placing_and_canceling_command() {
    let sandbox = Sandbox::start().unwrap();
    let result = |line: &str| ok(txc_at(&sandbox).arg("--json").line(line));
    for (route, line, id) in [
        (
            Route::CollateralLimit,
            "limit BTC_USDT buy 0.01 60000 --client-order-id cli-once-l --once",
            "cli-once-l",
        ),
        (
            Route::CollateralStopLimit,
            "stop-limit BTC_USDT sell 0.01 59900 60000 \
             --client-order-id cli-once-s --once",
            "cli-once-s",
        ),
    ] {
        sandbox.inject_fault(route, Fault::DropAfterProcessing, Some(1));
        let placed = result(line);
        assert!(placed["foundIn"].is_string(), "{line}: {placed}");
        assert_ne!(placed["foundIn"], "response", "{line}: {placed}");
        assert_eq!(held(&sandbox, id), 1, "{line}: placed once");
    }
    let pair = result("oco BTC_USDT buy 0.001 60000 70000 70100 --client-order-id cli-once-o");
    sandbox.inject_fault(Route::CancelOco, Fault::DropAfterProcessing, Some(1));
    let gone = result(&format!(
        "cancel-oco BTC_USDT --order-id {} --once",
        pair["id"]
    ));
    assert_eq!(gone["gone"], true, "{gone}");
    let oto = result("limit BTC_USDT buy 0.01 60000 --stop-loss 55000");
    let oto_id = oto["oto"]["otoId"].as_u64().unwrap();
    sandbox.inject_fault(Route::CancelOto, Fault::DropAfterProcessing, Some(1));
    let gone = result(&format!("cancel-oto BTC_USDT {oto_id} --once"));
    assert_eq!(gone["gone"], true, "{gone}");
}

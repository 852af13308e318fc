//! `--via ws` and `txc tpsl` (issue 41), as a user runs them against the embedded sandbox:
//! orders placed, modified and canceled as the WebSocket's order methods; a refusal by the
//! socket's own numbering as a typed error with `--json`; an answer lost after the sandbox
//! processed the order — journaled before its frame, listed by `txc pending`, settled by the
//! printed `txc resolve` command, and by `--once`.

use super::*;

use txc_sandbox::WsFault;

#[test]
fn orders_placed_modified_and_canceled_over_the_socket() {
    let sandbox = Sandbox::start().unwrap();
    let placed = ok(txc_at(&sandbox)
        .line("--json limit BTC_PERP buy 0.001 60000 --client-order-id ws-l1 --via ws"));
    assert_eq!(placed["via"], "ws", "{placed}");
    assert_eq!(placed["answer"], "order");
    let order = &placed["result"];
    assert_eq!(order["clientOrderId"], "ws-l1", "{placed}");
    assert_eq!(order["status"], "OPEN");
    assert_eq!(order["type"], 7, "the socket's margin limit: {placed}");
    assert!(order["id"].as_u64().unwrap() > 0);
    assert_eq!(sandbox.orders().len(), 1, "the same book as REST's");
    // The same order read over REST.
    let open = ok(txc_at(&sandbox).line("--json orders --market BTC_PERP"));
    assert_eq!(open[0]["clientOrderId"], "ws-l1", "{open}");

    let modified = ok(txc_at(&sandbox)
        .line("--json modify BTC_PERP --client-order-id ws-l1 --price 60500 --via ws"));
    assert_eq!(modified["result"]["price"], "60500", "{modified}");
    assert_eq!(modified["result"]["clientOrderId"], "ws-l1");
    let canceled =
        ok(txc_at(&sandbox).line("--json cancel BTC_PERP --client-order-id ws-l1 --via ws"));
    assert_eq!(canceled["result"]["status"], "CANCELED", "{canceled}");

    // A market order exactly once: answered, nothing to resolve.
    let market = ok(txc_at(&sandbox)
        .line("--json market BTC_PERP buy 0.002 --client-order-id ws-m1 --via ws --once"));
    assert_eq!(market["result"]["status"], "FILLED", "{market}");
    // A take-profit and stop-loss on the position that order opened (socket only).
    let tpsl =
        ok(txc_at(&sandbox).line("--json tpsl BTC_PERP --take-profit 70000 --stop-loss 60000"));
    assert_eq!(tpsl["answer"], "tpsl", "{tpsl}");
    for leg in ["takeProfit", "stopLoss"] {
        assert_eq!(tpsl["result"][leg]["type"], 10, "{leg}: {tpsl}");
        assert!(tpsl["result"][leg]["activationPrice"].is_string(), "{tpsl}");
    }
    // Cancel-all over the socket answers nothing to list.
    let all = ok(txc_at(&sandbox).line("--json cancel-all --market BTC_PERP --via ws"));
    assert_eq!(all["answer"], "done", "{all}");
    let open = ok(txc_at(&sandbox).line("--json orders --market BTC_PERP"));
    assert_eq!(open, serde_json::json!([]), "the legs canceled too");
    // Nothing left in flight.
    assert_eq!(
        ok(txc_at(&sandbox).line("--json pending")),
        serde_json::json!([])
    );
    // A table line per order, over the socket.
    let (out, _) = run(
        txc_at(&sandbox).line("limit BTC_PERP sell 0.001 90000 --via ws"),
        0,
    );
    assert!(
        out.contains("order ") && out.contains("status OPEN"),
        "{out}"
    );
}

#[test]
fn groups_placed_and_canceled_over_the_socket() {
    let sandbox = Sandbox::start().unwrap();
    // An OCO pair, canceled as a group by its id.
    let pair = ok(txc_at(&sandbox).line(
        "--json oco BTC_PERP sell 0.001 70000 60000 59000 --client-order-id ws-oco --via ws",
    ));
    assert_eq!(pair["answer"], "oco", "{pair}");
    let id = pair["result"]["id"].as_u64().unwrap();
    let canceled = ok(txc_at(&sandbox).line(&format!(
        "--json cancel-oco BTC_PERP --order-id {id} --via ws"
    )));
    assert_eq!(canceled["answer"], "oco", "{canceled}");
    assert_eq!(canceled["result"]["takeProfit"]["status"], "CANCELED");
    // An order with a take-profit is the socket's OTO; cancel-oto and cancel-conditional
    // cancel such a group by its id.
    for (at, cancel) in [("59000", "cancel-oto"), ("58000", "cancel-conditional")] {
        let group = ok(txc_at(&sandbox).line(&format!(
            "--json limit BTC_PERP buy 0.001 {at} --take-profit 75000 --via ws"
        )));
        assert_eq!(group["answer"], "oto", "{group}");
        assert_eq!(group["result"]["takeProfitPrice"], "75000");
        let id = group["result"]["id"].as_u64().unwrap();
        let canceled =
            ok(txc_at(&sandbox).line(&format!("--json {cancel} BTC_PERP {id} --via ws")));
        assert_eq!(canceled["answer"], "oto", "{cancel}: {canceled}");
        assert_eq!(canceled["result"]["triggerOrder"]["status"], "CANCELED");
    }
    let open = ok(txc_at(&sandbox).line("--json orders --market BTC_PERP"));
    assert_eq!(open, serde_json::json!([]), "{open}");
    // A group that is not there: 6, order not found, rejected.
    let error = fails(
        txc_at(&sandbox).line("--json cancel-conditional BTC_PERP 12345 --via ws"),
        3,
    );
    assert_eq!(error["refusal"], "OrderNotFound", "{error}");
}

#[test]
fn a_refusal_over_the_socket_is_a_typed_error() {
    let sandbox = Sandbox::start().unwrap();
    // No position: 104, by the socket's own numbering.
    let error = fails(
        txc_at(&sandbox).line("--json tpsl BTC_PERP --take-profit 70000"),
        3,
    );
    assert_eq!(error["kind"], "rejected", "{error}");
    assert_eq!(error["via"], "ws");
    assert_eq!(error["code"], 104);
    assert_eq!(error["refusal"], "NoPosition");
    // A client order id an active order has: 43.
    ok(txc_at(&sandbox)
        .line("--json limit BTC_PERP buy 0.001 60000 --client-order-id dup-1 --via ws"));
    let error = fails(
        txc_at(&sandbox)
            .line("--json limit BTC_PERP buy 0.001 60000 --client-order-id dup-1 --via ws"),
        3,
    );
    assert_eq!(error["code"], 43, "{error}");
    assert_eq!(error["refusal"], "ClientOrderIdExists");
    // What the socket does not serve is refused before anything is sent.
    let before = sandbox.stats().requests;
    for line in [
        "--json bulk --via ws",
        "--json cancel-bulk BTC_PERP --order-id 1 --via ws",
        "--json cancel-oco BTC_PERP --client-order-id x --via ws",
        "--json cancel-conditional BTC_PERP 7 --once --via ws",
        "--json tpsl BTC_PERP",
    ] {
        let error = fails(txc_at(&sandbox).line(line), 2);
        assert_eq!(error["kind"], "invalid", "{line}: {error}");
    }
    assert_eq!(sandbox.stats().requests, before, "nothing sent");
    // --dry-run shows the call and sends nothing.
    let shown =
        dry_run(txc_at(&sandbox).line(
            "--json --dry-run limit BTC_PERP buy 0.001 60000 --client-order-id dry-1 --via ws",
        ));
    assert_eq!(shown["method"], "collateral_order_limit_place", "{shown}");
    assert_eq!(shown["params"]["client_order_id"], "dry-1");
    assert_eq!(sandbox.stats().requests, before);
}

#[test]
fn a_lost_answer_over_the_socket_is_journaled_and_resolved() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    let at = |sandbox: &Sandbox| {
        let mut command = txc_at(sandbox);
        command.env("TXC_STATE_DIR", &state);
        command
    };
    // The sandbox places the order, then drops the connection before its answer.
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    let error = fails(
        at(&sandbox)
            .line("--json limit BTC_PERP buy 0.001 60000 --client-order-id lost-1 --via ws"),
        4,
    );
    assert_eq!(error["kind"], "outcome_unknown", "{error}");
    let pending = &error["pending"];
    assert_eq!(pending["clientOrderId"], "lost-1", "{error}");
    assert!(
        !pending["wsAttempts"].as_array().unwrap().is_empty(),
        "{error}"
    );
    let check = error["check"].as_str().unwrap();
    assert!(
        check.contains("txc resolve BTC_PERP lost-1") && check.contains("--ws-attempt"),
        "{check}"
    );
    // On disk: format version 4, its attempt over the socket, keyed by its frame's time.
    let files: Vec<_> = std::fs::read_dir(state.join("pending"))
        .unwrap()
        .map(|f| f.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let file: Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    assert_eq!(file["version"], 4, "{file}");
    assert_eq!(file["kind"], "order");
    assert_eq!(file["attempts"], serde_json::json!([]), "none over REST");
    let written = file["socket_attempts"][0]["written_at_us"]
        .as_u64()
        .unwrap();
    assert!(
        file["socket_attempts"][0]["settled_at_us"]
            .as_u64()
            .unwrap()
            >= written
    );
    let name = files[0].file_name().unwrap().to_str().unwrap().to_owned();
    assert_eq!(name, format!("order.BTC_PERP.lost-1.{written}.json"));
    // Journaled before the frame: txc pending lists it, with how to settle it.
    let listed = ok(at(&sandbox).line("--json pending"));
    let entry = &listed[0];
    assert_eq!(entry["clientOrderId"], "lost-1", "{listed}");
    assert_eq!(entry["key"], written, "{listed}");
    assert!(
        entry["resolve"].as_str().unwrap().contains("--ws-attempt"),
        "{listed}"
    );
    // A plain resend is stopped by the journal's record (exit 4, nothing sent).
    let before = sandbox.stats().accepted_orders;
    fails(
        at(&sandbox)
            .line("--json limit BTC_PERP buy 0.001 60000 --client-order-id lost-1 --via ws"),
        4,
    );
    assert_eq!(sandbox.stats().accepted_orders, before);
    // The printed command settles it: placed.
    let resolved = ok(at(&sandbox)
        .arg("--json")
        .line(check.strip_prefix("txc ").unwrap()));
    assert_eq!(resolved["placed"], true, "{resolved}");
    assert_eq!(
        ok(at(&sandbox).line("--json pending")),
        serde_json::json!([])
    );
    // Elsewhere (an empty journal) the printed command works from its attempts alone.
    let elsewhere = run_printed(&sandbox, check);
    assert_eq!(elsewhere["placed"], true, "{elsewhere}");

    // --once resolves a lost answer instead of placing twice.
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    let placed = ok(at(&sandbox)
        .line("--json limit BTC_PERP buy 0.001 59000 --client-order-id lost-2 --via ws --once"));
    assert_ne!(
        placed["foundIn"], "response",
        "found by resolving: {placed}"
    );
    assert_eq!(placed["market"], "BTC_PERP", "{placed}");
    // A record settled by hand is discarded by the key txc pending lists.
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    fails(
        at(&sandbox)
            .line("--json limit BTC_PERP buy 0.001 58000 --client-order-id lost-3 --via ws"),
        4,
    );
    let listed = ok(at(&sandbox).line("--json pending"));
    let key = listed[0]["key"].as_u64().unwrap();
    let discarded = ok(at(&sandbox).line(&format!("--json discard {key}")));
    assert!(
        discarded["discarded"].as_str().unwrap().contains("lost-3"),
        "{discarded}"
    );
    assert_eq!(
        ok(at(&sandbox).line("--json pending")),
        serde_json::json!([])
    );
    let open = ok(at(&sandbox).line("--json orders --market BTC_PERP --client-order-id lost-2"));
    assert_eq!(
        open.as_array().unwrap().len(),
        1,
        "placed exactly once: {open}"
    );
}

/// Every command `--via ws` takes reaches its order method, its parameters under the
/// socket's names (shown by `--dry-run`, nothing sent).
#[test]
fn every_socket_command_reaches_its_order_method() {
    let sandbox = Sandbox::start().unwrap();
    let rows = [
        (
            "market BTC_PERP buy 0.01 --client-order-id c-1",
            "collateral_order_market_place",
            ("client_order_id", "c-1"),
        ),
        (
            "trigger BTC_PERP sell 0.01 --activation-price 60000",
            "collateral_order_stop_market_place",
            ("activation_price", "60000"),
        ),
        (
            "limit BTC_PERP buy 0.01 60000 --post-only",
            "collateral_order_limit_place",
            ("price", "60000"),
        ),
        (
            "stop-limit BTC_PERP buy 0.01 66100 --activation-price 66000",
            "collateral_order_stop_limit_place",
            ("activation_price", "66000"),
        ),
        (
            "limit BTC_PERP buy 0.01 60000 --stop-loss 59000",
            "collateral_order_oto_place",
            ("stop_loss", "59000"),
        ),
        (
            "oco BTC_PERP sell 0.01 70000 60000 59000 --client-order-id p-1",
            "collateral_order_oco_place",
            ("limit_client_order_id", "p-1"),
        ),
        (
            "modify BTC_PERP --order-id 7 --price 61000",
            "order_modify",
            ("price", "61000"),
        ),
        (
            "cancel BTC_PERP --client-order-id c-1",
            "order_cancel",
            ("client_order_id", "c-1"),
        ),
        (
            "cancel-conditional BTC_PERP 9",
            "order_cancel_conditional",
            ("market", "BTC_PERP"),
        ),
        (
            "cancel-oto BTC_PERP 9",
            "order_cancel_conditional",
            ("market", "BTC_PERP"),
        ),
        (
            "cancel-oco BTC_PERP --order-id 9",
            "order_cancel_conditional",
            ("market", "BTC_PERP"),
        ),
        (
            "cancel-all --market BTC_PERP --type futures",
            "order_cancel_all",
            ("market", "BTC_PERP"),
        ),
        (
            "tpsl BTC_PERP --stop-loss 60000",
            "collateral_order_tpsl_place",
            ("stop_loss_activation_price", "60000"),
        ),
    ];
    for (line, method, (key, value)) in rows {
        let via = if line.starts_with("tpsl") {
            ""
        } else {
            " --via ws"
        };
        let shown = dry_run(txc_at(&sandbox).line(&format!("--json --dry-run {line}{via}")));
        assert_eq!(shown["via"], "ws", "{line}: {shown}");
        assert_eq!(shown["method"], method, "{line}: {shown}");
        assert_eq!(shown["params"][key], value, "{line}: {shown}");
    }
    // Group ids go as `order_id`.
    let shown = dry_run(txc_at(&sandbox).line("--json --dry-run cancel-oto BTC_PERP 9 --via ws"));
    assert_eq!(shown["params"]["order_id"], 9, "{shown}");
    assert_eq!(sandbox.stats().requests, 0, "nothing sent");
    assert_eq!(sandbox.ws_connections(), 0);
}

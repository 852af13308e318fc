//! Issue 35 through the CLI: each case with a real restart — a new `txc` process on the same
//! state directory — against the embedded sandbox, each ending with one order or investment
//! and a true answer; and the journal's format versions (1 and 2 read and rewritten as 3, a
//! later one refused). The flex operations' restarts are in `flex.rs`.

use super::*;

#[test]
fn a_new_txc_does_not_send_again_an_order_the_journal_holds_unresolved() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    let order = "market BTC_USDT buy 0.01 --client-order-id cli-restart";
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    run(txc_journaled(&sandbox, &state).line(order), 4);

    // A new process, the same order: stopped before anything is sent (not even the position
    // mode is read), the record and the command that resolves it named.
    let requests = sandbox.stats().requests;
    let (stdout, _) = run(txc_journaled(&sandbox, &state).arg("--json").line(order), 4);
    let error = json(&stdout)["error"].clone();
    assert_eq!(error["kind"], "outcome_unknown");
    assert!(
        error["message"].as_str().unwrap().contains("unresolved"),
        "{error}"
    );
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with("txc resolve BTC_USDT cli-restart --nonce"),
        "{check}"
    );
    assert_eq!(error["pending"]["clientOrderId"], "cli-restart");
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");
    let listed = pending_in(&sandbox, &state);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["kind"], "order");
    assert_eq!(listed[0]["key"], listed[0]["nonces"][0]);

    // With --once it resolves the record first, and finds the order: one order.
    let (stdout, stderr) = run(
        txc_journaled(&sandbox, &state)
            .arg("--json")
            .line(order)
            .arg("--once"),
        0,
    );
    let placed = json(&stdout)["result"].clone();
    assert_ne!(placed["foundIn"], "response", "found, not placed again");
    assert_eq!(held(&sandbox, "cli-restart"), 1);
    assert!(
        stderr.contains("resolving order cli-restart on BTC_USDT: round 1 of look-ups"),
        "{stderr}"
    );
    assert!(pending_in(&sandbox, &state).is_empty());
}

#[test]
fn a_new_txc_does_not_invest_again_what_the_journal_holds_unresolved() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    let invest = format!("invest {PLAN} 250");
    sandbox.inject_fault(Route::Invest, Fault::DropAfterProcessing, Some(1));
    run(txc_journaled(&sandbox, &state).line(&invest), 4);
    assert_eq!(sandbox.stats().investments_made, 1);

    // A new process: stopped before anything is sent, the plans not even read.
    let requests = sandbox.stats().requests;
    let error = fails(
        txc_journaled(&sandbox, &state).arg("--json").line(&invest),
        4,
    );
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with(&format!("txc resolve-investment {PLAN} 250 --nonce")),
        "{check}"
    );
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");
    let listed = pending_in(&sandbox, &state);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["kind"], "investment");

    // With --once it resolves the record first. Others may invest with the key (the
    // default): the one investment found cannot tell, so it is not invested again, and the
    // record stays, with why.
    let error = fails(
        txc_journaled(&sandbox, &state)
            .arg("--json")
            .line(&invest)
            .arg("--once"),
        4,
    );
    assert!(
        error["message"].as_str().unwrap().contains("cannot tell"),
        "{error}"
    );
    assert_eq!(sandbox.stats().investments_made, 1, "never invested twice");
    let listed = pending_in(&sandbox, &state);
    assert!(
        listed[0]["reason"]
            .as_str()
            .unwrap()
            .contains("cannot tell"),
        "{listed:?}"
    );
    // The key's only investor resolves it from the journal alone (no --nonce): invested.
    let resolved = ok(txc_journaled(&sandbox, &state).line(&format!(
        "--json --investment-writers sole resolve-investment {PLAN} 250"
    )));
    assert_eq!(resolved["invested"], true);
    assert_eq!(resolved["id"], sandbox.investment_records()[0]["id"]);
    assert!(pending_in(&sandbox, &state).is_empty());
}

#[test]
fn another_writer_s_investment_is_not_taken_for_the_one_txc_made() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    let invest = format!("invest {PLAN} 250");
    sandbox.inject_fault(Route::Invest, Fault::Unavailable, Some(1));
    run(txc_journaled(&sandbox, &state).line(&invest), 4);
    assert_eq!(sandbox.stats().investments_made, 0, "the 503 came first");
    // Another writer of the key (another txc, its own journal) 0.7 s later.
    std::thread::sleep(std::time::Duration::from_millis(700));
    run(txc_journaled(&sandbox, &scratch()).line(&invest), 0);
    let theirs = sandbox.investment_records()[0]["id"].clone();

    let (stdout, stderr) = run(
        txc_journaled(&sandbox, &state).line(&format!("--json resolve-investment {PLAN} 250")),
        4,
    );
    let error = json(&stdout)["error"].clone();
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("cannot tell") && message.contains(theirs.as_str().unwrap()),
        "{error}"
    );
    assert!(
        stderr.contains("waiting") && stderr.contains("acceptance window"),
        "one line a stage on standard error: {stderr}"
    );
    // A new txc placing it again exactly once does not invest again.
    run(
        txc_journaled(&sandbox, &state).line(&format!("{invest} --once")),
        4,
    );
    assert_eq!(sandbox.investment_records().len(), 1, "only theirs");
    // Checked by hand (it was not ours): discarded, the journal is empty.
    let key = pending_in(&sandbox, &state)[0]["key"].clone();
    let discarded = ok(txc_journaled(&sandbox, &state).line(&format!("--json discard {key}")));
    assert!(
        discarded["discarded"]
            .as_str()
            .unwrap()
            .contains("investment of 250"),
        "{discarded}"
    );
    assert!(pending_in(&sandbox, &state).is_empty());
}

#[test]
fn the_journal_reads_its_version_1_files_and_refuses_later_versions() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    let dir = state.join("pending");
    std::fs::create_dir_all(&dir).unwrap();
    // A version-1 file (txc 0.3): an order sent a minute ago that never arrived.
    let nonce = txc_sign::nonce::unix_millis(std::time::SystemTime::now()) - 60_000;
    let old = serde_json::json!({
        "base_url": sandbox.base_url(),
        "api_key": demo::PARTNER_API_KEY,
        "market": "BTC_USDT",
        "client_order_id": "cli-v1",
        "trigger": false,
        "attempts": [{ "nonce": nonce, "signed_at_ms": nonce }],
    });
    std::fs::write(dir.join("BTC_USDT.cli-v1.json"), old.to_string()).unwrap();
    let listed = pending_in(&sandbox, &state);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["clientOrderId"], "cli-v1");
    // Read back by a placing command: it stops it, and rewrites the file as version 3.
    let requests = sandbox.stats().requests;
    run(
        txc_journaled(&sandbox, &state).line("market BTC_USDT buy 0.01 --client-order-id cli-v1"),
        4,
    );
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");
    assert!(!dir.join("BTC_USDT.cli-v1.json").exists());
    let rewritten = dir.join(format!("order.BTC_USDT.cli-v1.{nonce}.json"));
    let file: Value = serde_json::from_slice(&std::fs::read(&rewritten).unwrap()).unwrap();
    assert_eq!(
        (file["version"].clone(), file["kind"].clone()),
        (3.into(), "order".into())
    );
    let resolved = ok(txc_journaled(&sandbox, &state).line("--json resolve BTC_USDT cli-v1"));
    assert_eq!(resolved["placed"], false);
    assert!(pending_in(&sandbox, &state).is_empty());

    // A version-2 file (txc 0.4): an investment sent a minute ago that never arrived. Read
    // back by an investing command: it stops it, and rewrites the file as version 3.
    let v2 = serde_json::json!({
        "version": 2,
        "base_url": sandbox.base_url(),
        "api_key": demo::PARTNER_API_KEY,
        "kind": "investment",
        "plan_id": PLAN,
        "amount": "250",
        "strict": false,
        "attempts": [{ "nonce": nonce, "signed_at_ms": nonce }],
    });
    let name = dir.join(format!("investment.{PLAN}.250.{nonce}.json"));
    std::fs::write(&name, v2.to_string()).unwrap();
    let requests = sandbox.stats().requests;
    run(
        txc_journaled(&sandbox, &state).line(&format!("invest {PLAN} 250")),
        4,
    );
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");
    let file: Value = serde_json::from_slice(&std::fs::read(&name).unwrap()).unwrap();
    assert_eq!(
        (file["version"].clone(), file["kind"].clone()),
        (3.into(), "investment".into())
    );
    let resolved =
        ok(txc_journaled(&sandbox, &state).line(&format!("--json resolve-investment {PLAN} 250")));
    assert_eq!(resolved["invested"], false);
    assert!(pending_in(&sandbox, &state).is_empty());

    // A file of a later version: refused with a clear error, nothing sent.
    let newer = serde_json::json!({ "version": 9, "base_url": sandbox.base_url() });
    std::fs::write(dir.join("order.BTC_USDT.x.1.json"), newer.to_string()).unwrap();
    let requests = sandbox.stats().requests;
    let error = fails(
        txc_journaled(&sandbox, &state).line("--json market BTC_USDT buy 0.01"),
        2,
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("format version 9") && message.contains("newer txc"),
        "{message}"
    );
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");
    run(txc_journaled(&sandbox, &state).line("pending"), 2);
}

//! Issue 40 through the CLI: `txc flex …` as a user runs it against the embedded sandbox —
//! every command with `--json` and as a table, the bounds before anything is sent, the `--live`
//! guard and dry runs; and never twice: each kind of unknown outcome of an investment or a
//! withdrawal (a lost answer, a 5xx after and without processing, a lagging history, another
//! writer of the key) exits 4 with the command that resolves it, or is resolved with `--once`;
//! a restart on the journal resolves first; close and auto-invest are resolved by state.

use super::*;

/// The spec's USDT flex plan: 10 to 100 000, 15 % a year.
const FLEX: &str = demo::FLEX_USDT_PLAN;

/// `INVEST`, `WITHDRAW_FROM_INVESTMENT`, `DAILY_EARNING`, `CLOSE_INVESTMENT`.
const INVEST: u64 = 1;
const WITHDRAW: u64 = 3;
const EARNING: u64 = 4;
const CLOSE: u64 = 5;

/// The sandbox's history records of `action`.
fn recorded(sandbox: &Sandbox, action: u64) -> usize {
    sandbox
        .flex_history_records()
        .iter()
        .filter(|r| r["actionType"] == action)
        .count()
}

/// The account's investment in the plan, as the sandbox holds it.
fn invested(sandbox: &Sandbox) -> String {
    let records = sandbox.flex_investment_records();
    let investment = records.iter().find(|i| i["planId"] == FLEX).unwrap();
    investment["invested"].as_str().unwrap().to_owned()
}

/// A 500 after the operation was processed.
fn answer_500() -> Fault {
    Fault::AnswerAfterProcessing {
        status: 500,
        content_type: "application/json".into(),
        body: br#"{"message":"Server error"}"#.to_vec(),
    }
}

#[test]
fn every_flex_command_with_json_and_as_a_table() {
    let sandbox = Sandbox::builder()
        .flex_accrual_interval(std::time::Duration::from_millis(200))
        .start()
        .unwrap();
    // The plans, every page — one a page reads them all, the same.
    let plans = ok(txc_at(&sandbox).line("--json flex plans"));
    let ids: Vec<&str> = plans
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&FLEX) && ids.contains(&demo::FLEX_BTC_PLAN),
        "{plans}"
    );
    let btc = ok(txc_at(&sandbox).line("--json flex plans --ticker BTC"));
    assert_eq!(btc.as_array().unwrap().len(), 1, "{btc}");
    assert_eq!(btc[0]["id"], demo::FLEX_BTC_PLAN);
    let (out, err) = run(txc_at(&sandbox).line("flex plans"), 0);
    no_secret(&out);
    no_secret(&err);
    assert!(out.contains("maxRate") && out.contains(FLEX), "{out}");

    // Invest, reinvesting: the transaction, and the investment it made.
    let (out, err) = run(
        txc_at(&sandbox).line(&format!("--json flex invest {FLEX} 250 --reinvest on")),
        0,
    );
    no_secret(&out);
    no_secret(&err);
    assert_eq!(json(&out)["command"], "flex invest");
    let done = json(&out)["result"].clone();
    assert_eq!(done["foundIn"], "response");
    let first = done["transactionId"].as_str().unwrap().to_owned();
    assert_eq!(
        sandbox.flex_history_records()[0]["transaction_id"],
        first.as_str()
    );
    let listed = ok(txc_at(&sandbox).line(&format!("--json flex investments --plan {FLEX}")));
    // (What is invested grows by each flex day's earning, reinvested: the history has the
    // amounts.)
    assert_eq!(listed[0]["planId"], FLEX);
    assert_eq!(listed[0]["withAutoReinvest"], true);
    // A top-up, then a withdrawal, as tables.
    let (out, _) = run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 100")), 0);
    assert!(out.starts_with("invested: transaction tx_"), "{out}");
    let (out, _) = run(
        txc_at(&sandbox).line(&format!("flex withdraw {FLEX} 50")),
        0,
    );
    assert!(out.starts_with("withdrawn: transaction tx_"), "{out}");
    let (out, _) = run(txc_at(&sandbox).line("flex investments --status active"), 0);
    assert!(out.contains("active") && out.contains(FLEX), "{out}");
    assert_eq!(
        ok(txc_at(&sandbox).line("--json flex investments --status closed")),
        serde_json::json!([])
    );

    // The history, every page (one record a page; of the actions the flex days do not add
    // to while it is read), and by action.
    let history = ok(txc_at(&sandbox)
        .line("--json flex history --action invest --action withdraw --page-size 1"));
    let mut amounts: Vec<(u64, &str)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["actionType"].as_u64().unwrap(),
                r["amount"].as_str().unwrap(),
            )
        })
        .collect();
    amounts.sort_unstable();
    assert_eq!(
        amounts,
        [(INVEST, "100"), (INVEST, "250"), (WITHDRAW, "50")],
        "{history}"
    );
    let withdrawals = ok(txc_at(&sandbox).line(&format!(
        "--json flex history --plan {FLEX} --action withdraw"
    )));
    assert_eq!(withdrawals.as_array().unwrap().len(), 1, "{withdrawals}");
    assert_eq!(withdrawals[0]["amount"], "50");
    let (out, _) = run(txc_at(&sandbox).line("flex history --action invest"), 0);
    assert!(out.contains("INVEST") && out.contains("250"), "{out}");

    // A flex day later, the day's earning is paid (reinvested): the payment history lists it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while recorded(&sandbox, EARNING) == 0 {
        assert!(std::time::Instant::now() < deadline, "no earning");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let payments = ok(txc_at(&sandbox).line(&format!("--json flex payments --plan {FLEX}")));
    let payments = payments.as_array().unwrap();
    assert!(!payments.is_empty());
    assert!(
        payments.iter().all(|p| p["actionType"] == EARNING),
        "{payments:?}"
    );
    let (out, _) = run(txc_at(&sandbox).line("flex payments"), 0);
    assert!(out.contains("DAILY_EARNING"), "{out}");

    // The auto-reinvestment off, then the investment closed.
    let switched = ok(txc_at(&sandbox).line(&format!("--json flex auto-invest {FLEX} off")));
    assert_eq!(
        (switched["autoInvest"].clone(), switched["foundBy"].clone()),
        (false.into(), "response".into())
    );
    let listed = ok(txc_at(&sandbox).line(&format!("--json flex investments --plan {FLEX}")));
    assert_eq!(listed[0]["withAutoReinvest"], false);
    // Under faults: every retry 50 ms apart instead of the backoff from 1 s.
    let closed = ok(txc_at(&sandbox).line(&format!("--json --test-backoff 50 flex close {FLEX}")));
    assert_eq!(closed["closed"], true);
    assert_eq!(closed["foundBy"], "response");
    assert!(closed["transactionId"].as_str().unwrap().starts_with("tx_"));
    let (out, _) = run(txc_at(&sandbox).line("flex investments --status closed"), 0);
    assert!(out.contains("closed"), "{out}");
    // Closed twice: the exchange refuses, and nothing says to check (it is not unknown).
    let error = fails(
        txc_at(&sandbox).line(&format!("--json flex close {FLEX}")),
        3,
    );
    assert_eq!(error["status"], 422);
    assert!(error.get("check").is_none(), "{error}");
    // Investing again reopens it (not reinvesting: what is invested stays).
    run(
        txc_at(&sandbox).line(&format!("flex invest {FLEX} 20 --reinvest off")),
        0,
    );
    let listed = ok(txc_at(&sandbox).line(&format!("--json flex investments --plan {FLEX}")));
    assert_eq!(
        (listed[0]["status"].clone(), listed[0]["invested"].clone()),
        (1.into(), "20".into())
    );
}

#[test]
fn flex_bounds_are_checked_before_anything_is_sent_and_live_is_guarded() {
    let sandbox = Sandbox::start().unwrap();
    let refused = |line: &str, says: &[&str]| {
        let (_, err) = run(txc_at(&sandbox).line(line), 2);
        for word in says {
            assert!(err.contains(word), "{line}: {err}");
        }
    };
    refused(&format!("flex invest {FLEX} 5"), &["minInvestment", "10"]);
    refused(&format!("flex invest {FLEX} 100001"), &["maxInvestment"]);
    refused(&format!("flex invest {FLEX} 1.0000001"), &["amount"]);
    refused(
        "flex invest no-such-plan 100",
        &["no flex plan no-such-plan"],
    );
    refused(
        &format!("flex invest {} 100", demo::FLEX_PAUSED_PLAN),
        &["no flex plan"],
    );
    refused(
        &format!("flex withdraw {FLEX} 10"),
        &["no investment in flex plan"],
    );
    refused("flex history --from 10 --to 5", &["dateTo"]);
    assert_eq!(recorded(&sandbox, INVEST), 0);
    // With an investment of 100, a withdrawal must leave the plan's minimum.
    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 100")), 0);
    refused(&format!("flex withdraw {FLEX} 95"), &["minInvestment"]);
    refused(&format!("flex withdraw {FLEX} 101"), &["invested"]);
    assert_eq!(recorded(&sandbox, WITHDRAW), 0);
    // A dry run signs the request and sends nothing.
    let requests = sandbox.stats().requests;
    let signed = dry_run(txc_at(&sandbox).line(&format!(
        "--json --dry-run flex invest {FLEX} 250 --reinvest off"
    )));
    assert_eq!(
        signed["body"]["request"],
        "/api/v4/main-account/smart-flex/investments/invest"
    );
    assert_eq!(
        (
            signed["body"]["plan"].as_str(),
            signed["body"]["amount"].as_str()
        ),
        (Some(FLEX), Some("250"))
    );
    assert_eq!(signed["body"]["withReinvest"], false);
    for line in [
        format!("flex withdraw {FLEX} 10"),
        format!("flex close {FLEX}"),
        format!("flex auto-invest {FLEX} on"),
        "flex plans".to_owned(),
        "flex history --action earning".to_owned(),
    ] {
        let (out, _) = run(txc_at(&sandbox).line("--dry-run").line(&line), 0);
        assert!(out.contains("dry run: nothing was sent"), "{line}: {out}");
    }
    assert_eq!(sandbox.stats().requests, requests, "nothing sent");
    // To a server that is not on loopback, every change needs --live.
    for command in [
        format!("flex invest {FLEX} 250"),
        format!("flex withdraw {FLEX} 250"),
        format!("flex close {FLEX}"),
        format!("flex auto-invest {FLEX} on"),
    ] {
        let (_, err) = run(
            txc()
                .line("--base-url https://example.com --api-key k --secret-stdin")
                .line(&command)
                .write_stdin("secret\n"),
            2,
        );
        assert!(err.contains("--live"), "{err}");
    }
}

#[test]
fn an_unknown_flex_investment_exits_4_and_the_printed_command_resolves_it() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::FlexInvest, Fault::DropAfterProcessing, Some(1));
    let error = fails(
        txc_at(&sandbox).line(&format!("--json flex invest {FLEX} 250")),
        4,
    );
    assert_eq!(error["kind"], "outcome_unknown");
    assert_eq!(error["pendingFlexInvest"]["planId"], FLEX);
    assert_eq!(error["pendingFlexInvest"]["amount"], "250");
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with(&format!("txc flex resolve invest {FLEX} 250 --nonce ")),
        "{check}"
    );
    assert_eq!(recorded(&sandbox, INVEST), 1, "sent once, never again");
    // Run as printed, by the key's only investor: invested, the history's record.
    let resolved = run_printed(&sandbox, &format!("{check} --investment-writers sole"));
    assert_eq!(resolved["invested"], true);
    assert_eq!(
        resolved["transactionId"],
        sandbox.flex_history_records()[0]["transaction_id"]
    );
    assert!(
        resolved["evidence"].as_str().unwrap().contains("round 1"),
        "{resolved}"
    );
    // With other writers possible (the default), the one record cannot tell: exit 4.
    let error = fails(
        txc_at(&sandbox)
            .arg("--json")
            .line(check.strip_prefix("txc ").unwrap()),
        4,
    );
    assert!(
        error["message"].as_str().unwrap().contains("cannot tell"),
        "{error}"
    );
    assert_eq!(recorded(&sandbox, INVEST), 1);
}

#[test]
fn an_unknown_flex_withdrawal_5xx_without_processing_resolves_as_not_withdrawn() {
    let sandbox = Sandbox::start().unwrap();
    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 300")), 0);
    sandbox.inject_fault(Route::FlexWithdraw, Fault::Unavailable, Some(1));
    let error = fails(
        txc_at(&sandbox).line(&format!("--json flex withdraw {FLEX} 250")),
        4,
    );
    assert_eq!(error["pendingFlexWithdraw"]["amount"], "250");
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with(&format!("txc flex resolve withdraw {FLEX} 250 --nonce ")),
        "{check}"
    );
    assert_eq!(recorded(&sandbox, WITHDRAW), 0);
    let resolved = run_printed(&sandbox, check);
    assert_eq!(resolved["withdrawn"], false, "{resolved}");
    let (out, _) = run(
        txc_at(&sandbox).line(&format!(
            "flex resolve withdraw {FLEX} 250 --nonce 1700000000000"
        )),
        0,
    );
    assert!(
        out.contains("not withdrawn: it is safe to withdraw again"),
        "{out}"
    );
    assert_eq!(invested(&sandbox), "300");
}

#[test]
fn flex_once_finds_what_a_lost_answer_or_a_5xx_hid_and_never_moves_money_twice() {
    // Each case on its own sandbox, at once: resolving waits out the nonce window.
    let cases: Vec<(&str, Route, Fault, Option<Fault>, u32)> = vec![
        ("invest", Route::FlexInvest, Fault::ResetMidBody, None, 100),
        ("invest", Route::FlexInvest, answer_500(), None, 100),
        (
            "invest",
            Route::FlexInvest,
            Fault::DropAfterProcessing,
            Some(Fault::Lagging(std::time::Duration::from_millis(1_000))),
            1_500,
        ),
        ("withdraw", Route::FlexWithdraw, gateway_503(), None, 100),
        (
            "withdraw",
            Route::FlexWithdraw,
            Fault::HtmlBadGateway,
            None,
            100,
        ),
    ];
    std::thread::scope(|scope| {
        for (kind, route, fault, history, spacing) in &cases {
            scope.spawn(move || {
                let sandbox = Sandbox::start().unwrap();
                if *kind == "withdraw" {
                    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 400")), 0);
                }
                let action = if *kind == "invest" { INVEST } else { WITHDRAW };
                let before = recorded(&sandbox, action);
                if let Some(history) = history {
                    sandbox.inject_fault(Route::FlexHistory, history.clone(), Some(2));
                }
                sandbox.inject_fault(*route, fault.clone(), Some(1));
                let done = ok(txc_spaced(&sandbox, *spacing).line(&format!(
                    "--json --investment-writers sole flex {kind} {FLEX} 250 --once"
                )));
                let processed = !matches!(fault, Fault::HtmlBadGateway);
                let expected = if processed { "history" } else { "response" };
                assert_eq!(done["foundIn"], expected, "{kind} {fault:?}: {done}");
                assert_eq!(
                    recorded(&sandbox, action),
                    before + 1,
                    "{kind} {fault:?}: once"
                );
                let tx = done["transactionId"].as_str().unwrap();
                let records = sandbox.flex_history_records();
                assert!(
                    records.iter().any(|r| r["transaction_id"] == tx),
                    "the right one"
                );
            });
        }
    });
}

#[test]
fn flex_close_and_auto_invest_are_resolved_by_the_investment_s_state() {
    let sandbox = Sandbox::start().unwrap();
    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 100")), 0);
    // The close's answer lost: the investment read back closed — done, one close.
    sandbox.inject_fault(Route::FlexClose, Fault::DropAfterProcessing, Some(1));
    let closed = ok(txc_at(&sandbox).line(&format!("--json flex close {FLEX}")));
    assert_eq!(closed["foundBy"], "investment", "{closed}");
    assert_eq!(closed["investment"]["status"], 0);
    assert_eq!(recorded(&sandbox, CLOSE), 1);
    // Not processed (503): still active, so sent again — one close.
    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 100")), 0);
    sandbox.inject_fault(Route::FlexClose, Fault::Unavailable, Some(1));
    let (out, _) = run(
        txc_at(&sandbox).line(&format!("--test-backoff 50 flex close {FLEX}")),
        0,
    );
    assert!(out.contains("the exchange answered"), "{out}");
    assert_eq!(recorded(&sandbox, CLOSE), 2);
    // The switch's answers all lost: read back, on.
    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 100")), 0);
    sandbox.inject_fault(Route::FlexAutoInvest, Fault::DropAfterProcessing, Some(20));
    let (out, _) = run(
        txc_at(&sandbox).line(&format!("--test-backoff 50 flex auto-invest {FLEX} on")),
        0,
    );
    assert!(
        out.contains("auto-reinvestment on") && out.contains("read afterwards"),
        "{out}"
    );
    sandbox.clear_faults();
    let listed = ok(txc_at(&sandbox).line(&format!("--json flex investments --plan {FLEX}")));
    assert_eq!(listed[0]["withAutoReinvest"], true);
}

#[test]
fn a_close_whose_state_cannot_be_read_exits_4_and_says_how_to_check() {
    let sandbox = Sandbox::start().unwrap();
    run(txc_at(&sandbox).line(&format!("flex invest {FLEX} 100")), 0);
    // The close's answer lost, and nothing can read the investment: unknown, exit 4, and how
    // to see it.
    sandbox.inject_fault(Route::FlexClose, Fault::DropAfterProcessing, Some(1));
    sandbox.inject_fault(Route::FlexInvestments, Fault::Unavailable, None);
    // Every retry 50 ms apart instead of the backoff from 1 s.
    let error = fails(
        txc_at(&sandbox).line(&format!("--json --test-backoff 50 flex close {FLEX}")),
        4,
    );
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with(&format!("txc flex investments --plan {FLEX}")),
        "{check}"
    );
}

// ---------------------------------------------------------------------------------------------
// The journal: a flex operation recorded before its first byte, read back by a new process.

#[test]
fn a_new_txc_does_not_invest_again_what_the_journal_holds_unresolved() {
    restarted("invest", Route::FlexInvest, INVEST);
}

#[test]
fn a_new_txc_does_not_withdraw_again_what_the_journal_holds_unresolved() {
    restarted("withdraw", Route::FlexWithdraw, WITHDRAW);
}

/// A flex `kind` whose answer was lost, then new `txc` processes on the same journal: the
/// record on disk before the answer, `txc pending` listing it, a plain resend stopped before
/// anything is sent, `--once` resolving it first — one `action` on the exchange.
fn restarted(kind: &str, route: Route, action: u64) {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    run(
        txc_journaled(&sandbox, &state).line(&format!("flex invest {FLEX} 400")),
        0,
    );
    assert_eq!(
        ok(txc_journaled(&sandbox, &state).line("--json pending")),
        serde_json::json!([]),
        "a definite answer never stays in the journal"
    );
    {
        let line = format!("flex {kind} {FLEX} 250");
        sandbox.inject_fault(route, Fault::DropAfterProcessing, Some(1));
        run(txc_journaled(&sandbox, &state).line(&line), 4);
        let before = recorded(&sandbox, action);

        // The record on disk: version 3, its kind, its plan and amount.
        let dir = state.join("pending");
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        let name = files[0].file_name().unwrap().to_str().unwrap().to_owned();
        assert!(
            name.starts_with(&format!("flex-{kind}.{FLEX}.250.")),
            "{name}"
        );
        let file: Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
        assert_eq!(file["version"], 3);
        assert_eq!(file["kind"], format!("flex_{kind}"));
        assert_eq!(
            (file["plan_id"].as_str(), file["amount"].as_str()),
            (Some(FLEX), Some("250"))
        );

        // `txc pending` lists it with the command that resolves it.
        let listed = ok(txc_journaled(&sandbox, &state).line("--json pending"));
        assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
        assert_eq!(listed[0]["kind"], format!("flex_{kind}"));
        let resolve = listed[0]["resolve"].as_str().unwrap();
        assert!(
            resolve.starts_with(&format!("txc flex resolve {kind} {FLEX} 250 --nonce ")),
            "{resolve}"
        );
        let (out, _) = run(txc_journaled(&sandbox, &state).arg("pending"), 0);
        assert!(out.contains(&format!("txc flex resolve {kind}")), "{out}");

        // A new process, the same operation: stopped before anything is sent.
        let requests = sandbox.stats().requests;
        let error = fails(txc_journaled(&sandbox, &state).arg("--json").line(&line), 4);
        assert!(
            error["message"].as_str().unwrap().contains("unresolved"),
            "{error}"
        );
        assert_eq!(error["check"].as_str().unwrap(), resolve);
        assert_eq!(sandbox.stats().requests, requests, "nothing sent");

        // With --once it resolves the record first and finds it: done once, journal empty. (A
        // withdrawal: the investment holds 150 now, and the bounds, read after resolving, would
        // refuse 250 — so resolving comes before them.)
        let (stdout, stderr) = run(
            txc_journaled(&sandbox, &state)
                .line("--json --investment-writers sole")
                .line(&line)
                .arg("--once"),
            0,
        );
        let done = json(&stdout)["result"].clone();
        assert_eq!(done["foundIn"], "history", "{done}");
        assert_eq!(recorded(&sandbox, action), before, "never twice");
        assert!(stderr.contains("round 1 of look-ups"), "{stderr}");
        assert!(pending_in(&sandbox, &state).is_empty());
    }
    let expected = if kind == "invest" { "650" } else { "150" };
    assert_eq!(invested(&sandbox), expected, "250 moved once");
}

#[test]
fn another_writer_s_withdrawal_is_not_taken_for_txc_s_and_discard_settles_it() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    run(
        txc_at(&sandbox).line(&format!("flex invest {FLEX} 1000")),
        0,
    );
    let line = format!("flex withdraw {FLEX} 250");
    sandbox.inject_fault(Route::FlexWithdraw, Fault::Unavailable, Some(1));
    run(txc_journaled(&sandbox, &state).line(&line), 4);
    assert_eq!(recorded(&sandbox, WITHDRAW), 0, "the 503 came first");
    // Another writer of the key (another txc, its own journal) 0.7 s later.
    std::thread::sleep(std::time::Duration::from_millis(700));
    run(txc_journaled(&sandbox, &scratch()).line(&line), 0);
    let theirs = sandbox
        .flex_history_records()
        .into_iter()
        .find(|r| r["actionType"] == WITHDRAW)
        .unwrap()["transaction_id"]
        .clone();
    // Resolved from the journal alone: cannot tell, naming theirs; nothing sent again.
    let error = fails(
        txc_journaled(&sandbox, &state).line(&format!("--json flex resolve withdraw {FLEX} 250")),
        4,
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("cannot tell") && message.contains(theirs.as_str().unwrap()),
        "{message}"
    );
    run(
        txc_journaled(&sandbox, &state).line(&format!("{line} --once")),
        4,
    );
    assert_eq!(recorded(&sandbox, WITHDRAW), 1, "only theirs");
    let listed = pending_in(&sandbox, &state);
    assert!(
        listed[0]["reason"]
            .as_str()
            .unwrap()
            .contains("cannot tell"),
        "{listed:?}"
    );
    // Checked by hand (it was not ours): discarded, and then withdrawn once more.
    let key = listed[0]["key"].clone();
    let discarded = ok(txc_journaled(&sandbox, &state).line(&format!("--json discard {key}")));
    assert!(
        discarded["discarded"]
            .as_str()
            .unwrap()
            .contains("flex withdrawal of 250"),
        "{discarded}"
    );
    assert!(pending_in(&sandbox, &state).is_empty());
    run(txc_journaled(&sandbox, &state).line(&line), 0);
    assert_eq!(invested(&sandbox), "500");
}

#[test]
fn a_flex_investment_is_journaled_before_it_is_sent() {
    // The process dies while the investment is in flight (killed while the answer is held
    // back): the journal already holds it; `txc flex resolve` — without --nonce — resolves it.
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    killed_in_flight(
        &sandbox,
        &state,
        Route::FlexInvest,
        &format!("flex invest {FLEX} 250 --reinvest on"),
        || recorded(&sandbox, INVEST) == 1,
    );
    let listed = pending_in(&sandbox, &state);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["kind"], "flex_invest");
    // The file keeps what was sent: withReinvest and the plan's currency too.
    let file = std::fs::read_dir(state.join("pending"))
        .unwrap()
        .next()
        .unwrap();
    let file: Value =
        serde_json::from_slice(&std::fs::read(file.unwrap().path()).unwrap()).unwrap();
    assert_eq!(
        (file["with_reinvest"].clone(), file["ticker"].clone()),
        (true.into(), "USDT".into())
    );
    let resolved = ok(txc_journaled(&sandbox, &state).line(&format!(
        "--json --investment-writers sole flex resolve invest {FLEX} 250"
    )));
    assert_eq!(resolved["invested"], true);
    assert!(pending_in(&sandbox, &state).is_empty());
    assert_eq!(recorded(&sandbox, INVEST), 1);
}

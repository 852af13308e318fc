//! `txc` end to end against the embedded sandbox: every command, `--json` parsed and checked,
//! `--dry-run` sending nothing and printing no secret, every exit code, the config file and
//! its permission check, the `--live` guard, `txc sandbox` itself, completions — and the help
//! texts as snapshots.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;
use serde_json::Value;
use txc_sandbox::{Fault, Route, Sandbox, demo};

/// A directory of its own for one test (config files, an empty `HOME`).
fn scratch() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "txc-cli-test-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `txc` with no configuration from this machine: an empty home, no `TXC_*` variables.
fn txc() -> Command {
    Command::from_std(txc_process())
}

/// [`txc`] as a process to spawn.
fn txc_process() -> std::process::Command {
    let home = scratch();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_txc"));
    for var in [
        "TXC_BASE_URL",
        "TXC_API_KEY",
        "TXC_API_SECRET",
        "TXC_PROFILE",
        "TXC_CONFIG",
        "TXC_STATE_DIR",
    ] {
        command.env_remove(var);
    }
    command
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        // Help is wrapped to the terminal, at most 100 columns: the same width everywhere.
        .env("COLUMNS", "100");
    command
}

/// `txc` configured for `sandbox` with the partner demo key, by the variables.
fn txc_at(sandbox: &Sandbox) -> Command {
    // The sandbox shares this host's clock: no real exchange's window to wait out.
    txc_spaced(sandbox, 100)
}

/// [`txc_at`] with resolving's rounds `ms` apart.
fn txc_spaced(sandbox: &Sandbox, ms: u32) -> Command {
    Command::from_std(txc_process_at(sandbox, ms))
}

/// [`txc_spaced`] as a process to spawn. The sandbox creates an order before it answers, so
/// resolving counts an attempt as accepted or never a second after it (the hidden, test-only
/// `--unproven-acceptance-window`), not after the documented 10 s: `TXC_FULL_RESOLVE=1` runs
/// every case with the documented window.
fn txc_process_at(sandbox: &Sandbox, ms: u32) -> std::process::Command {
    let mut command = txc_process();
    command
        .env("TXC_BASE_URL", sandbox.base_url())
        .env("TXC_API_KEY", demo::PARTNER_API_KEY)
        .env("TXC_API_SECRET", demo::PARTNER_API_SECRET)
        .args(["--unproven-settle-delay", &ms.to_string()]);
    if std::env::var_os("TXC_FULL_RESOLVE").is_none_or(|v| v != "1") {
        command.args(["--unproven-acceptance-window", "1000"]);
    }
    command
}

/// Runs `command`, expects `code`, and returns stdout, stderr.
fn run(command: &mut Command, code: i32) -> (String, String) {
    let output = command.output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    (stdout, stderr)
}

/// The one JSON document of a `--json` run.
fn json(stdout: &str) -> Value {
    let mut documents = serde_json::Deserializer::from_str(stdout).into_iter::<Value>();
    let document = documents.next().expect("a document").unwrap();
    assert!(documents.next().is_none(), "exactly one document: {stdout}");
    document
}

/// The `result` of a `--json` run that succeeds.
fn ok(command: &mut Command) -> Value {
    json(&run(command, 0).0)["result"].clone()
}

/// The request a `--json --dry-run` run signed and did not send.
fn dry_run(command: &mut Command) -> Value {
    json(&run(command, 0).0)["dryRun"].clone()
}

/// The HTTP status of the exchange's refusal (exit 3) of `line` run with the regular demo
/// key, which is no partner.
fn refused_to_the_regular_key(sandbox: &Sandbox, line: &str) -> Value {
    let mut command = txc_at(sandbox);
    command
        .env("TXC_API_KEY", demo::REGULAR_API_KEY)
        .env("TXC_API_SECRET", demo::REGULAR_API_SECRET);
    fails(command.line(line), 3)["status"].clone()
}

/// The `error` of a `--json` run that exits with `code`.
fn fails(command: &mut Command, code: i32) -> Value {
    json(&run(command, code).0)["error"].clone()
}

/// A command's arguments written as a shell line, split at white space.
trait Line {
    fn line(&mut self, line: &str) -> &mut Self;
}

impl Line for Command {
    fn line(&mut self, line: &str) -> &mut Self {
        self.args(line.split_whitespace())
    }
}

impl Line for std::process::Command {
    fn line(&mut self, line: &str) -> &mut Self {
        self.args(line.split_whitespace())
    }
}

/// Sets `path`'s permission bits (where there are any).
fn chmod(path: &std::path::Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
}

/// The command a failure printed to check what became of it (`txc …`), run as printed, with
/// `--json`: its result.
fn run_printed(sandbox: &Sandbox, check: &str) -> Value {
    ok(txc_at(sandbox)
        .arg("--json")
        .line(check.strip_prefix("txc ").unwrap()))
}

fn no_secret(text: &str) {
    assert!(
        !text.contains(demo::PARTNER_API_SECRET),
        "the secret was printed: {text}"
    );
}

#[test]
fn market_order_json_and_table() {
    let sandbox = Sandbox::start().unwrap();
    let (out, err) = run(
        txc_at(&sandbox).line(
            "--json market BTC_USDT buy 0.01 --stop-loss 50000 --take-profit 80000 \
             --client-order-id cli-m1 --stp cb",
        ),
        0,
    );
    no_secret(&out);
    no_secret(&err);
    let doc = json(&out);
    assert_eq!(doc["command"], "market");
    let order = &doc["result"];
    assert_eq!(order["market"], "BTC_USDT");
    assert_eq!(order["side"], "buy");
    assert_eq!(order["clientOrderId"], "cli-m1");
    assert_eq!(order["status"], "FILLED");
    assert_eq!(order["amount"], "0.01");
    assert!(order["orderId"].as_u64().unwrap() > 0);
    let placed = sandbox.orders();
    assert_eq!(placed.len(), 1);
    assert_eq!(placed[0].order_id, order["orderId"].as_u64().unwrap());

    let (out, _) = run(txc_at(&sandbox).line("market BTC_USDT sell 0.01"), 0);
    assert!(out.contains("orderId") && out.contains("FILLED"), "{out}");
    assert!(out.contains("txc-"), "a generated clientOrderId: {out}");
    assert_eq!(sandbox.stats().accepted_orders, 2);
}

#[test]
fn trigger_orders_lookups_and_cancel() {
    let sandbox = Sandbox::start().unwrap();
    let trigger =
        ok(txc_at(&sandbox)
            .line("--json trigger BTC_USDT buy 0.01 90000 --client-order-id cli-t1"));
    assert_eq!(trigger["clientOrderId"], "cli-t1");
    assert_eq!(trigger["activationPrice"], "90000");

    let open = ok(txc_at(&sandbox).line("--json orders --market BTC_USDT"))
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0]["orderId"], trigger["orderId"]);
    let (out, _) = run(txc_at(&sandbox).line("orders"), 0);
    assert!(
        out.contains("cli-t1") && out.contains("clientOrderId"),
        "{out}"
    );

    let canceled = ok(txc_at(&sandbox).line("--json cancel BTC_USDT --client-order-id cli-t1"));
    assert_eq!(canceled["canceled"], true);
    assert_eq!(canceled["order"]["orderId"], trigger["orderId"]);
    // Nothing is left to cancel: rejected by the exchange.
    assert_eq!(
        fails(
            txc_at(&sandbox).line("--json cancel BTC_USDT --order-id 1"),
            3
        )["kind"],
        "rejected"
    );
    // Exactly one of the two ids.
    run(txc_at(&sandbox).line("cancel BTC_USDT"), 2);
    run(
        txc_at(&sandbox).line("cancel BTC_USDT --order-id 1 --client-order-id x"),
        2,
    );

    run(
        txc_at(&sandbox).line("market BTC_USDT buy 0.01 --client-order-id cli-h1"),
        0,
    );
    let history =
        ok(txc_at(&sandbox).line("--json history --client-order-id cli-h1 --market BTC_USDT"));
    let finished = history["BTC_USDT"].as_array().unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0]["clientOrderId"], "cli-h1");
    // The partner is a B2B account: its canceled order is not in the history.
    let (out, _) = run(txc_at(&sandbox).line("history"), 0);
    assert!(out.contains("cli-h1") && !out.contains("CANCELED"), "{out}");
}

#[test]
fn plans_and_time() {
    let sandbox = Sandbox::start().unwrap();
    let plans = ok(txc_at(&sandbox).line("--json plans --ticker USDT"))
        .as_array()
        .unwrap()
        .clone();
    assert!(!plans.is_empty());
    assert!(plans.iter().all(|p| p["ticker"] == "USDT"));
    let (out, _) = run(txc_at(&sandbox).line("plans"), 0);
    assert!(out.contains("ticker") && out.contains("USDT"), "{out}");
    // A regular key is refused the plans.
    assert_eq!(refused_to_the_regular_key(&sandbox, "--json plans"), 403);

    // The server time needs no key.
    let time = ok(txc().line("--json time --base-url").arg(sandbox.base_url()))["time"]
        .as_u64()
        .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(time.abs_diff(now) <= 2, "{time} vs {now}");
}

#[test]
fn dry_run_sends_nothing_and_prints_no_secret() {
    let sandbox = Sandbox::start().unwrap();
    let (out, err) = run(
        txc_at(&sandbox).line("--json --dry-run market BTC_USDT buy 0.01"),
        0,
    );
    no_secret(&out);
    no_secret(&err);
    let request = json(&out)["dryRun"].clone();
    assert_eq!(request["method"], "POST");
    assert_eq!(
        request["url"],
        format!("{}/api/v4/order/collateral/market", sandbox.base_url())
    );
    assert_eq!(request["headers"]["x-txc-apikey"], demo::PARTNER_API_KEY);
    assert_eq!(request["headers"]["x-txc-payload"], "<redacted>");
    assert_eq!(request["headers"]["x-txc-signature"], "<redacted>");
    assert_eq!(request["body"]["market"], "BTC_USDT");
    assert_eq!(request["body"]["nonceWindow"], true);

    let (out, _) = run(
        txc_at(&sandbox).line("--dry-run --show-signature cancel BTC_USDT --order-id 7"),
        0,
    );
    no_secret(&out);
    let signature = out
        .lines()
        .find_map(|l| l.strip_prefix("x-txc-signature: "))
        .unwrap();
    assert_eq!(signature.len(), 128, "{out}");
    assert!(out.contains("nothing was sent"));
    for command in ["plans", "orders", "history"] {
        run(txc_at(&sandbox).arg("--dry-run").arg(command), 0);
    }
    assert_eq!(sandbox.stats().requests, 0, "the sandbox saw nothing");
    // --show-signature only with --dry-run.
    run(txc_at(&sandbox).line("--show-signature plans"), 2);
}

#[test]
fn an_unknown_outcome_exits_4_and_says_how_to_resolve() {
    let sandbox = Sandbox::start().unwrap();
    // The order executes; the connection breaks before the response arrives.
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let error = fails(txc_at(&sandbox).line("--json market BTC_USDT buy 0.01"), 4);
    assert_eq!(error["kind"], "outcome_unknown");
    assert_eq!(error["exitCode"], 4);
    let check = error["check"].as_str().unwrap();
    assert!(check.starts_with("txc resolve BTC_USDT txc-"), "{check}");
    assert_eq!(error["pending"]["market"], "BTC_USDT");
    assert_eq!(sandbox.stats().accepted_orders, 1, "sent once, never again");

    // The printed command, run as printed: placed.
    let resolved = run_printed(&sandbox, check);
    assert_eq!(resolved["placed"], true);
    assert_eq!(
        resolved["order"]["clientOrderId"],
        error["pending"]["clientOrderId"]
    );

    // The table form says the same on standard error.
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let (_, err) = run(txc_at(&sandbox).line("market BTC_USDT buy 0.01"), 4);
    assert!(
        err.contains("outcome is unknown") && err.contains("check with: txc resolve"),
        "{err}"
    );

    // An id that was never sent resolves to "not placed", given its attempt's nonce; without
    // one (and no journal entry) its window is unknown: refused.
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        .to_string();
    let resolved = ok(txc_at(&sandbox).line(&format!(
        "--json resolve BTC_USDT never-sent-1 --nonce {nonce}"
    )));
    assert_eq!(resolved["placed"], false);
    assert!(
        resolved["provedBy"].as_str().unwrap().contains("2 of"),
        "{resolved}"
    );
    run(txc_at(&sandbox).line("resolve BTC_USDT never-sent-2"), 2);
}

#[test]
fn exit_codes_for_invalid_and_rejected() {
    let sandbox = Sandbox::start().unwrap();
    // Invalid input: nothing sent.
    let (_, err) = run(txc_at(&sandbox).line("market BTC_USDT buy abc"), 2);
    assert!(err.contains("amount"), "{err}");
    run(txc_at(&sandbox).line("market BTC_USDT hold 1"), 2);
    run(
        txc_at(&sandbox).line("market BTC_USDT buy 0.01 --reduce-only --stop-loss 1"),
        2,
    );
    assert_eq!(sandbox.stats().requests, 0);
    // Rejected: not enough balance.
    let error = fails(txc_at(&sandbox).line("--json market BTC_USDT buy 1000"), 3);
    assert_eq!(error["kind"], "rejected");
    assert_eq!(error["status"], 422);
    // No credentials at all: invalid, nothing sent.
    let (_, err) = run(
        txc().arg("--base-url").arg(sandbox.base_url()).arg("plans"),
        2,
    );
    assert!(err.contains("TXC_API_KEY"), "{err}");
}

/// A test of its own: it waits out the command line's default backoffs (1 + 2 + 4 s).
#[test]
fn exit_code_5_when_nothing_could_be_sent() {
    let sandbox = Sandbox::start().unwrap();
    // Not sent: nothing listens there.
    assert_eq!(
        fails(
            txc_at(&sandbox)
                .env("TXC_BASE_URL", "http://127.0.0.1:1")
                // Every retry, 50 ms apart instead of the backoff from 1 s.
                .line("--json --test-backoff 50 market BTC_USDT buy 0.01"),
            5
        )["kind"],
        "not_sent"
    );
}

#[test]
fn the_live_guard_refuses_orders_to_other_hosts() {
    // Nothing is contacted: the guard runs before the client is built.
    let remote = || {
        let mut command = txc();
        command
            .env("TXC_BASE_URL", "https://whitebit.com")
            .env("TXC_API_KEY", "k")
            .env("TXC_API_SECRET", "s");
        command
    };
    let (_, err) = run(remote().line("market BTC_USDT buy 0.01"), 2);
    assert!(
        err.contains("--live") && err.contains("nothing was sent"),
        "{err}"
    );
    run(remote().line("cancel BTC_USDT --order-id 1"), 2);
    // A dry run sends nothing, so it needs no --live.
    let (out, _) = run(remote().line("--dry-run market BTC_USDT buy 0.01"), 0);
    assert!(
        out.contains("https://whitebit.com/api/v4/order/collateral/market"),
        "{out}"
    );
}

/// The hidden test-only timings are refused for a server off loopback, before anything is
/// sent, even with `--live`; on loopback they are taken.
#[test]
fn the_test_only_timings_are_refused_off_loopback() {
    for flag in [
        "--unproven-acceptance-window 1000",
        "--test-backoff 50",
        "--test-token-limit 600",
    ] {
        for line in [
            "orders",
            "--live market BTC_USDT buy 0.01",
            "--live resolve BTC_USDT x",
        ] {
            let (_, err) = run(
                txc()
                    .env("TXC_BASE_URL", "https://whitebit.com")
                    .env("TXC_API_KEY", "k")
                    .env("TXC_API_SECRET", "s")
                    .line(&format!("{flag} {line}")),
                2,
            );
            assert!(
                err.contains("loopback") && err.contains("nothing was sent"),
                "{flag} {line}: {err}"
            );
        }
    }
    // On loopback (`txc_at` gives the acceptance window unless TXC_FULL_RESOLVE=1).
    let sandbox = Sandbox::start().unwrap();
    run(
        txc_at(&sandbox).line("--test-backoff 50 --test-token-limit 600 orders"),
        0,
    );
}

#[test]
fn the_secret_is_never_a_flag_but_can_come_from_stdin() {
    run(txc().line("--api-secret s plans"), 2);
    let sandbox = Sandbox::start().unwrap();
    let mut command = txc();
    command
        .env("TXC_BASE_URL", sandbox.base_url())
        .args(["--api-key", demo::PARTNER_API_KEY])
        .line("--secret-stdin --json plans")
        .write_stdin(format!("{}\n", demo::PARTNER_API_SECRET));
    let (out, err) = run(&mut command, 0);
    no_secret(&out);
    no_secret(&err);
    assert!(json(&out)["result"].is_array());
}

#[test]
fn profiles_from_a_private_config_file() {
    let sandbox = Sandbox::start().unwrap();
    let dir = scratch();
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "[profiles.sandbox]\nbase_url = \"{}\"\napi_key = \"{}\"\napi_secret = \"{}\"\n",
            sandbox.base_url(),
            demo::PARTNER_API_KEY,
            demo::PARTNER_API_SECRET
        ),
    )
    .unwrap();
    chmod(&path, 0o600);
    let with_config = |line: &str| {
        let mut command = txc();
        command.arg("--config").arg(&path).line(line);
        command
    };
    assert!(ok(&mut with_config("--profile sandbox --json plans")).is_array());
    // A profile that is not there.
    let (_, err) = run(&mut with_config("--profile live plans"), 2);
    assert!(
        err.contains("no profile \"live\"") && err.contains("sandbox"),
        "{err}"
    );
    // The default location, found through the config directory.
    let home = scratch();
    let default = home.join(".config").join("txc");
    std::fs::create_dir_all(&default).unwrap();
    std::fs::copy(&path, default.join("config.toml")).unwrap();
    let mut command = txc();
    command
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("TXC_PROFILE", "sandbox")
        .line("--json plans");
    run(&mut command, 0);

    if cfg!(unix) {
        chmod(&path, 0o644);
        let (_, err) = run(&mut with_config("--profile sandbox plans"), 2);
        assert!(err.contains("chmod 600"), "{err}");
        no_secret(&err);
    }
    // A file that is not a config file names no line of it.
    std::fs::write(
        &path,
        format!("api_secret = {}\n", demo::PARTNER_API_SECRET),
    )
    .unwrap();
    chmod(&path, 0o600);
    let (_, err) = run(&mut with_config("--profile sandbox plans"), 2);
    no_secret(&err);
    assert!(err.contains("not a valid txc config file"), "{err}");
}

#[test]
fn txc_sandbox_serves_and_prints_how_to_use_it() {
    let mut child = txc_process()
        .line("sandbox --port 0")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let export = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.starts_with("export "))
        .expect("an export line");
    let flex_plan = lines.by_ref().map(Result::unwrap).next().unwrap();
    assert!(flex_plan.contains(demo::FLEX_USDT_PLAN), "{flex_plan}");
    let vars: Vec<(String, String)> = export
        .trim_start_matches("export ")
        .split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_owned(), v.to_owned())
        })
        .collect();
    let mut command = txc();
    command.envs(vars.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    assert_eq!(
        ok(command.line("--json market BTC_USDT buy 0.01"))["status"],
        "FILLED"
    );
    let mut command = txc();
    command.envs(vars.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let plans = ok(command.line("--json flex plans --ticker USDT"));
    assert!(
        plans
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == demo::FLEX_USDT_PLAN),
        "{plans}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let (out, _) = run(txc().arg("completions").arg(shell), 0);
        assert!(out.contains("txc") && out.contains("market"), "{shell}");
    }
    run(txc().line("completions cmd"), 2);
}

#[test]
fn help_texts() {
    let (out, _) = run(txc().arg("--help"), 0);
    insta::assert_snapshot!("help", out);
    for command in [
        "market",
        "trigger",
        "plans",
        "orders",
        "history",
        "cancel",
        "resolve",
        "pending",
        "discard",
        "time",
        "sandbox",
        "completions",
        "balance",
        "positions",
        "position-history",
        "close",
        "leverage",
        "hedge-mode",
        "cancel-all",
        "kill-switch",
        "invest",
        "investments",
        "close-investment",
        "interest",
        "resolve-investment",
        "watch",
        "flex",
        "flex plans",
        "flex invest",
        "flex withdraw",
        "flex close",
        "flex auto-invest",
        "flex investments",
        "flex history",
        "flex payments",
        "flex resolve",
        "config",
        "limit",
        "stop-limit",
        "bulk",
        "oco",
        "oco-orders",
        "cancel-oco",
        "cancel-conditional",
        "cancel-oto",
        "modify",
        "conditional-orders",
        "cancel-bulk",
        "markets",
        "pnl",
        "funding",
        "adl",
        "deals",
        "tpsl",
    ] {
        let (out, _) = run(txc().line(command).arg("--help"), 0);
        insta::assert_snapshot!(format!("help_{}", command.replace(' ', "_")), out);
    }
}

/// Without its `sandbox` feature the binary compiles no tokio.
#[test]
fn without_the_sandbox_feature_no_tokio() {
    let output = std::process::Command::new(env!("CARGO"))
        .line("tree --offline --quiet -p txc-cli --no-default-features -e normal --prefix none")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8(output.stdout).unwrap();
    assert!(tree.contains("txc-blocking"), "{tree}");
    for crate_name in ["tokio ", "hyper ", "axum ", "txc-sandbox "] {
        assert!(!tree.contains(crate_name), "{crate_name} in:\n{tree}");
    }
}

#[test]
fn once_resolves_a_lost_response_instead_of_placing_twice() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let placed = ok(txc_at(&sandbox).line("--json market BTC_USDT buy 0.01 --once"));
    assert_ne!(
        placed["foundIn"], "response",
        "found by looking it up: {placed}"
    );
    assert_eq!(placed["market"], "BTC_USDT");
    assert_eq!(placed["orderId"], placed["order"]["id"]);
    assert_eq!(sandbox.stats().accepted_orders, 1, "placed exactly once");
}

#[test]
fn every_order_option_reaches_the_wire() {
    let sandbox = Sandbox::start().unwrap();
    let body = dry_run(txc_at(&sandbox).line(
        "--json --dry-run trigger BTC_USDT sell 0.5 60000 \
         --client-order-id cli-opt-1 --position-side short --reduce-only --stp co",
    ))["body"]
        .clone();
    assert_eq!(body["request"], "/api/v4/order/collateral/trigger-market");
    assert_eq!(body["market"], "BTC_USDT");
    assert_eq!(body["side"], "sell");
    assert_eq!(body["amount"], "0.5");
    assert_eq!(body["activation_price"], "60000");
    assert_eq!(body["clientOrderId"], "cli-opt-1");
    assert_eq!(body["positionSide"], "SHORT");
    assert_eq!(body["reduceOnly"], true);
    assert_eq!(body["stp"], "co");
    assert!(
        body.get("leverage").is_none(),
        "no undocumented leverage field"
    );
    assert_eq!(sandbox.stats().requests, 0);
}

/// Every filter and option of the commands that build a request from optional arguments
/// reaches the signed body (the nonce aside), one row per command.
#[test]
fn every_filter_reaches_the_wire() {
    let sandbox = Sandbox::start().unwrap();
    let rows = [
        (
            "orders --market BTC_USDT --order-id 7 --client-order-id c-1 --limit 5 --offset 2",
            r#"{"clientOrderId": "c-1", "limit": 5, "market": "BTC_USDT", "nonceWindow": true, "offset": 2, "orderId": 7, "request": "/api/v4/orders"}"#,
        ),
        (
            "history --market BTC_USDT --client-order-id c-1 --limit 5 --offset 2",
            r#"{"clientOrderId": "c-1", "limit": 5, "market": "BTC_USDT", "nonceWindow": true, "offset": 2, "request": "/api/v4/trade-account/order/history"}"#,
        ),
        (
            "plans --ticker USDT",
            r#"{"nonceWindow": true, "request": "/api/v4/main-account/smart/plans", "ticker": "USDT"}"#,
        ),
        (
            "investments --id inv-1 --ticker USDT --status closed --limit 5 --offset 2",
            r#"{"id": "inv-1", "limit": 5, "nonceWindow": true, "offset": 2, "request": "/api/v4/main-account/smart/investments", "status": 2, "ticker": "USDT"}"#,
        ),
        (
            "interest --plan-id plan-1 --ticker USDT --limit 5 --offset 2",
            r#"{"limit": 5, "nonceWindow": true, "offset": 2, "planId": "plan-1", "request": "/api/v4/main-account/smart/interest-payment-history", "ticker": "USDT"}"#,
        ),
        (
            "position-history --market BTC_USDT --position-id 3 --start-date 1700000000 \
             --end-date 1700000100 --limit 5 --offset 2",
            r#"{"endDate": 1700000100, "limit": 5, "market": "BTC_USDT", "nonceWindow": true, "offset": 2, "positionId": 3, "request": "/api/v4/collateral-account/positions/history", "startDate": 1700000000}"#,
        ),
        (
            "cancel-all --market BTC_PERP --type futures --type margin --position-side long",
            r#"{"market": "BTC_PERP", "nonceWindow": true, "positionSide": "long", "request": "/api/v4/order/cancel/all", "type": ["futures", "margin"]}"#,
        ),
        (
            "positions --market BTC_USDT",
            r#"{"market": "BTC_USDT", "nonceWindow": true, "request": "/api/v4/collateral-account/positions/open"}"#,
        ),
        (
            "market BTC_USDT buy 0.01 --stop-loss 1 --take-profit 2 --client-order-id c-2 \
             --position-side long --stp cn",
            r#"{"amount": "0.01", "clientOrderId": "c-2", "market": "BTC_USDT", "nonceWindow": true, "positionSide": "LONG", "request": "/api/v4/order/collateral/market", "side": "buy", "stopLoss": "1", "stp": "cn", "takeProfit": "2"}"#,
        ),
    ];
    for (line, expected) in rows {
        let mut body =
            dry_run(txc_at(&sandbox).arg("--json").arg("--dry-run").line(line))["body"].clone();
        assert!(body["nonce"].is_u64(), "{line}: {body}");
        body.as_object_mut().unwrap().remove("nonce");
        let expected: Value = serde_json::from_str(expected).unwrap();
        assert_eq!(body, expected, "{line}");
    }
    assert_eq!(sandbox.stats().requests, 0, "the sandbox saw nothing");
}

#[test]
fn positions_and_risk_controls_from_the_shell() {
    let sandbox = Sandbox::start().unwrap();
    let result = |line: &str| ok(txc_at(&sandbox).arg("--json").line(line));
    result("market BTC_USDT buy 0.01");
    let positions = result("positions --market BTC_USDT");
    let position = positions[0]["positionId"].as_u64().unwrap();
    assert_eq!(positions[0]["amount"], "0.01");
    assert_eq!(result("balance")["USDT"], "9934.35");
    assert_eq!(result("balance --summary")["leverage"], 10);
    assert_eq!(result("balance --assets --ticker USDT")[0]["asset"], "USDT");
    let events = result(&format!("position-history --position-id {position}"));
    assert_eq!(events.as_array().unwrap().len(), 1);
    // The leverage cannot change while the position is open: the exchange's 113, exit 3.
    assert_eq!(
        fails(txc_at(&sandbox).line("--json leverage 5"), 3)["code"],
        113
    );
    // A value the exchange does not take never leaves: exit 2.
    run(txc_at(&sandbox).line("leverage 4"), 2);
    let closed = result(&format!("close BTC_USDT {position}"));
    assert_eq!(closed["closed"], true);
    assert!(sandbox.positions(demo::PARTNER_API_KEY).is_empty());
    assert_eq!(result("leverage 5")["leverage"], 5);
    assert_eq!(result("hedge-mode")["hedgeMode"], false);
    assert_eq!(result("hedge-mode on")["hedgeMode"], true);
    assert_eq!(result("hedge-mode")["hedgeMode"], true);
    // Hedge mode: an order without a side is refused before sending.
    let before = sandbox.stats().requests;
    let (_, err) = run(txc_at(&sandbox).line("market BTC_USDT buy 0.01"), 2);
    assert!(err.contains("hedge mode"), "{err}");
    assert_eq!(
        sandbox.stats().requests,
        before + 2,
        "the market rules and the mode read, no order"
    );
    let timer = result("kill-switch BTC_USDT --timeout 60 --type margin");
    assert_eq!(timer["types"], serde_json::json!(["margin"]));
    assert_eq!(result("kill-switch --status").as_array().unwrap().len(), 1);
    assert_eq!(result("kill-switch BTC_USDT --off"), serde_json::json!([]));
    assert_eq!(result("cancel-all --market BTC_USDT")["canceled"], true);
    // No position: an explicit line, not a lone header.
    let (out, _) = run(txc_at(&sandbox).line("positions"), 0);
    assert_eq!(out, "(none)\n");
}

#[test]
fn an_unknown_close_exits_4_and_says_how_to_resolve() {
    let sandbox = Sandbox::start().unwrap();
    run(txc_at(&sandbox).line("market BTC_USDT buy 0.01"), 0);
    let position = sandbox.positions(demo::PARTNER_API_KEY).len();
    assert_eq!(position, 1);
    let id = ok(txc_at(&sandbox).line("--json positions"))[0]["positionId"]
        .as_u64()
        .unwrap()
        .to_string();
    // The close executes; the connection drops before the answer.
    sandbox.inject_fault(Route::ClosePosition, Fault::DropAfterProcessing, Some(1));
    let error = fails(
        txc_at(&sandbox).line(&format!("--json close BTC_USDT {id}")),
        4,
    );
    assert_eq!(error["kind"], "outcome_unknown");
    assert_eq!(error["pendingClose"]["positionId"].to_string(), id);
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with(&format!("txc close BTC_USDT {id} --resolve --nonce ")),
        "{check}"
    );
    let resolved = run_printed(&sandbox, check);
    assert_eq!(resolved["closed"], true);
    assert_eq!(resolved["proof"]["rounds"].as_array().unwrap().len(), 2);
}

#[test]
fn state_changes_need_live_away_from_loopback_and_dry_runs_send_nothing() {
    let sandbox = Sandbox::start().unwrap();
    for command in [
        "close BTC_USDT 1",
        "leverage 5",
        "hedge-mode on",
        "cancel-all",
        "kill-switch BTC_USDT --off",
    ] {
        let (_, err) = run(
            txc_at(&sandbox)
                .line("--base-url https://whitebit.example")
                .line(command),
            2,
        );
        assert!(err.contains("--live"), "{command}: {err}");
    }
    let body = &dry_run(
        txc_at(&sandbox).line("--json --dry-run kill-switch BTC_USDT --timeout 30"),
    )["body"];
    assert_eq!(
        (body["market"].as_str(), body["timeout"].as_str()),
        (Some("BTC_USDT"), Some("30"))
    );
    run(txc_at(&sandbox).line("kill-switch BTC_USDT --timeout 3"), 2);
    assert_eq!(sandbox.stats().requests, 0);
}

/// The docs' example plan, the sandbox's first: 100 to 10 000 USDT, 3 000 left.
const PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";

#[test]
fn invest_list_close_and_interest() {
    let sandbox = Sandbox::builder()
        .investment_minute(std::time::Duration::from_millis(1))
        .start()
        .unwrap();
    let (out, err) = run(
        txc_at(&sandbox).line(&format!("--json invest {PLAN} 250")),
        0,
    );
    no_secret(&out);
    no_secret(&err);
    let invested = json(&out)["result"].clone();
    assert_eq!(invested["foundIn"], "response");
    let id = invested["id"].as_str().unwrap().to_owned();
    assert_eq!(sandbox.investment_records()[0]["id"], id.as_str());

    let page = ok(txc_at(&sandbox).line("--json investments --status active --ticker USDT"));
    assert_eq!(page["records"][0]["id"], id.as_str());
    assert_eq!(page["records"][0]["amount"], "250");
    assert_eq!(page["records"][0]["plan"]["id"], PLAN);
    let (out, _) = run(txc_at(&sandbox).line(&format!("investments --id {id}")), 0);
    assert!(out.contains("active") && out.contains("250"), "{out}");

    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(
        ok(txc_at(&sandbox).line(&format!("--json close-investment {id}"))),
        serde_json::json!({"closed": true, "id": id})
    );
    let payments =
        &ok(txc_at(&sandbox).line(&format!("--json interest --plan-id {PLAN}")))["records"];
    assert_eq!(payments[0]["investmentId"], id.as_str());
    let (out, _) = run(txc_at(&sandbox).line("interest"), 0);
    assert!(out.contains("investmentId") && out.contains(&id), "{out}");
    // Closed twice: the exchange refuses.
    assert_eq!(
        fails(
            txc_at(&sandbox).line(&format!("--json close-investment {id}")),
            3
        )["status"],
        422
    );
}

#[test]
fn invest_checks_the_plan_before_investing_and_guards_live() {
    let sandbox = Sandbox::start().unwrap();
    // Above what the plan has left: refused before investing, naming the bound.
    let (_, err) = run(txc_at(&sandbox).line(&format!("invest {PLAN} 5000")), 2);
    assert!(
        err.contains("maxPossibleInvestment") && err.contains("3000"),
        "{err}"
    );
    let (_, err) = run(txc_at(&sandbox).line("invest no-such-plan 100"), 2);
    assert!(err.contains("no plan no-such-plan"), "{err}");
    let (_, err) = run(
        txc_at(&sandbox).line(&format!("invest {PLAN} 1.0000001")),
        2,
    );
    assert!(err.contains("amount"), "{err}");
    assert_eq!(sandbox.stats().investments_made, 0);
    // A dry run signs the investment and sends nothing.
    let requests = sandbox.stats().requests;
    let body =
        dry_run(txc_at(&sandbox).line(&format!("--json --dry-run invest {PLAN} 250")))["body"]
            .clone();
    assert_eq!(body["request"], "/api/v4/main-account/smart/investment");
    assert_eq!(
        (body["planId"].as_str(), body["amount"].as_str()),
        (Some(PLAN), Some("250"))
    );
    assert_eq!(sandbox.stats().requests, requests);
    // To a server that is not on loopback, investing and closing need --live.
    for command in [
        format!("invest {PLAN} 250"),
        "close-investment x".to_owned(),
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
    // The regular key is no partner: 403, rejected.
    assert_eq!(
        refused_to_the_regular_key(&sandbox, "--json investments"),
        403
    );
}

#[test]
fn an_unknown_investment_exits_4_and_says_how_to_resolve() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::Invest, Fault::DropAfterProcessing, Some(1));
    // This txc is the key's only investor: one record in the window is this investment.
    let error = fails(
        txc_at(&sandbox).line(&format!(
            "--json --investment-writers sole invest {PLAN} 250"
        )),
        4,
    );
    assert_eq!(error["kind"], "outcome_unknown");
    assert_eq!(error["pendingInvestment"]["planId"], PLAN);
    let check = error["check"].as_str().unwrap();
    assert!(
        check.starts_with(&format!("txc resolve-investment {PLAN} 250 --nonce ")),
        "{check}"
    );
    assert_eq!(
        sandbox.stats().investments_made,
        1,
        "sent once, never again"
    );
    // The printed command, run as printed (with the same word on other writers): invested,
    // and what proved it.
    let resolved = run_printed(&sandbox, &format!("{check} --investment-writers sole"));
    assert_eq!(resolved["invested"], true);
    assert_eq!(resolved["id"], sandbox.investment_records()[0]["id"]);
    assert!(
        resolved["evidence"].as_str().unwrap().contains("round 1"),
        "{resolved}"
    );
    // An attempt that never reached the exchange resolves to "not invested".
    let line = format!("resolve-investment {PLAN} 777 --nonce 1700000000000");
    let (out, _) = run(txc_at(&sandbox).line(&line), 0);
    assert!(out.contains("not invested"), "{out}");
}

#[test]
fn invest_once_finds_a_lost_answer_instead_of_investing_twice() {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::Invest, Fault::ResetMidBody, Some(1));
    let invested = ok(txc_at(&sandbox).line(&format!(
        "--json --investment-writers sole invest {PLAN} 250 --once"
    )));
    assert_eq!(invested["foundIn"], "investments", "{invested}");
    assert_eq!(invested["investment"]["amount"], "250");
    assert_eq!(
        sandbox.investment_records().len(),
        1,
        "invested exactly once"
    );
}

// ---------------------------------------------------------------------------------------------
// Exactly once through the CLI: issue 28's cases, each ending with one order on the sandbox and
// a true answer (and the exit code that says it).

/// `txc` for `sandbox`, with its journal in `state`.
fn txc_journaled(sandbox: &Sandbox, state: &std::path::Path) -> Command {
    let mut command = txc_at(sandbox);
    command.env("TXC_STATE_DIR", state);
    command
}

/// Runs `line` as a `txc` process on the journal in `state`, the sandbox holding the answer on
/// `route` back, and kills the process once `arrived` says the request was processed: the
/// process dies with its request in flight.
fn killed_in_flight(
    sandbox: &Sandbox,
    state: &std::path::Path,
    route: Route,
    line: &str,
    arrived: impl Fn() -> bool,
) {
    sandbox.inject_fault(
        route,
        Fault::Delay(std::time::Duration::from_secs(5)),
        Some(1),
    );
    let mut child = txc_process_at(sandbox, 100)
        .env("TXC_STATE_DIR", state)
        .line(line)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !arrived() {
        assert!(
            std::time::Instant::now() < deadline,
            "never arrived: {line}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The unresolved records `txc pending` lists for `state`.
fn pending_in(sandbox: &Sandbox, state: &std::path::Path) -> Vec<Value> {
    let listed = ok(txc_journaled(sandbox, state).line("--json pending"));
    listed.as_array().unwrap().clone()
}

/// The orders the sandbox holds with `id`.
fn held(sandbox: &Sandbox, id: &str) -> usize {
    sandbox
        .orders()
        .iter()
        .filter(|o| o.client_order_id.as_deref() == Some(id))
        .count()
}

/// A gateway's 503 after the order was placed.
fn gateway_503() -> Fault {
    Fault::AnswerAfterProcessing {
        status: 503,
        content_type: String::new(),
        body: Vec::new(),
    }
}

#[test]
fn once_covers_a_lagging_history() {
    // 1. Executed, the answer lost, the look-ups 1.5 s behind: found, never sent again.
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    for route in [Route::OpenOrders, Route::OrderHistory] {
        sandbox.inject_fault(
            route,
            Fault::Lagging(std::time::Duration::from_millis(1_500)),
            Some(1),
        );
    }
    let placed = ok(txc_spaced(&sandbox, 2_000)
        .line("--json market BTC_USDT buy 0.01 --client-order-id cli-lag --once"));
    assert_eq!(placed["foundIn"], "order_history", "{placed}");
    assert_eq!(held(&sandbox, "cli-lag"), 1);
}

#[test]
fn once_finds_a_trigger_order_whose_resend_is_refused_with_code_36() {
    // 2. A resting trigger order seen later than the rounds: the resend meets code 36, and the
    //    order is found — placed, exit 0, never "rejected" (exit 3).
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralTriggerMarket, gateway_503(), Some(1));
    for route in [
        Route::OpenOrders,
        Route::OrderHistory,
        Route::ConditionalOrders,
    ] {
        sandbox.inject_fault(
            route,
            Fault::Lagging(std::time::Duration::from_secs(60)),
            Some(3),
        );
    }
    let placed = ok(txc_at(&sandbox).line(
        "--json trigger BTC_USDT buy 0.01 90000 --client-order-id cli-36 \
         --once",
    ));
    assert_eq!(placed["foundIn"], "open_orders");
    assert_eq!(held(&sandbox, "cli-36"), 1);
    assert_eq!(sandbox.stats().rejections_by_code.get(&36), Some(&1));
}

#[test]
fn once_does_not_take_a_reused_id_for_its_order() {
    // 3. The id filled seconds before by another run; this one refused before executing.
    let sandbox = Sandbox::start().unwrap();
    let order = "market BTC_USDT buy 0.01 --client-order-id cli-reused";
    run(txc_at(&sandbox).line(order), 0);
    std::thread::sleep(std::time::Duration::from_millis(2_500));
    sandbox.inject_fault(Route::CollateralMarket, Fault::Unavailable, Some(1));
    assert_eq!(
        ok(txc_at(&sandbox).arg("--json").line(order).arg("--once"))["foundIn"],
        "response",
        "sent again, once"
    );
    assert_eq!(
        held(&sandbox, "cli-reused"),
        2,
        "the earlier one and this one"
    );
}

#[test]
fn watch_prints_one_json_document_per_event_as_orders_happen() {
    let sandbox = Sandbox::start().unwrap();
    let mut child = txc_process_at(&sandbox, 100)
        // The positions snapshot on subscribing, then the order's balance, positions, order,
        // execution and deal.
        .line("--json watch BTC_USDT --count 6")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut documents: Vec<Value> = Vec::new();
    let mut order_id = None;
    for line in lines.by_ref() {
        let document: Value = serde_json::from_str(&line.unwrap()).unwrap();
        assert_eq!(document["command"], "watch");
        let kind = document["event"]["type"].as_str().unwrap().to_owned();
        documents.push(document);
        if kind == "resync_done" {
            let client = txc_blocking::Client::builder(
                txc_blocking::Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
                    .unwrap(),
            )
            .base_url(sandbox.base_url())
            .build()
            .unwrap();
            let order = txc_blocking::orders::CollateralMarketOrder::builder(
                "BTC_USDT",
                txc_blocking::orders::Side::Buy,
                "0.01",
            )
            .build()
            .unwrap();
            order_id = Some(client.collateral_market_order(&order).unwrap().order_id);
        }
        if kind == "stopped" {
            break;
        }
    }
    assert!(child.wait().unwrap().success());
    let order_id = order_id.expect("the stream was established");
    let updates: Vec<&Value> = documents
        .iter()
        .filter(|d| d["event"]["type"] == "update")
        .map(|d| &d["event"]["update"])
        .collect();
    let order = updates
        .iter()
        .find(|u| u["channel"] == "ordersPending")
        .expect("the order's event");
    assert_eq!(order["update"]["kind"], 3);
    assert_eq!(order["update"]["order"]["id"], order_id);
    assert_eq!(order["update"]["order"]["dealMoney"], "650");
    assert!(
        updates
            .iter()
            .any(|u| u["channel"] == "deals" && u["update"]["orderId"] == order_id)
    );
    assert_eq!(documents.last().unwrap()["event"]["reason"], "Requested");
}

#[test]
fn the_journal_holds_an_order_before_it_is_sent_and_resolve_reads_it() {
    // 4 and 5. The process dies while the order is in flight (killed while the answer is held
    // back): the journal already holds its id and nonce; `txc pending` lists it and `txc
    // resolve` — without --nonce — resolves it from the journal, whenever it is run.
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    killed_in_flight(
        &sandbox,
        &state,
        Route::CollateralMarket,
        "market BTC_USDT buy 0.01 --client-order-id cli-killed",
        || held(&sandbox, "cli-killed") == 1,
    );

    let pending = ok(txc_journaled(&sandbox, &state).line("--json pending"));
    assert_eq!(pending.as_array().unwrap().len(), 1, "{pending}");
    assert_eq!(pending[0]["clientOrderId"], "cli-killed");
    assert_eq!(pending[0]["nonces"].as_array().unwrap().len(), 1);
    let (out, _) = run(txc_journaled(&sandbox, &state).arg("pending"), 0);
    assert!(out.contains("txc resolve BTC_USDT cli-killed"), "{out}");

    let resolved = ok(txc_journaled(&sandbox, &state).line("--json resolve BTC_USDT cli-killed"));
    assert_eq!(resolved["placed"], true);
    assert_eq!(resolved["order"]["clientOrderId"], "cli-killed");
    assert_eq!(held(&sandbox, "cli-killed"), 1);
    // A definite answer clears it.
    assert_eq!(
        ok(txc_journaled(&sandbox, &state).line("--json pending")),
        serde_json::json!([])
    );
    // An order with a definite answer never stays in the journal.
    run(
        txc_journaled(&sandbox, &state).line("market BTC_USDT buy 0.01"),
        0,
    );
    assert_eq!(
        ok(txc_journaled(&sandbox, &state).line("--json pending")),
        serde_json::json!([])
    );
    // A settling delay below the floor is refused, nothing sent.
    let requests = sandbox.stats().requests;
    run(
        txc().line("--settle-delay 1 resolve BTC_USDT x --nonce 1"),
        2,
    );
    assert_eq!(sandbox.stats().requests, requests);
}

#[test]
fn once_finds_its_own_order_from_a_host_clock_90_s_ahead() {
    // 4. The exchange's clock 90 s behind this host's; `--sync-clock` corrects the nonces, and
    //    the order whose answer was lost is found — its window is its nonce's.
    let sandbox = Sandbox::builder().clock_offset_ms(-90_000).start().unwrap();
    let order = "market BTC_USDT buy 0.01 --client-order-id cli-drift";
    // Without correcting the clock the exchange refuses the nonce: nothing placed.
    assert_eq!(
        fails(txc_at(&sandbox).arg("--json").line(order), 3)["status"],
        401
    );
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    assert_ne!(
        ok(txc_at(&sandbox)
            .line("--json --sync-clock")
            .line(order)
            .arg("--once"))["foundIn"],
        "response"
    );
    assert_eq!(held(&sandbox, "cli-drift"), 1);
}

#[test]
fn once_finds_an_oto_trigger_order_among_the_conditional_orders() {
    // 6. Listed only among the conditional orders.
    let sandbox = Sandbox::builder()
        .oto_orders_in_open_orders(false)
        .start()
        .unwrap();
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::DropAfterProcessing,
        Some(1),
    );
    let placed = ok(txc_at(&sandbox).line(
        "--json trigger BTC_USDT buy 0.01 90000 --stop-loss 50000 \
         --client-order-id cli-oto --once",
    ));
    assert_eq!(placed["foundIn"], "conditional_orders");
    assert_eq!(held(&sandbox, "cli-oto"), 1);
}

#[test]
fn a_b2b_account_s_absence_cannot_tell() {
    // Placed (its answer lost), canceled, invisible to the B2B partner's look-ups: exit 4.
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    sandbox.inject_fault(
        Route::CollateralTriggerMarket,
        Fault::DropAfterProcessing,
        Some(1),
    );
    run(
        txc_journaled(&sandbox, &state)
            .line("trigger BTC_USDT buy 0.01 90000 --client-order-id cli-b2b"),
        4,
    );
    run(
        txc_journaled(&sandbox, &state).line("cancel BTC_USDT --client-order-id cli-b2b"),
        0,
    );
    let error = fails(
        txc_journaled(&sandbox, &state).line("--json --b2b-account resolve BTC_USDT cli-b2b"),
        4,
    );
    assert!(
        error["message"].as_str().unwrap().contains("B2B"),
        "{error}"
    );
    // Still in the journal: it was not resolved.
    assert_eq!(
        ok(txc_journaled(&sandbox, &state).line("--json pending"))
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

// Issue 35: exactly once across a restart of `txc`, for orders and investments, and the
// journal's format versions.
#[path = "cli/restarts.rs"]
mod restarts;

#[path = "cli/arguments.rs"]
mod arguments;
#[path = "cli/flex.rs"]
mod flex;
#[path = "cli/progress.rs"]
mod progress;
#[path = "cli/rough_edges.rs"]
mod rough_edges;
#[path = "cli/tables.rs"]
mod tables;
// Issue 37: every other collateral order type, the listings and the cancels.
#[path = "cli/trading.rs"]
mod trading;
// Issue 38: the account's reports and `txc watch`'s margin calls.
#[path = "cli/reports.rs"]
mod reports;

#[path = "cli/watch_channels.rs"]
mod watch_channels;

#[path = "cli/ws_trading.rs"]
mod ws_trading;

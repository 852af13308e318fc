//! Issue 39's rough edges, each as a user meets them: typos, negative numbers, `--json` for
//! argument errors, errors naming the flags, the server and the credentials' source, printed
//! commands that work as printed, progress on standard error only (and `--quiet`), times and
//! key casing, `txc config`, the man page.

use super::*;

/// The Unix milliseconds of now, as a `--nonce`.
fn now_ms() -> String {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        .to_string()
}

/// Whether `word` is an RFC 3339 time in UTC (`2026-11-29T10:00:00Z`, a fraction allowed).
fn is_rfc3339_utc(word: &str) -> bool {
    let bytes = word.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        bytes
            .get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    word.len() >= 20
        && digits(0..4)
        && bytes[4] == b'-'
        && bytes[10] == b'T'
        && bytes[13] == b':'
        && word.ends_with('Z')
}

#[test]
fn typos_get_suggestions() {
    let (_, err) = run(txc().arg("markte"), 2);
    assert!(
        err.contains("similar subcommand") && err.contains("'market'"),
        "{err}"
    );
    let (_, err) = run(txc().line("market BTC_USDT buy 0.01 --stop-los 5"), 2);
    assert!(
        err.contains("similar argument exists: '--stop-loss'"),
        "{err}"
    );
}

#[test]
fn negative_numbers_reach_the_validation_and_nothing_is_sent() {
    let sandbox = Sandbox::start().unwrap();
    let (_, err) = run(txc_at(&sandbox).line("market BTC_USDT buy -0.01"), 2);
    assert!(err.contains("invalid amount"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
    let (_, err) = run(
        txc_at(&sandbox).line("market BTC_USDT buy 0.01 --stop-loss -5"),
        2,
    );
    assert!(err.contains("--stop-loss"), "{err}");
    assert_eq!(sandbox.stats().requests, 0, "nothing sent");
}

#[test]
fn json_is_honoured_for_argument_errors() {
    // An unknown command: one JSON document on standard output, nothing on standard error.
    let (out, err) = run(txc().line("--json markte"), 2);
    assert_eq!(err, "");
    let error = json(&out)["error"].clone();
    assert_eq!(error["exitCode"], 2);
    assert_eq!(error["kind"], "invalid");
    assert!(
        error["message"].as_str().unwrap().contains("'market'"),
        "{error}"
    );
    // A missing argument of a known command: that command's document, wherever --json is.
    let document = json(&run(txc().line("market BTC_USDT --json buy"), 2).0);
    assert_eq!(document["command"], "market");
    assert!(
        document["error"]["message"]
            .as_str()
            .unwrap()
            .contains("<AMOUNT>"),
        "{document}"
    );
    // --help stays help.
    let (out, _) = run(txc().line("--json market --help"), 0);
    assert!(out.starts_with("Place a collateral market order"), "{out}");
}

#[test]
fn errors_name_the_command_line_s_flags_not_wire_fields() {
    let (_, err) = run(
        txc()
            .env("TXC_API_KEY", "k")
            .env("TXC_API_SECRET", "s")
            .line("--dry-run market BTC_USDT buy 0.01 --reduce-only --stop-loss 5"),
        2,
    );
    assert!(
        err.contains("--reduce-only cannot be combined with --stop-loss"),
        "{err}"
    );
    assert!(!err.contains("reduceOnly"), "{err}");
}

#[test]
fn errors_name_the_server_and_where_the_credentials_came_from() {
    // Connection refused: the URL, and the variables the key and secret came from.
    let (_, err) = run(
        txc()
            .env("TXC_API_KEY", demo::PARTNER_API_KEY)
            .env("TXC_API_SECRET", demo::PARTNER_API_SECRET)
            // Each retry 50 ms apart instead of the backoff from 1 s.
            .line("--test-backoff 50 orders --base-url http://127.0.0.1:1"),
        5,
    );
    assert!(err.contains("server: http://127.0.0.1:1"), "{err}");
    assert!(
        err.contains("key from TXC_API_KEY, secret from TXC_API_SECRET"),
        "{err}"
    );
    // A profile: named, with its file; in JSON as fields of their own.
    let sandbox = Sandbox::start().unwrap();
    let dir = scratch();
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[profiles.ops]\nbase_url = \"{}\"\napi_key = \"{}\"\napi_secret = \"{}\"\n",
            sandbox.base_url(),
            demo::REGULAR_API_KEY,
            demo::REGULAR_API_SECRET
        ),
    )
    .unwrap();
    chmod(&config, 0o600);
    let error = fails(
        txc()
            .arg("--config")
            .arg(&config)
            .line("--json --profile ops plans"),
        3,
    );
    assert_eq!(error["server"], sandbox.base_url());
    let credentials = error["credentials"].as_str().unwrap();
    assert!(
        credentials.starts_with("profile \"ops\" of ") && credentials.ends_with("config.toml"),
        "{credentials}"
    );
    no_secret(&error.to_string());
}

#[test]
fn the_resolve_hint_and_pending_work_as_printed_without_the_variables() {
    let sandbox = Sandbox::start().unwrap();
    let state = scratch();
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let error = fails(
        txc_journaled(&sandbox, &state).line("--json market BTC_USDT buy 0.01"),
        4,
    );
    let check = error["check"].as_str().unwrap();
    assert!(
        check.contains(&format!("--base-url {}", sandbox.base_url())),
        "{check}"
    );
    assert!(check.contains("--state-dir"), "{check}");

    // `txc pending` lists it the same way, in camelCase.
    let listed = ok(txc_journaled(&sandbox, &state).line("--json pending"));
    let entry = &listed[0];
    assert_eq!(entry["baseUrl"], sandbox.base_url());
    assert!(entry["clientOrderId"].is_string(), "{entry}");
    assert!(entry.get("client_order_id").is_none(), "{entry}");
    let resolve = entry["resolve"].as_str().unwrap();
    assert!(
        resolve.contains(&format!("--base-url {}", sandbox.base_url())),
        "{resolve}"
    );

    // Run as printed by a shell without TXC_BASE_URL or TXC_STATE_DIR: only the key's
    // variables (the secret is never a flag).
    let resolved = ok(txc()
        .env("TXC_API_KEY", demo::PARTNER_API_KEY)
        .env("TXC_API_SECRET", demo::PARTNER_API_SECRET)
        .line("--json --unproven-settle-delay 100")
        .line(check.strip_prefix("txc ").unwrap()));
    assert_eq!(resolved["placed"], true, "{resolved}");
    // Resolved: the journal no longer lists it.
    let listed = ok(txc_journaled(&sandbox, &state).line("--json pending"));
    assert_eq!(listed, serde_json::json!([]));
    let (out, _) = run(txc_journaled(&sandbox, &state).line("pending"), 0);
    assert!(out.starts_with("no orders"), "{out}");
}

#[test]
fn progress_goes_to_standard_error_only_and_quiet_silences_it() {
    let sandbox = Sandbox::start().unwrap();
    let line = format!("--json resolve BTC_USDT never-sent --nonce {}", now_ms());
    let (out, err) = run(txc_at(&sandbox).line(&line), 0);
    // Standard output: the one document and nothing else.
    assert_eq!(json(&out)["result"]["placed"], false);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(err.lines().count() >= 2, "one line a stage: {err}");
    assert!(err.lines().all(|l| l.starts_with("resolving ")), "{err}");

    let line = format!(
        "--quiet --json resolve BTC_USDT never-sent-2 --nonce {}",
        now_ms()
    );
    let (out, err) = run(txc_at(&sandbox).line(&line), 0);
    assert_eq!(json(&out)["result"]["placed"], false);
    assert_eq!(err, "", "--quiet");
}

#[test]
fn tables_show_rfc3339_utc_times_and_json_the_raw_ones() {
    let sandbox = Sandbox::start().unwrap();
    let (out, _) = run(txc_at(&sandbox).arg("time"), 0);
    assert!(is_rfc3339_utc(out.trim_end()), "{out}");
    let time = ok(txc_at(&sandbox).line("--json time"));
    assert!(time["time"].is_u64(), "{time}");

    run(
        txc_at(&sandbox).line("market BTC_USDT buy 0.01 --client-order-id cli-t1"),
        0,
    );
    let (out, _) = run(
        txc_at(&sandbox).line("history --market BTC_USDT --client-order-id cli-t1"),
        0,
    );
    let row = out.lines().nth(1).unwrap();
    assert!(
        row.split_whitespace().any(is_rfc3339_utc),
        "a time column: {out}"
    );
    let history = ok(txc_at(&sandbox).line("--json history --client-order-id cli-t1"));
    let ftime = &history["BTC_USDT"][0]["ftime"];
    assert!(ftime.is_number() || ftime.is_string(), "{history}");
    assert!(
        !is_rfc3339_utc(&ftime.to_string().replace('"', "")),
        "raw in JSON"
    );
}

#[test]
fn every_document_s_keys_are_camel_case() {
    fn snake_keys(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(fields) => {
                for (key, value) in fields {
                    let field_name = key.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                    if field_name && key.contains('_') {
                        found.push(key.clone());
                    }
                    snake_keys(value, found);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| snake_keys(v, found)),
            _ => {}
        }
    }
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::ResetMidBody, Some(1));
    let documents = [
        json(&run(txc_at(&sandbox).line("--json market BTC_USDT buy 0.01"), 4).0),
        json(&run(txc_at(&sandbox).line("--json market BTC_USDT buy 0.01"), 0).0),
        json(&run(txc_at(&sandbox).line("--json orders"), 0).0),
        json(&run(txc_at(&sandbox).line("--json history"), 0).0),
        json(&run(txc_at(&sandbox).line("--json plans"), 0).0),
        json(&run(txc().line("--json nope"), 2).0),
    ];
    for document in documents {
        let mut found = Vec::new();
        snake_keys(&document, &mut found);
        assert!(found.is_empty(), "{found:?} in {document}");
    }
}

/// `txc --json sandbox`'s one document (its first line) is camelCase too, and usable as is.
#[test]
fn the_sandbox_s_json_document_is_camel_case() {
    let mut child = txc_process()
        .line("--json sandbox --port 0")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let result = json(&first)["result"].clone();
    assert!(
        result["baseUrl"]
            .as_str()
            .unwrap()
            .starts_with("http://127.0.0.1:")
    );
    assert_eq!(result["apiKey"], demo::PARTNER_API_KEY);
    assert!(result.get("base_url").is_none(), "{result}");
}

/// Commands that talk to no exchange offer only the global options that apply there.
#[test]
fn help_offers_only_the_options_that_apply() {
    let (out, _) = run(txc().line("sandbox --help"), 0);
    assert!(out.contains("--json") && out.contains("--port"), "{out}");
    assert!(
        !out.contains("--base-url") && !out.contains("--settle-delay"),
        "{out}"
    );
    let (out, _) = run(txc().line("market --help"), 0);
    let (own, global) = out.split_once("Global options:").unwrap();
    assert!(
        own.contains("--stop-loss") && !own.contains("--base-url"),
        "{own}"
    );
    assert!(
        global.contains("--base-url") && global.contains("--quiet"),
        "{global}"
    );
    // Hidden from help, still accepted where it means nothing harmful.
    run(txc().line("completions bash --quiet"), 0);
}

#[test]
fn config_path_and_init_write_a_private_template_that_works() {
    let sandbox = Sandbox::start().unwrap();
    let home = scratch();
    let at_home = || {
        let mut command = txc();
        command
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"));
        command
    };
    let expected = home.join(".config").join("txc").join("config.toml");
    let (out, _) = run(at_home().line("config path"), 0);
    assert_eq!(out.trim_end(), expected.display().to_string());
    assert!(!expected.exists(), "path writes nothing");

    let written = ok(at_home().line("--json config init"));
    assert_eq!(written["written"], true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&expected).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Never over an existing file.
    let (_, err) = run(at_home().line("config init"), 2);
    assert!(err.contains("exists"), "{err}");

    // The template parses as it is, and filled in, it is used.
    run(
        at_home()
            .arg("time")
            .arg("--base-url")
            .arg(sandbox.base_url()),
        0,
    );
    let template = std::fs::read_to_string(&expected).unwrap();
    let filled = template
        .replace(
            "# base_url = \"https://whitebit.com\"",
            &format!("base_url = \"{}\"", sandbox.base_url()),
        )
        .replace(
            "# api_key = \"your API key\"",
            &format!("api_key = \"{}\"", demo::PARTNER_API_KEY),
        )
        .replace(
            "# api_secret = \"your API secret\"",
            &format!("api_secret = \"{}\"", demo::PARTNER_API_SECRET),
        );
    std::fs::write(&expected, filled).unwrap();
    let plans = ok(at_home().line("--json plans"));
    assert!(!plans.as_array().unwrap().is_empty());
    let (out, _) = run(at_home().line("config --help"), 0);
    assert!(out.contains("chmod 600"), "{out}");
}

#[test]
fn the_man_page_is_roff_for_every_command() {
    let (out, _) = run(txc().arg("man"), 0);
    assert!(out.starts_with(".ie") || out.contains(".TH txc"), "{out}");
    assert!(out.contains("market") && out.contains("config"), "{out}");
}

#[test]
fn order_options_are_offered_only_where_orders_are_placed() {
    for (line, offered) in [
        ("limit --help", true),
        ("market --help", true),
        ("modify --help", true),
        ("orders --help", false),
        ("flex invest --help", false),
        ("pnl --help", false),
    ] {
        let (out, _) = run(txc().line(line), 0);
        assert_eq!(out.contains("--market-rules"), offered, "{line}:\n{out}");
    }
}

//! `txc watch`'s new channels (issue 41), as a user runs it against the embedded sandbox: the
//! premium index (public: mark, index, funding) and the account's ADL quantiles (private),
//! chosen by `--premium-index[=PERP]` and `--adl[=PERP]`, as lines and as JSON documents.

use super::*;

/// Runs `txc watch` with `args` until `done` says the lines read so far are enough: every
/// line of standard output read (the connection's progress is on standard error).
fn watch_until(sandbox: &Sandbox, args: &str, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    let mut child = txc_process_at(sandbox, 100)
        .line(&format!("watch {args}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut seen = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        seen.push(line.unwrap());
        if done(&seen) {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    seen
}

/// The `update` documents of `channel` among JSON `lines`.
fn updates<'a>(lines: &'a [Value], channel: &str) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|doc| doc["event"]["update"]["channel"] == channel)
        .map(|doc| &doc["event"]["update"]["update"])
        .collect()
}

#[test]
fn watch_shows_the_premium_index_and_the_adl_quantiles_as_json() {
    let sandbox = Sandbox::start().unwrap();
    // A position on the perpetual market, for its ADL quantile.
    run(txc_at(&sandbox).line("market BTC_PERP buy 0.01"), 0);
    let parsed = |lines: &[String]| -> Vec<Value> {
        lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let lines = watch_until(
        &sandbox,
        "BTC_PERP --adl --premium-index=BTC_PERP --json",
        |lines| {
            let docs = parsed(lines);
            !updates(&docs, "ADLQuantile").is_empty() && !updates(&docs, "premiumIndex").is_empty()
        },
    );
    let docs = parsed(&lines);
    assert!(docs.iter().all(|d| d["command"] == "watch"), "{lines:?}");
    let adl = updates(&docs, "ADLQuantile")[0];
    let record = &adl["records"][0];
    assert_eq!(record["market"], "BTC_PERP", "{adl}");
    assert!(
        record["long"].is_u64(),
        "a long position has a long quantile: {adl}"
    );
    let premium = updates(&docs, "premiumIndex")[0];
    let record = &premium["records"][0];
    assert_eq!(record["market"], "BTC_PERP", "{premium}");
    // camelCase keys, each present.
    for key in ["markPrice", "indexPrice", "fundingRate", "nextFunding"] {
        assert!(record.get(key).is_some(), "{key} in {premium}");
    }
    assert_eq!(
        record["markPrice"], "65000",
        "the sandbox's price: {premium}"
    );
    assert!(record.get("mark_price").is_none(), "{premium}");
}

#[test]
fn watch_prints_the_new_channels_as_lines() {
    let sandbox = Sandbox::start().unwrap();
    run(txc_at(&sandbox).line("market BTC_PERP sell 0.01"), 0);
    let lines = watch_until(
        &sandbox,
        "BTC_PERP --premium-index --adl=BTC_PERP",
        |lines| {
            lines.iter().any(|l| l.starts_with("premium index"))
                && lines.iter().any(|l| l.starts_with("  BTC_PERP long"))
        },
    );
    let premium = lines
        .iter()
        .find(|l| l.starts_with("premium index BTC_PERP"))
        .unwrap();
    for part in ["mark 65000", "index ", "funding rate ", "next funding "] {
        assert!(premium.contains(part), "{part} in {premium}");
    }
    let adl = lines
        .iter()
        .find(|l| l.starts_with("  BTC_PERP long"))
        .unwrap();
    assert!(adl.contains("long - short "), "a short only: {adl}");
    assert!(
        lines.iter().any(|l| l.starts_with("adl quantiles 1")),
        "{lines:?}"
    );
}

#[test]
fn watch_refuses_a_non_perpetual_market_for_the_new_channels_before_connecting() {
    let sandbox = Sandbox::start().unwrap();
    for args in [
        "BTC_USDT --adl=BTC_USDT",
        "BTC_USDT --premium-index=ETH_USDT",
    ] {
        let error = fails(txc_at(&sandbox).line(&format!("--json watch {args}")), 2);
        assert!(
            error["message"].as_str().unwrap().contains("PERP"),
            "{args}: {error}"
        );
    }
    assert_eq!(sandbox.ws_connections(), 0);
}

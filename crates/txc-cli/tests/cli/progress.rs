//! Issue 39's progress while `txc` waits, as a user sees it: the rate limiter's waits and
//! `watch`'s disconnects and reconnects, on standard error only, silenced by `--quiet`.

use std::io::Read as _;
use std::sync::mpsc;
use std::time::Duration;

use txc_sandbox::WsFault;

use super::*;

/// `--max-rate 1`: `invest` reads the plans, then invests in the same rate-limit scope (the
/// main account's), one request a second — the wait is told on standard error, and standard
/// output keeps its one document.
#[test]
fn rate_limit_waits_are_told_on_standard_error_and_quiet_silences_them() {
    let sandbox = Sandbox::start().unwrap();
    let line = format!("--json --max-rate 1 invest {PLAN} 250");
    let (out, err) = run(txc_at(&sandbox).line(&line), 0);
    assert!(json(&out)["result"]["id"].is_string(), "{out}");
    let waits: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("waiting ") && l.contains(" ms for the rate limit ("))
        .collect();
    assert!(!waits.is_empty(), "the invest waited for a slot: {err}");
    assert!(waits[0].contains("(invest: 1 request per 1 s"), "{err}");
    assert!(!out.contains("waiting"), "{out}");

    let line = format!("--quiet --json --max-rate 1 invest {PLAN} 300");
    let (out, err) = run(txc_at(&sandbox).line(&line), 0);
    assert!(json(&out)["result"]["id"].is_string(), "{out}");
    assert_eq!(err, "", "--quiet");

    // Without a cap, the documented limits leave these few requests unpaced: nothing told.
    let (_, err) = run(
        txc_at(&sandbox).line(&format!("--json invest {PLAN} 350")),
        0,
    );
    assert!(!err.contains("rate limit"), "{err}");
    // A cap of zero is refused before anything is sent.
    run(txc_at(&sandbox).line("--max-rate 0 orders"), 2);
}

/// Lines a stream yields, sent to a channel by a thread of their own (so that a test waits
/// for a line with a timeout, never forever).
fn lines_of(stream: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// The lines up to and including the first that `wanted` accepts.
fn until(lines: &mpsc::Receiver<String>, wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let done = wanted(&line);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(_) => panic!("no such line; saw: {seen:#?}"),
        }
    }
}

/// `watch`, the connection dropped by the exchange: the disconnect, the reconnection and
/// its resync are told on standard error — with and without `--json` — and standard output
/// has only the account's events (with `--json`, the events' documents).
#[test]
fn watch_reports_disconnects_and_reconnects_on_standard_error() {
    for json_mode in [false, true] {
        let sandbox = Sandbox::start().unwrap();
        let mut command = txc_process_at(&sandbox, 100);
        // Reconnects 50 ms after the drop instead of the backoff from 1 s, its second token
        // not paced by the documented 10 a minute.
        command.line("--test-backoff 50 --test-token-limit 6000");
        if json_mode {
            command.arg("--json");
        }
        let mut child = command
            .line("watch BTC_USDT")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let stderr = lines_of(child.stderr.take().unwrap());
        until(&stderr, |l| l.starts_with("resynced connection 1"));
        sandbox.ws_fault(WsFault::Drop);
        let after = until(&stderr, |l| l.starts_with("resynced connection 2"));
        assert!(
            after
                .iter()
                .any(|l| l.starts_with("disconnected (connection 1)")
                    && l.contains("reconnecting in")),
            "{after:#?}"
        );
        assert!(
            after
                .iter()
                .any(|l| l.starts_with("connected (connection 2)")),
            "{after:#?}"
        );
        child.kill().unwrap();
        child.wait().unwrap();
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        for line in out.lines() {
            if json_mode {
                let document: Value = serde_json::from_str(line).unwrap();
                assert_eq!(document["command"], "watch", "{line}");
            } else {
                assert!(
                    !line.starts_with("disconnected") && !line.starts_with("connected"),
                    "progress on standard output: {out}"
                );
            }
        }
    }
}

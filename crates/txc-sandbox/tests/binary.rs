//! The `txc-sandbox` binary: `--help`, flag errors, and serving with the demo credentials.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};

use common::*;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_txc-sandbox"))
}

#[test]
fn help_documents_every_flag() {
    let output = binary().arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for flag in [
        "--port",
        "--host",
        "--price",
        "--order-rate-limit",
        "--plans-rate-limit",
        "--lookup-rate-limit",
        "--cancel-rate-limit",
        "--max-body-bytes",
        "--help",
        "--version",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
    let short = binary().arg("-h").output().unwrap();
    assert_eq!(String::from_utf8(short.stdout).unwrap(), help);

    let version = binary().arg("--version").output().unwrap();
    assert!(
        String::from_utf8(version.stdout)
            .unwrap()
            .starts_with("txc-sandbox ")
    );
}

#[test]
fn bad_flags_exit_with_2() {
    for args in [
        &["--bogus"][..],
        &["--port"],
        &["--port", "http"],
        &["--host", "localhost"],
        &["--price", "BTC_USDT"],
        &["--lookup-rate-limit", "many"],
        &["--cancel-rate-limit"],
    ] {
        let output = binary().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8(output.stderr)
                .unwrap()
                .starts_with("error: ")
        );
    }
    // A price for an unknown market fails at start.
    let output = binary()
        .args(["--port", "0", "--price", "NOPE_USDT=1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn serves_with_the_demo_credentials() {
    let mut child = binary()
        .args([
            "--port=0",
            "--price",
            "BTC_USDT=64000",
            "--order-rate-limit",
            "100",
            "--lookup-rate-limit=1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first
        .strip_prefix("txc-sandbox listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
        .to_owned();
    let mut printed = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        printed.push_str(&line);
        printed.push('\n');
        if line.starts_with("press Ctrl-C") {
            break;
        }
    }
    assert!(printed.contains(txc_sandbox::demo::PARTNER_API_KEY));
    assert!(printed.contains(txc_sandbox::demo::PARTNER_API_SECRET));
    // The demo flex plans, listed.
    for plan in [
        txc_sandbox::demo::FLEX_USDT_PLAN,
        txc_sandbox::demo::FLEX_BTC_PLAN,
        txc_sandbox::demo::FLEX_PAUSED_PLAN,
        txc_sandbox::demo::FLEX_PARTNER_PLAN,
    ] {
        assert!(printed.contains(plan), "{plan} missing from\n{printed}");
    }
    assert!(
        printed.contains("USDT 10.0–100000.0, 0.15 a year, active"),
        "{printed}"
    );

    let order = body(MARKET_PATH, &fields("BTC_USDT", "buy", "0.01"));
    let mut request = http::Request::post(format!("{url}{MARKET_PATH}"));
    for (name, value) in sign_headers(PARTNER, order.as_bytes()) {
        request = request.header(name, value);
    }
    let reply = run(request.body(order.into_bytes()).unwrap());
    // One look-up per 10 s, as the flag says.
    let lookup = |_| {
        let body = body(OPEN_ORDERS_PATH, "");
        let mut request = http::Request::post(format!("{url}{OPEN_ORDERS_PATH}"));
        for (name, value) in sign_headers(PARTNER, body.as_bytes()) {
            request = request.header(name, value);
        }
        run(request.body(body.into_bytes()).unwrap()).status
    };
    let lookups: Vec<u16> = (0..2).map(lookup).collect();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["dealMoney"], "640");
    assert_eq!(lookups, [200, 429]);
}

//! `cargo xtask deps`: dependency counts of the published crates, the policy that keeps the
//! core crates free of async runtimes and HTTP stacks, and the fresh projects' counts per
//! transport feature set against their targets (`budgets`).

use std::collections::BTreeSet;

use anyhow::ensure;
use xshell::{Shell, cmd};

use crate::{metadata, published};

/// The packages a crate must not depend on, directly or transitively.
fn forbidden_for(krate: &str) -> &'static str {
    match krate {
        // The sans-IO core never awaits, sleeps or parks a thread: no futures or timer crates
        // either (a limiter with its default features brought them in once).
        "txc-types" | "txc-sign" | "txc-core" => {
            "tokio async-std smol hyper reqwest ureq h2 axum futures-util futures-timer parking_lot"
        }
        "txc-blocking" => "tokio reqwest hyper",
        _ => "",
    }
}

/// The policy violations of `krate` given the names of everything it pulls in, sorted and
/// deduplicated (empty: compliant).
pub(crate) fn policy_violations<'a>(
    krate: &str,
    deps: impl Iterator<Item = &'a str>,
) -> Vec<String> {
    let found: BTreeSet<&str> = deps
        .filter(|d| forbidden_for(krate).split(' ').any(|f| f == *d))
        .collect();
    found
        .iter()
        .map(|d| format!("{krate} must not depend on {d}"))
        .collect()
}

/// The distinct `(name, version)` packages in `cargo tree --prefix none` output, without the
/// root (first line).
pub(crate) fn parse_tree(output: &str) -> BTreeSet<(&str, &str)> {
    let packages = output.lines().skip(1).filter_map(|l| {
        let mut words = l.split_whitespace();
        Some((words.next()?, words.next()?.trim_start_matches('v')))
    });
    packages.collect()
}

pub(crate) fn run(sh: &Shell) -> anyhow::Result<()> {
    let meta = metadata(sh)?;
    let mut violations = Vec::new();
    println!("crate            deps  all-features*  (distinct packages over normal edges)");
    for p in published(&meta) {
        let name = p.name.as_str();
        let tree = cmd!(sh, "cargo tree --quiet -p {name} -e normal --prefix none").quiet();
        let default = tree.read()?;
        // The policy also holds with every feature on and for every target, so no optional
        // feature or platform can sneak a runtime in.
        let widest = tree.args(["--all-features", "--target", "all"]).read()?;
        let (default, widest) = (parse_tree(&default), parse_tree(&widest));
        println!("{name:<14} {:>6} {:>14}", default.len(), widest.len());
        let names = default.iter().chain(&widest).map(|d| d.0);
        violations.extend(policy_violations(name, names));
    }
    println!("* with --all-features --target all");
    for v in &violations {
        println!("error: {v}");
    }
    let n = violations.len();
    ensure!(n == 0, "check failed: {n} dependency policy violation(s)");
    println!(
        "policy: ok (txc-types/txc-sign/txc-core: no async runtime, futures, timers or HTTP stack; txc-blocking: no tokio/hyper/reqwest)"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violations(krate: &str, deps: &str) -> Vec<String> {
        policy_violations(krate, deps.split(' '))
    }

    #[test]
    fn policy() {
        assert_eq!(
            violations("txc-sign", "serde tokio hyper tokio hmac"),
            [
                "txc-sign must not depend on hyper",
                "txc-sign must not depend on tokio"
            ]
        );
        assert_eq!(
            violations("txc-sign", "futures-util parking_lot"),
            [
                "txc-sign must not depend on futures-util",
                "txc-sign must not depend on parking_lot"
            ]
        );
        assert_eq!(
            violations("txc-types", "ureq"),
            ["txc-types must not depend on ureq"]
        );
        assert!(violations("txc-types", "serde tokio-macros-ish http").is_empty());
        assert!(violations("txc-blocking", "ureq rustls http").is_empty());
        assert_eq!(
            violations("txc-blocking", "reqwest"),
            ["txc-blocking must not depend on reqwest"]
        );
        assert!(violations("txc-async", "tokio reqwest hyper axum").is_empty());
    }

    #[test]
    fn parses_cargo_tree_output() {
        let out = "txc-sign v0.1.0 (/w/crates/txc-sign)\nbase64 v0.22.1\ndigest v0.11.0\nserde_derive v1.0.219 (proc-macro)\ndigest v0.11.0 (*)\n\n";
        let parsed: Vec<String> = parse_tree(out)
            .iter()
            .map(|(n, v)| format!("{n}@{v}"))
            .collect();
        assert_eq!(
            parsed,
            ["base64@0.22.1", "digest@0.11.0", "serde_derive@1.0.219"]
        );
    }
}

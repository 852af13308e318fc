//! `cargo xtask deps`: dependency counts of the published crates and the
//! policy that keeps the core crates free of async runtimes and HTTP stacks.

use std::collections::BTreeSet;

use crate::cmd::Cmd;
use crate::error::XtaskError;
use crate::metadata::Metadata;

/// Async runtimes and HTTP stacks.
const ASYNC_OR_HTTP: &[&str] = &[
    "tokio",
    "async-std",
    "smol",
    "hyper",
    "reqwest",
    "ureq",
    "h2",
    "axum",
];

/// What the blocking transport must not pull in.
const NOT_IN_BLOCKING: &[&str] = &["tokio", "reqwest", "hyper"];

/// The packages a crate must not depend on, directly or transitively.
pub(crate) fn forbidden_for(krate: &str) -> &'static [&'static str] {
    match krate {
        "txc-types" | "txc-sign" => ASYNC_OR_HTTP,
        "txc-blocking" => NOT_IN_BLOCKING,
        _ => &[],
    }
}

/// The policy violations of `krate` given the names of everything it pulls
/// in, sorted and deduplicated (empty: compliant).
pub(crate) fn policy_violations(krate: &str, deps: &[String]) -> Vec<String> {
    let forbidden = forbidden_for(krate);
    let found: BTreeSet<&str> = deps
        .iter()
        .map(String::as_str)
        .filter(|d| forbidden.contains(d))
        .collect();
    found
        .into_iter()
        .map(|d| format!("{krate} must not depend on {d}"))
        .collect()
}

/// The distinct `(name, version)` packages in the output of
/// `cargo tree -p <crate> --prefix none`, without the root (first line).
pub(crate) fn parse_tree(output: &str) -> BTreeSet<(String, String)> {
    output
        .lines()
        .filter(|l| !l.trim().is_empty())
        .skip(1)
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?;
            let version = words.next()?;
            Some((name.to_owned(), version.trim_start_matches('v').to_owned()))
        })
        .collect()
}

/// Packages reachable from `krate` over normal edges.
fn tree(krate: &str, extra: &[&str]) -> Result<BTreeSet<(String, String)>, XtaskError> {
    let out = Cmd::cargo()
        .args([
            "tree", "--quiet", "-p", krate, "-e", "normal", "--prefix", "none",
        ])
        .args(extra.iter().copied())
        .read()?;
    Ok(parse_tree(&out))
}

/// Runs `deps`: prints the counts and fails on policy violations.
pub(crate) fn run(args: &[String]) -> Result<(), XtaskError> {
    if !args.is_empty() {
        return Err(XtaskError::Usage("cargo xtask deps (no arguments)".into()));
    }
    let meta = Metadata::load()?;
    let mut violations = Vec::new();
    println!(
        "{:<14} {:>6} {:>14}  (distinct packages over normal edges)",
        "crate", "deps", "all-features*"
    );
    for p in meta.published() {
        let default = tree(&p.name, &[])?;
        // The policy is also checked with every feature on and for every
        // target, so no optional feature or platform can sneak a runtime in.
        let widest = tree(&p.name, &["--all-features", "--target", "all"])?;
        println!("{:<14} {:>6} {:>14}", p.name, default.len(), widest.len());
        let names: Vec<String> = default
            .iter()
            .chain(widest.iter())
            .map(|(name, _)| name.clone())
            .collect();
        violations.extend(policy_violations(&p.name, &names));
    }
    println!("* with --all-features --target all");
    if violations.is_empty() {
        println!(
            "policy: ok (txc-types/txc-sign: no async runtime or HTTP stack; txc-blocking: no tokio/hyper/reqwest)"
        );
        Ok(())
    } else {
        for v in &violations {
            println!("error: {v}");
        }
        Err(XtaskError::Check(format!(
            "{} dependency policy violation(s)",
            violations.len()
        )))
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn core_crates_reject_runtimes_and_http() {
        let deps = names(&["serde", "tokio", "hyper", "tokio", "hmac"]);
        assert_eq!(
            policy_violations("txc-sign", &deps),
            [
                "txc-sign must not depend on hyper",
                "txc-sign must not depend on tokio"
            ]
        );
        assert_eq!(
            policy_violations("txc-types", &names(&["ureq"])),
            ["txc-types must not depend on ureq"]
        );
        assert!(
            policy_violations("txc-types", &names(&["serde", "tokio-macros-ish", "http"]))
                .is_empty()
        );
    }

    #[test]
    fn blocking_may_use_ureq_but_not_tokio() {
        assert!(policy_violations("txc-blocking", &names(&["ureq", "rustls", "http"])).is_empty());
        assert_eq!(
            policy_violations("txc-blocking", &names(&["ureq", "reqwest"])),
            ["txc-blocking must not depend on reqwest"]
        );
    }

    #[test]
    fn async_crates_are_unrestricted() {
        let deps = names(&["tokio", "reqwest", "hyper", "axum"]);
        assert!(policy_violations("txc-async", &deps).is_empty());
        assert!(policy_violations("txc-sandbox", &deps).is_empty());
    }

    #[test]
    fn parses_cargo_tree_output() {
        let out = "txc-sign v0.1.0 (/w/crates/txc-sign)\nbase64 v0.22.1\nhmac v0.13.0\ndigest v0.11.0\nserde v1.0.219\nserde_derive v1.0.219 (proc-macro)\ndigest v0.11.0 (*)\n\n";
        let parsed: Vec<String> = parse_tree(out)
            .into_iter()
            .map(|(n, v)| format!("{n}@{v}"))
            .collect();
        assert_eq!(
            parsed,
            [
                "base64@0.22.1",
                "digest@0.11.0",
                "hmac@0.13.0",
                "serde@1.0.219",
                "serde_derive@1.0.219"
            ]
        );
    }
}

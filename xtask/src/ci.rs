//! `cargo xtask ci [job...]`: exactly what CI runs, one job after the other, with a summary.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context as _, ensure};
use clap::ValueEnum;
use xshell::{Shell, cmd};

use crate::{budgets, has_cargo_tool, metadata, msrv, published};

/// The crates whose feature combinations the `features` job checks.
const FEATURE_CRATES: [&str; 6] = [
    "txc-types",
    "txc-sign",
    "txc-core",
    "txc-blocking",
    "txc-async",
    "txc-cli",
];

/// One CI job; `cargo xtask ci` without a job runs all but `deny` and `budgets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Job {
    /// cargo fmt --all --check
    Fmt,
    /// cargo clippy --workspace --all-targets --all-features -- -D warnings
    Clippy,
    /// cargo test --workspace
    Test,
    /// cargo doc --no-deps with all features (the workspace, as docs.rs builds it) and with
    /// the default features (each published crate alone), warnings (broken links) denied
    Doc,
    /// The rust-version of the published crates' dependencies and its inheritance by members
    Msrv,
    /// cargo check of each feature of txc-types, txc-sign, txc-core, txc-blocking, txc-async
    /// and txc-cli (cargo hack), and the crate counts of the transports' feature sets against
    /// their targets (counted, not built: see budgets)
    Features,
    /// cargo publish --workspace --dry-run, without compiling (`release` compiles)
    Package,
    /// The cargo-fuzz targets in fuzz/ still format and compile
    Fuzz,
    /// cargo deny check, skipped when cargo-deny is not installed
    Deny,
    /// A fresh project per feature set of the transports (each TLS choice, REST only, and the
    /// defaults): built, its crates counted, failing over a target (not in the default jobs:
    /// it compiles ten dependency graphs)
    Budgets,
}

/// The jobs to run for the jobs named on the command line.
pub(crate) fn selected(named: &[Job]) -> Vec<Job> {
    match named {
        [] => Job::value_variants()
            .iter()
            .copied()
            .filter(|j| !matches!(j, Job::Deny | Job::Budgets))
            .collect(),
        _ => named.to_vec(),
    }
}

/// Runs the jobs in order, stopping at the first failure; prints a summary either way, with
/// the test totals as its closing line.
pub(crate) fn run(sh: &Shell, named: &[Job]) -> anyhow::Result<()> {
    let jobs = selected(named);
    let mut tests = None;
    let mut summary = String::from("==> ci summary");
    for (i, &job) in jobs.iter().enumerate() {
        println!("==> [{}/{}] ci {}", i + 1, jobs.len(), name(job));
        let start = Instant::now();
        let result = run_job(sh, job, &mut tests);
        let mark = if result.is_ok() { "ok" } else { "FAILED" };
        let took = start.elapsed().as_secs_f64();
        summary.push_str(&format!("\n  {mark:<6}  {:<9} {took:>7.1}s", name(job)));
        if result.is_err() || i + 1 == jobs.len() {
            println!("{summary}");
            if let Some(t) = tests {
                println!("{}", summary_line(t));
            }
        }
        result?;
    }
    Ok(())
}

/// The job's name on the command line.
fn name(job: Job) -> String {
    format!("{job:?}").to_lowercase()
}

fn run_job(sh: &Shell, job: Job, tests: &mut Option<TestCounts>) -> anyhow::Result<()> {
    match job {
        Job::Fmt => cmd!(sh, "cargo fmt --all --check").run()?,
        // Warnings are always denied here, whether or not CI=true.
        Job::Clippy => cmd!(sh, "cargo clippy --workspace --all-targets --all-features")
            .args(["--", "-D", "warnings"])
            .run()?,
        Job::Test => test(sh, tests.insert([0; 3]))?,
        Job::Doc => docs(sh)?,
        Job::Msrv => msrv::run(sh)?,
        Job::Features => features(sh)?,
        // Publishable crates only (`cargo package --workspace` would take xtask and examples
        // too), against a local overlay of the workspace's unpublished ones.
        Job::Package => cmd!(
            sh,
            "cargo publish --workspace --dry-run --no-verify --allow-dirty"
        )
        .run()?,
        Job::Fuzz => {
            let manifest = "fuzz/Cargo.toml";
            cmd!(sh, "cargo fmt --manifest-path {manifest} --check").run()?;
            cmd!(sh, "cargo check --quiet --manifest-path {manifest} --bins").run()?;
        }
        Job::Deny if has_cargo_tool(sh, "deny") => cmd!(sh, "cargo deny check").run()?,
        Job::Deny => println!(
            "cargo-deny is not installed: deny skipped (cargo install --locked cargo-deny)"
        ),
        Job::Budgets => budgets::run(sh, true)?,
    }
    Ok(())
}

/// The docs with every feature (what docs.rs builds, per the crates' `package.metadata.docs.rs`)
/// and with each published crate's default features (what `cargo doc` builds for a user),
/// warnings denied: a link to an item that only exists with a feature breaks the second.
fn docs(sh: &Shell) -> anyhow::Result<()> {
    let _deny = sh.push_env("RUSTDOCFLAGS", "-D warnings");
    cmd!(sh, "cargo doc --workspace --no-deps --all-features").run()?;
    // One crate at a time: built together, crates unify their features (every feature of
    // every member at once), and a default build would see items it does not have.
    for package in published(&metadata(sh)?) {
        let name = package.name.as_str();
        cmd!(sh, "cargo doc --no-deps --package {name}").run()?;
    }
    Ok(())
}

/// `cargo test --workspace`, its output echoed line by line and its `test result:` lines
/// counted (the counts are kept when tests fail).
fn test(sh: &Shell, counts: &mut TestCounts) -> anyhow::Result<()> {
    println!("$ cargo test --workspace");
    let mut child = Command::new("cargo")
        .args(["test", "--workspace"])
        .current_dir(sh.current_dir())
        .stdout(Stdio::piped())
        .spawn()
        .context("could not run `cargo test`")?;
    for line in BufReader::new(child.stdout.take().context("no stdout")?).lines() {
        let line = line.context("reading `cargo test` output")?;
        println!("{line}");
        add_line(counts, &line);
    }
    let status = child.wait()?;
    ensure!(status.success(), "`cargo test` failed ({status})");
    Ok(())
}

/// Totals of the `test result:` lines of `cargo test`: passed, failed, ignored.
type TestCounts = [u64; 3];

/// Adds the counts of a line such as `test result: ok. 5 passed; 0 failed; 1 ignored; ...`.
fn add_line(counts: &mut TestCounts, line: &str) {
    let Some(rest) = line.trim().strip_prefix("test result: ") else {
        return;
    };
    for part in rest.split(['.', ';']) {
        if let [n, what] = part.split_whitespace().collect::<Vec<_>>().as_slice()
            && let Some(i) = ["passed", "failed", "ignored"]
                .iter()
                .position(|w| w == what)
            && let Some(count) = counts.get_mut(i)
        {
            *count += n.parse::<u64>().unwrap_or(0);
        }
    }
}

/// The closing line: `tests: N passed, N failed[, N skipped]`.
fn summary_line([passed, failed, ignored]: TestCounts) -> String {
    match ignored {
        0 => format!("tests: {passed} passed, {failed} failed"),
        n => format!("tests: {passed} passed, {failed} failed, {n} skipped"),
    }
}

/// `cargo check` of each feature combination: by cargo-hack when installed (CI installs it),
/// else by the same runs in a loop, so a fresh machine needs only the Rust toolchain.
fn features(sh: &Shell) -> anyhow::Result<()> {
    if has_cargo_tool(sh, "hack") {
        let packages = FEATURE_CRATES.iter().flat_map(|c| ["-p", c]);
        cmd!(sh, "cargo hack check --each-feature {packages...}").run()?;
        // What each transport feature set costs a user, counted (the budgets job builds them).
        return budgets::run(sh, false);
    }
    println!(
        "cargo-hack is not installed: the same checks in a loop (cargo install --locked cargo-hack)"
    );
    let meta = metadata(sh)?;
    for krate in FEATURE_CRATES {
        let package = meta.packages.iter().find(|p| p.name.as_str() == krate);
        let package = package.with_context(|| format!("workspace member `{krate}` not found"))?;
        let features: Vec<&str> = package.features.keys().map(String::as_str).collect();
        for args in each_feature(&features) {
            cmd!(sh, "cargo check --quiet -p {krate} {args...}").run()?;
        }
    }
    budgets::run(sh, false)
}

/// What `cargo hack check --each-feature` checks: no features, each feature alone (`default`
/// included), and all features unless `default` is the only one.
pub(crate) fn each_feature<'a>(features: &[&'a str]) -> Vec<Vec<&'a str>> {
    let mut runs = vec![vec!["--no-default-features"]];
    let alone = |f: &&'a str| vec!["--no-default-features", "--features", *f];
    runs.extend(features.iter().map(alone));
    if features.iter().any(|f| *f != "default") {
        runs.push(vec!["--all-features"]);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_jobs() {
        let names = |jobs: Vec<Job>| jobs.into_iter().map(name).collect::<Vec<_>>().join(" ");
        assert_eq!(
            names(selected(&[])),
            "fmt clippy test doc msrv features package fuzz"
        );
        assert_eq!(names(selected(&[Job::Deny, Job::Fmt])), "deny fmt");
        assert_eq!(names(selected(&[Job::Budgets])), "budgets");
        assert_eq!(Job::from_str("features", false), Ok(Job::Features));
        assert!(Job::from_str("lint", false).is_err());
    }

    #[test]
    fn counts_test_results() {
        let mut counts = [0; 3];
        for line in [
            "test a ... ok",
            "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s",
            "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 5 filtered out; finished in 1.20s",
        ] {
            add_line(&mut counts, line);
        }
        assert_eq!(summary_line(counts), "tests: 4 passed, 2 failed, 1 skipped");
        assert_eq!(summary_line([0; 3]), "tests: 0 passed, 0 failed");
    }

    #[test]
    fn feature_runs_mirror_cargo_hack() {
        let runs: Vec<String> = each_feature(&["default", "rustls", "tracing"])
            .iter()
            .map(|r| r.join(" "))
            .collect();
        insta::assert_snapshot!(runs.join("\n"), @r"
        --no-default-features
        --no-default-features --features default
        --no-default-features --features rustls
        --no-default-features --features tracing
        --all-features
        ");
        assert_eq!(each_feature(&["default"]).len(), 2);
        assert_eq!(each_feature(&["default", "rust_decimal"]).len(), 4);
    }
}

//! `cargo xtask ci [job...]`: exactly what CI runs.

use std::time::{Duration, Instant};

use crate::cmd::Cmd;
use crate::error::XtaskError;
use crate::features::combinations;
use crate::metadata::Metadata;
use crate::msrv;

/// The crates whose feature combinations `features` checks.
const FEATURE_CRATES: &[&str] = &["txc-types", "txc-blocking", "txc-async"];

/// One CI job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Job {
    /// `cargo fmt --all --check`.
    Fmt,
    /// `cargo clippy --workspace --all-targets --all-features -- -D warnings`.
    Clippy,
    /// `cargo test --workspace` (the README's test command).
    Test,
    /// `RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features`.
    Doc,
    /// The static MSRV check (see [`msrv`]).
    Msrv,
    /// `cargo check` of each feature combination of the transports and types.
    Features,
    /// `cargo publish --workspace --dry-run --no-verify --allow-dirty`:
    /// packaging of every publishable crate without compiling it (`release`
    /// verifies by compiling).
    Package,
    /// The cargo-fuzz targets in `fuzz/` (their own workspace) still format and compile:
    /// `cargo fmt --check` and `cargo check --bins` on `fuzz/Cargo.toml`. Running them needs
    /// cargo-fuzz (see `fuzz/README.md`).
    Fuzz,
    /// `cargo deny check`, skipped when cargo-deny is not installed.
    Deny,
}

impl Job {
    /// Every job, in order; `cargo xtask ci` without a job runs all but `deny`.
    pub(crate) const ALL: [Self; 9] = [
        Self::Fmt,
        Self::Clippy,
        Self::Test,
        Self::Doc,
        Self::Msrv,
        Self::Features,
        Self::Package,
        Self::Fuzz,
        Self::Deny,
    ];

    /// What `cargo xtask ci` without a job runs.
    pub(crate) const DEFAULT: [Self; 8] = [
        Self::Fmt,
        Self::Clippy,
        Self::Test,
        Self::Doc,
        Self::Msrv,
        Self::Features,
        Self::Package,
        Self::Fuzz,
    ];

    /// The job's name on the command line.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Fmt => "fmt",
            Self::Clippy => "clippy",
            Self::Test => "test",
            Self::Doc => "doc",
            Self::Msrv => "msrv",
            Self::Features => "features",
            Self::Package => "package",
            Self::Fuzz => "fuzz",
            Self::Deny => "deny",
        }
    }

    /// The job called `name`.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|j| j.name() == name)
    }
}

/// Totals from the `test result:` lines of `cargo test`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TestCounts {
    /// Passed tests.
    pub(crate) passed: u64,
    /// Failed tests.
    pub(crate) failed: u64,
    /// Ignored tests.
    pub(crate) ignored: u64,
}

impl TestCounts {
    /// Adds the counts of a libtest summary line such as
    /// `test result: ok. 5 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s`;
    /// other lines are ignored. Returns whether the line was a summary.
    pub(crate) fn add_line(&mut self, line: &str) -> bool {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            return false;
        };
        let rest = rest.split_once(". ").map_or(rest, |(_, r)| r);
        for part in rest.split(';') {
            let mut words = part.split_whitespace();
            let (Some(n), Some(what)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            match what {
                "passed" => self.passed += n,
                "failed" => self.failed += n,
                "ignored" => self.ignored += n,
                _ => {}
            }
        }
        true
    }
}

/// The state carried across jobs.
#[derive(Debug, Default)]
struct Run {
    /// Test totals, once the test job ran.
    tests: Option<TestCounts>,
}

/// Runs `ci` with the arguments after the command name.
pub(crate) fn run(args: &[String]) -> Result<(), XtaskError> {
    let jobs: Vec<Job> = if args.is_empty() {
        Job::DEFAULT.to_vec()
    } else {
        args.iter()
            .map(|a| {
                Job::from_name(a).ok_or_else(|| {
                    let names: Vec<&str> = Job::ALL.iter().map(|j| j.name()).collect();
                    XtaskError::Usage(format!("unknown ci job `{a}`; jobs: {}", names.join(", ")))
                })
            })
            .collect::<Result<_, _>>()?
    };
    let mut state = Run::default();
    let mut done: Vec<(Job, Duration, bool)> = Vec::new();
    let total = jobs.len();
    for (i, job) in jobs.into_iter().enumerate() {
        println!("==> [{}/{total}] ci {}", i + 1, job.name());
        let start = Instant::now();
        let result = run_job(job, &mut state);
        done.push((job, start.elapsed(), result.is_ok()));
        if let Err(e) = result {
            print_summary(&done, &state);
            return Err(e);
        }
    }
    print_summary(&done, &state);
    Ok(())
}

fn print_summary(done: &[(Job, Duration, bool)], state: &Run) {
    println!("==> ci summary");
    for (job, took, ok) in done {
        println!(
            "  {:<6}  {:<9} {:>7.1}s",
            if *ok { "ok" } else { "FAILED" },
            job.name(),
            took.as_secs_f64()
        );
    }
    if let Some(t) = state.tests {
        if t.ignored > 0 {
            println!(
                "tests: {} passed, {} failed, {} skipped",
                t.passed, t.failed, t.ignored
            );
        } else {
            println!("tests: {} passed, {} failed", t.passed, t.failed);
        }
    }
}

fn run_job(job: Job, state: &mut Run) -> Result<(), XtaskError> {
    match job {
        Job::Fmt => Cmd::cargo().args(["fmt", "--all", "--check"]).run(),
        // Warnings are always denied here, whether or not CI=true.
        Job::Clippy => Cmd::cargo()
            .args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--all-features",
                "--",
                "-D",
                "warnings",
            ])
            .run(),
        Job::Test => {
            let mut counts = TestCounts::default();
            let result = Cmd::cargo()
                .args(["test", "--workspace"])
                .run_streaming(&mut |line| {
                    counts.add_line(line);
                });
            state.tests = Some(counts);
            result
        }
        Job::Doc => Cmd::cargo()
            .env("RUSTDOCFLAGS", "-D warnings")
            .args(["doc", "--workspace", "--no-deps", "--all-features"])
            .run(),
        Job::Msrv => msrv::run(),
        Job::Features => features(),
        Job::Package => package(),
        Job::Fuzz => fuzz(),
        Job::Deny => deny(),
    }
}

fn features() -> Result<(), XtaskError> {
    let meta = Metadata::load()?;
    for krate in FEATURE_CRATES {
        let package = meta
            .member(krate)
            .ok_or_else(|| XtaskError::Check(format!("workspace member `{krate}` not found")))?;
        let combos = combinations(&package.features);
        println!(
            "{krate}: {} combinations ({})",
            combos.len(),
            combos
                .iter()
                .map(|c| c.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        for combo in combos {
            Cmd::cargo()
                .args(["check", "--quiet", "-p", krate])
                .args(combo.args)
                .run()?;
        }
    }
    Ok(())
}

fn package() -> Result<(), XtaskError> {
    // Packages every publishable crate (publish = false members are skipped)
    // in dependency order against a local overlay of the workspace's
    // unpublished crates; third-party dependencies resolve from crates.io.
    // Not compiling keeps CI fast: `cargo xtask release` runs the full,
    // compiling `cargo publish --workspace --dry-run`.
    Cmd::cargo()
        .args([
            "publish",
            "--workspace",
            "--dry-run",
            "--no-verify",
            "--allow-dirty",
        ])
        .run()
}

fn fuzz() -> Result<(), XtaskError> {
    const MANIFEST: &str = "fuzz/Cargo.toml";
    Cmd::cargo()
        .args(["fmt", "--manifest-path", MANIFEST, "--check"])
        .run()?;
    Cmd::cargo()
        .args(["check", "--quiet", "--manifest-path", MANIFEST, "--bins"])
        .run()
}

fn deny() -> Result<(), XtaskError> {
    if Cmd::cargo().args(["deny", "--version"]).probe().is_none() {
        println!("cargo-deny is not installed: deny skipped (cargo install --locked cargo-deny)");
        return Ok(());
    }
    Cmd::cargo().args(["deny", "check"]).run()
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

    #[test]
    fn job_names_round_trip() {
        for job in Job::ALL {
            assert_eq!(Job::from_name(job.name()), Some(job));
        }
        assert_eq!(Job::from_name("lint"), None);
        let names: Vec<&str> = Job::DEFAULT.iter().map(|j| j.name()).collect();
        assert_eq!(
            names,
            [
                "fmt", "clippy", "test", "doc", "msrv", "features", "package", "fuzz"
            ]
        );
    }

    #[test]
    fn counts_test_results() {
        let mut counts = TestCounts::default();
        let lines = [
            "running 3 tests",
            "test a ... ok",
            "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s",
            "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 5 filtered out; finished in 1.20s",
            "   Doc-tests txc_types",
            "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
        ];
        let summaries = lines.iter().filter(|l| counts.add_line(l)).count();
        assert_eq!(summaries, 3);
        assert_eq!(
            counts,
            TestCounts {
                passed: 4,
                failed: 2,
                ignored: 1
            }
        );
    }
}

//! `cargo xtask ci budgets`: what a user pays for each feature set of the transports, as a
//! fresh project sees it. Each [`BUDGETS`] entry is a new package (its own workspace, outside
//! this one's) that depends on one transport by path with one feature set; the job builds it
//! (the `features` job only counts, in seconds) and counts the distinct packages of `cargo tree -e normal` (the transport and its txc
//! crates included, the fresh package itself not), and fails when a count is over its
//! target. The targets are issue 39's; the figures are in the README's crate table.
//!
//! The fresh projects start from this workspace's `Cargo.lock`, so the count is of the
//! versions the workspace tests with, not of whatever was published since.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, ensure};
use xshell::{Shell, cmd};

use crate::deps::parse_tree;

/// One feature set of a transport and the most packages it may compile.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// The fresh project's name, also its directory.
    pub(crate) name: &'static str,
    /// The transport it depends on.
    pub(crate) krate: &'static str,
    /// `None`: the default features; else `default-features = false` and these.
    pub(crate) features: Option<&'static [&'static str]>,
    /// The most distinct packages allowed.
    pub(crate) max: usize,
}

/// Every TLS choice of both transports REST-only, and both with their default features.
pub(crate) const BUDGETS: [Budget; 10] = [
    budget("blocking-default", "txc-blocking", None, 65),
    budget(
        "blocking-rustls-ring",
        "txc-blocking",
        Some(&["rustls-ring"]),
        50,
    ),
    budget(
        "blocking-rustls-aws-lc",
        "txc-blocking",
        Some(&["rustls-aws-lc"]),
        50,
    ),
    budget(
        "blocking-no-provider",
        "txc-blocking",
        Some(&["rustls-no-provider"]),
        50,
    ),
    budget(
        "blocking-native-tls",
        "txc-blocking",
        Some(&["native-tls"]),
        55,
    ),
    budget("async-default", "txc-async", None, 120),
    budget(
        "async-rustls-aws-lc",
        "txc-async",
        Some(&["rustls-aws-lc"]),
        110,
    ),
    budget(
        "async-rustls-ring",
        "txc-async",
        Some(&["rustls-ring"]),
        110,
    ),
    budget(
        "async-no-provider",
        "txc-async",
        Some(&["rustls-no-provider"]),
        110,
    ),
    budget("async-native-tls", "txc-async", Some(&["native-tls"]), 110),
];

const fn budget(
    name: &'static str,
    krate: &'static str,
    features: Option<&'static [&'static str]>,
    max: usize,
) -> Budget {
    Budget {
        name,
        krate,
        features,
        max,
    }
}

/// The fresh project's `Cargo.toml`: its own workspace, one dependency on `krate` by path.
pub(crate) fn manifest(budget: &Budget, workspace: &Path) -> String {
    let path = workspace.join("crates").join(budget.krate);
    let features = match budget.features {
        None => String::new(),
        Some(list) => {
            let quoted: Vec<String> = list.iter().map(|f| format!("{f:?}")).collect();
            format!(
                ", default-features = false, features = [{}]",
                quoted.join(", ")
            )
        }
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\n{krate} = {{ path = {path:?}{features} }}\n",
        name = budget.name,
        krate = budget.krate,
        path = path.display().to_string(),
    );
    out
}

/// The budgets a set of counts breaks, as messages (empty: all within).
pub(crate) fn over<'a>(counts: impl IntoIterator<Item = (&'a Budget, usize)>) -> Vec<String> {
    counts
        .into_iter()
        .filter(|(b, n)| *n > b.max)
        .map(|(b, n)| {
            format!(
                "{}: {n} crates, over its target of {} (cargo tree -e normal in {})",
                b.name, b.max, b.name
            )
        })
        .collect()
}

/// Makes each fresh project under `target/budgets`, builds it when `build` (one shared target
/// directory), counts its packages and checks them against the targets. Counting alone takes
/// seconds (the `features` job does it); building takes the ten graphs' compile time.
pub(crate) fn run(sh: &Shell, build: bool) -> anyhow::Result<()> {
    let workspace = sh.current_dir();
    let root = workspace.join("target").join("budgets");
    let lock = sh.read_file(workspace.join("Cargo.lock"))?;
    let _target = sh.push_env("CARGO_TARGET_DIR", root.join("target"));
    let mut counts = Vec::new();
    for budget in &BUDGETS {
        let dir = root.join(budget.name);
        sh.create_dir(dir.join("src"))?;
        sh.write_file(dir.join("Cargo.toml"), manifest(budget, &workspace))?;
        sh.write_file(dir.join("src/main.rs"), "fn main() {}\n")?;
        sh.write_file(dir.join("Cargo.lock"), &lock)?;
        let _dir = sh.push_dir(&dir);
        if build {
            cmd!(sh, "cargo build --quiet")
                .run()
                .with_context(|| format!("building the fresh project {}", budget.name))?;
        }
        let tree = cmd!(sh, "cargo tree --quiet -e normal --prefix none").read()?;
        counts.push((budget, parse_tree(&tree).len()));
    }
    println!("{:<24} {:>6} {:>7}", "feature set", "crates", "target");
    for (b, n) in &counts {
        println!("{:<24} {n:>6} {:>7}", b.name, b.max);
    }
    let broken = over(counts.iter().map(|(b, n)| (*b, *n)));
    for message in &broken {
        println!("error: {message}");
    }
    ensure!(
        broken.is_empty(),
        "{} crate count(s) over target",
        broken.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_manifest_depends_on_one_transport_by_path() {
        let [default, rest, ..] = BUDGETS;
        let ws = Path::new("/w");
        insta::assert_snapshot!(manifest(&rest, ws), @r#"
        [package]
        name = "blocking-rustls-ring"
        version = "0.0.0"
        edition = "2024"
        publish = false

        [workspace]

        [dependencies]
        txc-blocking = { path = "/w/crates/txc-blocking", default-features = false, features = ["rustls-ring"] }
        "#);
        assert!(
            manifest(&default, ws)
                .ends_with("txc-blocking = { path = \"/w/crates/txc-blocking\" }\n")
        );
    }

    #[test]
    fn a_count_over_its_target_fails_and_one_at_it_passes() {
        let [a, b, ..] = BUDGETS;
        assert!(over([(&a, a.max), (&b, 0)]).is_empty());
        let broken = over([(&a, a.max + 1), (&b, b.max)]);
        assert_eq!(
            broken,
            [format!(
                "blocking-default: {} crates, over its target of 65 (cargo tree -e normal in blocking-default)",
                a.max + 1
            )]
        );
    }

    /// Counted as `parse_tree` reads `cargo tree`: the root left out, each package once.
    #[test]
    fn counts_distinct_packages_without_the_fresh_root() {
        let tree = "blocking-default v0.0.0 (/t)\ntxc-blocking v0.4.0 (/w/crates/txc-blocking)\nureq v3.5.2\nlog v0.4.35\nureq v3.5.2 (*)\nlog v0.4.35 (*)\nserde_derive v1.0.229 (proc-macro)\n";
        assert_eq!(parse_tree(tree).len(), 4);
    }

    #[test]
    fn every_tls_choice_of_both_transports_is_counted_rest_only() {
        for krate in ["txc-blocking", "txc-async"] {
            let sets: Vec<&[&str]> = BUDGETS
                .iter()
                .filter(|b| b.krate == krate)
                .filter_map(|b| b.features)
                .collect();
            for tls in [
                "rustls-ring",
                "rustls-aws-lc",
                "rustls-no-provider",
                "native-tls",
            ] {
                assert!(sets.contains(&&[tls][..]), "{krate} {tls}");
            }
            assert!(
                BUDGETS
                    .iter()
                    .any(|b| b.krate == krate && b.features.is_none())
            );
        }
        // Issue 39's targets.
        let max = |name| BUDGETS.iter().find(|b| b.name == name).map(|b| b.max);
        assert_eq!(max("blocking-rustls-ring"), Some(50));
        assert_eq!(max("blocking-default"), Some(65));
        assert_eq!(max("async-rustls-aws-lc"), Some(110));
    }
}

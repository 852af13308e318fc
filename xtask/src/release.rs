//! `cargo xtask release [--execute]`: pre-release checks (dry run by default),
//! then publishing in dependency order and tagging.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;

use crate::changelog::{ChangelogStatus, changelog_status};
use crate::cmd::{Cmd, workspace_root};
use crate::error::XtaskError;
use crate::git;
use crate::manifest::workspace_version;
use crate::metadata::{DepKind, Metadata};
use crate::topo::topo_order;
use crate::version::Version;

/// The dependency graph among the published crates (name → names of the
/// published crates it depends on). Dev-dependency edges are included when
/// `with_dev` is set, because crates.io needs dev-dependencies that carry a
/// version to exist as well.
pub(crate) fn publish_graph(meta: &Metadata, with_dev: bool) -> BTreeMap<String, BTreeSet<String>> {
    let published = meta.published();
    let ids: BTreeMap<&str, &str> = published
        .iter()
        .map(|p| (p.id.as_str(), p.name.as_str()))
        .collect();
    published
        .iter()
        .map(|p| {
            let deps = meta
                .node(&p.id)
                .map(|node| {
                    node.deps
                        .iter()
                        .filter(|d| with_dev || d.kinds.iter().any(|k| *k != DepKind::Dev))
                        .filter_map(|d| ids.get(d.pkg.as_str()).map(|n| (*n).to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            (p.name.clone(), deps)
        })
        .collect()
}

/// The order to publish the workspace's crates in, computed from the resolve
/// graph: with dev-dependency edges when that is acyclic, else without.
pub(crate) fn publish_order(meta: &Metadata) -> Result<Vec<String>, XtaskError> {
    topo_order(&publish_graph(meta, true)).or_else(|_| topo_order(&publish_graph(meta, false)))
}

/// The result of one pre-release check.
enum Outcome {
    /// Passed, with an explanation.
    Ok(String),
    /// Not run, with the reason.
    Skipped(String),
    /// Failed, with the problem.
    Failed(String),
}

/// Runs `release` with the arguments after the command name.
pub(crate) fn run(args: &[String]) -> Result<(), XtaskError> {
    let execute = match args {
        [] => false,
        [flag] if flag == "--execute" => true,
        _ => return Err(XtaskError::Usage("cargo xtask release [--execute]".into())),
    };
    let root = workspace_root();
    let manifest_path = root.join("Cargo.toml");
    let manifest = fs::read_to_string(&manifest_path).map_err(XtaskError::io(format!(
        "reading {}",
        manifest_path.display()
    )))?;
    let version = workspace_version(&manifest)?;
    let tag = format!("v{version}");
    let meta = Metadata::load()?;
    let order = publish_order(&meta)?;
    println!(
        "release {tag} ({}): {}",
        if execute { "EXECUTE" } else { "dry run" },
        order.join(" -> ")
    );

    let mut checks: Vec<(&str, Outcome)> = vec![
        ("clean tree", check_clean()?),
        ("tag", check_tag(&tag)?),
        ("changelog", check_changelog(&root, &version, execute)),
        ("versions", check_versions(&meta, &version)),
    ];
    print_checks(&checks);
    // Packaging compiles everything; only do it when the cheap checks passed.
    if !any_failed(&checks) {
        checks.push(("package", check_package()));
        checks.push(("semver", check_semver(&version)));
        print_checks(checks.get(4..).unwrap_or_default());
    }
    if any_failed(&checks) {
        return Err(XtaskError::Check(format!("release {tag} is not ready")));
    }
    if !execute {
        let tagging = if git::tag_commit(&tag).is_some() {
            format!("({tag} already exists)")
        } else {
            format!("and tag {tag}")
        };
        println!(
            "dry run ok: `cargo xtask release --execute` would publish {} {tagging}",
            order.join(", ")
        );
        return Ok(());
    }

    for krate in &order {
        let (ok, stderr) = Cmd::cargo()
            .args(["publish", "-p", krate])
            .run_capturing_stderr()?;
        if ok {
            println!("published {krate} {version}");
        } else if stderr.contains("already exists") {
            println!("{krate} {version} is already on crates.io: skipped");
        } else {
            return Err(XtaskError::Command {
                command: format!("cargo publish -p {krate}"),
                status: "see its output above".into(),
            });
        }
    }
    if git::tag_commit(&tag).is_none() {
        Cmd::new("git")
            .args(["tag", "-a", &tag, "-m"])
            .arg(format!("txc {version}"))
            .run()?;
        println!("created tag {tag}: push it with `git push origin {tag}`");
    }
    println!("released {tag}");
    Ok(())
}

fn any_failed(checks: &[(&str, Outcome)]) -> bool {
    checks.iter().any(|(_, o)| matches!(o, Outcome::Failed(_)))
}

fn print_checks(checks: &[(&str, Outcome)]) {
    for (name, outcome) in checks {
        let (mark, text) = match outcome {
            Outcome::Ok(t) => ("ok  ", t),
            Outcome::Skipped(t) => ("skip", t),
            Outcome::Failed(t) => ("FAIL", t),
        };
        println!("[{mark}] {name}: {text}");
    }
}

fn check_clean() -> Result<Outcome, XtaskError> {
    let dirty = git::dirty_files()?;
    Ok(if dirty.is_empty() {
        Outcome::Ok("git status --porcelain is empty".into())
    } else {
        let shown: Vec<&str> = dirty.iter().take(8).map(|l| l.trim()).collect();
        let more = match dirty.len() - shown.len() {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        Outcome::Failed(format!("uncommitted changes: {}{more}", shown.join("; ")))
    })
}

fn check_tag(tag: &str) -> Result<Outcome, XtaskError> {
    let Some(commit) = git::tag_commit(tag) else {
        return Ok(Outcome::Ok(format!("{tag} does not exist yet")));
    };
    // A tag-triggered release runs on the tagged commit itself.
    Ok(if commit == git::head()? {
        Outcome::Ok(format!(
            "{tag} already points at HEAD (tag-triggered release)"
        ))
    } else {
        Outcome::Failed(format!("{tag} already exists at {commit}, not at HEAD"))
    })
}

fn check_changelog(root: &std::path::Path, version: &Version, execute: bool) -> Outcome {
    let path = root.join("CHANGELOG.md");
    let Ok(md) = fs::read_to_string(&path) else {
        return Outcome::Failed(format!("cannot read {}", path.display()));
    };
    match changelog_status(&md, version) {
        ChangelogStatus::Released => Outcome::Ok(format!("section `## {version}` present")),
        ChangelogStatus::Unreleased if execute => Outcome::Failed(format!(
            "no `## {version}` section (Unreleased has content): run `cargo xtask bump` first"
        )),
        ChangelogStatus::Unreleased => Outcome::Ok(format!(
            "no `## {version}` section, but `## Unreleased` is non-empty (`cargo xtask bump` releases it)"
        )),
        ChangelogStatus::Missing => Outcome::Failed(format!(
            "no `## {version}` section and `## Unreleased` is empty"
        )),
    }
}

fn check_versions(meta: &Metadata, version: &Version) -> Outcome {
    let want = version.to_string();
    let wrong: Vec<String> = meta
        .published()
        .iter()
        .filter(|p| p.version != want)
        .map(|p| format!("{} is {}", p.name, p.version))
        .collect();
    if wrong.is_empty() {
        Outcome::Ok(format!("every published crate is {want}"))
    } else {
        Outcome::Failed(format!("expected {want}: {}", wrong.join(", ")))
    }
}

fn check_package() -> Outcome {
    // Full verification (each crate is built from its packaged sources);
    // --allow-dirty because cleanliness is its own check.
    match Cmd::cargo()
        .args(["publish", "--workspace", "--dry-run", "--allow-dirty"])
        .run()
    {
        Ok(()) => Outcome::Ok("every publishable crate packages and builds".into()),
        Err(e) => Outcome::Failed(e.to_string()),
    }
}

fn check_semver(version: &Version) -> Outcome {
    if Cmd::cargo()
        .args(["semver-checks", "--version"])
        .probe()
        .is_none()
    {
        return Outcome::Skipped(
            "cargo-semver-checks is not installed (cargo install --locked cargo-semver-checks)"
                .into(),
        );
    }
    let tags = match git::version_tags() {
        Ok(tags) => tags,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let Some(previous) = git::previous_tag(&tags, version) else {
        return Outcome::Skipped(format!("no release tag before v{version}"));
    };
    match Cmd::cargo()
        .args([
            "semver-checks",
            "check-release",
            "--workspace",
            "--baseline-rev",
        ])
        .arg(previous.clone())
        .run()
    {
        Ok(()) => Outcome::Ok(format!("no semver violations since {previous}")),
        Err(e) => Outcome::Failed(e.to_string()),
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
    use crate::metadata::tests::METADATA;

    #[test]
    fn orders_published_crates_from_metadata() {
        let meta = Metadata::parse(METADATA).unwrap();
        assert_eq!(publish_order(&meta).unwrap(), ["b", "a"]);
        let graph = publish_graph(&meta, true);
        assert_eq!(graph.len(), 2, "xtask is not published");
    }
}

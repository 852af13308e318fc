//! The static MSRV check (`cargo xtask ci msrv`): no second toolchain can be installed, so
//! instead of compiling with the MSRV compiler it checks the `rust-version` declared by every
//! package the published crates pull in (all features, all targets, build dependencies too),
//! and that every member inherits the workspace's.

use anyhow::{Context as _, ensure};
use cargo_metadata::Package;
use semver::Version;
use toml_edit::DocumentMut;
use xshell::{Shell, cmd};

use crate::deps::parse_tree;
use crate::{manifest, metadata, published};

/// Sorts `(package, declared rust-version)` into those needing a newer Rust than `msrv` and
/// those declaring none (which cannot be checked statically).
pub(crate) fn offenders(
    msrv: &Version,
    deps: &[(String, Option<Version>)],
) -> (Vec<String>, Vec<String>) {
    let mut too_new = Vec::new();
    let mut undeclared = Vec::new();
    for (id, rust_version) in deps {
        match rust_version {
            Some(v) if v > msrv => too_new.push(format!("{id}: rust-version {v} > {msrv}")),
            Some(_) => {}
            None => undeclared.push(id.clone()),
        }
    }
    (too_new, undeclared)
}

pub(crate) fn run(sh: &Shell) -> anyhow::Result<()> {
    let meta = metadata(sh)?;
    // Every member inherits the workspace's rust-version (checked below).
    let published = published(&meta);
    let msrv = published.first().and_then(|p| p.rust_version.clone());
    let msrv = msrv.context("the published crates declare no rust-version")?;
    let mut errors = Vec::new();
    for p in meta.workspace_packages() {
        let manifest: DocumentMut = sh.read_file(&p.manifest_path)?.parse()?;
        if !manifest::inherits_workspace(&manifest, "rust-version") {
            errors.push(format!("{}: want `rust-version.workspace = true`", p.name));
        }
    }
    let packages = published.iter().flat_map(|p| ["-p", p.name.as_str()]);
    let tree = cmd!(
        sh,
        "cargo tree --quiet -e normal,build --all-features --target all"
    )
    .args(["--prefix", "none"])
    .args(packages)
    .quiet()
    .read()?;
    let deps: Vec<(String, Option<Version>)> = parse_tree(&tree)
        .into_iter()
        .filter_map(|(name, version)| {
            let same = |p: &&Package| p.name.as_str() == name && p.version.to_string() == version;
            let p = meta.packages.iter().find(same)?;
            let dep = !meta.workspace_members.contains(&p.id);
            dep.then(|| (format!("{name} v{version}"), p.rust_version.clone()))
        })
        .collect();
    let (too_new, undeclared) = offenders(&msrv, &deps);
    println!(
        "workspace rust-version {msrv}: {} workspace crates, {} dependencies of published crates",
        meta.workspace_members.len(),
        deps.len()
    );
    if !undeclared.is_empty() {
        let list = undeclared.join("\n  ");
        let n = undeclared.len();
        println!(
            "note: {n} dependencies declare no rust-version (cannot be checked statically):\n  {list}"
        );
    }
    errors.extend(too_new);
    for line in &errors {
        println!("error: {line}");
    }
    ensure!(
        errors.is_empty(),
        "check failed: {} MSRV problem(s)",
        errors.len()
    );
    println!("msrv: ok");
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn rv(text: &str) -> Option<Version> {
        Some(Version::parse(text).unwrap())
    }

    #[test]
    fn finds_offenders() {
        let deps = [
            ("old v1.0.0".to_owned(), rv("1.63.0")),
            ("exact v1.0.0".to_owned(), rv("1.88.0")),
            ("new v1.0.0".to_owned(), rv("1.89.0")),
            ("none v1.0.0".to_owned(), None),
        ];
        let (too_new, undeclared) = offenders(&Version::new(1, 88, 0), &deps);
        assert_eq!(too_new, ["new v1.0.0: rust-version 1.89.0 > 1.88.0"]);
        assert_eq!(undeclared, ["none v1.0.0"]);
    }
}

//! The few `Cargo.toml` values xtask reads and edits, through `toml_edit` so that everything
//! else (comments, order, spacing) is kept as written.

use anyhow::{Context as _, bail};
use semver::Version;
use toml_edit::{DocumentMut, Item, Value};

/// Prefix of the workspace's own crates in `[workspace.dependencies]`.
const INTERNAL_PREFIX: &str = "txc-";

/// The version in `[workspace.package]`.
pub(crate) fn workspace_version(doc: &DocumentMut) -> anyhow::Result<Version> {
    let version = doc
        .get("workspace")
        .and_then(|w| w.get("package")?.get("version")?.as_str());
    let version = version.context("no `version = \"...\"` in [workspace.package]")?;
    Version::parse(version).with_context(|| format!("invalid workspace version `{version}`"))
}

/// Whether a member manifest's `[package]` inherits `key` from the workspace
/// (`key.workspace = true` or `key = { workspace = true }`).
pub(crate) fn inherits_workspace(doc: &DocumentMut, key: &str) -> bool {
    doc.get("package")
        .and_then(|p| p.get(key)?.get("workspace")?.as_bool())
        == Some(true)
}

/// Sets the `version` of `[workspace.package]` and of every `txc-*` entry of
/// `[workspace.dependencies]` (inline or `[workspace.dependencies.txc-x]` tables) to `new`.
/// Refuses an internal dependency without a version: it could not be published.
pub(crate) fn bump_versions(doc: &mut DocumentMut, new: &Version) -> anyhow::Result<()> {
    let version = doc
        .get_mut("workspace")
        .and_then(|w| w.get_mut("package")?.get_mut("version"));
    let version = version
        .filter(|v| v.is_str())
        .context("no `version = \"...\"` in [workspace.package]")?;
    set_str(version, new);
    let mut missing = Vec::new();
    let deps = doc
        .get_mut("workspace")
        .and_then(|w| w.get_mut("dependencies")?.as_table_like_mut());
    for (name, dep) in deps.into_iter().flat_map(|d| d.iter_mut()) {
        if !name.get().starts_with(INTERNAL_PREFIX) {
            continue;
        }
        match dep.as_table_like_mut().and_then(|t| t.get_mut("version")) {
            Some(version) if version.is_str() => set_str(version, new),
            _ => missing.push(name.get().to_owned()),
        }
    }
    if !missing.is_empty() {
        bail!(
            "internal dependencies without `version = \"...\"` in [workspace.dependencies]: {}",
            missing.join(", ")
        );
    }
    Ok(())
}

/// Replaces a string value, keeping the spaces and comment around it.
fn set_str(item: &mut Item, new: &Version) {
    if let Some(value) = item.as_value_mut() {
        let decor = value.decor().clone();
        *value = Value::from(new.to_string());
        *value.decor_mut() = decor;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn bumped(toml: &str, new: &str) -> anyhow::Result<String> {
        let mut doc: DocumentMut = toml.parse()?;
        bump_versions(&mut doc, &Version::parse(new)?)?;
        Ok(doc.to_string())
    }

    /// Everything in the root manifest but the versions is kept (the table form of an internal
    /// dependency and a comment after a version: tests/bump.rs).
    #[test]
    fn bumps_the_real_root_manifest_in_place() {
        let root = include_str!("../../Cargo.toml");
        let current = workspace_version(&root.parse().unwrap()).unwrap();
        let out = bumped(root, "99.0.0").unwrap();
        assert_eq!(root.lines().count(), out.lines().count());
        let changed: Vec<_> = root
            .lines()
            .zip(out.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert!(
            changed.len() >= 2,
            "workspace version and internal crates: {changed:?}"
        );
        for (before, after) in changed {
            assert_eq!(before.replace(&current.to_string(), "99.0.0"), after);
            assert!(
                before.starts_with("version") || before.starts_with("txc-"),
                "{before}"
            );
        }
    }

    #[test]
    fn refuses_what_it_cannot_bump() {
        let unversioned = "[workspace.package]\nversion = \"0.1.0\"\n[workspace.dependencies]\ntxc-sign = { path = \"x\" }\n";
        insta::assert_snapshot!(bumped(unversioned, "0.2.0").unwrap_err(), @r#"internal dependencies without `version = "..."` in [workspace.dependencies]: txc-sign"#);
        insta::assert_snapshot!(bumped("[workspace]\nmembers = []\n", "0.2.0").unwrap_err(), @r#"no `version = "..."` in [workspace.package]"#);
    }

    #[test]
    fn detects_inherited_keys() {
        let member = "[package]\nrust-version.workspace = true\nedition = { workspace = true }\nlicense = \"MIT\"\n[dependencies]\nserde.workspace = true\n";
        let member: DocumentMut = member.parse().unwrap();
        assert!(
            inherits_workspace(&member, "rust-version") && inherits_workspace(&member, "edition")
        );
        assert!(!inherits_workspace(&member, "license") && !inherits_workspace(&member, "serde"));
    }
}

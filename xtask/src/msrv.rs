//! The static MSRV check (`cargo xtask ci msrv`): no other toolchain can be
//! installed, so instead of compiling with the MSRV compiler this checks the
//! `rust-version` that packages declare.

use std::collections::{BTreeSet, VecDeque};
use std::fs;

use crate::cmd::workspace_root;
use crate::error::XtaskError;
use crate::manifest::{inherits_workspace, workspace_rust_version};
use crate::metadata::{DepKind, Metadata, Package};

/// A `rust-version` as `(major, minor, patch)`; `1.88` means `1.88.0`.
pub(crate) fn parse_rust_version(s: &str) -> Option<(u64, u64, u64)> {
    let mut parts = s.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().map_or(Some(0), |p| p.parse().ok())?;
    let patch = parts.next().map_or(Some(0), |p| p.parse().ok())?;
    parts.next().is_none().then_some((major, minor, patch))
}

/// A package as the check sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Declared {
    /// Package name.
    pub(crate) name: String,
    /// Package version.
    pub(crate) version: String,
    /// Declared `rust-version`.
    pub(crate) rust_version: Option<String>,
}

impl Declared {
    fn from_package(p: &Package) -> Self {
        Self {
            name: p.name.clone(),
            version: p.version.clone(),
            rust_version: p.rust_version.clone(),
        }
    }
}

/// A workspace member as the check sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    /// The member's name, version and effective `rust-version`.
    pub(crate) package: Declared,
    /// Whether its manifest says `rust-version.workspace = true`.
    pub(crate) inherits: bool,
}

/// The outcome of the check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct MsrvReport {
    /// How many dependencies of published crates were checked.
    pub(crate) checked: usize,
    /// Dependencies declaring a `rust-version` above the workspace's (fail).
    pub(crate) too_new: Vec<String>,
    /// Dependencies declaring no (or an unreadable) `rust-version`: they cannot
    /// be checked statically (reported, not fatal).
    pub(crate) undeclared: Vec<String>,
    /// Workspace members not inheriting the workspace `rust-version` (fail).
    pub(crate) members: Vec<String>,
}

impl MsrvReport {
    /// Whether the check failed.
    pub(crate) fn failed(&self) -> bool {
        !self.too_new.is_empty() || !self.members.is_empty()
    }
}

/// Checks dependencies' declared `rust-version`s and members' inheritance
/// against the workspace MSRV. Pure: the inputs come from `cargo metadata`
/// and the manifests.
pub(crate) fn check(
    workspace_msrv: &str,
    deps: &[Declared],
    members: &[Member],
) -> Result<MsrvReport, XtaskError> {
    let msrv = parse_rust_version(workspace_msrv).ok_or_else(|| {
        XtaskError::Parse(format!("invalid workspace rust-version `{workspace_msrv}`"))
    })?;
    let mut report = MsrvReport {
        checked: deps.len(),
        ..MsrvReport::default()
    };
    for dep in deps {
        let id = format!("{} v{}", dep.name, dep.version);
        match dep
            .rust_version
            .as_deref()
            .map(|v| (v, parse_rust_version(v)))
        {
            Some((v, Some(parsed))) if parsed > msrv => {
                report
                    .too_new
                    .push(format!("{id}: rust-version {v} > {workspace_msrv}"));
            }
            Some((_, Some(_))) => {}
            Some((v, None)) => report
                .undeclared
                .push(format!("{id}: unreadable rust-version `{v}`")),
            None => report.undeclared.push(id),
        }
    }
    for m in members {
        let p = &m.package;
        let same = p.rust_version.as_deref().and_then(parse_rust_version) == Some(msrv);
        if !m.inherits || !same {
            let declared = p.rust_version.as_deref().unwrap_or("none");
            report.members.push(format!(
                "{}: rust-version {declared}{} (want `rust-version.workspace = true`)",
                p.name,
                if m.inherits { "" } else { ", not inherited" }
            ));
        }
    }
    report.too_new.sort();
    report.undeclared.sort();
    report.members.sort();
    Ok(report)
}

/// Packages reachable from the published members over normal and build edges
/// (dev-dependencies do not reach users), excluding workspace members.
pub(crate) fn published_dependencies(meta: &Metadata) -> Vec<&Package> {
    let members: BTreeSet<&str> = meta.workspace_members.iter().map(String::as_str).collect();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut queue: VecDeque<&str> = meta.published().iter().map(|p| p.id.as_str()).collect();
    while let Some(id) = queue.pop_front() {
        if !seen.insert(id) {
            continue;
        }
        if let Some(node) = meta.node(id) {
            for dep in &node.deps {
                if dep.kinds.iter().any(|k| *k != DepKind::Dev) {
                    queue.push_back(dep.pkg.as_str());
                }
            }
        }
    }
    let mut deps: Vec<&Package> = seen
        .into_iter()
        .filter(|id| !members.contains(id))
        .filter_map(|id| meta.package(id))
        .collect();
    deps.sort_by(|a, b| (&a.name, &a.version).cmp(&(&b.name, &b.version)));
    deps
}

/// Runs the check on this workspace, printing offenders; fails when any.
pub(crate) fn run() -> Result<(), XtaskError> {
    let root_manifest_path = workspace_root().join("Cargo.toml");
    let root_manifest = fs::read_to_string(&root_manifest_path).map_err(XtaskError::io(
        format!("reading {}", root_manifest_path.display()),
    ))?;
    let msrv = workspace_rust_version(&root_manifest)?;
    let meta = Metadata::load()?;
    let deps: Vec<Declared> = published_dependencies(&meta)
        .into_iter()
        .map(Declared::from_package)
        .collect();
    let mut members = Vec::new();
    for p in meta.members() {
        let manifest = fs::read_to_string(&p.manifest_path)
            .map_err(XtaskError::io(format!("reading {}", p.manifest_path)))?;
        members.push(Member {
            package: Declared::from_package(p),
            inherits: inherits_workspace(&manifest, "rust-version"),
        });
    }
    let report = check(&msrv, &deps, &members)?;
    println!(
        "workspace rust-version {msrv}: {} workspace crates, {} dependencies of published crates",
        members.len(),
        report.checked
    );
    if !report.undeclared.is_empty() {
        println!(
            "note: {} dependencies declare no rust-version (cannot be checked statically):",
            report.undeclared.len()
        );
        for line in &report.undeclared {
            println!("  {line}");
        }
    }
    for line in &report.too_new {
        println!("error: {line}");
    }
    for line in &report.members {
        println!("error: {line}");
    }
    if report.failed() {
        return Err(XtaskError::Check(format!(
            "{} dependencies need a newer Rust than {msrv}, {} workspace crates do not inherit the workspace rust-version",
            report.too_new.len(),
            report.members.len()
        )));
    }
    println!("msrv: ok");
    Ok(())
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

    fn declared(name: &str, rv: Option<&str>) -> Declared {
        Declared {
            name: name.into(),
            version: "1.0.0".into(),
            rust_version: rv.map(Into::into),
        }
    }

    #[test]
    fn parses_rust_versions() {
        assert_eq!(parse_rust_version("1.88"), Some((1, 88, 0)));
        assert_eq!(parse_rust_version("1.88.1"), Some((1, 88, 1)));
        assert_eq!(parse_rust_version("1"), Some((1, 0, 0)));
        assert_eq!(parse_rust_version("1.x"), None);
        assert_eq!(parse_rust_version("1.2.3.4"), None);
    }

    #[test]
    fn reports_offenders() {
        let deps = [
            declared("old", Some("1.63")),
            declared("exact", Some("1.88.0")),
            declared("new", Some("1.89")),
            declared("none", None),
        ];
        let members = [
            Member {
                package: declared("good", Some("1.88")),
                inherits: true,
            },
            Member {
                package: declared("pinned", Some("1.88")),
                inherits: false,
            },
            Member {
                package: declared("drifted", Some("1.85")),
                inherits: true,
            },
        ];
        let report = check("1.88", &deps, &members).unwrap();
        assert!(report.failed());
        insta::assert_debug_snapshot!(report, @r#"
        MsrvReport {
            checked: 4,
            too_new: [
                "new v1.0.0: rust-version 1.89 > 1.88",
            ],
            undeclared: [
                "none v1.0.0",
            ],
            members: [
                "drifted: rust-version 1.85 (want `rust-version.workspace = true`)",
                "pinned: rust-version 1.88, not inherited (want `rust-version.workspace = true`)",
            ],
        }
        "#);
        let ok = check("1.88", &deps[..2], &members[..1]).unwrap();
        assert!(!ok.failed());
    }

    #[test]
    fn follows_normal_and_build_edges_of_published_crates_only() {
        let meta = Metadata::parse(METADATA).unwrap();
        let names: Vec<&str> = published_dependencies(&meta)
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        // `big` is only a dev-dependency of `b` and a dependency of unpublished `xtask`.
        assert_eq!(names, ["cc", "serde"]);
    }
}

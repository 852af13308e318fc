//! The parts of `cargo metadata --format-version 1` that xtask uses, parsed
//! with `serde_json::Value` (no derive machinery needed).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::cmd::Cmd;
use crate::error::XtaskError;

/// The kind of a dependency edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DepKind {
    /// `[dependencies]`.
    Normal,
    /// `[dev-dependencies]`.
    Dev,
    /// `[build-dependencies]`.
    Build,
}

/// A package of the resolved graph.
#[derive(Debug, Clone)]
pub(crate) struct Package {
    /// The opaque package id.
    pub(crate) id: String,
    /// Package name.
    pub(crate) name: String,
    /// Package version.
    pub(crate) version: String,
    /// Declared `rust-version`, if any.
    pub(crate) rust_version: Option<String>,
    /// `false` when the manifest says `publish = false` (or an empty list).
    pub(crate) publishable: bool,
    /// Path of the package's `Cargo.toml`.
    pub(crate) manifest_path: String,
    /// The `[features]` table (including implicit optional-dependency features).
    pub(crate) features: BTreeMap<String, Vec<String>>,
}

/// One edge of the resolve graph.
#[derive(Debug, Clone)]
pub(crate) struct NodeDep {
    /// Id of the dependency.
    pub(crate) pkg: String,
    /// Kinds under which it is depended on.
    pub(crate) kinds: Vec<DepKind>,
}

/// One node of the resolve graph.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Id of the package.
    pub(crate) id: String,
    /// Its resolved dependencies.
    pub(crate) deps: Vec<NodeDep>,
}

/// Parsed `cargo metadata` output.
#[derive(Debug, Clone)]
pub(crate) struct Metadata {
    /// Every package in the resolved graph.
    pub(crate) packages: Vec<Package>,
    /// Ids of the workspace members.
    pub(crate) workspace_members: Vec<String>,
    /// The resolve graph (empty with `--no-deps`).
    pub(crate) resolve: Vec<Node>,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, XtaskError> {
    v.get(key)
        .ok_or_else(|| XtaskError::Parse(format!("cargo metadata: missing field `{key}`")))
}

fn string(v: &Value, key: &str) -> Result<String, XtaskError> {
    field(v, key)?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| XtaskError::Parse(format!("cargo metadata: `{key}` is not a string")))
}

fn array<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, XtaskError> {
    field(v, key)?
        .as_array()
        .ok_or_else(|| XtaskError::Parse(format!("cargo metadata: `{key}` is not an array")))
}

fn parse_package(p: &Value) -> Result<Package, XtaskError> {
    let publishable = match p.get("publish") {
        None | Some(Value::Null) => true,
        Some(Value::Array(registries)) => !registries.is_empty(),
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(XtaskError::Parse(format!(
                "cargo metadata: unexpected `publish` value {other}"
            )));
        }
    };
    let mut features = BTreeMap::new();
    if let Some(map) = p.get("features").and_then(Value::as_object) {
        for (name, enables) in map {
            let enables = enables
                .as_array()
                .map(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            features.insert(name.clone(), enables);
        }
    }
    Ok(Package {
        id: string(p, "id")?,
        name: string(p, "name")?,
        version: string(p, "version")?,
        rust_version: p
            .get("rust_version")
            .and_then(Value::as_str)
            .map(str::to_owned),
        publishable,
        manifest_path: string(p, "manifest_path")?,
        features,
    })
}

fn parse_node(n: &Value) -> Result<Node, XtaskError> {
    let mut deps = Vec::new();
    for d in array(n, "deps")? {
        let kinds = match d.get("dep_kinds").and_then(Value::as_array) {
            Some(list) => list
                .iter()
                .map(|k| match k.get("kind").and_then(Value::as_str) {
                    Some("dev") => DepKind::Dev,
                    Some("build") => DepKind::Build,
                    _ => DepKind::Normal,
                })
                .collect(),
            None => vec![DepKind::Normal],
        };
        deps.push(NodeDep {
            pkg: string(d, "pkg")?,
            kinds,
        });
    }
    Ok(Node {
        id: string(n, "id")?,
        deps,
    })
}

impl Metadata {
    /// Runs `cargo metadata --format-version 1` (resolving all features of the
    /// workspace, all targets) and parses it.
    pub(crate) fn load() -> Result<Self, XtaskError> {
        let json = Cmd::cargo()
            .args(["metadata", "--format-version", "1"])
            .read()?;
        Self::parse(&json)
    }

    /// Parses the JSON printed by `cargo metadata --format-version 1`.
    pub(crate) fn parse(json: &str) -> Result<Self, XtaskError> {
        let v: Value = serde_json::from_str(json)
            .map_err(|e| XtaskError::Parse(format!("cargo metadata: invalid JSON: {e}")))?;
        let packages = array(&v, "packages")?
            .iter()
            .map(parse_package)
            .collect::<Result<_, _>>()?;
        let workspace_members = array(&v, "workspace_members")?
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let resolve = match v.get("resolve") {
            Some(Value::Object(_)) => array(field(&v, "resolve")?, "nodes")?
                .iter()
                .map(parse_node)
                .collect::<Result<_, _>>()?,
            _ => Vec::new(),
        };
        Ok(Self {
            packages,
            workspace_members,
            resolve,
        })
    }

    /// The package with this id.
    pub(crate) fn package(&self, id: &str) -> Option<&Package> {
        self.packages.iter().find(|p| p.id == id)
    }

    /// The workspace members, sorted by name.
    pub(crate) fn members(&self) -> Vec<&Package> {
        let mut members: Vec<&Package> = self
            .workspace_members
            .iter()
            .filter_map(|id| self.package(id))
            .collect();
        members.sort_by(|a, b| a.name.cmp(&b.name));
        members
    }

    /// The publishable workspace members, sorted by name.
    pub(crate) fn published(&self) -> Vec<&Package> {
        self.members()
            .into_iter()
            .filter(|p| p.publishable)
            .collect()
    }

    /// The workspace member called `name`.
    pub(crate) fn member(&self, name: &str) -> Option<&Package> {
        self.members().into_iter().find(|p| p.name == name)
    }

    /// The resolve node of a package.
    pub(crate) fn node(&self, id: &str) -> Option<&Node> {
        self.resolve.iter().find(|n| n.id == id)
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
pub(crate) mod tests {
    use super::*;

    /// A trimmed-down `cargo metadata` document: a published crate `a`
    /// depending on published `b` (normal) and on `serde` (normal, declared
    /// MSRV 1.61), `b` with a dev-dependency on `big` (MSRV 1.90) and a build
    /// dependency on `cc` (no MSRV), and an unpublished `xtask`.
    pub(crate) const METADATA: &str = r#"{
      "packages": [
        {"id": "path+file:///w/a#0.1.0", "name": "a", "version": "0.1.0", "rust_version": "1.88",
         "publish": null, "manifest_path": "/w/a/Cargo.toml",
         "features": {"default": ["std"], "std": [], "extra": ["std", "dep:serde"], "serde": ["dep:serde"]}},
        {"id": "path+file:///w/b#0.1.0", "name": "b", "version": "0.1.0", "rust_version": "1.88",
         "publish": null, "manifest_path": "/w/b/Cargo.toml", "features": {}},
        {"id": "path+file:///w/xtask#0.1.0", "name": "xtask", "version": "0.1.0", "rust_version": "1.88",
         "publish": [], "manifest_path": "/w/xtask/Cargo.toml", "features": {}},
        {"id": "registry+https://github.com/rust-lang/crates.io-index#serde@1.0.219", "name": "serde",
         "version": "1.0.219", "rust_version": "1.61", "publish": null,
         "manifest_path": "/r/serde/Cargo.toml", "features": {}},
        {"id": "registry+https://github.com/rust-lang/crates.io-index#big@2.0.0", "name": "big",
         "version": "2.0.0", "rust_version": "1.90", "publish": null,
         "manifest_path": "/r/big/Cargo.toml", "features": {}},
        {"id": "registry+https://github.com/rust-lang/crates.io-index#cc@1.0.0", "name": "cc",
         "version": "1.0.0", "rust_version": null, "publish": null,
         "manifest_path": "/r/cc/Cargo.toml", "features": {}}
      ],
      "workspace_members": ["path+file:///w/a#0.1.0", "path+file:///w/b#0.1.0", "path+file:///w/xtask#0.1.0"],
      "resolve": {"nodes": [
        {"id": "path+file:///w/a#0.1.0", "deps": [
          {"name": "b", "pkg": "path+file:///w/b#0.1.0", "dep_kinds": [{"kind": null, "target": null}]},
          {"name": "serde", "pkg": "registry+https://github.com/rust-lang/crates.io-index#serde@1.0.219",
           "dep_kinds": [{"kind": null, "target": null}]}]},
        {"id": "path+file:///w/b#0.1.0", "deps": [
          {"name": "big", "pkg": "registry+https://github.com/rust-lang/crates.io-index#big@2.0.0",
           "dep_kinds": [{"kind": "dev", "target": null}]},
          {"name": "cc", "pkg": "registry+https://github.com/rust-lang/crates.io-index#cc@1.0.0",
           "dep_kinds": [{"kind": "build", "target": null}]}]},
        {"id": "path+file:///w/xtask#0.1.0", "deps": [
          {"name": "big", "pkg": "registry+https://github.com/rust-lang/crates.io-index#big@2.0.0",
           "dep_kinds": [{"kind": null, "target": null}]}]},
        {"id": "registry+https://github.com/rust-lang/crates.io-index#serde@1.0.219", "deps": []},
        {"id": "registry+https://github.com/rust-lang/crates.io-index#big@2.0.0", "deps": []},
        {"id": "registry+https://github.com/rust-lang/crates.io-index#cc@1.0.0", "deps": []}
      ]},
      "workspace_root": "/w"
    }"#;

    #[test]
    fn parses_metadata() {
        let m = Metadata::parse(METADATA).unwrap();
        let published: Vec<&str> = m.published().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(published, ["a", "b"]);
        assert_eq!(m.members().len(), 3);
        let a = m.member("a").unwrap();
        assert_eq!(a.features.len(), 4);
        let b = m.node("path+file:///w/b#0.1.0").unwrap();
        assert_eq!(b.deps.len(), 2);
        assert_eq!(b.deps.first().unwrap().kinds, [DepKind::Dev]);
        assert!(Metadata::parse("{}").is_err());
    }
}

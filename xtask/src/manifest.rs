//! A careful line-based reader/editor for the few `Cargo.toml` values xtask
//! needs (the workspace version, rust-version and internal dependency
//! versions). Everything it does not touch is preserved byte for byte, which is
//! why xtask does not need `toml_edit`.

use std::collections::BTreeMap;

use crate::error::XtaskError;
use crate::version::Version;

/// Prefix of the workspace's internal crates in `[workspace.dependencies]`.
const INTERNAL_PREFIX: &str = "txc-";

/// One physical line of a manifest with the table it belongs to.
struct Line<'a> {
    /// The table header in force (`workspace.package`), `None` before any.
    table: Option<String>,
    /// The line without its terminator.
    text: &'a str,
    /// The terminator (`"\n"`, `"\r\n"` or `""` on the last line).
    end: &'a str,
    /// Whether the line is inside a multi-line string (so not TOML syntax).
    in_multiline_string: bool,
}

/// Splits a manifest into lines annotated with their table.
fn scan(toml: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut table = None;
    let mut in_basic = false;
    let mut in_literal = false;
    for raw in toml.split_inclusive('\n') {
        let (text, end) = if let Some(t) = raw.strip_suffix("\r\n") {
            (t, "\r\n")
        } else if let Some(t) = raw.strip_suffix('\n') {
            (t, "\n")
        } else {
            (raw, "")
        };
        let was_in_string = in_basic || in_literal;
        if !was_in_string && let Some(header) = table_header(text) {
            table = Some(header);
        }
        // Toggle multi-line string state on every `"""` / `'''` delimiter.
        if !in_literal && text.matches("\"\"\"").count() % 2 == 1 {
            in_basic = !in_basic;
        }
        if !in_basic && text.matches("'''").count() % 2 == 1 {
            in_literal = !in_literal;
        }
        lines.push(Line {
            table: table.clone(),
            text,
            end,
            in_multiline_string: was_in_string,
        });
    }
    lines
}

/// Parses a `[table]` or `[[array.table]]` header line into its dotted name
/// with whitespace and quotes removed.
fn table_header(line: &str) -> Option<String> {
    let t = line.trim();
    let (inner, rest) = if let Some(after) = t.strip_prefix("[[") {
        let (inner, rest) = after.split_once("]]")?;
        (inner, rest)
    } else {
        let after = t.strip_prefix('[')?;
        let (inner, rest) = after.split_once(']')?;
        (inner, rest)
    };
    let rest = rest.trim_start();
    if !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let valid = !inner.trim().is_empty()
        && inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.\"' ".contains(c));
    if !valid {
        return None;
    }
    Some(
        inner
            .split('.')
            .map(|part| part.trim().trim_matches('"').trim_matches('\''))
            .collect::<Vec<_>>()
            .join("."),
    )
}

/// Splits `key = value` (outside tables' headers and comments) into the
/// unquoted key and the raw value text.
fn key_value(line: &str) -> Option<(String, &str)> {
    let t = line.trim_start();
    if t.is_empty() || t.starts_with('#') || t.starts_with('[') {
        return None;
    }
    let (key, value) = t.split_once('=')?;
    let key: String = key
        .split('.')
        .map(|part| part.trim().trim_matches('"').trim_matches('\''))
        .collect::<Vec<_>>()
        .join(".");
    let valid = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    valid.then_some((key, value.trim()))
}

/// Byte range (within `line`) of the contents of the basic string that is the
/// value of a top-level `key = "..."` line.
fn plain_string_value(line: &str) -> Option<(usize, usize)> {
    let (_, value) = line.split_once('=')?;
    let after_quote = value.trim_start().strip_prefix('"')?;
    let start = line.len() - after_quote.len();
    let len = after_quote.find('"')?;
    Some((start, start + len))
}

/// Byte range (within `line`) of the contents of the basic string that is the
/// value of `key` at the top level of the inline table on this line.
fn inline_string_value(line: &str, key: &str) -> Option<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut i = line.find('{')? + 1;
    let mut depth = 1usize;
    let mut at_key = true;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' | b'\'' => {
                // Skip a string (escapes only matter in basic strings).
                let mut j = i + 1;
                while let Some(&c) = bytes.get(j) {
                    if c == b'\\' && b == b'"' {
                        j += 2;
                        continue;
                    }
                    if c == b {
                        break;
                    }
                    j += 1;
                }
                i = j + 1;
                at_key = false;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            b',' if depth == 1 => at_key = true,
            b' ' | b'\t' => {}
            _ if at_key && depth == 1 => {
                let start = i;
                while bytes
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
                {
                    i += 1;
                }
                at_key = false;
                if line.get(start..i) == Some(key) {
                    let rest = line.get(i..)?;
                    let after_eq = rest.trim_start().strip_prefix('=')?.trim_start();
                    let after_quote = after_eq.strip_prefix('"')?;
                    let content_start = line.len() - after_quote.len();
                    let len = after_quote.find('"')?;
                    return Some((content_start, content_start + len));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Replaces the byte range `range` of `line` with `new`.
fn splice(line: &str, range: (usize, usize), new: &str) -> Option<String> {
    Some(format!(
        "{}{new}{}",
        line.get(..range.0)?,
        line.get(range.1..)?
    ))
}

/// Reads the string value of `key` in `[workspace.package]`.
fn workspace_package_string(toml: &str, key: &str) -> Result<String, XtaskError> {
    for line in scan(toml) {
        if line.in_multiline_string || line.table.as_deref() != Some("workspace.package") {
            continue;
        }
        if let Some((k, _)) = key_value(line.text)
            && k == key
        {
            let (start, end) = plain_string_value(line.text).ok_or_else(|| {
                XtaskError::Parse(format!(
                    "`{key}` in [workspace.package] is not a plain string: {}",
                    line.text
                ))
            })?;
            return line
                .text
                .get(start..end)
                .map(str::to_owned)
                .ok_or_else(|| XtaskError::Parse(format!("cannot read `{key}`")));
        }
    }
    Err(XtaskError::Parse(format!(
        "no `{key} = \"...\"` in [workspace.package]"
    )))
}

/// The version in `[workspace.package]`.
pub(crate) fn workspace_version(toml: &str) -> Result<Version, XtaskError> {
    workspace_package_string(toml, "version")?.parse()
}

/// The `rust-version` in `[workspace.package]`.
pub(crate) fn workspace_rust_version(toml: &str) -> Result<String, XtaskError> {
    workspace_package_string(toml, "rust-version")
}

/// Whether a member manifest's `[package]` inherits `key` from the workspace
/// (`key.workspace = true` or `key = { workspace = true }`).
pub(crate) fn inherits_workspace(manifest: &str, key: &str) -> bool {
    scan(manifest).iter().any(|line| {
        if line.in_multiline_string || line.table.as_deref() != Some("package") {
            return false;
        }
        let Some((k, value)) = key_value(line.text) else {
            return false;
        };
        let value = value.split('#').next().unwrap_or_default();
        let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
        (k == format!("{key}.workspace") && compact == "true")
            || (k == key && compact == "{workspace=true}")
    })
}

/// Rewrites the root manifest for a release of `new`: the `version` of
/// `[workspace.package]` and the `version = "..."` of every `txc-*` entry of
/// `[workspace.dependencies]` (inline-table or `[workspace.dependencies.txc-x]`
/// form). Everything else is left untouched.
pub(crate) fn bump_manifest(toml: &str, new: &Version) -> Result<String, XtaskError> {
    let new = new.to_string();
    let mut out = String::with_capacity(toml.len() + 16);
    let mut workspace_version_done = false;
    // internal crate -> whether its version was rewritten
    let mut internal: BTreeMap<String, bool> = BTreeMap::new();
    for line in scan(toml) {
        let mut text = line.text.to_owned();
        let table = line.table.as_deref();
        let kv = if line.in_multiline_string {
            None
        } else {
            key_value(line.text)
        };
        if let Some(name) = table
            .and_then(|t| t.strip_prefix("workspace.dependencies."))
            .filter(|n| n.starts_with(INTERNAL_PREFIX))
        {
            internal.entry(name.to_owned()).or_insert(false);
        }
        match (table, kv) {
            (Some("workspace.package"), Some((key, _))) if key == "version" => {
                let range = plain_string_value(line.text).ok_or_else(|| {
                    XtaskError::Parse(format!(
                        "[workspace.package] version is not a plain string: {}",
                        line.text
                    ))
                })?;
                text = splice(line.text, range, &new)
                    .ok_or_else(|| XtaskError::Parse("cannot edit workspace version".into()))?;
                workspace_version_done = true;
            }
            (Some("workspace.dependencies"), Some((key, value)))
                if key.starts_with(INTERNAL_PREFIX) && !key.contains('.') =>
            {
                let range = if value.starts_with('{') {
                    inline_string_value(line.text, "version")
                } else {
                    None
                };
                if let Some(range) = range {
                    text = splice(line.text, range, &new).ok_or_else(|| {
                        XtaskError::Parse(format!("cannot edit the version of {key}"))
                    })?;
                    internal.insert(key, true);
                } else {
                    internal.entry(key).or_insert(false);
                }
            }
            (Some(t), Some((key, _)))
                if key == "version"
                    && t.strip_prefix("workspace.dependencies.")
                        .is_some_and(|n| n.starts_with(INTERNAL_PREFIX)) =>
            {
                let name = t.trim_start_matches("workspace.dependencies.").to_owned();
                let range = plain_string_value(line.text).ok_or_else(|| {
                    XtaskError::Parse(format!("the version of {name} is not a plain string"))
                })?;
                text = splice(line.text, range, &new).ok_or_else(|| {
                    XtaskError::Parse(format!("cannot edit the version of {name}"))
                })?;
                internal.insert(name, true);
            }
            _ => {}
        }
        out.push_str(&text);
        out.push_str(line.end);
    }
    if !workspace_version_done {
        return Err(XtaskError::Parse(
            "no `version = \"...\"` in [workspace.package]".into(),
        ));
    }
    let missing: Vec<&str> = internal
        .iter()
        .filter(|(_, done)| !**done)
        .map(|(name, _)| name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(XtaskError::Parse(format!(
            "internal dependencies without `version = \"...\"` in [workspace.dependencies]: {}",
            missing.join(", ")
        )));
    }
    Ok(out)
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

    const MANIFEST: &str = r#"[workspace]
resolver = "3"
members = ["crates/*", "examples", "xtask"]

[workspace.package]
version = "0.1.0" # bumped by `cargo xtask bump`
edition = "2024"
rust-version = "1.88"
description = """
[not.a.table]
version = "9.9.9"
"""

[workspace.dependencies]
# internal
txc-types = { path = "crates/txc-types", version = "0.1.0" }
txc-sign = { version = "0.1.0", path = "crates/txc-sign" }
"txc-blocking" = {path="crates/txc-blocking",version="0.1.0",default-features=false}
# core
serde = { version = "1.0.219", features = ["derive"] }
txcx = { version = "0.1.0", path = "elsewhere" }
rust_decimal = { version = "1.37", default-features = false }

[workspace.dependencies.txc-sandbox]
path = "crates/txc-sandbox"
version = "0.1.0"
features = ["version = \"x\""]

[workspace.lints.rust]
missing_docs = "warn"
"#;

    #[test]
    fn reads_workspace_values() {
        assert_eq!(workspace_version(MANIFEST).unwrap(), Version::new(0, 1, 0));
        assert_eq!(workspace_rust_version(MANIFEST).unwrap(), "1.88");
    }

    #[test]
    fn bumps_workspace_and_internal_versions() {
        let out = bump_manifest(MANIFEST, &"0.2.0".parse().unwrap()).unwrap();
        insta::assert_snapshot!(out);
        assert_eq!(workspace_version(&out).unwrap(), Version::new(0, 2, 0));
    }

    #[test]
    fn bumps_the_real_root_manifest_in_place() {
        let root = include_str!("../../Cargo.toml");
        let current = workspace_version(root).unwrap();
        let next = Version::new(current.major, current.minor + 1, 0);
        let out = bump_manifest(root, &next).unwrap();
        assert_eq!(workspace_version(&out).unwrap(), next);
        assert_eq!(root.lines().count(), out.lines().count());
        let changed: Vec<(&str, &str)> = root
            .lines()
            .zip(out.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert!(
            changed.len() >= 2,
            "workspace version and internal crates: {changed:?}"
        );
        for (before, after) in changed {
            assert_eq!(
                before.replace(&current.to_string(), &next.to_string()),
                after,
                "only versions change"
            );
            assert!(
                before.starts_with("version") || before.starts_with("txc-"),
                "{before}"
            );
        }
    }

    #[test]
    fn preserves_crlf_and_missing_final_newline() {
        let input = "[workspace.package]\r\nversion = \"1.2.3\"\r\n\r\n[workspace.dependencies]\r\ntxc-types = { path = \"a\", version = \"1.2.3\" }";
        let out = bump_manifest(input, &"1.3.0".parse().unwrap()).unwrap();
        assert_eq!(
            out,
            "[workspace.package]\r\nversion = \"1.3.0\"\r\n\r\n[workspace.dependencies]\r\ntxc-types = { path = \"a\", version = \"1.3.0\" }"
        );
    }

    #[test]
    fn refuses_internal_dependency_without_version() {
        let input = "[workspace.package]\nversion = \"0.1.0\"\n[workspace.dependencies]\ntxc-sign = { path = \"crates/txc-sign\" }\n";
        let err = bump_manifest(input, &"0.2.0".parse().unwrap()).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @r#"internal dependencies without `version = "..."` in [workspace.dependencies]: txc-sign"#);
    }

    #[test]
    fn refuses_manifest_without_workspace_version() {
        let err =
            bump_manifest("[workspace]\nmembers = []\n", &"0.2.0".parse().unwrap()).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @r#"no `version = "..."` in [workspace.package]"#);
    }

    #[test]
    fn detects_inherited_keys() {
        let member = "[package]\nname = \"a\"\nrust-version.workspace = true\nedition = { workspace = true } # inherited\n\n[dependencies]\nlicense.workspace = true\n";
        assert!(inherits_workspace(member, "rust-version"));
        assert!(inherits_workspace(member, "edition"));
        assert!(!inherits_workspace(member, "license"));
        assert!(!inherits_workspace(
            "[package]\nrust-version = \"1.88\"\n",
            "rust-version"
        ));
    }

    #[test]
    fn table_headers() {
        assert_eq!(
            table_header("[workspace.package] # x").as_deref(),
            Some("workspace.package")
        );
        assert_eq!(table_header("[[bin]]").as_deref(), Some("bin"));
        assert_eq!(
            table_header("[ workspace . \"dependencies\" ]").as_deref(),
            Some("workspace.dependencies")
        );
        assert_eq!(table_header("[\"a\"],"), None);
        assert_eq!(table_header("version = \"[x]\""), None);
    }
}

//! `cargo xtask bump <patch|minor|major|X.Y.Z>`: the new workspace version in `Cargo.toml`,
//! the released changelog section, and the lockfile's own entries refreshed.

use anyhow::{Context as _, bail};
use jiff::tz::TimeZone;
use semver::Version;
use toml_edit::DocumentMut;
use xshell::{Shell, cmd};

use crate::{changelog, manifest};

/// The version after `current` for `level`; any pre-release part is dropped. An explicit
/// version may equal `current` (releasing the version the manifest has, e.g. the first
/// `0.1.0`) but not be lower.
pub(crate) fn next_version(current: &Version, level: &str) -> anyhow::Result<Version> {
    let next = match level {
        "patch" => Version::new(current.major, current.minor, current.patch + 1),
        "minor" => Version::new(current.major, current.minor + 1, 0),
        "major" => Version::new(current.major + 1, 0, 0),
        exact => Version::parse(exact)
            .with_context(|| format!("expected patch, minor, major or X.Y.Z, not `{exact}`"))?,
    };
    if next < *current {
        bail!("new version {next} is lower than the current version {current}");
    }
    Ok(next)
}

pub(crate) fn run(sh: &Shell, level: &str) -> anyhow::Result<()> {
    let mut doc: DocumentMut = sh.read_file("Cargo.toml")?.parse()?;
    let current = manifest::workspace_version(&doc)?;
    let new = next_version(&current, level)?;
    let today = jiff::Timestamp::now().to_zoned(TimeZone::UTC).date();
    // Both edits are computed before either is written, so a refusal changes nothing.
    manifest::bump_versions(&mut doc, &new)?;
    let changelog = changelog::release(&sh.read_file("CHANGELOG.md")?, &new, today)?;
    sh.write_file("Cargo.toml", doc.to_string())?;
    sh.write_file("CHANGELOG.md", changelog)?;
    if new == current {
        println!("Cargo.toml: already at {new}");
    } else {
        println!("Cargo.toml: {current} -> {new}");
    }
    println!("CHANGELOG.md: `## Unreleased` -> `## {new} - {today}`");
    if sh.path_exists("Cargo.lock")
        && let Err(e) = cmd!(sh, "cargo update --workspace").run()
    {
        eprintln!("warning: could not refresh Cargo.lock ({e}); run `cargo update --workspace`");
    }
    println!("next: review the diff, commit, then `cargo xtask release` (dry run)");
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn next_versions() {
        let next = |current: &str, level: &str| {
            next_version(&Version::parse(current).unwrap(), level).map(|v| v.to_string())
        };
        assert_eq!(next("0.1.7", "patch").unwrap(), "0.1.8");
        assert_eq!(next("0.1.7", "minor").unwrap(), "0.2.0");
        assert_eq!(next("0.1.7", "major").unwrap(), "1.0.0");
        assert_eq!(next("0.1.7", "0.3.0-rc.1").unwrap(), "0.3.0-rc.1");
        assert_eq!(next("0.1.7", "0.1.7").unwrap(), "0.1.7");
        assert_eq!(next("1.0.0-rc.1", "patch").unwrap(), "1.0.1");
        insta::assert_snapshot!(next("0.1.7", "0.1.0").unwrap_err(), @"new version 0.1.0 is lower than the current version 0.1.7");
        insta::assert_snapshot!(next("0.1.7", "huge").unwrap_err(), @"expected patch, minor, major or X.Y.Z, not `huge`");
    }
}

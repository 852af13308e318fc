//! `cargo xtask bump <patch|minor|major|X.Y.Z>`: new workspace version plus a
//! released changelog section.

use std::fs;

use crate::changelog::release_changelog;
use crate::cmd::{Cmd, workspace_root};
use crate::date::Date;
use crate::error::XtaskError;
use crate::manifest::{bump_manifest, workspace_version};
use crate::version::Bump;

/// Runs `bump` with the arguments after the command name.
pub(crate) fn run(args: &[String]) -> Result<(), XtaskError> {
    let [level] = args else {
        return Err(XtaskError::Usage(
            "cargo xtask bump <patch|minor|major|X.Y.Z>".into(),
        ));
    };
    let bump: Bump = level.parse()?;
    let root = workspace_root();
    let manifest_path = root.join("Cargo.toml");
    let changelog_path = root.join("CHANGELOG.md");

    let manifest = fs::read_to_string(&manifest_path).map_err(XtaskError::io(format!(
        "reading {}",
        manifest_path.display()
    )))?;
    let changelog = fs::read_to_string(&changelog_path).map_err(XtaskError::io(format!(
        "reading {}",
        changelog_path.display()
    )))?;
    let current = workspace_version(&manifest)?;
    let new = bump.apply(&current)?;
    let date = Date::today_utc()?;

    // Compute both edits before writing either, so a refusal changes nothing.
    let new_manifest = bump_manifest(&manifest, &new)?;
    let new_changelog = release_changelog(&changelog, &new, date)?;
    fs::write(&manifest_path, new_manifest).map_err(XtaskError::io(format!(
        "writing {}",
        manifest_path.display()
    )))?;
    fs::write(&changelog_path, new_changelog).map_err(XtaskError::io(format!(
        "writing {}",
        changelog_path.display()
    )))?;
    if new == current {
        println!("Cargo.toml: already at {new}");
    } else {
        println!("Cargo.toml: {current} -> {new}");
    }
    println!("CHANGELOG.md: `## Unreleased` -> `## {new} - {date}`");

    if root.join("Cargo.lock").exists() {
        // Refresh the workspace's own entries in the lockfile.
        if let Err(e) = Cmd::cargo().args(["update", "--workspace"]).run() {
            eprintln!(
                "warning: could not refresh Cargo.lock ({e}); run `cargo update --workspace`"
            );
        }
    }
    println!("next: review the diff, commit, then `cargo xtask release` (dry run)");
    Ok(())
}

//! `cargo xtask bump` on a copy of the small workspace in `tests/fixture`: the manifest, the
//! changelog and the lockfile move together, and a refused bump changes nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn xtask(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn read(dir: &Path, file: &str) -> String {
    fs::read_to_string(dir.join(file)).unwrap()
}

#[test]
fn bump_moves_manifest_changelog_and_lockfile_together() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixture"),
        dir,
    );
    let fixture_manifest = read(dir, "Cargo.toml");

    let output = xtask(dir, &["bump", "minor"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("Cargo.toml: 0.1.0 -> 0.2.0"), "{stdout}");

    // Every version, and nothing else, changed in the manifest.
    let manifest = read(dir, "Cargo.toml");
    assert_eq!(manifest, fixture_manifest.replace("\"0.1.0\"", "\"0.2.0\""));
    assert!(manifest.contains("version = \"0.2.0\" # bumped by `cargo xtask bump`"));
    // The members' lockfile entries follow.
    let lock = read(dir, "Cargo.lock");
    assert_eq!(lock.matches("version = \"0.2.0\"").count(), 2, "{lock}");

    // A new, empty Unreleased above the released section, dated today (UTC).
    let changelog = read(dir, "CHANGELOG.md");
    let (head, tail) = changelog.split_once("\n\n## 0.2.0 - ").expect(&changelog);
    assert_eq!(head, "# Changelog\n\n## Unreleased");
    let (date, rest) = tail.split_once('\n').unwrap();
    assert!(stdout.contains(&format!("`## 0.2.0 - {date}`")), "{stdout}");
    let date: jiff::civil::Date = date.parse().unwrap();
    let today = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date();
    // (or yesterday, when the bump ran just before midnight)
    assert!(
        date == today || today.yesterday().ok() == Some(date),
        "{date} is not {today}"
    );
    assert!(rest.starts_with("\n### Added\n- `txc-b`: something new.\n\n## 0.1.0"));

    // Unreleased is empty now, and 0.0.1 is lower: both refused, nothing written.
    for args in [&["bump", "patch"][..], &["bump", "0.0.1"]] {
        let output = xtask(dir, args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).starts_with("xtask: error: "));
        assert_eq!(read(dir, "Cargo.toml"), manifest);
        assert_eq!(read(dir, "CHANGELOG.md"), changelog);
    }
}

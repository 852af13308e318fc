//! Reading and releasing `CHANGELOG.md` (`## Unreleased` → `## X.Y.Z - date`).

use crate::date::Date;
use crate::error::XtaskError;
use crate::version::Version;

/// What the changelog says about a version that is about to be released.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChangelogStatus {
    /// A `## <version>` section exists.
    Released,
    /// No section for the version, but `## Unreleased` has content that
    /// `cargo xtask bump` would turn into one.
    Unreleased,
    /// Neither: no section for the version and an empty (or no) Unreleased.
    Missing,
}

/// The text of a level-2 heading (`## text`), if `line` is one.
fn h2(line: &str) -> Option<&str> {
    line.strip_prefix("## ").map(str::trim)
}

/// Whether a heading text names the Unreleased section (`Unreleased` or
/// `[Unreleased]`, any case).
fn is_unreleased(heading: &str) -> bool {
    let name = heading.trim_start_matches('[');
    let name = name.split([']', ' ']).next().unwrap_or_default();
    name.eq_ignore_ascii_case("unreleased")
}

/// Whether a heading text names `version` (`0.2.0`, `0.2.0 - 2025-01-01`,
/// `[0.2.0] - ...`, `v0.2.0`).
fn is_version_heading(heading: &str, version: &str) -> bool {
    let name = heading.trim_start_matches('[');
    let name = name.split([']', ' ']).next().unwrap_or_default();
    name.strip_prefix('v').unwrap_or(name) == version
}

/// The body lines of the Unreleased section: its index and the lines up to
/// the next level-2 heading.
fn unreleased_section<'a>(lines: &[&'a str]) -> Option<(usize, Vec<&'a str>)> {
    let start = lines
        .iter()
        .position(|l| h2(l).is_some_and(is_unreleased))?;
    let body = lines
        .iter()
        .skip(start + 1)
        .take_while(|l| h2(l).is_none())
        .copied()
        .collect();
    Some((start, body))
}

/// Classifies the changelog with respect to `version`.
pub(crate) fn changelog_status(md: &str, version: &Version) -> ChangelogStatus {
    let version = version.to_string();
    let lines: Vec<&str> = md.lines().collect();
    if lines
        .iter()
        .any(|l| h2(l).is_some_and(|h| is_version_heading(h, &version)))
    {
        return ChangelogStatus::Released;
    }
    match unreleased_section(&lines) {
        Some((_, body)) if body.iter().any(|l| !l.trim().is_empty()) => ChangelogStatus::Unreleased,
        _ => ChangelogStatus::Missing,
    }
}

/// Turns the `## Unreleased` section into `## <version> - <date>` and opens a
/// new, empty `## Unreleased` above it. Refuses a missing or whitespace-only
/// Unreleased section and a version that already has a section.
pub(crate) fn release_changelog(
    md: &str,
    version: &Version,
    date: Date,
) -> Result<String, XtaskError> {
    let nl = if md.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = md.lines().collect();
    let version_text = version.to_string();
    if lines
        .iter()
        .any(|l| h2(l).is_some_and(|h| is_version_heading(h, &version_text)))
    {
        return Err(XtaskError::Parse(format!(
            "CHANGELOG.md already has a section for {version}"
        )));
    }
    let (start, body) = unreleased_section(&lines)
        .ok_or_else(|| XtaskError::Parse("CHANGELOG.md has no `## Unreleased` section".into()))?;
    if body.iter().all(|l| l.trim().is_empty()) {
        return Err(XtaskError::Parse(
            "the `## Unreleased` section of CHANGELOG.md is empty: describe the release first"
                .into(),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 2);
    for (i, line) in lines.iter().enumerate() {
        if i == start {
            // Keep the author's spelling of the Unreleased heading.
            out.push((*line).to_owned());
            out.push(String::new());
            out.push(format!("## {version} - {date}"));
        } else {
            out.push((*line).to_owned());
        }
    }
    let mut text = out.join(nl);
    if md.ends_with('\n') {
        text.push_str(nl);
    }
    Ok(text)
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

    const DATE: Date = Date {
        year: 2025,
        month: 6,
        day: 30,
    };

    const CHANGELOG: &str = "# Changelog

All notable changes to this project are documented here.

## Unreleased

### Added
- `txc-async`: collateral order endpoints.

### Fixed
- Nonce handling in `txc-sign`.

## 0.1.0 - 2025-05-01

- Initial release.
";

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    #[test]
    fn releases_unreleased_section() {
        let out = release_changelog(CHANGELOG, &v("0.2.0"), DATE).unwrap();
        insta::assert_snapshot!(out);
    }

    #[test]
    fn releases_last_section_without_trailing_newline() {
        let md = "# Changelog\n\n## [Unreleased]\n\n- Something.";
        let out = release_changelog(md, &v("1.0.0"), DATE).unwrap();
        insta::assert_snapshot!(out, @r"
        # Changelog

        ## [Unreleased]

        ## 1.0.0 - 2025-06-30

        - Something.
        ");
    }

    #[test]
    fn refuses_empty_unreleased_section() {
        let md = "# Changelog\n\n## Unreleased\n   \n\t\n\n## 0.1.0 - 2025-05-01\n\n- Initial.\n";
        let err = release_changelog(md, &v("0.2.0"), DATE).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @"the `## Unreleased` section of CHANGELOG.md is empty: describe the release first");
    }

    #[test]
    fn refuses_missing_unreleased_and_existing_version() {
        let err =
            release_changelog("# Changelog\n\n## 0.1.0\n- x\n", &v("0.2.0"), DATE).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @"CHANGELOG.md has no `## Unreleased` section");
        let err = release_changelog(CHANGELOG, &v("0.1.0"), DATE).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @"CHANGELOG.md already has a section for 0.1.0");
    }

    #[test]
    fn subsection_headings_belong_to_unreleased() {
        let md = "## Unreleased\n### Added\n\n## 0.1.0\n";
        let err = release_changelog(md, &v("0.2.0"), DATE);
        assert!(err.is_ok(), "a ### heading is content");
    }

    #[test]
    fn classifies_changelog() {
        assert_eq!(
            changelog_status(CHANGELOG, &v("0.1.0")),
            ChangelogStatus::Released
        );
        assert_eq!(
            changelog_status(CHANGELOG, &v("0.2.0")),
            ChangelogStatus::Unreleased
        );
        assert_eq!(
            changelog_status("## Unreleased\n\n## 0.1.0\n", &v("0.2.0")),
            ChangelogStatus::Missing
        );
        assert_eq!(
            changelog_status("## [v0.2.0] - 2025-01-01\n", &v("0.2.0")),
            ChangelogStatus::Released
        );
    }
}

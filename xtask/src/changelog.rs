//! `CHANGELOG.md`'s release sections: `## Unreleased` becomes `## X.Y.Z - date` under a new,
//! empty `## Unreleased`.

use anyhow::{Context as _, bail};
use jiff::civil::Date;
use semver::Version;

/// The first word of a level-2 heading without brackets or a `v` (`[v0.2.0] - ...` → `0.2.0`).
fn h2_name(line: &str) -> Option<&str> {
    let name = line.strip_prefix("## ")?.trim().trim_start_matches('[');
    let name = name.split([']', ' ']).next().unwrap_or_default();
    Some(name.strip_prefix('v').unwrap_or(name))
}

/// The index of the `## Unreleased` heading (any case, brackets allowed) and whether its
/// section has any non-blank line before the next level-2 heading.
fn unreleased(lines: &[&str]) -> Option<(usize, bool)> {
    let start = lines
        .iter()
        .position(|l| h2_name(l).is_some_and(|n| n.eq_ignore_ascii_case("unreleased")))?;
    let has_content = lines
        .iter()
        .skip(start + 1)
        .take_while(|l| h2_name(l).is_none())
        .any(|l| !l.trim().is_empty());
    Some((start, has_content))
}

/// Whether the changelog has a `## <version>` section.
pub(crate) fn has_section(md: &str, version: &Version) -> bool {
    let version = version.to_string();
    md.lines().any(|l| h2_name(l) == Some(version.as_str()))
}

/// Opens a new, empty `## Unreleased` above the old one, which becomes `## <version> - <date>`.
/// Refuses a missing or blank Unreleased section and a version that already has a section.
pub(crate) fn release(md: &str, version: &Version, date: Date) -> anyhow::Result<String> {
    let lines: Vec<&str> = md.lines().collect();
    if has_section(md, version) {
        bail!("CHANGELOG.md already has a section for {version}");
    }
    let (start, has_content) =
        unreleased(&lines).context("CHANGELOG.md has no `## Unreleased` section")?;
    if !has_content {
        bail!("the `## Unreleased` section of CHANGELOG.md is empty: describe the release first");
    }
    let nl = if md.contains("\r\n") { "\r\n" } else { "\n" };
    let heading = format!("{nl}## {version} - {date}");
    let mut out: Vec<&str> = lines.clone();
    // Keep the author's spelling of the Unreleased heading; the new section follows it.
    out.insert(start + 1, &heading);
    let mut text = out.join(nl);
    if md.ends_with('\n') {
        text.push_str(nl);
    }
    Ok(text)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use jiff::civil::date;

    use super::*;

    const CHANGELOG: &str = "# Changelog

## Unreleased

### Added
- `txc-async`: collateral order endpoints.

## 0.1.0 - 2025-05-01

- Initial release.
";

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    fn release_on_june_30(md: &str, version: &str) -> anyhow::Result<String> {
        release(md, &v(version), date(2025, 6, 30))
    }

    #[test]
    fn releases_unreleased_section() {
        insta::assert_snapshot!(release_on_june_30(CHANGELOG, "0.2.0").unwrap());
    }

    #[test]
    fn releases_last_section_without_trailing_newline_and_keeps_crlf() {
        let out = release_on_june_30("# Changelog\n\n## [Unreleased]\n\n- Something.", "1.0.0");
        insta::assert_snapshot!(out.unwrap(), @r"
        # Changelog

        ## [Unreleased]

        ## 1.0.0 - 2025-06-30

        - Something.
        ");
        let out = release_on_june_30("## Unreleased\r\n- x\r\n", "1.0.0").unwrap();
        assert_eq!(out, "## Unreleased\r\n\r\n## 1.0.0 - 2025-06-30\r\n- x\r\n");
    }

    #[test]
    fn refuses_empty_or_missing_unreleased_and_existing_version() {
        let blank = "## Unreleased\n   \n\t\n\n## 0.1.0 - 2025-05-01\n\n- Initial.\n";
        let errors = [
            release_on_june_30(blank, "0.2.0"),
            release_on_june_30("# Changelog\n\n## 0.1.0\n- x\n", "0.2.0"),
            release_on_june_30(CHANGELOG, "0.1.0"),
        ]
        .map(|r| r.unwrap_err().to_string());
        insta::assert_debug_snapshot!(errors, @r#"
        [
            "the `## Unreleased` section of CHANGELOG.md is empty: describe the release first",
            "CHANGELOG.md has no `## Unreleased` section",
            "CHANGELOG.md already has a section for 0.1.0",
        ]
        "#);
        assert!(release_on_june_30("## Unreleased\n### Added\n\n## 0.1.0\n", "0.2.0").is_ok());
    }

    #[test]
    fn finds_version_sections() {
        assert!(has_section(CHANGELOG, &v("0.1.0")));
        assert!(has_section("## [v0.2.0] - 2025-01-01\n", &v("0.2.0")));
        assert!(!has_section(CHANGELOG, &v("0.2.0")));
    }
}

//! The few git queries `release` needs.

use crate::cmd::Cmd;
use crate::error::XtaskError;
use crate::version::Version;

/// `git status --porcelain` lines (empty when the tree is clean).
pub(crate) fn dirty_files() -> Result<Vec<String>, XtaskError> {
    let out = Cmd::new("git").args(["status", "--porcelain"]).read()?;
    Ok(out.lines().map(str::to_owned).collect())
}

/// The commit a tag points at, if the tag exists.
pub(crate) fn tag_commit(tag: &str) -> Option<String> {
    Cmd::new("git")
        .args(["rev-parse", "-q", "--verify"])
        .arg(format!("refs/tags/{tag}^{{commit}}"))
        .probe()
}

/// The commit checked out.
pub(crate) fn head() -> Result<String, XtaskError> {
    Ok(Cmd::new("git")
        .args(["rev-parse", "HEAD"])
        .read()?
        .trim()
        .to_owned())
}

/// All `v*` tags.
pub(crate) fn version_tags() -> Result<Vec<String>, XtaskError> {
    let out = Cmd::new("git").args(["tag", "--list", "v*"]).read()?;
    Ok(out.lines().map(|l| l.trim().to_owned()).collect())
}

/// The tag of the greatest version lower than `current` among `tags`
/// (`vX.Y.Z`; others are ignored).
pub(crate) fn previous_tag(tags: &[String], current: &Version) -> Option<String> {
    tags.iter()
        .filter_map(|t| Some((t.strip_prefix('v')?.parse::<Version>().ok()?, t)))
        .filter(|(v, _)| v < current)
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, t)| t.clone())
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

    #[test]
    fn finds_previous_tag() {
        let tags: Vec<String> = [
            "v0.1.0",
            "v0.10.0",
            "v0.9.1",
            "v0.2.0-rc.1",
            "nightly",
            "vx",
            "v1.0.0",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let v = |s: &str| s.parse::<Version>().unwrap();
        assert_eq!(previous_tag(&tags, &v("1.0.0")).as_deref(), Some("v0.10.0"));
        assert_eq!(
            previous_tag(&tags, &v("0.2.0")).as_deref(),
            Some("v0.2.0-rc.1")
        );
        assert_eq!(previous_tag(&tags, &v("0.1.0")), None);
        assert_eq!(previous_tag(&[], &v("0.1.0")), None);
    }
}

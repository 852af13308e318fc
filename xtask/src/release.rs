//! `cargo xtask release [--execute]`: pre-release checks (a dry run by default), then
//! `cargo publish --workspace` (cargo orders the crates) and the tag.

use anyhow::ensure;
use semver::Version;
use xshell::{Shell, cmd};

use crate::changelog;
use crate::{has_cargo_tool, manifest, metadata, published};

/// The result of one pre-release check, with what it found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Ok(String),
    Skipped(String),
    Failed(String),
}

pub(crate) fn run(sh: &Shell, execute: bool) -> anyhow::Result<()> {
    let version = manifest::workspace_version(&sh.read_file("Cargo.toml")?.parse()?)?;
    let tag = format!("v{version}");
    let meta = metadata(sh)?;
    let crates = published(&meta);
    let names: Vec<&str> = crates.iter().map(|p| p.name.as_str()).collect();
    let mode = if execute { "EXECUTE" } else { "dry run" };
    println!("release {tag} ({mode}): {}", names.join(", "));

    let dirty = cmd!(sh, "git status --porcelain").quiet().read()?;
    let head = cmd!(sh, "git rev-parse HEAD").quiet().read()?;
    let changelog = sh.read_file("CHANGELOG.md")?;
    let wrong = crates.iter().filter(|p| p.version != version);
    let wrong: Vec<String> = wrong
        .map(|p| format!("{} is {}", p.name, p.version))
        .collect();
    let mut ok = report("clean tree", clean(&dirty));
    ok &= report("tag", tag_check(&tag, tag_commit(sh, &tag), &head));
    ok &= report("changelog", changelog_check(&changelog, &version, execute));
    ok &= report(
        "versions",
        match wrong.is_empty() {
            true => Outcome::Ok(format!("every published crate is {version}")),
            false => Outcome::Failed(format!("expected {version}: {}", wrong.join(", "))),
        },
    );
    // Packaging compiles every crate (verified from the packaged sources): only once the cheap
    // checks passed. Cleanliness is its own check, hence --allow-dirty.
    if ok {
        let package = cmd!(sh, "cargo publish --workspace --dry-run --allow-dirty").run();
        let package = ran(package, "every publishable crate packages and builds");
        ok &= report("package", package);
        ok &= report("semver", semver(sh, &version));
    }
    ensure!(ok, "check failed: release {tag} is not ready");
    let tagged = tag_commit(sh, &tag).is_some();
    if !execute {
        let tagging = match tagged {
            true => format!("({tag} already exists)"),
            false => format!("and tag {tag}"),
        };
        let names = names.join(", ");
        println!("dry run ok: `cargo xtask release --execute` would publish {names} {tagging}");
        return Ok(());
    }
    // Cargo publishes in dependency order and waits for each crate to be available. If it stops
    // half-way, publish the rest with `cargo publish -p <crate>...`.
    cmd!(sh, "cargo publish --workspace").run()?;
    if !tagged {
        let message = format!("txc {version}");
        cmd!(sh, "git tag -a {tag} -m {message}").run()?;
        println!("created tag {tag}: push it with `git push origin {tag}`");
    }
    println!("released {tag}");
    Ok(())
}

/// Prints a check's outcome; `false` when it failed.
fn report(name: &str, outcome: Outcome) -> bool {
    let (mark, text) = match &outcome {
        Outcome::Ok(t) => ("ok  ", t),
        Outcome::Skipped(t) => ("skip", t),
        Outcome::Failed(t) => ("FAIL", t),
    };
    println!("[{mark}] {name}: {text}");
    !matches!(outcome, Outcome::Failed(_))
}

/// The outcome of a command that is a check.
fn ran(result: xshell::Result<()>, ok: &str) -> Outcome {
    result.map_or_else(
        |e| Outcome::Failed(e.to_string()),
        |()| Outcome::Ok(ok.to_owned()),
    )
}

/// The commit a tag points at, if the tag exists.
fn tag_commit(sh: &Shell, tag: &str) -> Option<String> {
    let rev = format!("refs/tags/{tag}^{{commit}}");
    cmd!(sh, "git rev-parse -q --verify {rev}")
        .quiet()
        .ignore_stderr()
        .read()
        .ok()
}

/// Fails on uncommitted changes (`git status --porcelain` output), naming up to eight.
pub(crate) fn clean(porcelain: &str) -> Outcome {
    let dirty: Vec<&str> = porcelain.lines().map(str::trim).collect();
    let mut shown = dirty.iter().take(8).copied().collect::<Vec<_>>().join("; ");
    match dirty.len() {
        0 => return Outcome::Ok("git status --porcelain is empty".into()),
        n @ 9.. => shown.push_str(&format!(" and {} more", n - 8)),
        _ => {}
    }
    Outcome::Failed(format!("uncommitted changes: {shown}"))
}

/// A tag may exist only at HEAD (a tag-triggered release runs on the tagged commit itself).
pub(crate) fn tag_check(tag: &str, commit: Option<String>, head: &str) -> Outcome {
    match commit {
        None => Outcome::Ok(format!("{tag} does not exist yet")),
        Some(c) if c.trim() == head.trim() => Outcome::Ok(format!(
            "{tag} already points at HEAD (tag-triggered release)"
        )),
        Some(c) => Outcome::Failed(format!("{tag} already exists at {c}, not at HEAD")),
    }
}

/// Publishing needs the version's section; a dry run accepts an Unreleased section that
/// `cargo xtask bump` can release.
pub(crate) fn changelog_check(md: &str, version: &Version, execute: bool) -> Outcome {
    let today = jiff::civil::date(2000, 1, 1);
    match changelog::release(md, version, today) {
        _ if changelog::has_section(md, version) => {
            Outcome::Ok(format!("section `## {version}` present"))
        }
        Ok(_) if execute => Outcome::Failed(format!(
            "no `## {version}` section (Unreleased has content): run `cargo xtask bump` first"
        )),
        Ok(_) => Outcome::Ok(format!(
            "no `## {version}` section, but `## Unreleased` is non-empty (`cargo xtask bump` releases it)"
        )),
        Err(e) => Outcome::Failed(format!("no `## {version}` section, and {e}")),
    }
}

/// The greatest `vX.Y.Z` tag below `current` among `tags` (others are ignored).
pub(crate) fn previous_tag<'a>(tags: &'a str, current: &Version) -> Option<&'a str> {
    tags.lines()
        .map(str::trim)
        .filter_map(|t| Some((Version::parse(t.strip_prefix('v')?).ok()?, t)))
        .filter(|(v, _)| v < current)
        .max()
        .map(|(_, t)| t)
}

/// `cargo semver-checks` against the previous release tag; skipped without the tool or a tag.
fn semver(sh: &Shell, version: &Version) -> Outcome {
    if !has_cargo_tool(sh, "semver-checks") {
        return Outcome::Skipped(
            "cargo-semver-checks is not installed (cargo install --locked cargo-semver-checks)"
                .into(),
        );
    }
    let tags = cmd!(sh, "git tag --list v*").quiet().read();
    let tags = tags.unwrap_or_default();
    let Some(previous) = previous_tag(&tags, version) else {
        return Outcome::Skipped(format!("no release tag before v{version}"));
    };
    let check = cmd!(sh, "cargo semver-checks check-release --workspace").arg("--baseline-rev");
    let ok = format!("no semver violations since {previous}");
    ran(check.arg(previous).run(), &ok)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn finds_previous_tag() {
        let tags = "v0.1.0\nv0.10.0\nv0.9.1\nv0.2.0-rc.1\nnightly\nvx\nv1.0.0\n";
        assert_eq!(previous_tag(tags, &v("1.0.0")), Some("v0.10.0"));
        assert_eq!(previous_tag(tags, &v("0.2.0")), Some("v0.2.0-rc.1"));
        assert_eq!(previous_tag(tags, &v("0.1.0")), None);
        assert_eq!(previous_tag("", &v("0.1.0")), None);
    }

    #[test]
    fn checks() {
        let outcomes = [
            clean(""),
            clean(
                &(0..10)
                    .map(|i| format!("M f{i}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            tag_check("v0.2.0", None, "abc"),
            tag_check("v0.2.0", Some("abc\n".into()), "abc"),
            tag_check("v0.2.0", Some("def".into()), "abc"),
            changelog_check("## 0.2.0\n", &v("0.2.0"), true),
            changelog_check("## Unreleased\n- x\n", &v("0.2.0"), false),
            changelog_check("## Unreleased\n- x\n", &v("0.2.0"), true),
            changelog_check("## Unreleased\n\n## 0.1.0\n", &v("0.2.0"), false),
        ];
        insta::assert_debug_snapshot!(outcomes);
    }
}

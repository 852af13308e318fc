//! Semantic versions and the argument of `cargo xtask bump`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::XtaskError;

/// A `MAJOR.MINOR.PATCH[-PRE]` semantic version (build metadata is rejected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Version {
    /// Major component.
    pub(crate) major: u64,
    /// Minor component.
    pub(crate) minor: u64,
    /// Patch component.
    pub(crate) patch: u64,
    /// Pre-release identifiers after `-`, if any (e.g. `rc.1`).
    pub(crate) pre: Option<String>,
}

impl Version {
    /// A release version without pre-release identifiers.
    pub(crate) const fn new(major: u64, minor: u64, patch: u64) -> Self {
        Self {
            major,
            minor,
            patch,
            pre: None,
        }
    }
}

fn parse_component(part: &str, whole: &str) -> Result<u64, XtaskError> {
    let valid = !part.is_empty()
        && part.bytes().all(|b| b.is_ascii_digit())
        && (part == "0" || !part.starts_with('0'));
    if !valid {
        return Err(XtaskError::Parse(format!(
            "invalid version `{whole}`: `{part}` is not a number"
        )));
    }
    part.parse()
        .map_err(|e| XtaskError::Parse(format!("invalid version `{whole}`: {e}")))
}

impl FromStr for Version {
    type Err = XtaskError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (core, pre) = match s.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (s, None),
        };
        if s.contains('+') {
            return Err(XtaskError::Parse(format!(
                "invalid version `{s}`: build metadata is not supported"
            )));
        }
        let mut parts = core.split('.');
        let (Some(major), Some(minor), Some(patch), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(XtaskError::Parse(format!(
                "invalid version `{s}`: expected MAJOR.MINOR.PATCH"
            )));
        };
        if let Some(pre) = pre {
            let ok = pre.split('.').all(|id| {
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            });
            if !ok {
                return Err(XtaskError::Parse(format!(
                    "invalid version `{s}`: bad pre-release `{pre}`"
                )));
            }
        }
        Ok(Self {
            major: parse_component(major, s)?,
            minor: parse_component(minor, s)?,
            patch: parse_component(patch, s)?,
            pre: pre.map(str::to_owned),
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if let Some(pre) = &self.pre {
            write!(f, "-{pre}")?;
        }
        Ok(())
    }
}

/// Compares pre-release strings by semver precedence.
fn cmp_pre(a: &str, b: &str) -> Ordering {
    let mut left = a.split('.');
    let mut right = b.split('.');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let ord = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => x.cmp(y),
                };
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => cmp_pre(a, b),
            })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// What `cargo xtask bump` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Bump {
    /// `X.Y.Z` → `X.Y.(Z+1)`.
    Patch,
    /// `X.Y.Z` → `X.(Y+1).0`.
    Minor,
    /// `X.Y.Z` → `(X+1).0.0`.
    Major,
    /// An explicit version, which must not be lower than the current one.
    Exact(Version),
}

impl FromStr for Bump {
    type Err = XtaskError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "patch" => Ok(Self::Patch),
            "minor" => Ok(Self::Minor),
            "major" => Ok(Self::Major),
            other => other.parse().map(Self::Exact).map_err(|e| {
                XtaskError::Usage(format!("expected patch, minor, major or X.Y.Z ({e})"))
            }),
        }
    }
}

impl Bump {
    /// The version following `current`; any pre-release part is dropped.
    /// An explicit version may equal `current` (releasing the version the
    /// manifest already has, e.g. the first `0.1.0`) but not be lower.
    pub(crate) fn apply(&self, current: &Version) -> Result<Version, XtaskError> {
        let next = match self {
            Self::Patch => Version::new(current.major, current.minor, current.patch + 1),
            Self::Minor => Version::new(current.major, current.minor + 1, 0),
            Self::Major => Version::new(current.major + 1, 0, 0),
            Self::Exact(v) => v.clone(),
        };
        if next < *current {
            return Err(XtaskError::Usage(format!(
                "new version {next} is lower than the current version {current}"
            )));
        }
        Ok(next)
    }
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

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    #[test]
    fn parses_and_displays() {
        assert_eq!(v("0.1.0"), Version::new(0, 1, 0));
        assert_eq!(v("1.2.3-rc.1").to_string(), "1.2.3-rc.1");
        for bad in [
            "1.2",
            "1.2.3.4",
            "01.2.3",
            "a.b.c",
            "1.2.3+meta",
            "1.2.3-",
            "",
        ] {
            assert!(bad.parse::<Version>().is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn orders_by_semver_precedence() {
        let mut list = vec![
            v("1.0.0"),
            v("1.0.0-rc.1"),
            v("1.0.0-alpha"),
            v("1.0.0-alpha.beta"),
            v("1.0.0-alpha.1"),
            v("0.9.10"),
            v("0.10.0"),
            v("1.0.0-rc.11"),
            v("1.0.0-rc.2"),
        ];
        list.sort();
        let shown: Vec<String> = list.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "0.9.10",
                "0.10.0",
                "1.0.0-alpha",
                "1.0.0-alpha.1",
                "1.0.0-alpha.beta",
                "1.0.0-rc.1",
                "1.0.0-rc.2",
                "1.0.0-rc.11",
                "1.0.0",
            ]
        );
    }

    #[test]
    fn bumps() {
        let cur = v("0.1.7");
        assert_eq!(
            "patch".parse::<Bump>().unwrap().apply(&cur).unwrap(),
            v("0.1.8")
        );
        assert_eq!(
            "minor".parse::<Bump>().unwrap().apply(&cur).unwrap(),
            v("0.2.0")
        );
        assert_eq!(
            "major".parse::<Bump>().unwrap().apply(&cur).unwrap(),
            v("1.0.0")
        );
        assert_eq!(
            "0.3.0-rc.1".parse::<Bump>().unwrap().apply(&cur).unwrap(),
            v("0.3.0-rc.1")
        );
        assert_eq!("0.1.7".parse::<Bump>().unwrap().apply(&cur).unwrap(), cur);
        assert!("0.1.0".parse::<Bump>().unwrap().apply(&cur).is_err());
        assert!("huge".parse::<Bump>().is_err());
        assert_eq!(
            "patch"
                .parse::<Bump>()
                .unwrap()
                .apply(&v("1.0.0-rc.1"))
                .unwrap(),
            v("1.0.1")
        );
    }
}

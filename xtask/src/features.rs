//! Feature combinations for `cargo xtask ci features`.

use std::collections::{BTreeMap, BTreeSet};

/// One `cargo check` feature selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Combination {
    /// Human-readable name (`no-default`, `default`, `all`, `only <f>`).
    pub(crate) label: String,
    /// The cargo arguments selecting it.
    pub(crate) args: Vec<String>,
}

/// Everything a set of features turns on: the features themselves plus the
/// raw entries (`dep:x`, `x/y`) they enable, transitively.
fn closure(features: &BTreeMap<String, Vec<String>>, start: &[&str]) -> BTreeSet<String> {
    let mut on = BTreeSet::new();
    let mut stack: Vec<String> = start.iter().map(|s| (*s).to_owned()).collect();
    while let Some(item) = stack.pop() {
        if !on.insert(item.clone()) {
            continue;
        }
        if let Some(enables) = features.get(&item) {
            stack.extend(enables.iter().cloned());
        }
    }
    on
}

/// The combinations to check for a crate with these `[features]`:
/// `--no-default-features`, the defaults, `--all-features`, and each single
/// feature on its own (with `--no-default-features`). Combinations enabling
/// exactly the same things as an earlier one are dropped.
pub(crate) fn combinations(features: &BTreeMap<String, Vec<String>>) -> Vec<Combination> {
    let strings = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
    let all_names: Vec<&str> = features
        .keys()
        .map(String::as_str)
        .filter(|f| *f != "default")
        .collect();
    let mut candidates = vec![
        (
            Combination {
                label: "no-default".into(),
                args: strings(&["--no-default-features"]),
            },
            BTreeSet::new(),
        ),
        (
            Combination {
                label: "default".into(),
                args: Vec::new(),
            },
            closure(features, &["default"])
                .into_iter()
                .filter(|f| f != "default")
                .collect(),
        ),
        (
            Combination {
                label: "all".into(),
                args: strings(&["--all-features"]),
            },
            closure(features, &all_names),
        ),
    ];
    for name in &all_names {
        candidates.push((
            Combination {
                label: format!("only {name}"),
                args: strings(&["--no-default-features", "--features", name]),
            },
            closure(features, &[name]),
        ));
    }
    let mut seen: Vec<BTreeSet<String>> = Vec::new();
    let mut out = Vec::new();
    for (combination, enabled) in candidates {
        if !seen.contains(&enabled) {
            seen.push(enabled);
            out.push(combination);
        }
    }
    out
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

    fn features(entries: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.iter().map(|s| (*s).to_owned()).collect()))
            .collect()
    }

    fn labels(c: &[Combination]) -> Vec<String> {
        c.iter()
            .map(|c| format!("{} [{}]", c.label, c.args.join(" ")))
            .collect()
    }

    #[test]
    fn no_features_is_a_single_check() {
        assert_eq!(
            labels(&combinations(&BTreeMap::new())),
            ["no-default [--no-default-features]"]
        );
        assert_eq!(
            labels(&combinations(&features(&[("default", &[])]))),
            ["no-default [--no-default-features]"]
        );
    }

    #[test]
    fn transport_crate() {
        let f = features(&[
            ("default", &["rustls"]),
            ("rustls", &["ureq/rustls"]),
            ("native-tls", &["ureq/native-tls"]),
            ("tracing", &["dep:tracing"]),
            ("rust_decimal", &["txc-types/rust_decimal"]),
        ]);
        insta::assert_snapshot!(labels(&combinations(&f)).join("\n"), @r"
        no-default [--no-default-features]
        default []
        all [--all-features]
        only native-tls [--no-default-features --features native-tls]
        only rust_decimal [--no-default-features --features rust_decimal]
        only tracing [--no-default-features --features tracing]
        ");
    }

    #[test]
    fn single_optional_feature() {
        let f = features(&[("default", &[]), ("rust_decimal", &["dep:rust_decimal"])]);
        assert_eq!(
            labels(&combinations(&f)),
            ["no-default [--no-default-features]", "all [--all-features]"]
        );
    }
}

//! Dependency ordering of the workspace's crates (for publishing).

use std::collections::{BTreeMap, BTreeSet};

use crate::error::XtaskError;

/// Orders the nodes of `graph` (node → the nodes it depends on) so that every
/// node comes after all of its dependencies. Among nodes that are ready at the
/// same time the alphabetically first comes first, so the order is
/// deterministic. Dependencies that are not nodes of the graph are ignored.
/// Fails on a cycle, naming the nodes that are part of or behind it.
pub(crate) fn topo_order(
    graph: &BTreeMap<String, BTreeSet<String>>,
) -> Result<Vec<String>, XtaskError> {
    // Remaining in-graph dependencies per node.
    let mut pending: BTreeMap<&str, BTreeSet<&str>> = graph
        .iter()
        .map(|(node, deps)| {
            let deps = deps
                .iter()
                .map(String::as_str)
                .filter(|d| graph.contains_key(*d) && *d != node.as_str())
                .collect();
            (node.as_str(), deps)
        })
        .collect();
    let self_loops: Vec<&str> = graph
        .iter()
        .filter(|(node, deps)| deps.contains(*node))
        .map(|(node, _)| node.as_str())
        .collect();
    if !self_loops.is_empty() {
        return Err(XtaskError::Check(format!(
            "dependency cycle: {} depends on itself",
            self_loops.join(", ")
        )));
    }
    let mut order = Vec::with_capacity(graph.len());
    while let Some(next) = pending
        .iter()
        .find(|(_, deps)| deps.is_empty())
        .map(|(node, _)| *node)
    {
        pending.remove(next);
        for deps in pending.values_mut() {
            deps.remove(next);
        }
        order.push(next.to_owned());
    }
    if !pending.is_empty() {
        let stuck: Vec<&str> = pending.keys().copied().collect();
        return Err(XtaskError::Check(format!(
            "dependency cycle among: {}",
            stuck.join(", ")
        )));
    }
    Ok(order)
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

    fn graph(edges: &[(&str, &[&str])]) -> BTreeMap<String, BTreeSet<String>> {
        edges
            .iter()
            .map(|(n, deps)| {
                (
                    (*n).to_owned(),
                    deps.iter().map(|d| (*d).to_owned()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn orders_txc_crates() {
        let g = graph(&[
            ("txc-sandbox", &["txc-sign", "txc-types", "axum"]),
            ("txc-async", &["txc-sign", "txc-types", "reqwest"]),
            ("txc-blocking", &["txc-sign", "txc-types"]),
            ("txc-sign", &["txc-types", "hmac"]),
            ("txc-types", &["serde"]),
        ]);
        assert_eq!(
            topo_order(&g).unwrap(),
            [
                "txc-types",
                "txc-sign",
                "txc-async",
                "txc-blocking",
                "txc-sandbox"
            ]
        );
    }

    #[test]
    fn handles_chains_and_independent_nodes() {
        let g = graph(&[
            ("c", &["b"]),
            ("b", &["a"]),
            ("a", &[]),
            ("z", &[]),
            ("d", &["z", "c"]),
        ]);
        assert_eq!(topo_order(&g).unwrap(), ["a", "b", "c", "z", "d"]);
        assert!(topo_order(&BTreeMap::new()).unwrap().is_empty());
    }

    #[test]
    fn reports_cycles() {
        let g = graph(&[
            ("a", &["b"]),
            ("b", &["c"]),
            ("c", &["a"]),
            ("d", &[]),
            ("e", &["a"]),
        ]);
        let err = topo_order(&g).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @"check failed: dependency cycle among: a, b, c, e");
        let err = topo_order(&graph(&[("a", &["a"])])).unwrap_err();
        insta::assert_snapshot!(err.to_string(), @"check failed: dependency cycle: a depends on itself");
    }
}

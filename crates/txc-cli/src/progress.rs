//! What `txc` tells on standard error while resolving waits: one line a stage (the acceptance
//! window, the settling delay, each round of look-ups), so that standard output keeps its one
//! document with `--json`.
#![allow(clippy::print_stderr)]

use txc_blocking::outcomes::ResolveStage;

/// Prints `stage` on standard error, one line.
pub(crate) fn stage(stage: &ResolveStage) {
    eprintln!("resolving {stage}");
}

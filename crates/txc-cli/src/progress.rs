//! What `txc` tells on standard error while something waits — resolving's stages (the
//! acceptance window, the settling delay, each round of look-ups), the rate limiter's waits,
//! the stream's reconnects —
//! so that standard output keeps its one document with `--json`. `--quiet` silences it all;
//! every command's progress goes through here, so every command inherits both.
#![allow(clippy::print_stderr)]

use std::sync::atomic::{AtomicBool, Ordering};

use txc_blocking::outcomes::ResolveStage;
use txc_blocking::settings::RateWait;

/// Whether `--quiet` was given: set once, at start.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences progress for the rest of the run (`--quiet`).
pub(crate) fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Prints one line of progress on standard error, unless `--quiet`.
pub(crate) fn line(text: std::fmt::Arguments<'_>) {
    if !QUIET.load(Ordering::Relaxed) {
        eprintln!("{text}");
    }
}

/// Prints `stage` on standard error, one line.
pub(crate) fn stage(stage: &ResolveStage) {
    line(format_args!("resolving {stage}"));
}

/// Prints a wait for the rate limiter on standard error, one line: `waiting 850 ms for the
/// rate limit (invest: 1 request per 1 s)`.
pub(crate) fn rate_wait(wait: &RateWait) {
    line(format_args!("{wait}"));
}

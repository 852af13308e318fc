//! The tests that wait on the exchange's clock — resolving unknown outcomes by the rule's
//! acceptance window and settling delay — in one binary, so that they wait side by side:
//! `cargo test` runs test binaries one after another, and each of these files alone took as long
//! as its slowest case. The clients count an operation as accepted or never a second after its
//! last attempt (`common::config::sandbox_acceptance_window`), not after the documented nonce
//! window and creation allowance: `TXC_FULL_RESOLVE=1` runs every case with the documented one
//! (about 35 s instead of 8 s on two cores).
//!
//! - [`exactly_once`]: the six ways issue 28 found exactly-once broken, and the B2B gap.
//! - [`reconciliation`]: the look-ups, cancel, resolving each kind of unknown outcome, placing
//!   exactly once.
//! - [`investments`]: investing within a plan's bounds, and never investing twice.
//! - [`flex`]: flexible lending — the lists page by page, bounds, earnings — and never twice:
//!   investments and withdrawals resolved from the flex history, close and auto-invest by state.
//! - [`restarts`]: issue 35's cases — exactly once across a restart on the same journal, for
//!   orders and investments, and another writer's investment never taken for ours.
//! - [`trading`]: issue 37's cases — limit, stop-limit, bulk, OCO, modify and the cancels
//!   exactly once against the sandbox's faults.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod exactly_once;
mod flex;
mod investments;
mod reconciliation;
mod restarts;
mod trading;

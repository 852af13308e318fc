//! Resolving against a scripted model of the exchange (`exchange.rs`): the reconciliation
//! machines case by case (`reconcile`), resolving by a stream's events (`resolve_by_events`)
//! and exactly once as a property over all scripts (`exactly_once`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod exactly_once;
mod exchange;
mod reconcile;
mod resolve_by_events;

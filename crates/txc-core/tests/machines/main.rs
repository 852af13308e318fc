//! The sans-IO machines, driven by hand or against scripted models of the exchange on a
//! simulated clock: retry decisions and the `Call` machine (`retry_and_call`); resolving an
//! order against the order model (`exchange.rs`) — the rule case by case (`reconcile`), by a
//! stream's events (`resolve_by_events`), exactly once as a property over all scripts
//! (`exactly_once`, with the process restarted at any step on the same journal, `journal.rs`);
//! closing a position (`close`) and investing once (`invest_once`, with restarts and other
//! writers) against their own models; the position-mode check before an order (`preflight`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod close;
mod exactly_once;
mod exchange;
mod flex_once;
mod flex_state;
mod invest_once;
mod journal;
mod lending;
mod list_read;
mod preflight;
mod reconcile;
mod resolve_by_events;
mod retry_and_call;
mod socket_once;
mod socket_resolve;

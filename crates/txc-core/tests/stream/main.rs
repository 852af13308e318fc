//! The WebSocket stream machine, driven with the time passed in by a driver that plays the
//! socket, the token endpoint and the server (`driver.rs`): scenario by scenario against the
//! exchange's own example messages (`scenarios`), and as properties under arbitrary runs
//! (`properties`).
//!
//! The machine is the `events` feature's (on by default).

#![cfg(feature = "events")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

pub mod driver;
mod new_channels;
mod properties;
mod scenarios;

//! The positions: the open ones ([`Positions`], [`Position`]), the margin math of a fill
//! ([`plan_fill`]), every change a fill makes to them (the position history), and what an
//! account changes about them (closing one, leverage, hedge mode).
//!
//! Funding ticks, margin calls and liquidation belong here: each changes positions and
//! balances by the same margin math, and records its events in the same history.

mod close;
mod history;
mod margin;
mod open;

pub(crate) use history::PositionEvents;
pub(crate) use margin::{Fill, Terms, plan_fill};
pub use open::Position;
pub(crate) use open::{OpenPosition, PositionKey, PositionState, Positions};

//! The positions: the open ones ([`Positions`], [`Position`]), the margin math of a fill
//! ([`plan_fill`]), every change a fill makes to them (the position history), the closed ones
//! with their life's aggregates (closed PnL), what an account changes about them (closing
//! one, leverage, hedge mode) — and the risk simulator: funding on perpetual markets, margin
//! calls and liquidation, auto-deleveraging quantiles.
//!
//! Funding, margin calls and liquidation change positions and balances by the same margin
//! math, and record their events in the same history.

mod adl;
mod close;
mod closed;
mod funding;
mod history;
mod margin;
mod open;
mod risk;

pub(crate) use closed::ClosedPositions;
pub(crate) use funding::{Funding, funding_records_json};
pub(crate) use history::PositionEvents;
pub(crate) use margin::{Fill, Terms, bankruptcy_price, plan_fill};
pub use open::Position;
pub(crate) use open::{PositionKey, PositionState, Positions};
pub(crate) use risk::Risk;

//! Positions and the collateral account: balances, the account summary, open positions and
//! their history, closing a position, leverage and the position mode (hedge or one-way).
//!
//! | operation | request | answer |
//! |---|---|---|
//! | collateral balance | [`CollateralBalanceQuery`] | [`CollateralBalance`] |
//! | balance summary per asset | [`BalanceSummaryQuery`] | `Vec<`[`AssetBalance`]`>` |
//! | account summary | [`AccountSummaryQuery`] | [`AccountSummary`] |
//! | open positions | [`OpenPositionsQuery`] | `Vec<`[`Position`]`>` |
//! | position history | [`PositionHistoryQuery`] (built by [`PositionHistoryQueryBuilder`]) | `Vec<`[`PositionEvent`]`>` |
//! | close a position | [`ClosePosition`] | [`Acknowledged`](crate::endpoint::Acknowledged) |
//! | change the leverage | [`SetLeverage`] (one of the [`Leverage`] values) | [`LeverageSet`] |
//! | read the position mode | [`HedgeModeQuery`] | [`HedgeMode`] |
//! | change the position mode | [`SetHedgeMode`] | [`Acknowledged`](crate::endpoint::Acknowledged) |
//!
//! The mode decides what `positionSide` an order must carry: `LONG` or `SHORT` in hedge mode
//! ([`PositionMode::Hedge`]), none (or `BOTH`) in one-way mode.

mod account_summary;
mod balance_summary;
mod close_position;
mod collateral_balance;
mod hedge_mode;
mod hedge_mode_update;
mod leverage;
mod open_positions;
mod position;
mod position_event;
mod position_history;
mod position_mode;

pub use account_summary::{AccountSummary, AccountSummaryQuery};
pub use balance_summary::{AssetBalance, BalanceSummaryQuery};
pub use close_position::ClosePosition;
pub use collateral_balance::{CollateralBalance, CollateralBalanceQuery};
pub use hedge_mode::{HedgeMode, HedgeModeQuery};
pub use hedge_mode_update::SetHedgeMode;
pub use leverage::{Leverage, LeverageSet, SetLeverage};
pub use open_positions::OpenPositionsQuery;
pub use position::{LiquidationState, Position, Tpsl};
pub use position_event::{OrderDetail, PositionEvent};
pub use position_history::{PositionHistoryQuery, PositionHistoryQueryBuilder};
pub use position_mode::PositionMode;

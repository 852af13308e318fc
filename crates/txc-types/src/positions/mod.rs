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
//! | closed positions' PnL | [`ClosedPnlQuery`] (built by [`ClosedPnlQueryBuilder`]) | `Vec<`[`ClosedPosition`]`>` |
//! | funding history | [`FundingHistoryQuery`] (built by [`FundingHistoryQueryBuilder`]) | [`FundingHistory`] of [`FundingPayment`]s |
//! | ADL quantiles | [`AdlQuantileQuery`] | `Vec<`[`MarketAdlQuantile`]`>` of [`AdlQuantile`]s |
//! | close a position | [`ClosePosition`] | [`Acknowledged`](crate::endpoint::Acknowledged) |
//! | change the leverage | [`SetLeverage`] (one of the [`Leverage`] values) | [`LeverageSet`] |
//! | read the position mode | [`HedgeModeQuery`] | [`HedgeMode`] |
//! | change the position mode | [`SetHedgeMode`] | [`Acknowledged`](crate::endpoint::Acknowledged) |
//!
//! The mode decides what `positionSide` an order must carry: `LONG` or `SHORT` in hedge mode
//! ([`PositionMode::Hedge`]), none (or `BOTH`) in one-way mode.
//!
//! With the `decimal` feature, [`funding`] and [`pnl`] hold the reference arithmetic of the
//! funding payments and of a position's realized PnL, written from the spec: what the records
//! above should add up to.

mod account_summary;
mod adl_quantile;
mod balance_summary;
mod close_position;
mod closed_pnl;
mod closed_position;
mod collateral_balance;
#[cfg(feature = "decimal")]
#[cfg_attr(docsrs, doc(cfg(feature = "decimal")))]
pub mod funding;
mod funding_history;
mod funding_payment;
mod hedge_mode;
mod hedge_mode_update;
mod leverage;
mod open_positions;
#[cfg(feature = "decimal")]
#[cfg_attr(docsrs, doc(cfg(feature = "decimal")))]
pub mod pnl;
mod position;
mod position_event;
mod position_history;
mod position_mode;
#[cfg(feature = "decimal")]
mod reference_error;

pub use account_summary::{AccountSummary, AccountSummaryQuery};
pub use adl_quantile::{AdlQuantile, AdlQuantileQuery, MarketAdlQuantile};
pub use balance_summary::{AssetBalance, BalanceSummaryQuery};
pub use close_position::ClosePosition;
pub use closed_pnl::{ClosedPnlQuery, ClosedPnlQueryBuilder};
pub use closed_position::ClosedPosition;
pub use collateral_balance::{CollateralBalance, CollateralBalanceQuery};
pub use funding_history::{FundingHistory, FundingHistoryQuery, FundingHistoryQueryBuilder};
pub use funding_payment::FundingPayment;
pub use hedge_mode::{HedgeMode, HedgeModeQuery};
pub use hedge_mode_update::SetHedgeMode;
pub use leverage::{Leverage, LeverageSet, SetLeverage};
pub use open_positions::OpenPositionsQuery;
pub use position::{LiquidationState, Position, Tpsl};
pub use position_event::{OrderDetail, PositionEvent};
pub use position_history::{PositionHistoryQuery, PositionHistoryQueryBuilder};
pub use position_mode::PositionMode;
#[cfg(feature = "decimal")]
#[cfg_attr(docsrs, doc(cfg(feature = "decimal")))]
pub use reference_error::ReferenceError;

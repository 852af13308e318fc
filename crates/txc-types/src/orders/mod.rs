//! Placing and canceling orders: the collateral market and trigger market orders with their
//! builder, the [`Order`] the exchange answers with, its enums, and [`CancelOrder`].
//!
//! | operation | request | answer |
//! |---|---|---|
//! | collateral market order | [`CollateralMarketOrder`] | [`Order`] |
//! | collateral trigger market order | [`CollateralTriggerMarketOrder`] | [`Order`] |
//! | cancel an order | [`CancelOrder`] | [`Cancellation`] |
//! | cancel every matching open order | [`CancelAllOrders`] (built by [`CancelAllOrdersBuilder`]) | [`Acknowledged`](crate::endpoint::Acknowledged) |
//! | cancel up to 100 orders | [`CancelOrders`] | `Vec<`[`BulkCancelItem`]`>` |
//! | set or delete a kill-switch timer | [`SetKillSwitch`] | [`KillSwitchAnswer`] |
//! | the kill-switch timers | [`KillSwitchStatusQuery`] | `Vec<`[`KillSwitchTimer`]`>` |
//!
//! Cancel-all and the kill switch target kinds of order ([`OrderClass`]).

mod cancel_all;
mod cancel_bulk;
mod cancel_order;
mod collateral_market;
mod collateral_trigger_market;
mod kill_switch;
mod kill_switch_status;
pub(crate) mod order;
mod order_class;
mod order_fields;
mod order_status;
mod position_side;
mod side;
mod stp;

pub use cancel_all::{CancelAllOrders, CancelAllOrdersBuilder};
pub use cancel_bulk::{BulkCancelItem, CancelOrders, CanceledOrder, ItemError};
pub use cancel_order::{CancelOrder, Cancellation, OrderRef};
pub use collateral_market::CollateralMarketOrder;
pub use collateral_trigger_market::CollateralTriggerMarketOrder;
pub use kill_switch::{KillSwitchAnswer, KillSwitchTimer, SetKillSwitch};
pub use kill_switch_status::KillSwitchStatusQuery;
pub use order::{ActivationCondition, Order, Oto};
pub use order_class::OrderClass;
pub use order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
pub use order_status::{OrderStatus, OrderType};
pub use position_side::PositionSide;
pub use side::Side;
pub use stp::Stp;

//! Placing and canceling orders: the collateral market and trigger market orders with their
//! builder, the [`Order`] the exchange answers with, its enums, and [`CancelOrder`].
//!
//! | operation | request | answer |
//! |---|---|---|
//! | collateral market order | [`CollateralMarketOrder`] | [`Order`] |
//! | collateral trigger market order | [`CollateralTriggerMarketOrder`] | [`Order`] |
//! | cancel an order | [`CancelOrder`] | [`Cancellation`] |
//!
//! Order-level controls that act on orders (cancel all, bulk cancel, the kill switch) belong
//! here too.

mod cancel_order;
mod collateral_market;
mod collateral_trigger_market;
pub(crate) mod order;
mod order_fields;
mod order_status;
mod position_side;
mod side;
mod stp;

pub use cancel_order::{CancelOrder, Cancellation, OrderRef};
pub use collateral_market::CollateralMarketOrder;
pub use collateral_trigger_market::CollateralTriggerMarketOrder;
pub use order::{ActivationCondition, Order, Oto};
pub use order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
pub use order_status::{OrderStatus, OrderType};
pub use position_side::PositionSide;
pub use side::Side;
pub use stp::Stp;

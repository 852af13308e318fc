//! Placing, changing and canceling orders: the collateral market, trigger market, limit,
//! stop-limit, bulk and OCO orders with their builders, modifying an order, the [`Order`] the
//! exchange answers with, its enums, the cancels, and what the exchange's refusal codes mean
//! ([`OrderRefusal`]).
//!
//! | operation | request | answer |
//! |---|---|---|
//! | collateral market order | [`CollateralMarketOrder`] | [`Order`] |
//! | collateral trigger market order | [`CollateralTriggerMarketOrder`] | [`Order`] |
//! | collateral limit order | [`CollateralLimitOrder`] | [`Order`] |
//! | collateral stop-limit order | [`CollateralStopLimitOrder`] | [`Order`] |
//! | collateral BBO order (priced from the best bid or offer) | [`CollateralBboOrder`] | [`Order`] |
//! | collateral stop-BBO order | [`CollateralStopBboOrder`] | [`Order`] |
//! | up to 20 collateral limit orders | [`CollateralBulkOrder`] | `Vec<`[`BulkOrderResult`]`>` |
//! | collateral OCO pair | [`CollateralOcoOrder`] (built by [`CollateralOcoOrderBuilder`]) | [`OcoOrder`] |
//! | the active OCO pairs | [`OcoOrdersQuery`] (built by [`OcoOrdersQueryBuilder`]) | `Vec<`[`OcoOrder`]`>` |
//! | modify an order (replace it) | [`ModifyOrder`] (built by [`ModifyOrderBuilder`]) | [`Modified`] |
//! | cancel an order | [`CancelOrder`] | [`Cancellation`] |
//! | cancel an OCO pair | [`CancelOcoOrder`] | [`OcoCancellation`] |
//! | cancel a conditional order (OCO or OTO) | [`CancelConditionalOrder`] | [`GroupCancellation`] |
//! | cancel an OTO group | [`CancelOtoOrder`] | [`GroupCancellation`] |
//! | cancel every matching open order | [`CancelAllOrders`] (built by [`CancelAllOrdersBuilder`]) | [`Acknowledged`](crate::endpoint::Acknowledged) |
//! | cancel up to 100 orders | [`CancelOrders`] | `Vec<`[`BulkCancelItem`]`>` |
//! | set or delete a kill-switch timer | [`SetKillSwitch`] | [`KillSwitchAnswer`] |
//! | the kill-switch timers | [`KillSwitchStatusQuery`] | `Vec<`[`KillSwitchTimer`]`>` |
//!
//! Cancel-all and the kill switch target kinds of order ([`OrderClass`]). Every order can be
//! checked against its market's published rules before it is sent
//! ([`crate::markets::MarketRules`]).

mod cancel_all;
mod cancel_bulk;
mod cancel_conditional;
mod cancel_oco;
mod cancel_order;
mod cancel_oto;
mod collateral_bbo;
mod collateral_bulk;
mod collateral_limit;
mod collateral_market;
mod collateral_oco;
mod collateral_stop_limit;
mod collateral_trigger_market;
mod kill_switch;
mod kill_switch_status;
mod modify_order;
mod oco_orders;
pub(crate) mod order;
mod order_class;
mod order_fields;
mod order_refusal;
mod order_status;
mod position_side;
mod side;
mod stp;

pub use cancel_all::{CancelAllOrders, CancelAllOrdersBuilder};
pub use cancel_bulk::{BulkCancelItem, CancelOrders, CanceledOrder, ItemError};
pub use cancel_conditional::{CancelConditionalOrder, GroupCancellation};
pub use cancel_oco::{CancelOcoOrder, OcoCancellation};
pub use cancel_order::{CancelOrder, Cancellation, OrderRef};
pub use cancel_oto::CancelOtoOrder;
pub use collateral_bbo::{
    BboRole, BboTerms, CollateralBboOrder, CollateralStopBboOrder, StopBboTerms,
};
pub use collateral_bulk::{BulkOrderResult, CollateralBulkOrder};
pub use collateral_limit::{CollateralLimitOrder, LimitTerms};
pub use collateral_market::CollateralMarketOrder;
pub use collateral_oco::{CollateralOcoOrder, CollateralOcoOrderBuilder, OcoOrder};
pub use collateral_stop_limit::{CollateralStopLimitOrder, StopLimitTerms};
pub use collateral_trigger_market::CollateralTriggerMarketOrder;
pub use kill_switch::{KillSwitchAnswer, KillSwitchTimer, SetKillSwitch};
pub use kill_switch_status::KillSwitchStatusQuery;
pub use modify_order::{Modified, ModifyOrder, ModifyOrderBuilder};
pub use oco_orders::{OcoOrdersQuery, OcoOrdersQueryBuilder};
pub use order::{ActivationCondition, Order, Oto};
pub use order_class::OrderClass;
pub use order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
pub use order_refusal::OrderRefusal;
pub use order_status::{OrderStatus, OrderType};
pub use position_side::PositionSide;
pub use side::Side;
pub use stp::Stp;

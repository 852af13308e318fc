//! Looking orders up: the open orders and the order history, with their filters.
//!
//! | operation | request | answer |
//! |---|---|---|
//! | open orders | [`OpenOrdersQuery`] (built by [`OpenOrdersQueryBuilder`]) | `Vec<`[`Order`](crate::orders::Order)`>` |
//! | order history | [`OrderHistoryQuery`] (built by [`OrderHistoryQueryBuilder`]) | [`OrderHistory`] of [`HistoryOrder`]s |
//! | conditional orders | [`ConditionalOrdersQuery`] (built by [`ConditionalOrdersQueryBuilder`]) | [`ConditionalOrders`]: a page of [`ConditionalOrder`]s ([`OtoGroup`], [`OcoGroup`]) |
//! | executed deals (every trading type) | [`ExecutedHistoryQuery`] (built by [`ExecutedHistoryQueryBuilder`]) | [`ExecutedDeals`] of [`ExecutedDeal`]s |
//! | the deals of one order | [`OrderDealsQuery`] (built by [`OrderDealsQueryBuilder`]) | [`OrderDeals`]: a page of [`ExecutedDeal`]s |
//!
//! The first two take the same filters; [`LookupBuilder`] applies them to either builder. The
//! conditional orders have no id filter: a market and a page. Every list here is paged
//! ([`Paged`](crate::paging::Paged)); whether the deal reads cover collateral markets is in
//! their docs.

mod by_market;
mod conditional_order;
mod conditional_orders;
mod executed_deal;
mod executed_history;
mod history_order;
mod lookup;
mod open_orders;
mod order_deals;
mod order_history;

pub use conditional_order::{ConditionalOrder, OcoGroup, OtoGroup};
pub use conditional_orders::{
    ConditionalOrders, ConditionalOrdersQuery, ConditionalOrdersQueryBuilder,
};
pub use executed_deal::ExecutedDeal;
pub use executed_history::{ExecutedDeals, ExecutedHistoryQuery, ExecutedHistoryQueryBuilder};
pub use history_order::HistoryOrder;
pub use lookup::LookupBuilder;
pub use open_orders::{OpenOrdersQuery, OpenOrdersQueryBuilder};
pub use order_deals::{OrderDeals, OrderDealsQuery, OrderDealsQueryBuilder};
pub use order_history::{HistoryStatus, OrderHistory, OrderHistoryQuery, OrderHistoryQueryBuilder};

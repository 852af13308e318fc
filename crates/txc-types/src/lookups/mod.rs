//! Looking orders up: the open orders and the order history, with their filters.
//!
//! | operation | request | answer |
//! |---|---|---|
//! | open orders | [`OpenOrdersQuery`] (built by [`OpenOrdersQueryBuilder`]) | `Vec<`[`Order`](crate::orders::Order)`>` |
//! | order history | [`OrderHistoryQuery`] (built by [`OrderHistoryQueryBuilder`]) | [`OrderHistory`] of [`HistoryOrder`]s |
//!
//! Both take the same filters ([`Lookup`]); [`LookupBuilder`] applies them to either builder.

mod history_order;
pub(crate) mod lookup;
mod open_orders;
mod order_history;

pub use history_order::HistoryOrder;
pub use lookup::{Lookup, LookupBuilder};
pub use open_orders::{OpenOrdersQuery, OpenOrdersQueryBuilder};
pub use order_history::{HistoryStatus, OrderHistory, OrderHistoryQuery, OrderHistoryQueryBuilder};

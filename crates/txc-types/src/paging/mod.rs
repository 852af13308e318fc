//! Reading a list a page at a time: each paged query's rules ([`Paged`]) and a read of a
//! whole list ([`PageCursor`]), with no I/O — the clients' page iterators drive them.
//!
//! Every paged read of this crate implements [`Paged`]: the position history, the closed
//! positions' PnL, the funding history, the executed deals and the deals of one order, the
//! order history, the open orders, the conditional and OCO orders, the investments and the
//! interest payments, and flexible lending's plans, investments, history and payments. Each
//! carries its endpoint's own rules, from the spec:
//!
//! | query | page size: default, most | last page | offset cap | a record is |
//! |---|---|---|---|---|
//! | [`ClosedPnlQuery`](crate::positions::ClosedPnlQuery) | 50, 100 | fewer than limit | `offset + limit` ≤ 10 000 | its `positionId` |
//! | [`FundingHistoryQuery`](crate::positions::FundingHistoryQuery) | 100, 100 | fewer than limit | none | its market, times, rate and amounts |
//! | [`PositionHistoryQuery`](crate::positions::PositionHistoryQuery) | not documented, 100 | fewer than limit | none | its position, time, order and amount |
//! | [`ExecutedHistoryQuery`](crate::lookups::ExecutedHistoryQuery) | 50, 500 | fewer than limit, across markets | none | its deal `id` |
//! | [`OrderDealsQuery`](crate::lookups::OrderDealsQuery) | 50, not documented | fewer than limit | none | its deal `id` |
//! | [`OrderHistoryQuery`](crate::lookups::OrderHistoryQuery) | 50, 500 | fewer than limit, across markets | none | its order `id` |
//! | [`OpenOrdersQuery`](crate::lookups::OpenOrdersQuery) | 50, 100 | fewer than limit | `offset` ≤ 4 294 967 295 | its `orderId` |
//! | [`ConditionalOrdersQuery`](crate::lookups::ConditionalOrdersQuery) | 100, 100 | `total` | `offset` ≤ 4 294 967 295 | its type and `id` |
//! | [`OcoOrdersQuery`](crate::orders::OcoOrdersQuery) | 50, 100 | fewer than limit | `offset` ≤ 4 294 967 295 | its `id` |
//! | [`InvestmentsQuery`](crate::investments::InvestmentsQuery) | 100, 100 | fewer than limit | `offset` ≤ 10 000 | its `id` |
//! | [`InterestPaymentsQuery`](crate::investments::InterestPaymentsQuery) | 100, 100 | fewer than limit | `offset` ≤ 10 000 | its investment, time and amount |
//! | [`FlexPlansQuery`](crate::investments::flex::FlexPlansQuery) | 100, 100 | fewer than limit | none | its `id` |
//! | [`FlexInvestmentsQuery`](crate::investments::flex::FlexInvestmentsQuery) | 100, not documented | fewer than limit | none | its `id` |
//! | [`FlexHistoryQuery`](crate::investments::flex::FlexHistoryQuery) | 50, not documented | fewer than limit | none | its `transaction_id` and `actionType` |
//! | [`FlexPaymentsQuery`](crate::investments::flex::FlexPaymentsQuery) | 50, not documented | fewer than limit | none | its `transaction_id` and `actionType` |
//!
//! The builders refuse a `limit` or `offset` outside these bounds before a request exists;
//! [`Paged::page_after`] gives the next page's query or why there is none, and
//! [`PageCursor`] reads a whole list — what it guarantees when the list changes while it is
//! read is in its docs. Reaching the offset cap with more to read is an error
//! ([`PagingError::OffsetCap`]), never a silent stop.

mod cursor;
mod error;
mod paged;
mod rules;

pub use cursor::PageCursor;
pub use error::PagingError;
pub use paged::{LastPage, OffsetCap, Paged, Tally};
pub(crate) use rules::within_window;

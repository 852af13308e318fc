//! Typed request and response models for WhiteBIT's private v4 collateral-trading and
//! smart-investment API.
//!
//! | module | what is there |
//! |---|---|
//! | [`orders`] | placing, changing and canceling orders: the market, trigger, limit, stop-limit, bulk and OCO orders, their builders, modify, the cancels, [`Order`](orders::Order), [`Side`](orders::Side) and the other order enums |
//! | [`lookups`] | finding orders and their fills: open orders, the order history, the conditional orders, the executed deals, their filters |
//! | [`paging`] | reading a list a page at a time: each list's rules ([`Paged`](paging::Paged)) and a whole read ([`PageCursor`](paging::PageCursor)) |
//! | [`markets`] | the markets' public rules (precision, minimum amount, total bounds), the pure check of any order against them, rounding to the market's steps |
//! | [`positions`] | the collateral account: balances, summary, open positions and their history, closed positions' PnL, funding, ADL quantiles, closing a position, leverage, hedge mode; the reference arithmetic of funding and PnL |
//! | [`investments`] | lending: the fixed smart plans (plans, investing, the investments, closing one, interest payments) and [flexible lending](investments::flex) (plans, invest, withdraw, close, auto-reinvestment, the investments and histories; the accrual's reference arithmetic) |
//! | [`values`] | the values of requests and answers: [`Market`](values::Market), [`Amount`](values::Amount), [`Price`](values::Price), [`ClientOrderId`](values::ClientOrderId), [`Ticker`](values::Ticker), [`ExactDecimal`](values::ExactDecimal), [`Timestamp`](values::Timestamp) |
//! | [`time`] | the exchange's clock |
//! | [`events`] | the private event stream: the token that authorizes a WebSocket connection, and the records of the private channels ([`AccountEvent`](events::AccountEvent)) |
//! | [`socket`] | order management over the WebSocket: the order methods' calls made from the same typed requests ([`ToSocket`](socket::ToSocket)), their answers ([`SocketAnswer`](socket::SocketAnswer), with the numeric `side`) and the socket's own error numbering ([`SocketRefusal`](socket::SocketRefusal)) |
//! | [`endpoint`] | the [`Endpoint`](endpoint::Endpoint) trait, for code generic over operations or defining new ones |
//! | [`errors`] | what a refused value says: [`ValidationError`](errors::ValidationError), [`Reason`](errors::Reason) |
//!
//! Modules are cut by what a trader looks for, and each operation's request and answer sit in
//! one module (one file each), so an operation still to come has an obvious home beside its
//! kin.
//!
//! **What it is for:** building requests that cannot be malformed (validated values; builders
//! that check every rule before a request exists) and decoding responses into types — integer
//! ids, exact decimals ([`ExactDecimal`](values::ExactDecimal)), times with every digit
//! ([`Timestamp`](values::Timestamp)) — by one leniency rule for every field: any spelling of a
//! value is read, a value no spelling fits is kept in the record's `extra`, never dropped. Each
//! operation is one type implementing [`Endpoint`](endpoint::Endpoint), which also names its
//! documented rate limit ([`RateLimit`](endpoint::RateLimit)), which the clients pace
//! themselves by.
//!
//! The public items are the contract: the request types and their builders, the validated
//! values, the response records and enums, [`Endpoint`](endpoint::Endpoint) with
//! [`WireValue`](endpoint::WireValue) (to define other endpoints),
//! [`NewOrder`](orders::NewOrder) (what reconciliation needs of an order),
//! [`FieldValue`](endpoint::FieldValue) / [`Validated`](endpoint::Validated) (what builders
//! accept), and the validation errors. [`BuildableOrder`](orders::BuildableOrder) and
//! [`LookupBuilder`](lookups::LookupBuilder) are sealed: they name this crate's builders and
//! cannot be implemented elsewhere.
//!
//! **What it is not for:** signing (`txc-sign`) or sending (`txc-blocking`, `txc-async`). It
//! has no I/O and no HTTP dependency.
//!
//! ```
//! use txc_types::endpoint::Endpoint;
//! use txc_types::errors::ValidationError;
//! use txc_types::orders::{CollateralMarketOrder, PositionSide, Side};
//!
//! let order = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "0.01")
//!     .client_order_id("order-1") // one is generated when none is given
//!     .position_side(PositionSide::Long)
//!     .stop_loss("50000")
//!     .build()?;
//! assert_eq!(CollateralMarketOrder::PATH, "/api/v4/order/collateral/market");
//! assert_eq!(
//!     serde_json::to_string(&order).unwrap(),
//!     r#"{"market":"BTC_PERP","side":"buy","amount":"0.01","clientOrderId":"order-1","stopLoss":"50000","positionSide":"LONG"}"#
//! );
//!
//! // Rules are checked before any request exists, naming the wire field.
//! let err = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "1e5").build().unwrap_err();
//! assert_eq!(err.field(), "amount");
//! let err = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "1")
//!     .stop_loss("50000")
//!     .reduce_only(true)
//!     .build()
//!     .unwrap_err();
//! assert!(matches!(err, ValidationError::Conflict { field: "reduceOnly", .. }));
//! # Ok::<(), ValidationError>(())
//! ```

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(test)]
mod answer_written_tests;
mod building;
mod date_window;
pub mod endpoint;
pub mod errors;
pub mod events;
pub mod investments;
mod lenient;
pub mod lookups;
pub mod markets;
pub mod orders;
mod page;
pub mod paging;
pub mod positions;
mod sealed;
pub mod socket;
pub mod time;
pub mod values;

//! The values requests and answers carry: validated texts of requests ([`Market`], [`Ticker`],
//! [`ClientOrderId`] with its generator [`ClientOrderIds`], [`Amount`], [`Price`], [`Total`]) and the exact numbers of answers
//! ([`ExactDecimal`], [`Timestamp`]).
//!
//! A request value is checked by its rule when it is made (`"BTC_USDT".parse::<Market>()`, or
//! text given to a builder); the same types in answers hold what the exchange sent.

mod client_order_id;
mod client_order_ids;
mod decimal;
pub(crate) mod exact_decimal;
mod market;
mod number;
pub(crate) mod text;
mod timestamp;

pub use client_order_id::ClientOrderId;
pub use client_order_ids::ClientOrderIds;
pub use decimal::{Amount, MAX_DECIMAL_LEN, Price, Total};
pub use exact_decimal::ExactDecimal;
pub use market::{Market, Ticker};
/// `rust_decimal`'s decimal type, which [`ExactDecimal::to_decimal`] returns and builders take
/// for amounts and prices.
#[cfg(feature = "decimal")]
pub use rust_decimal::Decimal;
pub use timestamp::Timestamp;

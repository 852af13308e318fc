//! Typed request and response models for WhiteBIT's private v4 collateral-trading and
//! smart-investment API.
//!
//! **What it is for:** building requests that cannot be malformed (validated newtypes such as
//! [`Market`], [`Amount`], [`Price`], [`ClientOrderId`], [`Ticker`]; builders that check every
//! rule before a request exists) and decoding responses into types — integer ids, exact
//! decimals ([`ExactDecimal`]), times with every digit ([`Timestamp`]) — by one leniency rule
//! for every field: any spelling of a value is read, a value no spelling fits is kept in the
//! record's `extra`, never dropped. Each operation is one type implementing [`Endpoint`]:
//!
//! | operation | request | response |
//! |---|---|---|
//! | collateral market order | [`CollateralMarketOrder`] | [`Order`] |
//! | collateral trigger market order | [`CollateralTriggerMarketOrder`] | [`Order`] |
//! | smart investment plans | [`SmartPlansQuery`] | `Vec<`[`InvestmentPlan`]`>` |
//! | open orders | [`OpenOrdersQuery`] | `Vec<`[`Order`]`>` |
//! | order history | [`OrderHistoryQuery`] | [`OrderHistory`] of [`HistoryOrder`]s |
//! | cancel an order | [`CancelOrder`] | [`Cancellation`] |
//! | server time (public, unsigned) | [`ServerTimeQuery`] | [`ServerTime`] |
//!
//! Each endpoint also names its documented rate limit ([`Endpoint::RATE_LIMIT`], a
//! [`RateLimit`]), which the clients pace themselves by.
//!
//! The public items are the contract: the request types and their builders, the validated
//! values, the response records and enums, [`Endpoint`] with [`WireValue`] (to define other
//! endpoints), [`NewOrder`] (what reconciliation needs of an order), [`FieldValue`] /
//! [`Validated`] (what builders accept), and the validation errors. The rule traits
//! ([`TextRule`], [`DecimalRule`]) and [`BuildableOrder`] are sealed: they name this crate's
//! rules and cannot be implemented elsewhere.
//!
//! **What it is not for:** signing (`txc-sign`) or sending (`txc-blocking`, `txc-async`). It
//! has no I/O and no HTTP dependency.
//!
//! ```
//! use txc_types::{CollateralMarketOrder, Endpoint, PositionSide, Side, ValidationError};
//!
//! let order = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "0.01")
//!     .position_side(PositionSide::Long)
//!     .stop_loss("50000")
//!     .build()?;
//! assert_eq!(CollateralMarketOrder::PATH, "/api/v4/order/collateral/market");
//! assert_eq!(
//!     serde_json::to_string(&order).unwrap(),
//!     r#"{"market":"BTC_PERP","side":"buy","amount":"0.01","stopLoss":"50000","positionSide":"LONG"}"#
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

mod cancel_order;
mod collateral_market;
mod collateral_trigger_market;
mod decimal;
mod endpoint;
mod error;
mod exact_decimal;
mod field_value;
mod history_order;
mod investment_plan;
mod lenient;
mod lookup;
mod open_orders;
mod order;
mod order_fields;
mod order_history;
mod order_status;
mod plan_status;
mod position_side;
mod sealed;
mod server_time;
mod side;
mod smart_plans;
mod stp;
mod text;
mod timestamp;
mod wire_value;

pub use cancel_order::{CancelOrder, Cancellation, OrderRef};
pub use collateral_market::CollateralMarketOrder;
pub use collateral_trigger_market::CollateralTriggerMarketOrder;
pub use decimal::{Amount, AmountRule, DecimalRule, MAX_DECIMAL_LEN, Price, PriceRule};
pub use endpoint::{Endpoint, EndpointKind, RateLimit};
pub use error::{Reason, ValidationError};
#[cfg(feature = "decimal")]
pub use exact_decimal::DecimalRangeError;
pub use exact_decimal::ExactDecimal;
pub use field_value::{FieldValue, Validated};
pub use history_order::HistoryOrder;
pub use investment_plan::InvestmentPlan;
pub use lookup::{Lookup, LookupQuery, QueryBuilder};
pub use open_orders::{OpenOrdersQuery, OpenOrdersQueryBuilder};
pub use order::{ActivationCondition, Order, Oto};
pub use order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
pub use order_history::{HistoryStatus, OrderHistory, OrderHistoryQuery, OrderHistoryQueryBuilder};
pub use order_status::{OrderStatus, OrderType};
pub use plan_status::PlanStatus;
pub use position_side::PositionSide;
/// `rust_decimal`'s decimal type, which [`ExactDecimal::to_decimal`] returns and builders take.
#[cfg(feature = "decimal")]
pub use rust_decimal::Decimal;
pub use server_time::{ServerTime, ServerTimeQuery};
pub use side::Side;
pub use smart_plans::{SmartPlansQuery, SmartPlansQueryBuilder};
pub use stp::Stp;
pub use text::{
    ClientOrderId, ClientOrderIdRule, Market, MarketRule, Text, TextRule, Ticker, TickerRule,
};
pub use timestamp::Timestamp;
pub use wire_value::WireValue;

/// The request path of every endpoint this crate defines, for code that prepares something
/// per endpoint up front (URLs, say).
pub const ENDPOINT_PATHS: [&str; 7] = [
    CollateralMarketOrder::PATH,
    CollateralTriggerMarketOrder::PATH,
    SmartPlansQuery::PATH,
    OpenOrdersQuery::PATH,
    OrderHistoryQuery::PATH,
    CancelOrder::PATH,
    ServerTimeQuery::PATH,
];

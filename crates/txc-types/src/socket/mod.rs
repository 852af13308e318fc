//! Order management over the WebSocket: the exchange's JSON-RPC order methods on the
//! authorized connection, made from the same typed requests REST sends.
//!
//! | what | type |
//! |---|---|
//! | an order method | [`SocketMethod`] (13: nine collateral placements, modify, three cancels) |
//! | a call of one, from a typed request | [`ToSocket`] → [`SocketRequest`] ([`SocketRequest::frame`] writes it) |
//! | TPSL on a position (the socket's own) | [`CollateralTpslOrder`] |
//! | an answer's `result` | [`SocketAnswer`]: [`SocketOrder`], [`SocketOco`], [`SocketOto`], [`SocketTpsl`] |
//! | an answer's `error` | [`SocketRefusal`] read in its [`SocketCall`], its [`Fate`] |
//!
//! One builder, two transports: a [`CollateralLimitOrder`](crate::orders::CollateralLimitOrder)
//! goes to REST as it is and to the socket by [`ToSocket::to_socket`] — the same validated
//! values, the same `clientOrderId`. What one transport takes and the other does not is
//! refused before anything is sent. This module has no I/O: `txc-core` writes the frames,
//! correlates the answers by request id and resolves what a lost answer leaves unknown.
//!
//! ```
//! use txc_types::orders::{CollateralMarketOrder, Side};
//! use txc_types::socket::{SocketAnswer, SocketMethod, ToSocket};
//! let order = CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "0.001").build()?;
//! let call = order.to_socket()?;
//! assert_eq!(call.method(), SocketMethod::MarketPlace);
//! let answer = SocketAnswer::decode(call.method(), r#"{"id":2423735883079,"side":1,"status":"FILLED"}"#)
//!     .unwrap();
//! assert_eq!(answer.orders()[0].id, 2423735883079);
//! # Ok::<(), txc_types::errors::ValidationError>(())
//! ```

mod answer;
mod from_rest;
mod method;
mod refusal;
mod request;
mod tpsl;

pub use answer::{SocketAnswer, SocketOco, SocketOrder, SocketOto, SocketTpsl};
pub use method::SocketMethod;
pub use refusal::{Fate, SocketCall, SocketRefusal};
pub use request::{PreSend, SocketRequest, ToSocket};
pub use tpsl::{CollateralTpslOrder, CollateralTpslOrderBuilder};

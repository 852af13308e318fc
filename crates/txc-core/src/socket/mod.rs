//! Order management over the WebSocket, sans-IO: [`SocketOrders`] takes the calls
//! `txc-types` makes from typed orders ([`ToSocket`](txc_types::socket::ToSocket)), hands out
//! their frames once their records are journaled, correlates the answers by request id while
//! pushes interleave, settles time-outs and lost connections as unknown outcomes, reads the
//! socket's own error numbering (`43` on a resend is evidence of the first send), and paces by
//! the documented limits ([`SocketLimits`]).
//!
//! No clock, socket or runtime: the driver passes the time in, writes the frames, and feeds
//! every frame it receives — those that are not the machine's ([`Received::NotOurs`]) go on
//! to the stream machine. A call's [`SocketAttempt`] bounds where a resolver looks for the
//! order ([`AcceptanceWindow::of_socket`](crate::resolve::AcceptanceWindow::of_socket)).
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use txc_core::socket::{Received, SocketOrders, SocketOrdersConfig, SocketOutcome};
//! use txc_types::orders::{CollateralMarketOrder, Side};
//! use txc_types::socket::ToSocket;
//!
//! let now = UNIX_EPOCH + Duration::from_secs(1_786_452_691);
//! let mut orders = SocketOrders::new(SocketOrdersConfig::default());
//! orders.connected(now)?;
//! let call = CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "0.001").build()?.to_socket()?;
//! let submitted = orders.submit(call, false, now)?;
//! assert!(submitted.record.is_some()); // journal it, then:
//! let frame = orders.release(submitted.id)?;
//! assert!(frame.contains("collateral_order_market_place"));
//! orders.written(submitted.id, now)?;
//! // A push interleaves; it is not the machine's.
//! assert_eq!(orders.receive(r#"{"id":null,"method":"deals_update","params":[]}"#, now), Received::NotOurs);
//! let answer = format!(r#"{{"id":{},"result":{{"id":7,"side":1,"status":"FILLED"}},"error":null}}"#, submitted.id);
//! let Received::Answer(settled) = orders.receive(&answer, now) else { panic!() };
//! assert!(matches!(settled.outcome, SocketOutcome::Done(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod machine;
mod outcome;
mod pacing;
#[cfg(feature = "events")]
mod placing;
#[cfg(feature = "events")]
mod session;

pub use error::SocketError;
pub use machine::{
    DEFAULT_ANSWER_TIMEOUT, FIRST_ORDER_REQUEST_ID, Received, SocketOrderError, SocketOrders,
    SocketOrdersConfig, SocketRecord, Submitted,
};
pub use outcome::{Settled, SocketAttempt, SocketOutcome, UnknownCause};
pub use pacing::SocketLimits;
#[cfg(feature = "events")]
#[cfg_attr(docsrs, doc(cfg(feature = "events")))]
pub use placing::{OnceStep, SocketPlaceOnce, SocketPlaced, SocketResolver, finish_call};
#[cfg(feature = "events")]
#[cfg_attr(docsrs, doc(cfg(feature = "events")))]
pub use session::{
    DEFAULT_CONNECT_WAIT, DEFAULT_MAX_EVENTS, DEFAULT_PACING_WAIT, SessionConfig, SessionIo,
    SocketCallState, SocketSession,
};

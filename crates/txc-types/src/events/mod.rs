//! The private event stream: [`WebSocketTokenQuery`] → [`WebSocketToken`], the token that
//! authorizes a WebSocket connection, and the records of the private channels, decoded by the
//! crate's one leniency rule ([`AccountEvent`], one variant per channel; `txc-core`'s `stream`
//! module drives the connection and routes each update to its record).
//!
//! | operation | request | answer |
//! |---|---|---|
//! | WebSocket token | [`WebSocketTokenQuery`] | [`WebSocketToken`] |
//!
//! | channel update | record |
//! |---|---|
//! | `ordersPending_update` | [`OrderEvent`]: an [`OrderEventKind`] and a [`StreamOrder`] |
//! | `ordersExecuted_update` | [`ExecutedOrders`]: [`StreamOrder`]s |
//! | `deals_update` | [`Deal`] (an 11-element array), with its [`DealRole`] |
//! | `balanceMargin_update` | [`MarginBalances`]: [`MarginBalance`]s |
//! | `positionsMargin_update` | [`Positions`]: [`StreamPosition`]s |
//! | `ADLQuantile_update` | [`AdlQuantiles`]: [`MarketAdlQuantile`](crate::positions::MarketAdlQuantile)s (3-element arrays) |
//! | `premiumIndex_update` (public) | [`PremiumIndexes`]: [`PremiumIndex`]es |
//! | `positionsAccountMargin_update` | [`PositionEvent`]: a [`PositionEventKind`] and a [`StreamPosition`] ([`LiquidationStage`]) |
//!
//! Each record reads its update's `params` (`from_params`); one that does not fit is an
//! [`EventDecodeError`].

mod account_event;
mod adl_quantiles;
pub(crate) mod codes;
mod deal;
mod executed_orders;
mod margin_balance;
mod order_event;
mod position_event;
mod positional;
mod positions_update;
mod premium_index;
mod stream_order;
mod stream_position;
mod websocket_token;

pub use account_event::{AccountEvent, EventDecodeError};
pub use adl_quantiles::AdlQuantiles;
pub use codes::{DealRole, OrderEventKind, PositionEventKind};
pub use deal::Deal;
pub use executed_orders::ExecutedOrders;
pub use margin_balance::{MarginBalance, MarginBalances};
pub use order_event::OrderEvent;
pub use position_event::PositionEvent;
pub use positions_update::Positions;
pub use premium_index::{PremiumIndex, PremiumIndexes};
pub use stream_order::StreamOrder;
pub use stream_position::{LiquidationStage, StreamPosition};
pub use websocket_token::{WebSocketToken, WebSocketTokenQuery};

//! The orders: each accepted order ([`StoredOrder`]), the store of record with its indexes
//! ([`OrderStore`]), and what the state does with them — placing (a market order fills at the
//! market's price, a trigger order rests until a price move reaches it), the look-ups, the
//! cancels, the kill switch's timers, and writing an order as the wire's records.
//!
//! A market's matching book — resting limit orders in price-time priority, stop-limit, OCO
//! and OTO legs, modify — belongs here beside the store (`book.rs`), fed by placement and
//! feeding fills to the positions (`crate::state::positions`).

mod cancel;
mod kill_switch;
mod lookups;
mod placement;
mod records;
mod store;
mod stored;

pub use kill_switch::KillSwitchTimer;
pub(crate) use kill_switch::Timers;
pub(crate) use lookups::AsOf;
pub(crate) use store::OrderStore;
pub(crate) use stored::StoredOrder;

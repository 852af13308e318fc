//! The orders: each accepted order ([`StoredOrder`]), the store of record with its indexes
//! and each market's book ([`OrderStore`]), and what the state does with them — placing
//! (checks, then execution against the book and the market, or resting), price moves, the
//! conditional orders (OTO groups, OCOs), modify, the look-ups, the cancels, the kill switch's
//! timers, and writing an order as the wire's records.

mod armed;
mod book;
mod cancel;
mod deals;
mod execution;
mod groups;
mod index;
mod kill_switch;
mod liquidation;
mod lookups;
mod modify;
mod placement;
mod records;
mod store;
mod stored;
mod tpsl;

pub(crate) use groups::GroupKind;
pub use kill_switch::KillSwitchTimer;
pub(crate) use kill_switch::Timers;
pub(crate) use lookups::AsOf;
pub use placement::PriceMove;
pub(crate) use store::OrderStore;
pub(crate) use stored::{Execution, OrderSource, StoredOrder};

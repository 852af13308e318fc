//! [`Change`]: what the state tells whoever listens — an order placed, changed or finished
//! (with its deal), an account's balances or positions changed, a position entering margin
//! call or liquidation — and [`Subscriber`], the
//! listener's side, which the state defines and its listeners implement.
//!
//! The state knows no listener: it hands each change to the [`Subscriber`] it was built with
//! ([`Changes`]), as it happens, under the state's lock (so listeners see changes in the order
//! they happened). The WebSocket's feed is one subscriber; a test is another; with none
//! ([`Changes::unheard`]) nothing is built.

use std::fmt;
use std::sync::Arc;

use super::account_view::PositionView;
use super::orders::{Execution, StoredOrder};
use crate::wire::LiquidationStage;

/// What happened to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrderChange {
    /// Placed and resting, or a stop order activated (event 1).
    New,
    /// Changed and still open (event 2).
    Updated,
    /// Filled or canceled (event 3); an order that fills at once has only this one.
    Finished,
}

/// A change of the state.
#[derive(Debug, Clone)]
pub(crate) enum Change {
    /// An order changed: as it now is, and the deals it just made (a new order that executed
    /// at once: each of them; a resting order crossed: one).
    Order {
        change: OrderChange,
        order: Box<StoredOrder>,
        deals: Vec<Deal>,
    },
    /// An account's balances or positions changed.
    Account { api_key: String },
    /// An account's position entered margin call (the account's margin fell below its
    /// margin-call level) or liquidation, as it stood then.
    Margin {
        api_key: String,
        stage: LiquidationStage,
        position: Box<PositionView>,
    },
}

/// One execution of an order, with the deal's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deal {
    pub(crate) id: u64,
    pub(crate) execution: Execution,
}

/// Whoever listens to the state's changes.
pub(crate) trait Subscriber: Send + Sync + fmt::Debug {
    /// Whether anyone listens now: while no one does, the state builds no change.
    fn listening(&self) -> bool;

    /// Takes one change, in the order they happened. Called under the state's lock: it must
    /// not block.
    fn notify(&self, change: Change);
}

/// Where the state's changes go: one [`Subscriber`]; cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct Changes(Arc<dyn Subscriber>);

/// The subscriber of [`Changes::unheard`].
#[derive(Debug)]
struct Nobody;

impl Subscriber for Nobody {
    fn listening(&self) -> bool {
        false
    }

    fn notify(&self, _change: Change) {}
}

impl Changes {
    /// Changes handed to `subscriber`.
    pub(crate) fn to(subscriber: Arc<dyn Subscriber>) -> Self {
        Self(subscriber)
    }

    /// Changes no one hears.
    pub(crate) fn unheard() -> Self {
        Self(Arc::new(Nobody))
    }

    /// Hands the change `make` builds to the subscriber, if it listens.
    pub(crate) fn emit(&self, make: impl FnOnce() -> Change) {
        if self.0.listening() {
            self.0.notify(make());
        }
    }
}

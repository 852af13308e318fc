//! [`Shared`]: what the HTTP routes share — the exchange (`crate::auth::Exchange`: the state
//! behind its lock, the keys, the markets) and the faults injected into the routes.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::faults::FaultTable;
use crate::auth::{Exchange, Locked};

/// The routes' shared state: the exchange and the injected faults. Locks are held only for
/// synchronous work, never across `.await`.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The exchange every route acts on.
    pub(crate) exchange: Arc<Exchange>,
    faults: Mutex<FaultTable>,
}

impl Shared {
    /// The routes of `exchange`, no fault injected.
    pub(crate) fn new(exchange: Arc<Exchange>) -> Self {
        Self {
            exchange,
            faults: Mutex::new(FaultTable::default()),
        }
    }

    /// The exchange's state and admission, locked.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Locked> {
        self.exchange.lock()
    }

    /// The injected faults.
    pub(crate) fn faults(&self) -> MutexGuard<'_, FaultTable> {
        self.faults.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Back to the configured initial state; faults cleared.
    pub(crate) fn reset(&self) {
        self.exchange.reset();
        self.faults().clear();
    }
}

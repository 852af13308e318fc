//! [`Shared`]: what the HTTP handlers and the [`crate::Sandbox`] handle share.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::auth::{Key, Keys};
use crate::clock::Clock;
use crate::config::Config;
use crate::faults::FaultTable;
use crate::settings::Settings;
use crate::state::{Markets, State};
use crate::ws::WsHub;

/// The sandbox's shared state. Locks are held only for synchronous work, never across `.await`;
/// what the configuration fixes (keys, markets' terms) is read without a lock.
#[derive(Debug)]
pub(crate) struct Shared {
    state: Mutex<State>,
    faults: Mutex<FaultTable>,
    keys: Keys,
    markets: Arc<Markets>,
    /// The builder's configuration, which [`Shared::reset`] returns to.
    config: Config,
    /// The changes the WebSocket's channels report, and the WebSocket's faults.
    ws: WsHub,
}

impl Shared {
    pub(crate) fn new(config: Config) -> Self {
        let markets = Arc::new(Markets::new(&config.markets));
        let ws = WsHub::default();
        Self {
            state: Mutex::new(State::new(&config, Arc::clone(&markets), ws.feed.clone())),
            faults: Mutex::new(FaultTable::default()),
            keys: Keys::new(&config.accounts, Key::of),
            markets,
            config,
            ws,
        }
    }

    /// The WebSocket's feed and faults.
    pub(crate) fn ws(&self) -> &WsHub {
        &self.ws
    }

    /// The builder's settings.
    pub(crate) fn config(&self) -> &Settings {
        &self.config.settings
    }

    /// Every API key and its standing.
    pub(crate) fn keys(&self) -> &Keys {
        &self.keys
    }

    /// The markets' fixed terms.
    pub(crate) fn markets(&self) -> &Markets {
        &self.markets
    }

    /// The exchange state. A panic while it was held cannot leave it half-updated in a way
    /// that matters for a test double, so poisoning is ignored.
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The injected faults.
    pub(crate) fn faults(&self) -> MutexGuard<'_, FaultTable> {
        self.faults.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The sandbox's clock, read without taking the state's lock (it never changes).
    pub(crate) fn clock(&self) -> Clock {
        Clock::new(self.config.settings.clock_offset_ms)
    }

    /// Whether `id` is a configured plan's id (the plans are fixed; their state is not).
    pub(crate) fn plan_exists(&self, id: &str) -> bool {
        self.config.plans.iter().any(|p| p.id == id)
    }

    /// The request body limit in bytes.
    pub(crate) fn max_body_bytes(&self) -> usize {
        self.config.settings.max_body_bytes
    }

    /// Back to the configured initial state; faults cleared.
    pub(crate) fn reset(&self) {
        *self.state() = State::new(
            &self.config,
            Arc::clone(&self.markets),
            self.ws.feed.clone(),
        );
        self.faults().clear();
    }
}

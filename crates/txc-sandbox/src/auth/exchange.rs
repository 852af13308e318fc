//! [`Exchange`]: the exchange as every transport reaches it — the state behind its one lock,
//! together with what admission remembers (nonces, rate limits, WebSocket tokens), so that a
//! request's admission and its effect are one critical section; beside the lock, what the
//! configuration fixes (keys, markets, settings), read without it.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use http::HeaderMap;

use super::check::{Signed, check};
use super::keys::{Key, Keys};
use super::nonces::Nonces;
use super::rate_limit::RateLimiter;
use super::rejection::AuthRejection;
use super::tokens::Tokens;
use crate::config::{Config, Markets, Op, Settings};
use crate::state::{Changes, Clock, State};

/// The exchange behind its lock. Locks are held only for synchronous work, never across
/// `.await`.
#[derive(Debug)]
pub(crate) struct Exchange {
    locked: Mutex<Locked>,
    keys: Keys,
    markets: Arc<Markets>,
    /// The builder's configuration, which [`Exchange::reset`] returns to.
    config: Config,
    /// Where the state's changes go, across resets.
    changes: Changes,
}

/// What the one lock guards: the exchange's state, and what admitting a request remembers.
#[derive(Debug)]
pub(crate) struct Locked {
    pub(crate) state: State,
    /// The nonces each key has used.
    nonces: Nonces,
    /// The rate limits' admissions.
    limits: RateLimiter,
    /// The WebSocket tokens issued.
    pub(crate) tokens: Tokens,
}

impl Locked {
    fn new(config: &Config, markets: Arc<Markets>, changes: Changes) -> Self {
        Self {
            state: State::new(config, markets, changes),
            nonces: Nonces::default(),
            limits: RateLimiter::default(),
            tokens: Tokens::default(),
        }
    }

    /// The per-key rate limit of `op`, then the nonce rules at the sandbox's time; counts the
    /// rejections. A request admitted has used its nonce, even if the operation then rejects
    /// it (as on the exchange); a rate-limited request has not.
    pub(crate) fn admit(&mut self, op: Op, signed: &Signed) -> Result<(), AuthRejection> {
        self.rate_limit(op, &signed.api_key)?;
        let now_ms = self.state.clock.now_ms();
        let envelope = &signed.envelope;
        if let Err(rejection) =
            self.nonces
                .admit(&signed.api_key, envelope.nonce, envelope.window, now_ms)
        {
            self.state.stats.nonce_rejections += 1;
            return Err(rejection);
        }
        Ok(())
    }

    /// Counts one request of `caller` (an API key, or `""` for every caller of a public
    /// route) against `op`'s rate limit: `Too many requests.` beyond it, counted.
    pub(crate) fn rate_limit(&mut self, op: Op, caller: &str) -> Result<(), AuthRejection> {
        let limit = self.state.settings.limits.of(op);
        if self
            .limits
            .admit(caller, op.counted_as(), limit, Instant::now())
        {
            Ok(())
        } else {
            self.state.stats.rate_limited += 1;
            Err(AuthRejection::TOO_MANY_REQUESTS)
        }
    }
}

impl Exchange {
    /// The exchange `config` starts, whose state's changes go to `changes`.
    pub(crate) fn new(config: Config, changes: Changes) -> Self {
        let markets = Arc::new(Markets::new(&config.markets));
        Self {
            locked: Mutex::new(Locked::new(&config, Arc::clone(&markets), changes.clone())),
            keys: Keys::new(&config.accounts, Key::of),
            markets,
            config,
            changes,
        }
    }

    /// The state and admission, locked. A panic while it was held cannot leave it
    /// half-updated in a way that matters for a test double, so poisoning is ignored.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Locked> {
        self.locked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Authenticates a request to `path` without the lock ([`check`]).
    pub(crate) fn check(
        &self,
        path: &str,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Result<Signed, AuthRejection> {
        check(&self.keys, path, headers, body)
    }

    /// The markets' fixed terms.
    pub(crate) fn markets(&self) -> &Markets {
        &self.markets
    }

    /// The builder's settings.
    pub(crate) fn settings(&self) -> &Settings {
        &self.config.settings
    }

    /// The sandbox's clock, read without taking the lock (it never changes).
    pub(crate) fn clock(&self) -> Clock {
        Clock::new(self.config.settings.clock_offset_ms)
    }

    /// Whether `id` is a configured plan's id (the plans are fixed; their state is not).
    pub(crate) fn plan_exists(&self, id: &str) -> bool {
        self.config.plans.iter().any(|p| p.id == id)
    }

    /// Whether `id` is a configured flex plan's id (the plans are fixed; their status is not).
    pub(crate) fn flex_plan_exists(&self, id: &str) -> bool {
        self.config.flex_plans.iter().any(|p| p.record.id == id)
    }

    /// Whether `api_key`'s account may use flexible lending.
    pub(crate) fn lends_flex(&self, api_key: &str) -> bool {
        self.keys.get(api_key).is_some_and(|k| k.flex_lending)
    }

    /// Back to the configured initial state: accounts, prices, orders, positions, nonces,
    /// rate limits, tokens, statistics.
    pub(crate) fn reset(&self) {
        *self.lock() = Locked::new(
            &self.config,
            Arc::clone(&self.markets),
            self.changes.clone(),
        );
    }
}

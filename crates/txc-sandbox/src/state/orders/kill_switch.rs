//! Kill-switch timers, on the sandbox's own clock: set, reset and deleted by
//! `POST /api/v4/order/kill-switch`; when one runs out, the account's open orders of its
//! market and targeted kinds are canceled. Timers run out at the first moment the state is
//! touched after their deadline — every request, every [`crate::Sandbox`] read — and a task of
//! the sandbox touches it every few milliseconds, so they run out on time with no request.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::rules::KillSwitchRequest;
use crate::state::State;
use crate::wire::{OrderClass, TimerAnswer, TimerRecord};

/// A kill-switch timer, as [`crate::Sandbox::kill_switch_timers`] shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct KillSwitchTimer {
    /// The market, e.g. `BTC_USDT`.
    pub market: String,
    /// When it was set or last reset, on the sandbox's clock.
    pub armed_at: SystemTime,
    /// When it runs out, on the sandbox's clock (the timeout scaled by
    /// [`crate::SandboxBuilder::kill_switch_second`]).
    pub expires_at: SystemTime,
    /// The timeout as sent, in seconds.
    pub timeout_secs: u64,
    /// The kinds of order it cancels (`spot`, `margin`, `futures`); empty for every kind.
    pub types: Vec<&'static str>,
}

/// One timer.
#[derive(Debug, Clone)]
struct Timer {
    start_us: u64,
    expires_us: u64,
    timeout_secs: u64,
    types: Option<Vec<OrderClass>>,
}

/// Every timer, by API key and market.
#[derive(Debug)]
pub(crate) struct Timers {
    by_account: BTreeMap<(String, String), Timer>,
    /// How long one second of a timeout lasts.
    second: Duration,
}

impl Timers {
    /// No timers; a timeout's second lasts `second`.
    pub(crate) fn new(second: Duration) -> Self {
        Self {
            by_account: BTreeMap::new(),
            second,
        }
    }
}

impl State {
    /// Sets, resets or deletes `api_key`'s timer for `request.market`.
    pub(crate) fn set_kill_switch(
        &mut self,
        api_key: &str,
        request: KillSwitchRequest,
    ) -> TimerAnswer {
        self.expire_kill_switches();
        let key = (api_key.to_owned(), request.market.clone());
        let Some(timeout_secs) = request.timeout_secs else {
            self.kill_switches.by_account.remove(&key);
            return TimerAnswer::Deleted([]);
        };
        let start_us = self.clock.now_us();
        let span = self
            .kill_switches
            .second
            .saturating_mul(u32::try_from(timeout_secs).unwrap_or(u32::MAX));
        let timer = Timer {
            start_us,
            expires_us: start_us
                .saturating_add(u64::try_from(span.as_micros()).unwrap_or(u64::MAX)),
            timeout_secs,
            types: request.types,
        };
        let record = record(&request.market, &timer);
        self.kill_switches.by_account.insert(key, timer);
        TimerAnswer::Timer(record)
    }

    /// `api_key`'s timers (of `market`, when given), by market.
    pub(crate) fn kill_switch_status(
        &mut self,
        api_key: &str,
        market: Option<&str>,
    ) -> Vec<TimerRecord> {
        self.expire_kill_switches();
        self.kill_switches
            .by_account
            .iter()
            .filter(|((key, m), _)| key == api_key && market.is_none_or(|want| m == want))
            .map(|((_, m), timer)| record(m, timer))
            .collect()
    }

    /// `api_key`'s timers, for the sandbox's handle.
    pub(crate) fn kill_switch_timers(&mut self, api_key: &str) -> Vec<KillSwitchTimer> {
        self.expire_kill_switches();
        let at = |us: u64| UNIX_EPOCH + Duration::from_micros(us);
        self.kill_switches
            .by_account
            .iter()
            .filter(|((key, _), _)| key == api_key)
            .map(|((_, market), t)| KillSwitchTimer {
                market: market.clone(),
                armed_at: at(t.start_us),
                expires_at: at(t.expires_us),
                timeout_secs: t.timeout_secs,
                types: t.types.iter().flatten().map(|c| c.as_str()).collect(),
            })
            .collect()
    }

    /// Runs out every timer whose deadline has passed on the sandbox's clock: cancels the
    /// account's open orders of the timer's market and kinds (through the order book's index
    /// of the account's open orders on that market), status `CANCELED`.
    pub(crate) fn expire_kill_switches(&mut self) {
        if self.kill_switches.by_account.is_empty() {
            return;
        }
        let now = self.clock.now_us();
        let expired: Vec<((String, String), Timer)> = self
            .kill_switches
            .by_account
            .iter()
            .filter(|(_, t)| t.expires_us <= now)
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        for ((api_key, market), timer) in expired {
            self.kill_switches
                .by_account
                .remove(&(api_key.clone(), market.clone()));
            self.stats.kill_switches_fired += 1;
            let class = OrderClass::of_market(&market);
            if timer.types.as_ref().is_some_and(|t| !t.contains(&class)) {
                continue;
            }
            let ids: Vec<u64> = self
                .orders
                .listed(&api_key, Some(&market), true)
                .map(|o| o.id)
                .collect();
            for id in ids {
                if self.cancel_at(id, now).is_some() {
                    self.stats.kill_switch_canceled_orders += 1;
                }
            }
        }
    }
}

/// The record of `market`'s `timer`: `cancellationTime = startTime + timeout`, in whole
/// seconds, whatever a timeout's second lasts on the sandbox.
fn record(market: &str, timer: &Timer) -> TimerRecord {
    let start = timer.start_us / 1_000_000;
    TimerRecord {
        market: market.to_owned(),
        start_time: start,
        cancellation_time: start.saturating_add(timer.timeout_secs),
        types: timer
            .types
            .as_ref()
            .map(|t| t.iter().map(|c| c.as_str()).collect()),
    }
}

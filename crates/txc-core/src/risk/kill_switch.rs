//! Keeping a kill-switch timer armed: [`KillSwitchSchedule`] decides when to re-arm and what
//! to report ([`KillSwitchEvent`]), with the time passed in; a transport's guard only sleeps,
//! sends and hands the events to the caller.
//!
use std::fmt;
use std::time::{Duration, SystemTime};

use txc_types::endpoint::FieldValue;
use txc_types::errors::{Reason, ValidationError};
use txc_types::orders::{OrderClass, SetKillSwitch};
use txc_types::values::Market;

use crate::Error;

/// The shortest re-arm interval a schedule takes.
pub const MIN_REARM_EVERY: Duration = Duration::from_millis(10);

/// When a kill-switch guard re-arms its timer, and what it reports.
///
/// The exchange cancels a market's open orders when its timer runs out; a guard re-arms it
/// well before, so the orders live exactly as long as the process that keeps them. The
/// schedule:
///
/// - after each re-arm the exchange accepted, the next is due [`rearm_every`]
///   (default: a third of the timeout) after the moment it was **signed** — the exchange's
///   timer started at or after that moment, so the timer cannot run out before
///   `signed + timeout`, which is what the schedule counts from;
/// - after a failed re-arm (each one already retried by the client's retry policy), the next
///   try is due a quarter of `rearm_every` later, and the failure is reported with how long,
///   at the least, the timer has left;
/// - once that time has passed, the timer may have run out and the market's orders may be
///   canceled: that is reported once ([`KillSwitchEvent::Lapsed`]), and re-arming goes on (a
///   re-arm sets a new timer);
/// - the first re-arm that succeeds after failures is reported
///   ([`KillSwitchEvent::Recovered`]).
///
/// [`rearm_every`]: Self::rearm_every
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule};
///
/// let mut schedule = KillSwitchSchedule::new("BTC_USDT", 30)?;
/// assert_eq!(schedule.rearm_interval(), Duration::from_secs(10));
/// let t0 = SystemTime::now();
/// schedule.armed(t0);
/// assert_eq!(schedule.due_in(t0), Duration::from_secs(10));
/// // A re-arm fails 10 s in: reported with the 20 s the timer has left, retried 2.5 s later.
/// let failure = txc_core::Error::invalid_config("demo", "a failed re-arm");
/// let event = schedule.failed(t0 + Duration::from_secs(10), failure);
/// assert!(matches!(event, KillSwitchEvent::RearmFailed { left, .. } if left == Duration::from_secs(20)));
/// assert_eq!(schedule.due_in(t0 + Duration::from_secs(10)), Duration::from_millis(2_500));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct KillSwitchSchedule {
    request: SetKillSwitch,
    timeout: Duration,
    rearm_every: Duration,
    /// When the last accepted (re-)arm was signed.
    armed_at: Option<SystemTime>,
    /// When the next re-arm is due.
    due: Option<SystemTime>,
    /// Failed re-arms since the last one accepted.
    failures: u32,
    /// Whether the lapse of the current timer was reported.
    lapse_reported: bool,
}

impl KillSwitchSchedule {
    /// A schedule keeping `market`'s timer of `timeout_secs` seconds (5 to 600) armed,
    /// re-arming every third of it.
    pub fn new(
        market: impl FieldValue<Market>,
        timeout_secs: u32,
    ) -> Result<Self, ValidationError> {
        Self::for_request(SetKillSwitch::arm(market, timeout_secs)?)
    }

    /// A schedule keeping the timer `request` sets armed; refused for a deletion.
    pub fn for_request(request: SetKillSwitch) -> Result<Self, ValidationError> {
        let timeout = request.timeout().ok_or(ValidationError::InvalidField {
            field: "timeout",
            reason: Reason::Format("a guard keeps a timer armed: give a timeout, not null"),
        })?;
        Ok(Self {
            request,
            timeout,
            rearm_every: timeout / 3,
            armed_at: None,
            due: None,
            failures: 0,
            lapse_reported: false,
        })
    }

    /// Targets only orders of these kinds (at least one).
    pub fn types(
        mut self,
        types: impl IntoIterator<Item = OrderClass>,
    ) -> Result<Self, ValidationError> {
        self.request = self.request.types(types)?;
        Ok(self)
    }

    /// Re-arms every `every` instead of every third of the timeout: at least 10 ms and at
    /// most half the timeout, so that a re-arm is tried at least twice before the timer can
    /// run out.
    pub fn rearm_every(mut self, every: Duration) -> Result<Self, ValidationError> {
        if every < MIN_REARM_EVERY || every > self.timeout / 2 {
            return Err(ValidationError::InvalidField {
                field: "timeout",
                reason: Reason::Format(
                    "the re-arm interval must be from 10 ms to half the timeout",
                ),
            });
        }
        self.rearm_every = every;
        Ok(self)
    }

    /// The request that arms (and re-arms) the timer.
    pub fn request(&self) -> &SetKillSwitch {
        &self.request
    }

    /// The request that deletes the timer.
    pub fn disarm_request(&self) -> SetKillSwitch {
        self.request.to_disarm()
    }

    /// The timer's timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// How often the timer is re-armed.
    pub fn rearm_interval(&self) -> Duration {
        self.rearm_every
    }

    /// The earliest the current timer can run out: the last accepted re-arm's signing time
    /// plus the timeout.
    pub fn expires_at(&self) -> Option<SystemTime> {
        self.armed_at.map(|t| t + self.timeout)
    }

    /// How long to wait at `now` before the next re-arm (zero: now).
    pub fn due_in(&self, now: SystemTime) -> Duration {
        self.due
            .and_then(|due| due.duration_since(now).ok())
            .unwrap_or_default()
    }

    /// Records that the (re-)arm signed at `signed_at` was accepted; the event to report,
    /// if any.
    pub fn armed(&mut self, signed_at: SystemTime) -> Option<KillSwitchEvent> {
        let recovered = (self.failures > 0).then_some(KillSwitchEvent::Recovered {
            failures: self.failures,
        });
        self.armed_at = Some(signed_at);
        self.due = Some(signed_at + self.rearm_every);
        self.failures = 0;
        self.lapse_reported = false;
        recovered
    }

    /// Records what the re-arm signed at `signed_at` came to, judged at `now`: the event to
    /// report, if any ([`armed`](Self::armed) or [`failed`](Self::failed)).
    pub fn record<T>(
        &mut self,
        signed_at: SystemTime,
        now: SystemTime,
        outcome: Result<T, Error>,
    ) -> Option<KillSwitchEvent> {
        match outcome {
            Ok(_) => self.armed(signed_at),
            Err(error) => Some(self.failed(now, error)),
        }
    }

    /// Records that the re-arm tried at `now` failed with `error`: the event to report.
    pub fn failed(&mut self, now: SystemTime, error: Error) -> KillSwitchEvent {
        self.failures = self.failures.saturating_add(1);
        self.due = Some(now + self.rearm_every / 4);
        let left = self
            .expires_at()
            .and_then(|end| end.duration_since(now).ok())
            .unwrap_or_default();
        if left.is_zero() && !self.lapse_reported {
            self.lapse_reported = true;
            return KillSwitchEvent::Lapsed {
                error,
                failures: self.failures,
            };
        }
        KillSwitchEvent::RearmFailed {
            error,
            failures: self.failures,
            left,
        }
    }
}

/// What a kill-switch guard reports to its caller. Successful re-arms are not reported; a
/// failure always is.
#[derive(Debug)]
#[non_exhaustive]
pub enum KillSwitchEvent {
    /// A re-arm failed (after the client's own retries); the timer still runs.
    RearmFailed {
        /// Why.
        error: Error,
        /// Failed re-arms in a row.
        failures: u32,
        /// How long, at the least, the timer has left before the exchange cancels the
        /// market's orders.
        left: Duration,
    },
    /// Re-arming has failed until the timer may have run out: the exchange may have canceled
    /// the market's open orders. Reported once per lapse; re-arming goes on.
    Lapsed {
        /// The last failure.
        error: Error,
        /// Failed re-arms in a row.
        failures: u32,
    },
    /// A re-arm succeeded after failures.
    Recovered {
        /// How many had failed.
        failures: u32,
    },
    /// Deleting the timer when the guard was dropped failed: it runs out on its own, and
    /// then the exchange cancels the market's open orders.
    DisarmFailed(Error),
}

impl fmt::Display for KillSwitchEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RearmFailed {
                error,
                failures,
                left,
            } => write!(
                f,
                "kill switch: re-arm failed ({failures} in a row), {} ms left before the exchange cancels the orders: {error}",
                left.as_millis()
            ),
            Self::Lapsed { error, failures } => write!(
                f,
                "kill switch: re-arming failed {failures} times and the timer may have run out; the market's orders may be canceled: {error}"
            ),
            Self::Recovered { failures } => {
                write!(f, "kill switch: re-armed again after {failures} failures")
            }
            Self::DisarmFailed(error) => write!(
                f,
                "kill switch: deleting the timer failed; it runs out on its own and the orders are then canceled: {error}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure() -> Error {
        Error::invalid_config("test", "a failed re-arm")
    }

    #[test]
    fn a_lapse_is_reported_once_and_recovery_after_it() {
        let mut s = KillSwitchSchedule::new("BTC_USDT", 6)
            .and_then(|s| s.rearm_every(Duration::from_secs(2)));
        let Ok(s) = s.as_mut() else {
            unreachable!("a valid schedule")
        };
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        assert!(s.armed(t0).is_none());
        assert_eq!(s.expires_at(), Some(t0 + Duration::from_secs(6)));
        let at = |secs| t0 + Duration::from_secs(secs);
        assert!(matches!(
            s.failed(at(2), failure()),
            KillSwitchEvent::RearmFailed { failures: 1, left, .. } if left == Duration::from_secs(4)
        ));
        assert!(matches!(
            s.failed(at(6), failure()),
            KillSwitchEvent::Lapsed { failures: 2, .. }
        ));
        assert!(matches!(
            s.failed(at(7), failure()),
            KillSwitchEvent::RearmFailed { left, .. } if left.is_zero()
        ));
        assert!(matches!(
            s.armed(at(8)),
            Some(KillSwitchEvent::Recovered { failures: 3 })
        ));
        assert_eq!(s.due_in(at(8)), Duration::from_secs(2));
    }

    #[test]
    fn intervals_and_deletions_are_checked() {
        let s = KillSwitchSchedule::new("BTC_USDT", 10);
        assert!(
            s.clone()
                .and_then(|s| s.rearm_every(Duration::from_secs(6)))
                .is_err()
        );
        assert!(
            s.and_then(|s| s.rearm_every(Duration::from_millis(5)))
                .is_err()
        );
        let disarm = SetKillSwitch::disarm("BTC_USDT");
        assert!(disarm.and_then(KillSwitchSchedule::for_request).is_err());
    }
}

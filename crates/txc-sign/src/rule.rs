//! [`AbsenceRule`]: when a round of look-ups may prove absence, and whether one did — pure,
//! and the same for every operation resolved by look-ups.

use std::time::{Duration, SystemTime};

use crate::evidence::{AcceptanceWindow, NONCE_WINDOW, Round, RoundVerdict};
use crate::{ClockBounds, ClockOffset};

/// When rounds of look-ups prove an operation's absence.
///
/// **The rule** (the default, *proven* timing): absence is proven by two rounds with no flaw
/// and nothing of the attempts' found, where
///
/// 1. every look-up of the first was processed after the exchange's clock passed the end of
///    the [`AcceptanceWindow`] plus the settling delay — judged by the look-up's signing time
///    and the *lower* bound of the measured offset ([`ClockBounds::earliest`]), so a look-up
///    whose time cannot be proved does not count;
/// 2. every look-up of the second was sent at least the settling delay after the last of the
///    first.
///
/// The settling delay is the client's setting raised to its floor: the nonce window plus the
/// measured skew of the nonce clock ([`ClockBounds::skew_from`]). What the two rounds cover: a
/// record of the attempts reaches each look-up within the settling delay of its creation and
/// of each change of its state (see `Resolve`'s docs).
///
/// With *unproven* timing (the client's `unproven_settle_delay`) the rounds are spaced by the
/// caller's delay from the last attempt's signing, whatever the window and the clock: the
/// answer then rests on the caller's word, and its [`Evidence`](crate::Evidence) says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbsenceRule {
    delay: Duration,
    proven: bool,
}

impl AbsenceRule {
    /// The rule with a settling delay of `delay` (raised to its floor when used).
    pub fn proven(delay: Duration) -> Self {
        Self {
            delay,
            proven: true,
        }
    }

    /// Rounds spaced by `delay` after the last attempt, without the rule's guarantee.
    pub fn unproven(delay: Duration) -> Self {
        Self {
            delay,
            proven: false,
        }
    }

    /// The settling delay as set (before the floor).
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Whether the timing is the rule's.
    pub fn is_proven(&self) -> bool {
        self.proven
    }

    /// The settling delay used: the setting, raised to the floor (the nonce window plus the
    /// skew `clock` measures of a nonce clock corrected by `applied`) with proven timing.
    pub fn settle_delay(&self, clock: Option<&ClockBounds>, applied: ClockOffset) -> Duration {
        if !self.proven {
            return self.delay;
        }
        let skew = clock.map_or(Duration::ZERO, |c| c.skew_from(applied));
        self.delay.max(NONCE_WINDOW.saturating_add(skew))
    }

    /// The local time from which the next round may prove absence: `None` while that cannot be
    /// known (proven timing without a window end or a clock reading).
    pub fn ready_at(&self, timing: &Timing<'_>) -> Option<SystemTime> {
        let settle = self.settle_delay(timing.clock, timing.applied);
        let first = if self.proven {
            let end = timing.window?.end()?;
            timing.clock?.local_when_reached(end.checked_add(settle)?)
        } else {
            timing.last_attempt.checked_add(settle)?
        };
        let after_previous = timing
            .previous
            .and_then(Round::last_sent_at)
            .and_then(|t| t.checked_add(settle));
        Some(first.max(after_previous.unwrap_or(first)))
    }

    /// What `round` — flawless, nothing of the attempts' in it — counts for:
    /// [`RoundVerdict::Absent`] if every look-up was sent late enough, else
    /// [`RoundVerdict::TooEarly`].
    pub fn judge(&self, round: &Round, timing: &Timing<'_>) -> RoundVerdict {
        let settle = self.settle_delay(timing.clock, timing.applied);
        let needed_exchange = if self.proven {
            let Some(end) = timing.window.and_then(AcceptanceWindow::end) else {
                return RoundVerdict::TooEarly;
            };
            let Some(clock) = timing.clock else {
                return RoundVerdict::TooEarly;
            };
            Some((end.checked_add(settle), clock))
        } else {
            None
        };
        let needed_local = if self.proven {
            None
        } else {
            timing.last_attempt.checked_add(settle)
        };
        let after_previous = timing
            .previous
            .and_then(Round::last_sent_at)
            .and_then(|t| t.checked_add(settle));
        let late_enough = round.looks.iter().all(|look| {
            let past_window = match needed_exchange {
                Some((Some(needed), clock)) => clock.earliest(look.sent_at) >= needed,
                Some((None, _)) => false,
                None => needed_local.is_some_and(|n| look.sent_at >= n),
            };
            past_window && after_previous.is_none_or(|t| look.sent_at >= t)
        });
        if late_enough && !round.looks.is_empty() {
            RoundVerdict::Absent
        } else {
            RoundVerdict::TooEarly
        }
    }
}

/// What the rule's timing is judged against.
#[derive(Debug, Clone, Copy)]
pub struct Timing<'a> {
    /// The attempts' window (proven timing needs its end).
    pub window: Option<&'a AcceptanceWindow>,
    /// The exchange's clock as measured (proven timing needs it).
    pub clock: Option<&'a ClockBounds>,
    /// The correction applied to the nonce clock.
    pub applied: ClockOffset,
    /// When the last attempt was signed (unproven timing counts from it).
    pub last_attempt: SystemTime,
    /// The round that proved absence before, if one did.
    pub previous: Option<&'a Round>,
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;
    use crate::evidence::Look;
    use crate::{AttemptRecord, Nonce};

    fn at(ms: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(ms)
    }

    fn round(sent: &[u64]) -> Round {
        Round {
            looks: sent
                .iter()
                .map(|s| Look::new("open_orders", at(*s), at(*s + 10)))
                .collect(),
            verdict: RoundVerdict::Probe,
        }
    }

    #[test]
    fn the_first_proof_waits_for_the_exchange_s_clock_past_the_window_and_the_delay() {
        let attempt = AttemptRecord {
            nonce: Nonce(100_000),
            signed_at: at(100_000),
        };
        let window = AcceptanceWindow::of_nonces(&[attempt], None);
        assert_eq!(window.end(), Some(at(110_000)));
        // The exchange's clock is 2–3 s behind the local one.
        let clock = ClockBounds::from_reading(at(98_000), at(99_900), at(101_000));
        assert_eq!(
            (clock.lo().as_millis(), clock.hi().as_millis()),
            (-3_000, -900)
        );
        let rule = AbsenceRule::proven(Duration::from_secs(6));
        let timing = Timing {
            window: Some(&window),
            clock: Some(&clock),
            applied: ClockOffset::ZERO,
            last_attempt: at(100_000),
            previous: None,
        };
        // Floor: 5 s window + 3 s skew = 8 s, above the 6 s asked for.
        assert_eq!(
            rule.settle_delay(Some(&clock), ClockOffset::ZERO),
            Duration::from_secs(8)
        );
        // Exchange clock at 118 s, certainly, from local 121 s on.
        assert_eq!(rule.ready_at(&timing), Some(at(121_000)));
        assert_eq!(
            rule.judge(&round(&[120_999]), &timing),
            RoundVerdict::TooEarly
        );
        let first = round(&[121_000, 121_500]);
        assert_eq!(rule.judge(&first, &timing), RoundVerdict::Absent);
        let second = Timing {
            previous: Some(&first),
            ..timing
        };
        assert_eq!(rule.ready_at(&second), Some(at(129_500)));
        assert_eq!(
            rule.judge(&round(&[129_499]), &second),
            RoundVerdict::TooEarly
        );
        assert_eq!(
            rule.judge(&round(&[129_500]), &second),
            RoundVerdict::Absent
        );
        // Without a clock reading, proven timing cannot say.
        let blind = Timing {
            clock: None,
            ..timing
        };
        assert_eq!(rule.ready_at(&blind), None);
        assert_eq!(
            rule.judge(&round(&[999_999]), &blind),
            RoundVerdict::TooEarly
        );
    }

    #[test]
    fn unproven_timing_counts_from_the_last_attempt() {
        let rule = AbsenceRule::unproven(Duration::from_millis(100));
        let timing = Timing {
            window: None,
            clock: None,
            applied: ClockOffset::ZERO,
            last_attempt: at(1_000),
            previous: None,
        };
        assert_eq!(rule.ready_at(&timing), Some(at(1_100)));
        assert_eq!(rule.judge(&round(&[1_100]), &timing), RoundVerdict::Absent);
        assert_eq!(
            rule.judge(&round(&[1_099]), &timing),
            RoundVerdict::TooEarly
        );
    }
}

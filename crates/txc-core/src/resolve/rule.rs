//! [`AbsenceRule`]: when a round of look-ups may prove absence, and whether one did — pure,
//! and the same for every operation resolved by look-ups.

use std::time::{Duration, SystemTime};

use super::evidence::{AcceptanceWindow, NONCE_WINDOW, Round, RoundVerdict};
use crate::{ClockBounds, ClockOffset};

/// When rounds of look-ups prove an operation's absence — the same for an order, a
/// position's close and an investment.
///
/// **The rule** (the default, *proven* timing): absence is proven by two rounds with no flaw
/// and nothing of the attempts' found, where
///
/// 1. every look-up of the first was processed after the exchange's clock passed the time the
///    attempts settled — the end of their [`AcceptanceWindow`] — plus the settling delay:
///    judged by the look-up's signing time and the *lower* bound of the measured offset
///    ([`ClockBounds::earliest`]), so a look-up whose time cannot be proved does not count;
/// 2. every look-up of the second was sent at least the settling delay after the last of the
///    first.
///
/// The settling delay is the client's setting raised to its floor: the nonce window plus the
/// measured skew of the nonce clock ([`ClockBounds::skew_from`]). What the two rounds cover: a
/// record of the attempts reaches each look-up within the settling delay of its creation and
/// of each change of its state (see `Resolve`'s docs).
///
/// Two settings give the guarantee up, each for one of its parts, and the
/// [`Evidence`](crate::Evidence) then says so (`guaranteed: false`):
/// [`unproven`](Self::unproven) drops the floor (the caller's settling delay, whatever the
/// visibility lag), and [`with_acceptance_window`](Self::with_acceptance_window) replaces the
/// documented time the attempts may still be accepted and create their record (for a sandbox
/// whose requests arrive at once). Both are still measured on the exchange's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbsenceRule {
    delay: Duration,
    floor: bool,
    window: Option<Duration>,
}

impl AbsenceRule {
    /// The rule with a settling delay of `delay` (raised to its floor when used).
    pub fn proven(delay: Duration) -> Self {
        Self {
            delay,
            floor: true,
            window: None,
        }
    }

    /// The rule with the caller's settling delay `delay`, without its floor: the answer rests
    /// on the caller's word that no record lags more.
    pub fn unproven(delay: Duration) -> Self {
        Self {
            delay,
            floor: false,
            window: None,
        }
    }

    /// The same, counting the attempts as settled `window` after the last one's nonce (the
    /// fence, with strict nonces) instead of the documented window's end — the nonce window
    /// and the creation allowance: the answer rests on the caller's word that every attempt
    /// was accepted, and its record created, by then.
    pub fn with_acceptance_window(mut self, window: Duration) -> Self {
        self.window = Some(window);
        self
    }

    /// The settling delay as set (before the floor).
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// The caller's acceptance window, if it replaces the documented one.
    pub fn acceptance_window(&self) -> Option<Duration> {
        self.window
    }

    /// Whether the timing is the rule's (no setting gave any of it up).
    pub fn is_proven(&self) -> bool {
        self.floor && self.window.is_none()
    }

    /// The settling delay used: the setting, raised to the floor (the nonce window plus the
    /// skew `clock` measures of a nonce clock corrected by `applied`) unless it was given up.
    pub fn settle_delay(&self, clock: Option<&ClockBounds>, applied: ClockOffset) -> Duration {
        if !self.floor {
            return self.delay;
        }
        let skew = clock.map_or(Duration::ZERO, |c| c.skew_from(applied));
        self.delay.max(NONCE_WINDOW.saturating_add(skew))
    }

    /// The exchange's time after which no attempt of `window` can be accepted and create its
    /// record: its end, or its anchor (the last nonce, the fence) plus the caller's
    /// acceptance window. `None` while unknown.
    pub fn settled_at(&self, window: &AcceptanceWindow) -> Option<SystemTime> {
        match self.window {
            None => window.end(),
            Some(span) => window.anchor()?.checked_add(span),
        }
    }

    /// The local time from which the next round may prove absence: `None` while that cannot be
    /// known (no settling time or no clock reading yet).
    pub fn ready_at(&self, timing: &Timing<'_>) -> Option<SystemTime> {
        let settle = self.settle_delay(timing.clock, timing.applied);
        let first = timing
            .clock?
            .local_when_reached(timing.settled_at?.checked_add(settle)?);
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
        let (Some(clock), Some(needed)) = (
            timing.clock,
            timing.settled_at.and_then(|t| t.checked_add(settle)),
        ) else {
            return RoundVerdict::TooEarly;
        };
        let after_previous = timing
            .previous
            .and_then(Round::last_sent_at)
            .and_then(|t| t.checked_add(settle));
        let late_enough = round.looks.iter().all(|look| {
            clock.earliest(look.sent_at) >= needed
                && after_previous.is_none_or(|t| look.sent_at >= t)
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
    /// When, on the exchange's clock, the attempts settled ([`AbsenceRule::settled_at`]).
    pub settled_at: Option<SystemTime>,
    /// The exchange's clock as measured.
    pub clock: Option<&'a ClockBounds>,
    /// The correction applied to the nonce clock.
    pub applied: ClockOffset,
    /// The round that proved absence before, if one did.
    pub previous: Option<&'a Round>,
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;
    use crate::resolve::Look;
    use crate::{AttemptRecord, Nonce};

    fn at(ms: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(ms)
    }

    /// The acceptance window of one attempt whose nonce is `ms`, signed then.
    fn window_of_one_attempt(ms: u64) -> AcceptanceWindow {
        let attempt = AttemptRecord {
            nonce: Nonce(ms),
            signed_at: at(ms),
        };
        AcceptanceWindow::of_nonces(&[attempt], None)
    }

    fn round(sent: &[u64]) -> Round {
        Round {
            looks: sent
                .iter()
                .map(|s| Look::new("open_orders", at(*s), at(*s + 10)))
                .collect(),
            verdict: RoundVerdict::Probe,
            exchange_sent_at: None,
        }
    }

    #[test]
    fn the_first_proof_waits_for_the_exchange_s_clock_past_the_window_and_the_delay() {
        let window = window_of_one_attempt(100_000);
        assert_eq!(window.end(), Some(at(110_000)));
        // The exchange's clock is 2–3 s behind the local one.
        let clock = ClockBounds::from_reading(at(98_000), at(99_900), at(101_000));
        assert_eq!(
            (clock.lo().as_millis(), clock.hi().as_millis()),
            (-3_000, -900)
        );
        let rule = AbsenceRule::proven(Duration::from_secs(6));
        let timing = Timing {
            settled_at: rule.settled_at(&window),
            clock: Some(&clock),
            applied: ClockOffset::ZERO,
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
    fn unproven_timing_drops_the_floor_and_may_shorten_the_window_on_the_exchange_s_clock() {
        let window = window_of_one_attempt(1_000);
        // The exchange's clock 0–2 s ahead of the local one: ready by the local clock at once.
        let clock = ClockBounds::from_reading(at(2_000), at(1_000), at(2_000));
        let unproven = AbsenceRule::unproven(Duration::from_millis(100));
        assert!(!unproven.is_proven());
        assert_eq!(
            unproven.settle_delay(Some(&clock), ClockOffset::ZERO),
            Duration::from_millis(100),
            "no floor"
        );
        // The documented window is still waited out: 1 s + 10 s, then the delay.
        let timing = |rule: &AbsenceRule| Timing {
            settled_at: rule.settled_at(&window),
            clock: Some(&clock),
            applied: ClockOffset::ZERO,
            previous: None,
        };
        assert_eq!(unproven.settled_at(&window), Some(at(11_000)));
        assert_eq!(unproven.ready_at(&timing(&unproven)), Some(at(11_100)));
        // The caller's window: 200 ms after the nonce.
        let short = unproven.with_acceptance_window(Duration::from_millis(200));
        assert_eq!(short.settled_at(&window), Some(at(1_200)));
        assert_eq!(short.ready_at(&timing(&short)), Some(at(1_300)));
        assert_eq!(
            short.judge(&round(&[1_300]), &timing(&short)),
            RoundVerdict::Absent
        );
        assert_eq!(
            short.judge(&round(&[1_299]), &timing(&short)),
            RoundVerdict::TooEarly
        );
        // Without a clock reading nothing can be judged.
        let blind = Timing {
            clock: None,
            ..timing(&short)
        };
        assert_eq!(short.ready_at(&blind), None);
    }
}

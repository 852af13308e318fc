//! The request budget of one connection: at most `limit` requests in any window of a minute.
//!
//! A log of send times rather than `governor`'s GCRA (which [`RateLimiter`](crate::RateLimiter)
//! uses): a GCRA admits its burst and then its rate, so a window can hold up to twice the
//! quota unless both are cut down, while the log admits exactly `limit` per window and holds
//! at most `limit` (≤ 200) times.
//!
//! A few slots of each window are kept for pings (see [`ping_reserve`]): a queue of other
//! requests waiting for the budget must not keep the ping from going out, or the server
//! would close the idle connection.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use super::config::pings_per_minute;

/// The send times of the last window.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    limit: usize,
    window: Duration,
    sent: VecDeque<SystemTime>,
}

impl Budget {
    /// At most `limit` sends in any `window`.
    pub(crate) fn new(limit: u32, window: Duration) -> Self {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX).max(1);
        Self {
            limit,
            window,
            sent: VecDeque::with_capacity(limit.min(256)),
        }
    }

    /// Takes a slot at `now` (times never go backwards) if more than `reserve` are free, or
    /// says when that will be.
    pub(crate) fn take(&mut self, now: SystemTime, reserve: usize) -> Result<(), SystemTime> {
        while let Some(&oldest) = self.sent.front() {
            match oldest.checked_add(self.window) {
                Some(expiry) if expiry <= now => {
                    self.sent.pop_front();
                }
                _ => break,
            }
        }
        match self.free_at(now, reserve) {
            None => {
                self.sent.push_back(now);
                Ok(())
            }
            Some(at) => Err(at),
        }
    }

    /// When more than `reserve` slots will be free, if they are not at `now`.
    pub(crate) fn free_at(&self, now: SystemTime, reserve: usize) -> Option<SystemTime> {
        // With the oldest `j` sends expired, `len - j` remain; a slot is free beyond the
        // reserve once `len - j + reserve < limit`.
        let used = self.sent.len().saturating_add(reserve);
        if used < self.limit {
            return None;
        }
        self.sent
            .get(used - self.limit)
            .and_then(|at| at.checked_add(self.window))
            .filter(|at| *at > now)
    }
}

/// The slots of each minute kept for pings: as many pings as a minute can need (a ping goes
/// out only after `ping_interval` with nothing sent), at most half the budget (the
/// configuration makes sure that is enough).
pub(crate) fn ping_reserve(limit: u32, ping_interval: Duration) -> usize {
    let pings = pings_per_minute(ping_interval);
    usize::try_from(pings.min(u64::from(limit / 2))).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::{Budget, ping_reserve};

    #[test]
    fn admits_the_limit_per_window_and_says_when_a_slot_frees_up() {
        let t0 = UNIX_EPOCH + Duration::from_secs(1_000);
        let mut budget = Budget::new(3, Duration::from_secs(60));
        for s in 0..3 {
            assert_eq!(budget.take(t0 + Duration::from_secs(s), 0), Ok(()));
        }
        let later = t0 + Duration::from_secs(10);
        assert_eq!(budget.take(later, 0), Err(t0 + Duration::from_secs(60)));
        assert_eq!(budget.free_at(later, 0), Some(t0 + Duration::from_secs(60)));
        assert_eq!(budget.take(t0 + Duration::from_secs(60), 0), Ok(()));
        assert_eq!(
            budget.take(t0 + Duration::from_secs(60), 0),
            Err(t0 + Duration::from_secs(61))
        );
        assert_eq!(budget.free_at(t0 + Duration::from_secs(200), 0), None);
    }

    #[test]
    fn a_reserve_holds_slots_back_for_those_that_may_use_it() {
        let t0 = UNIX_EPOCH + Duration::from_secs(1_000);
        let mut budget = Budget::new(4, Duration::from_secs(60));
        assert_eq!(budget.take(t0, 2), Ok(()));
        assert_eq!(budget.take(t0 + Duration::from_secs(1), 2), Ok(()));
        // Two left, both reserved.
        assert_eq!(
            budget.take(t0 + Duration::from_secs(2), 2),
            Err(t0 + Duration::from_secs(60))
        );
        assert_eq!(budget.take(t0 + Duration::from_secs(2), 0), Ok(()));
        // Three used: a reserve of two needs two of them gone.
        assert_eq!(
            budget.free_at(t0 + Duration::from_secs(3), 2),
            Some(t0 + Duration::from_secs(61))
        );
        assert_eq!(budget.take(t0 + Duration::from_secs(3), 0), Ok(()));
        assert_eq!(
            budget.take(t0 + Duration::from_secs(3), 0),
            Err(t0 + Duration::from_secs(60))
        );
    }

    #[test]
    fn the_ping_reserve_covers_a_window_of_pings_within_half_the_budget() {
        assert_eq!(ping_reserve(190, Duration::from_secs(30)), 3);
        assert_eq!(ping_reserve(190, Duration::from_secs(49)), 3);
        assert_eq!(ping_reserve(190, Duration::from_secs(1)), 61);
        assert_eq!(ping_reserve(5, Duration::from_secs(30)), 2);
        assert_eq!(ping_reserve(1, Duration::from_secs(30)), 0);
    }
}

//! The request budget of one connection: at most `limit` requests in any window of a minute.
//!
//! A log of send times rather than `governor`'s GCRA (which [`RateLimiter`](crate::RateLimiter)
//! uses): a GCRA admits its burst and then its rate, so a window can hold up to twice the
//! quota unless both are cut down, while the log admits exactly `limit` per window and holds
//! at most `limit` (≤ 200) times.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

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

    /// Takes a slot at `now` (times never go backwards), or says when one frees up.
    pub(crate) fn take(&mut self, now: SystemTime) -> Result<(), SystemTime> {
        while let Some(&oldest) = self.sent.front() {
            match oldest.checked_add(self.window) {
                Some(expiry) if expiry <= now => {
                    self.sent.pop_front();
                }
                _ => break,
            }
        }
        if self.sent.len() < self.limit {
            self.sent.push_back(now);
            return Ok(());
        }
        Err(self
            .sent
            .front()
            .and_then(|oldest| oldest.checked_add(self.window))
            .unwrap_or(now))
    }

    /// When the next slot frees up, if none is free at `now`.
    pub(crate) fn free_at(&self, now: SystemTime) -> Option<SystemTime> {
        if self.sent.len() < self.limit {
            return None;
        }
        self.sent
            .front()
            .and_then(|oldest| oldest.checked_add(self.window))
            .filter(|at| *at > now)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::Budget;

    #[test]
    fn admits_the_limit_per_window_and_says_when_a_slot_frees_up() {
        let t0 = UNIX_EPOCH + Duration::from_secs(1_000);
        let mut budget = Budget::new(3, Duration::from_secs(60));
        for s in 0..3 {
            assert_eq!(budget.take(t0 + Duration::from_secs(s)), Ok(()));
        }
        let later = t0 + Duration::from_secs(10);
        assert_eq!(budget.take(later), Err(t0 + Duration::from_secs(60)));
        assert_eq!(budget.free_at(later), Some(t0 + Duration::from_secs(60)));
        assert_eq!(budget.take(t0 + Duration::from_secs(60)), Ok(()));
        assert_eq!(
            budget.take(t0 + Duration::from_secs(60)),
            Err(t0 + Duration::from_secs(61))
        );
        assert_eq!(budget.free_at(t0 + Duration::from_secs(200)), None);
    }
}

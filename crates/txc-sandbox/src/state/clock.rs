//! [`Clock`]: the sandbox's clock — the host's, shifted by a fixed offset. Orders, positions,
//! investments and timers are stamped with it; authentication checks nonce windows against it,
//! and the routes write the server time and the `Date` header from it.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The sandbox's clock: the host's, shifted by a fixed offset (to test clients whose clock is
/// off; [`crate::SandboxBuilder::clock_offset_ms`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Clock {
    offset_ms: i64,
}

impl Clock {
    /// The host's clock shifted by `offset_ms` milliseconds.
    pub(crate) fn new(offset_ms: i64) -> Self {
        Self { offset_ms }
    }

    /// The sandbox's time.
    pub(crate) fn now(self) -> SystemTime {
        let now = SystemTime::now();
        let shift = Duration::from_millis(self.offset_ms.unsigned_abs());
        let shifted = if self.offset_ms >= 0 {
            now.checked_add(shift)
        } else {
            now.checked_sub(shift)
        };
        shifted.unwrap_or(now)
    }

    /// The sandbox's time in Unix milliseconds.
    pub(crate) fn now_ms(self) -> u64 {
        self.since_epoch()
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or_default()
    }

    /// The sandbox's time in Unix microseconds.
    pub(crate) fn now_us(self) -> u64 {
        self.since_epoch()
            .map(|d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
            .unwrap_or_default()
    }

    fn since_epoch(self) -> Option<Duration> {
        self.now().duration_since(UNIX_EPOCH).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_shifts_every_reading() {
        let host = SystemTime::now();
        let ahead = Clock::new(7_000).now();
        let behind = Clock::new(-7_000).now();
        assert!(ahead.duration_since(host).unwrap() >= Duration::from_millis(6_900));
        assert!(host.duration_since(behind).unwrap() >= Duration::from_millis(6_900));
        assert!(Clock::new(7_000).now_ms() >= Clock::default().now_ms() + 6_900);
    }
}

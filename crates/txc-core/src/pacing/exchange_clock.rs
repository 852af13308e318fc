//! [`ClockBounds`]: what this client has measured of the exchange's clock, as bounds rather
//! than a guess — and the record of it every call of a client keeps up to date.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::ClockOffset;

/// How long an older reading may be merged with a newer one; older ones are dropped, so that
/// the local clock's drift (and any step) cannot make the bounds wrong.
const MERGE_WITHIN: Duration = Duration::from_secs(60);

/// Bounds on the exchange's clock against the local one: the offset (exchange minus local)
/// certainly lies in [`lo`](Self::lo)..=[`hi`](Self::hi).
///
/// Measured from a reading of the exchange's clock — the `Date` of any of its answers, or its
/// server time — which has a resolution of one second: the exchange said `server` (its true
/// time then in `[server, server + 1 s)`) at some moment between `sent` and `received` on the
/// local clock, so the offset is above `server − received` and below `server + 1 s − sent`.
/// No guess is involved: a slow round trip widens the bounds, it never moves them.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::pacing::ClockBounds;
/// let at = |ms| UNIX_EPOCH + Duration::from_millis(ms);
/// // Sent at local 1 000.0 s, answered at 1 000.2 s; the exchange said 1 090 s.
/// let bounds = ClockBounds::from_reading(at(1_090_000), at(1_000_000), at(1_000_200));
/// assert_eq!((bounds.lo().as_millis(), bounds.hi().as_millis()), (89_800, 91_000));
/// // When does the exchange's clock certainly read 1 100 s? At local 1 010.2 s.
/// assert_eq!(bounds.local_when_reached(at(1_100_000)), at(1_010_200));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockBounds {
    lo: i64,
    hi: i64,
    /// When the newest reading behind the bounds was received (local clock).
    taken: SystemTime,
}

impl ClockBounds {
    /// The bounds one reading gives: the exchange's clock read `server` (whole seconds)
    /// between `sent` and `received` on the local clock.
    pub fn from_reading(server: SystemTime, sent: SystemTime, received: SystemTime) -> Self {
        let received = received.max(sent);
        let server = i128::from(millis(server));
        let lo = server - i128::from(millis(received));
        let hi = server + 1_000 - i128::from(millis(sent));
        Self {
            lo: clamp(lo),
            hi: clamp(hi),
            taken: received,
        }
    }

    /// The least the offset can be.
    pub fn lo(&self) -> ClockOffset {
        ClockOffset::from_millis(self.lo)
    }

    /// The most the offset can be.
    pub fn hi(&self) -> ClockOffset {
        ClockOffset::from_millis(self.hi)
    }

    /// How wide the bounds are: how well the exchange's clock is known.
    pub fn width(&self) -> Duration {
        Duration::from_millis(self.hi.abs_diff(self.lo))
    }

    /// When the newest reading behind them was received (local clock).
    pub fn taken(&self) -> SystemTime {
        self.taken
    }

    /// The local time by which the exchange's clock has certainly reached `exchange`.
    pub fn local_when_reached(&self, exchange: SystemTime) -> SystemTime {
        shift(exchange, -self.lo)
    }

    /// The earliest the exchange's clock can have read at local time `local`.
    pub fn earliest(&self, local: SystemTime) -> SystemTime {
        shift(local, self.lo)
    }

    /// The latest the exchange's clock can have read at local time `local`.
    pub fn latest(&self, local: SystemTime) -> SystemTime {
        shift(local, self.hi)
    }

    /// The measured skew of a clock corrected by `applied` (the nonce clock): how far it can be
    /// from the exchange's, as far as the bounds tell.
    pub fn skew_from(&self, applied: ClockOffset) -> Duration {
        let a = applied.as_millis();
        Duration::from_millis(self.lo.abs_diff(a).max(self.hi.abs_diff(a)))
    }

    /// These bounds narrowed by `newer`'s when both hold (readings less than a minute apart
    /// whose bounds overlap), else `newer`'s alone.
    pub(crate) fn merge(self, newer: Self) -> Self {
        let (older, newer) = if newer.taken >= self.taken {
            (self, newer)
        } else {
            (newer, self)
        };
        let recent = newer
            .taken
            .duration_since(older.taken)
            .is_ok_and(|d| d <= MERGE_WITHIN);
        let (lo, hi) = (older.lo.max(newer.lo), older.hi.min(newer.hi));
        if recent && lo <= hi {
            Self {
                lo,
                hi,
                taken: newer.taken,
            }
        } else {
            newer
        }
    }
}

/// The exchange's clock as this client has measured it: shared by clones of a core and kept
/// up to date by every answer that carries a `Date`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ExchangeClock(Arc<Mutex<Option<ClockBounds>>>);

impl ExchangeClock {
    /// Adds a reading.
    pub(crate) fn observe(&self, reading: ClockBounds) {
        let mut bounds = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *bounds = Some(match *bounds {
            Some(known) => known.merge(reading),
            None => reading,
        });
    }

    /// The bounds known, if any reading was made.
    pub(crate) fn bounds(&self) -> Option<ClockBounds> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// `time` moved by `ms` milliseconds (saturating at the epoch).
pub(crate) fn shift(time: SystemTime, ms: i64) -> SystemTime {
    let by = Duration::from_millis(ms.unsigned_abs());
    if ms >= 0 {
        time.checked_add(by).unwrap_or(time)
    } else {
        time.checked_sub(by).unwrap_or(UNIX_EPOCH)
    }
}

/// Signed milliseconds since the epoch.
fn millis(time: SystemTime) -> i64 {
    i64::try_from(crate::unix_millis(time)).unwrap_or(i64::MAX)
}

fn clamp(v: i128) -> i64 {
    i64::try_from(v.clamp(i128::from(i64::MIN), i128::from(i64::MAX))).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(ms)
    }

    #[test]
    fn readings_narrow_the_bounds_and_old_or_disjoint_ones_are_replaced() {
        let a = ClockBounds::from_reading(at(10_000), at(9_000), at(9_300));
        assert_eq!((a.lo, a.hi), (700, 2_000));
        let b = ClockBounds::from_reading(at(11_000), at(9_800), at(9_900));
        assert_eq!((b.lo, b.hi), (1_100, 2_200));
        let both = a.merge(b);
        assert_eq!((both.lo, both.hi, both.taken), (1_100, 2_000, at(9_900)));
        assert_eq!(b.merge(a), both, "order does not matter");
        // A reading that contradicts the last one (the local clock stepped): the newer wins.
        let stepped = ClockBounds::from_reading(at(11_000), at(20_000), at(20_100));
        assert_eq!(both.merge(stepped), stepped);
        // One taken more than a minute later: the newer alone.
        let later = ClockBounds::from_reading(at(81_000), at(79_900), at(80_000));
        assert_eq!(both.merge(later), later);
        assert_eq!(
            both.skew_from(ClockOffset::ZERO),
            Duration::from_millis(2_000)
        );
        assert_eq!(both.width(), Duration::from_millis(900));
    }
}

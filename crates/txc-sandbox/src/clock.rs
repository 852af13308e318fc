//! The server clock: nonce windows are checked against it and orders are stamped with it.

use std::time::{SystemTime, UNIX_EPOCH};

/// Unix time in milliseconds.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default()
}

/// Unix time in microseconds.
pub(crate) fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
        .unwrap_or_default()
}

/// Unix microseconds as the exchange writes times: seconds with a microsecond fraction.
pub(crate) fn seconds(micros: u64) -> f64 {
    // Whole seconds and microseconds separately keep the fraction exact to 6 digits.
    let secs = u32::try_from(micros / 1_000_000).unwrap_or(u32::MAX);
    let frac = u32::try_from(micros % 1_000_000).unwrap_or_default();
    f64::from(secs) + f64::from(frac) / 1_000_000.0
}

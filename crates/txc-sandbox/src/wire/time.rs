//! Times as the exchange writes them: Unix seconds with a microsecond fraction.

/// Unix microseconds as the exchange writes times: seconds with a microsecond fraction.
pub(crate) fn seconds(micros: u64) -> f64 {
    // Whole seconds and microseconds separately keep the fraction exact to 6 digits.
    let secs = u32::try_from(micros / 1_000_000).unwrap_or(u32::MAX);
    let frac = u32::try_from(micros % 1_000_000).unwrap_or_default();
    f64::from(secs) + f64::from(frac) / 1_000_000.0
}

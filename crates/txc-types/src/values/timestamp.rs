//! [`Timestamp`]: a point in time from a response, in Unix seconds with a fraction, kept
//! digit for digit.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::lenient::{FromWire, Scalar};

/// A time the exchange sent as Unix seconds with a fraction (`1595792396.165973`: microsecond
/// precision). An `f64` cannot hold every such value exactly, so this keeps the exact text and
/// the whole seconds and nanoseconds parsed from it.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t: txc_types::values::Timestamp = serde_json::from_str("1595792396.165973")?;
/// assert_eq!(t.as_str(), "1595792396.165973");
/// assert_eq!((t.unix_seconds(), t.subsec_nanos()), (1_595_792_396, 165_973_000));
/// assert_eq!(t.to_system_time(), UNIX_EPOCH + Duration::new(1_595_792_396, 165_973_000));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Timestamp {
    secs: u64,
    nanos: u32,
    text: String,
}

impl Timestamp {
    /// Parses non-negative Unix seconds with an optional fraction (`1595792396`,
    /// `1595792396.165973`); `None` for anything else. Fraction digits beyond nanoseconds are
    /// kept in the text and left out of [`subsec_nanos`](Self::subsec_nanos).
    pub fn parse(text: &str) -> Option<Self> {
        let (whole, frac) = match text.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (text, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(whole) || frac.is_some_and(|f| !all_digits(f)) {
            return None;
        }
        let secs = whole.parse().ok()?;
        let nanos = frac.map_or(0, |f| {
            f.bytes()
                .chain(std::iter::repeat(b'0'))
                .take(9)
                .fold(0u32, |n, b| n * 10 + u32::from(b - b'0'))
        });
        Some(Self {
            secs,
            nanos,
            text: text.to_owned(),
        })
    }

    /// The exact text the exchange sent.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The whole seconds since the Unix epoch.
    pub fn unix_seconds(&self) -> u64 {
        self.secs
    }

    /// The fraction of the second, in nanoseconds.
    pub fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// The time since the Unix epoch.
    pub fn since_epoch(&self) -> Duration {
        Duration::new(self.secs, self.nanos)
    }

    /// The time as a `SystemTime`, saturating at the end of the year 9999.
    pub fn to_system_time(&self) -> SystemTime {
        const LAST_SECOND_OF_9999: u64 = 253_402_300_799;
        let since = Duration::new(self.secs.min(LAST_SECOND_OF_9999), self.nanos);
        UNIX_EPOCH.checked_add(since).unwrap_or(UNIX_EPOCH)
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    /// By time, then by text (for texts of the same nanosecond).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.secs, self.nanos, &self.text).cmp(&(other.secs, other.nanos, &other.text))
    }
}

impl FromWire for Timestamp {
    /// Numbers, and strings holding one.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        Self::parse(value.text()?.trim())
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({})", self.text)
    }
}

impl Serialize for Timestamp {
    /// As a JSON number with the exact digits received (with serde_json).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match RawValue::from_string(self.text.clone()) {
            Ok(raw) => raw.serialize(s),
            Err(_) => s.serialize_str(&self.text),
        }
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    /// From a JSON number or numeric string, by the crate's leniency rule; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::lenient::deserialize_value(d)?
            .ok_or_else(|| serde::de::Error::custom("expected a timestamp, got null"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::Timestamp;

    #[test]
    fn parses_every_digit() {
        let t = Timestamp::parse("1595792396.1659731234").unwrap();
        assert_eq!(
            (t.unix_seconds(), t.subsec_nanos()),
            (1_595_792_396, 165_973_123)
        );
        assert_eq!(t.as_str(), "1595792396.1659731234");
        for bad in ["", "-1", "1.", ".5", "1e9", "1.5.5", "abc"] {
            assert!(Timestamp::parse(bad).is_none(), "{bad}");
        }
    }
}

//! Today's date in UTC, computed from [`std::time::SystemTime`] (no chrono).

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::XtaskError;

/// A proleptic Gregorian calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Date {
    /// Year, e.g. 2025.
    pub(crate) year: i64,
    /// Month, 1–12.
    pub(crate) month: u32,
    /// Day of month, 1–31.
    pub(crate) day: u32,
}

impl Date {
    /// The date `days` days after 1970-01-01 (negative: before), using Howard
    /// Hinnant's `civil_from_days` algorithm.
    pub(crate) fn from_days_since_epoch(days: i64) -> Self {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097); // [0, 146096]
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
        let mp = (5 * doy + 2) / 153; // [0, 11]
        let day = doy - (153 * mp + 2) / 5 + 1; // [1, 31]
        let month = if mp < 10 { mp + 3 } else { mp - 9 }; // [1, 12]
        let year = yoe + era * 400 + i64::from(month <= 2);
        Self {
            year,
            month: u32::try_from(month).unwrap_or(1),
            day: u32::try_from(day).unwrap_or(1),
        }
    }

    /// Today's date in UTC according to the system clock.
    pub(crate) fn today_utc() -> Result<Self, XtaskError> {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_err(|e| XtaskError::Parse(format!("system clock is before 1970: {e}")))?
            .as_secs();
        let days = i64::try_from(secs / 86_400)
            .map_err(|e| XtaskError::Parse(format!("system clock out of range: {e}")))?;
        Ok(Self::from_days_since_epoch(days))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        let cases = [
            (0, "1970-01-01"),
            (-1, "1969-12-31"),
            (59, "1970-03-01"),
            (10_957, "2000-01-01"),
            (11_016, "2000-02-29"),
            (19_782, "2024-02-29"),
            (20_089, "2025-01-01"),
            (20_453, "2025-12-31"),
            (-719_468, "0000-03-01"),
        ];
        for (days, want) in cases {
            assert_eq!(
                Date::from_days_since_epoch(days).to_string(),
                want,
                "{days}"
            );
        }
    }

    #[test]
    fn round_trips_every_day_for_a_few_centuries() {
        let mut prev = Date::from_days_since_epoch(-80_000);
        for days in -79_999..80_000 {
            let d = Date::from_days_since_epoch(days);
            let next_day = d.day == prev.day + 1 && d.month == prev.month && d.year == prev.year;
            let next_month = d.day == 1 && d.month == prev.month + 1 && d.year == prev.year;
            let next_year =
                d.day == 1 && d.month == 1 && prev.month == 12 && d.year == prev.year + 1;
            assert!(next_day || next_month || next_year, "{prev} -> {d}");
            prev = d;
        }
    }
}

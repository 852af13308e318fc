//! The date window of the history reads (`startDate`, `endDate`, Unix seconds): the rules
//! the position history and the closed positions' PnL share — `startDate ≤ endDate ≤
//! now + 1 s` — and the order of the two that every window needs.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::errors::{Reason, ValidationError};

/// How far past the exchange's time `endDate` may be, in seconds.
pub(crate) const END_DATE_LEAD_SECS: u64 = 1;

/// `endDate` not before `startDate`, when both are set.
pub(crate) fn in_order(start: Option<u64>, end: Option<u64>) -> Result<(), ValidationError> {
    ordered(start, end, "endDate", "must not be before startDate")
}

/// A window's end not before its start, when both are set: else `end_field` is refused,
/// saying `why`.
pub(crate) fn ordered(
    start: Option<u64>,
    end: Option<u64>,
    end_field: &'static str,
    why: &'static str,
) -> Result<(), ValidationError> {
    if let (Some(start), Some(end)) = (start, end)
        && end < start
    {
        return Err(ValidationError::invalid(end_field, Reason::Format(why)));
    }
    Ok(())
}

/// `endDate` (and, without one, `startDate`) at most [`END_DATE_LEAD_SECS`] past `now`.
pub(crate) fn not_ahead_of(
    now: SystemTime,
    start: Option<u64>,
    end: Option<u64>,
) -> Result<(), ValidationError> {
    let now_s = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .saturating_add(END_DATE_LEAD_SECS);
    let (field, date) = match (end, start) {
        (Some(end), _) => ("endDate", end),
        (None, Some(start)) => ("startDate", start),
        (None, None) => return Ok(()),
    };
    if date > now_s {
        return Err(ValidationError::invalid(
            field,
            Reason::Format("must be at most a second past the exchange's current time"),
        ));
    }
    Ok(())
}

//! The arithmetic of paging, shared by [`Paged::page_after`](super::Paged::page_after) and
//! [`PageCursor`](super::PageCursor): whether a page was the last, and where the next one
//! starts under the endpoint's caps.

use super::{LastPage, Paged, Tally};
use crate::errors::{Reason, ValidationError};
use crate::page::HoldsPage;

/// Whether a page of `tally` records read at `offset` with `limit` was the last by `rule`.
pub(super) fn is_last(rule: LastPage, offset: u64, limit: u64, tally: Tally) -> bool {
    let records = u64::try_from(tally.records).unwrap_or(u64::MAX);
    if records == 0 {
        return true;
    }
    match (rule, tally.total) {
        (LastPage::Total, Some(total)) => offset.saturating_add(records) >= total,
        _ => records < limit,
    }
}

/// The `(offset, limit)` of the page after the one of `limit` records at `offset`, which
/// re-reads the last `overlap` records of that one; under a window cap the page is shortened
/// to end at the window. `Err(unread)` — the position of the first record not read — when
/// that page lies past `Q`'s caps, or would read nothing new.
pub(super) fn advance<Q: Paged>(offset: u64, limit: u64, overlap: u64) -> Result<(u64, u64), u64> {
    let unread = offset.saturating_add(limit);
    let step = limit.saturating_sub(overlap);
    let next = offset.checked_add(step).ok_or(unread)?;
    if step == 0 || next > <Q as HoldsPage>::MAX_OFFSET {
        return Err(unread);
    }
    let limit = match Q::WINDOW {
        Some(window) => limit.min(window.saturating_sub(next)),
        None => limit,
    };
    if limit <= overlap {
        return Err(unread);
    }
    Ok((next, limit))
}

/// `query` for the page of `limit` records from `offset` (the caller keeps both in bounds).
pub(super) fn at<Q: Paged>(query: &Q, offset: u64, limit: u64) -> Q {
    let mut next = query.clone();
    next.set_limit_and_offset(limit, offset);
    next
}

/// `offset + limit` (the query's limit, else the endpoint's default) within `Q`'s window, if
/// it has one: a builder's check, refusing `offset` with the most it may be.
pub(crate) fn within_window<Q: Paged>(query: &Q) -> Result<(), ValidationError> {
    let (Some(window), Some(limit)) = (Q::WINDOW, query.page_limit()) else {
        return Ok(());
    };
    let max = window.saturating_sub(limit);
    if query.page_offset() > max {
        return Err(ValidationError::invalid(
            "offset",
            Reason::OutOfRange { min: 0, max },
        ));
    }
    Ok(())
}

//! What the investment operations share: the bounds of a list's page, and the check of the
//! ids the exchange issues (a plan's, an investment's).
//!
//! Not an endpoint: see [`InvestmentsQuery`](super::InvestmentsQuery) and
//! [`InterestPaymentsQuery`](super::InterestPaymentsQuery).

use crate::errors::ValidationError;
use crate::values::text::check_chars;

/// The most records a page holds (the exchange's `limit` maximum and default).
pub const MAX_PAGE_LIMIT: u64 = 100;
/// The largest `offset` the exchange accepts.
pub const MAX_PAGE_OFFSET: u64 = 10_000;

/// Checks an identifier the exchange issued (a plan's or an investment's): 1 to 128 visible
/// ASCII characters. The exchange's ids are UUIDs; this only keeps out what cannot be one.
pub(crate) fn check_id(text: &str, field: &'static str) -> Result<String, ValidationError> {
    check_chars(text, field, 128, |b| b.is_ascii_graphic())?;
    Ok(text.to_owned())
}

//! [`Page`]: the `limit` and `offset` of a list request, checked against the endpoint's
//! bounds — what every paged query holds (`#[request(page)]`).

use txc_derive::Request;

use crate::errors::{Reason, ValidationError};

/// A page of a list: at most `MAX_LIMIT` records (at least one) from `offset`, at most
/// `MAX_OFFSET`; either left out takes the exchange's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(part)]
pub(crate) struct Page<const MAX_LIMIT: u64, const MAX_OFFSET: u64> {
    #[request(get = none)]
    pub(crate) limit: Option<u64>,
    #[request(get = none)]
    pub(crate) offset: Option<u64>,
}

impl<const MAX_LIMIT: u64, const MAX_OFFSET: u64> Page<MAX_LIMIT, MAX_OFFSET> {
    /// The page of the most records at `offset` (an offset beyond the bound is the bound).
    pub(crate) fn full_at(offset: u64) -> Self {
        Self {
            limit: Some(MAX_LIMIT),
            offset: Some(offset.min(MAX_OFFSET)),
        }
    }

    pub(crate) fn set_limit(&mut self, limit: u64) -> Result<(), ValidationError> {
        self.limit = Some(in_range("limit", limit, 1, MAX_LIMIT)?);
        Ok(())
    }

    pub(crate) fn set_offset(&mut self, offset: u64) -> Result<(), ValidationError> {
        self.offset = Some(in_range("offset", offset, 0, MAX_OFFSET)?);
        Ok(())
    }

    /// The page after one that held `records` records: `None` when that one was the last (it
    /// held fewer than the limit, which is `MAX_LIMIT` when left out) or the next offset is
    /// beyond the bound.
    pub(crate) fn next(self, records: usize) -> Option<Self> {
        let limit = self.limit.unwrap_or(MAX_LIMIT);
        if (records as u64) < limit {
            return None;
        }
        let offset = self.offset.unwrap_or(0).checked_add(limit)?;
        (offset <= MAX_OFFSET).then_some(Self {
            limit: Some(limit),
            offset: Some(offset),
        })
    }
}

/// `value` if it is within `min..=max`, else an error naming `field`.
pub(crate) fn in_range(
    field: &'static str,
    value: u64,
    min: u64,
    max: u64,
) -> Result<u64, ValidationError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(ValidationError::invalid(
            field,
            Reason::OutOfRange { min, max },
        ))
    }
}

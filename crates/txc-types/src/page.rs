//! [`Page`]: the `limit` and `offset` of a list request, checked against the endpoint's
//! bounds — what every paged query holds (`#[request(page)]`) — and [`HoldsPage`], how the
//! paging rules ([`crate::paging`]) read and move it.

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
    /// The most records a page may hold.
    pub(crate) const LIMIT_BOUND: u64 = MAX_LIMIT;
    /// The largest offset.
    pub(crate) const OFFSET_BOUND: u64 = MAX_OFFSET;

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
}

/// A request with a [`Page`]: its bounds, and its `limit` and `offset` read and set without
/// the builder's checks (the paging rules keep them in bounds). `#[derive(Request)]`
/// implements it for every request with a `#[request(page)]` field; public only as the seal
/// of [`Paged`](crate::paging::Paged), which outside crates cannot implement.
pub trait HoldsPage {
    /// The most records a page may hold.
    const MAX_LIMIT: u64;
    /// The largest offset the request may carry.
    const MAX_OFFSET: u64;
    /// `limit` and `offset`, as set.
    fn limit_and_offset(&self) -> (Option<u64>, Option<u64>);
    /// Sets `limit` and `offset`.
    fn set_limit_and_offset(&mut self, limit: u64, offset: u64);
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

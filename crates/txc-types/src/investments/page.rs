//! What the two paged investment lists share: the `limit` and `offset` of a page, and the
//! builder state their query builders wrap.
//!
//! Not an endpoint: see [`InvestmentsQuery`](super::InvestmentsQuery) and
//! [`InterestPaymentsQuery`](super::InterestPaymentsQuery).

use crate::endpoint::WireValue;
use crate::errors::ValidationError;
use crate::lookups::lookup::in_range;
use crate::values::text::check_chars;

/// The most records a page holds (the exchange's `limit` maximum and default).
pub const MAX_PAGE_LIMIT: u64 = 100;
/// The largest `offset` the exchange accepts.
pub const MAX_PAGE_OFFSET: u64 = 10_000;

/// A page of a list: `limit` (1 to 100, default 100) and `offset` (0 to 10 000, default 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Paging {
    pub(crate) limit: Option<u64>,
    pub(crate) offset: Option<u64>,
}

impl Paging {
    pub(crate) fn set_limit(&mut self, limit: u64) -> Result<(), ValidationError> {
        self.limit = Some(in_range("limit", limit, 1, MAX_PAGE_LIMIT)?);
        Ok(())
    }

    pub(crate) fn set_offset(&mut self, offset: u64) -> Result<(), ValidationError> {
        self.offset = Some(in_range("offset", offset, 0, MAX_PAGE_OFFSET)?);
        Ok(())
    }

    /// The page after one that held `records` records: `None` when that one was the last (it
    /// held fewer than the limit) or the next offset is beyond the exchange's.
    pub(crate) fn next(self, records: usize) -> Option<Self> {
        let limit = self.limit.unwrap_or(MAX_PAGE_LIMIT);
        if (records as u64) < limit {
            return None;
        }
        let offset = self.offset.unwrap_or(0).checked_add(limit)?;
        (offset <= MAX_PAGE_OFFSET).then_some(Self {
            limit: Some(limit),
            offset: Some(offset),
        })
    }

    /// Visits `limit`, `offset`, in wire order.
    pub(crate) fn visit<E>(
        &self,
        visit: &mut impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        for (name, value) in [("limit", self.limit), ("offset", self.offset)] {
            if let Some(n) = value {
                visit(name, WireValue::Int(n))?;
            }
        }
        Ok(())
    }
}

/// Checks an identifier the exchange issued (a plan's or an investment's): 1 to 128 visible
/// ASCII characters. The exchange's ids are UUIDs; this only keeps out what cannot be one.
pub(crate) fn check_id(text: &str, field: &'static str) -> Result<String, ValidationError> {
    check_chars(text, field, 128, |b| b.is_ascii_graphic())?;
    Ok(text.to_owned())
}

/// A query builder's state: the query so far, or the first value it refused. Each setter of
/// the wrapping builder applies one change through [`Building::set`].
#[derive(Debug, Clone)]
pub(crate) struct Building<Q>(Result<Q, ValidationError>);

impl<Q: Default> Building<Q> {
    pub(crate) fn new() -> Self {
        Self(Ok(Q::default()))
    }

    /// Applies `apply` unless a value was already refused.
    pub(crate) fn set(mut self, apply: impl FnOnce(&mut Q) -> Result<(), ValidationError>) -> Self {
        if let Ok(q) = &mut self.0
            && let Err(e) = apply(q)
        {
            self.0 = Err(e);
        }
        self
    }

    pub(crate) fn build(self) -> Result<Q, ValidationError> {
        self.0
    }
}

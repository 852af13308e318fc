//! [`Page`]: `limit` and `offset`, read by each list's own bounds ([`Paging`]) and applied the
//! same way to every list.

use std::iter::{Skip, Take};

use super::fields::Fields;

/// A list's paging bounds, as its docs give them: `limit` from 1 to `max_limit` (default
/// `default_limit`), `offset` from 0 to `max_offset` (unbounded when `None`; default 0).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Paging {
    pub(crate) default_limit: i128,
    pub(crate) max_limit: i128,
    pub(crate) max_offset: Option<i128>,
}

/// A page of a list: at most `limit` items from the `offset`-th.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    pub(crate) limit: usize,
    pub(crate) offset: usize,
}

impl Page {
    /// `limit` and `offset` of `fields` within `paging`'s bounds; a problem is recorded and the
    /// field's default used.
    pub(crate) fn read(fields: &mut Fields<'_>, paging: Paging) -> Self {
        let limit = fields.bounded("limit", paging.default_limit, 1, Some(paging.max_limit));
        let offset = fields.bounded("offset", 0, 0, paging.max_offset);
        Self {
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
            offset: usize::try_from(offset).unwrap_or(usize::MAX),
        }
    }

    /// The page's items of `items`.
    pub(crate) fn of<I: Iterator>(self, items: I) -> Take<Skip<I>> {
        items.skip(self.offset).take(self.limit)
    }
}

//! [`Paged`]: a list query's paging rules — its page bounds, its documented last-page rule, its
//! offset cap, the next page's query and each record's identity.

use std::fmt;
use std::hash::Hash;

use super::PagingError;
use crate::endpoint::Endpoint;
use crate::page::HoldsPage;

/// How an endpoint says that a page was the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LastPage {
    /// A page with fewer records than the limit is the last (an empty page is past the end).
    /// Receiving exactly `limit` records does not prove another page exists: the next one may
    /// be empty.
    FewerThanLimit,
    /// The answer carries `total`, the number of records in the whole list: the page that
    /// reaches it is the last (an answer without it is judged by
    /// [`FewerThanLimit`](Self::FewerThanLimit)).
    Total,
}

/// How deep into a list an endpoint lets a client read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OffsetCap {
    /// No documented cap: only the `u64` range bounds the offset.
    Unbounded,
    /// `offset` is at most this.
    Offset(u64),
    /// `offset + limit` is at most this: the records from this position on cannot be read.
    Window(u64),
}

impl fmt::Display for OffsetCap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unbounded => f.write_str("no documented cap"),
            Self::Offset(max) => write!(f, "offset at most {max}"),
            Self::Window(max) => write!(f, "offset + limit at most {max}"),
        }
    }
}

/// What the paging rules need of an answer: how many records it holds, and the whole list's
/// count where the answer gives one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Tally {
    /// The records this page holds (across markets, for an answer grouped by market).
    pub records: usize,
    /// The list's `total`, where the endpoint's answer has one.
    pub total: Option<u64>,
}

impl Tally {
    /// A page of `records` records, without a total.
    pub fn of(records: usize) -> Self {
        Self {
            records,
            total: None,
        }
    }

    /// A page of `records` records of a list of `total`, when the answer gave it.
    pub fn with_total(records: usize, total: Option<u64>) -> Self {
        Self { records, total }
    }
}

/// A list query read a page at a time by `limit` and `offset`: each endpoint's paging rules,
/// as its documentation gives them, and nothing else — no I/O.
///
/// Every paged read of this crate implements it (sealed: the rules are the crate's, taken from
/// the spec): the page bounds (the builder's `limit` and `offset` setters refuse anything
/// outside them), the default page size ([`DEFAULT_LIMIT`](Self::DEFAULT_LIMIT)), the
/// last-page rule ([`LAST_PAGE`](Self::LAST_PAGE)), the offset cap
/// ([`offset_cap`](Self::offset_cap)) and the identity of a record ([`key`](Self::key)).
/// [`page_after`](Self::page_after) is the query of the next page, or why there is none;
/// [`PageCursor`](super::PageCursor) drives a whole read.
///
/// ```
/// use txc_types::paging::{OffsetCap, Paged, PagingError};
/// use txc_types::positions::{ClosedPnlQuery, ClosedPosition};
///
/// let query = ClosedPnlQuery::builder().limit(100).offset(9_800).build()?;
/// assert_eq!(ClosedPnlQuery::offset_cap(), OffsetCap::Window(10_000));
/// let full: Vec<ClosedPosition> = (0..100)
///     .map(|id| serde_json::from_str(&format!(r#"{{"positionId":{id},"market":"BTC_USDT"}}"#)))
///     .collect::<Result<_, _>>()?;
/// // A full page: the next one starts 100 further on, the last the window allows.
/// let next = query.page_after(&full)?.expect("a next page");
/// assert_eq!((next.offset(), next.limit()), (Some(9_900), Some(100)));
/// // After that one the list may go on, but the exchange serves no more of it.
/// let err = next.page_after(&full).unwrap_err();
/// assert!(matches!(err, PagingError::OffsetCap { next_offset: 10_000, .. }));
/// // A short page is the last.
/// assert_eq!(query.page_after(&full[..7].to_vec())?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Paged: Endpoint + Clone + HoldsPage {
    /// A record of the list.
    type Record;
    /// A record's identity: its id where the endpoint gives records one, else the fields that
    /// tell two records apart. Two records with the same key are one record read twice.
    type Key: Eq + Hash + Clone + fmt::Debug;

    /// The page size the exchange uses when the request sends none; `None` where the docs
    /// give none.
    const DEFAULT_LIMIT: Option<u64>;
    /// How the endpoint says a page was the last.
    const LAST_PAGE: LastPage = LastPage::FewerThanLimit;
    /// `Some(n)` when the endpoint caps `offset + limit` at `n` (rather than only `offset`).
    const WINDOW: Option<u64> = None;

    /// How many records `answer` holds, and the list's total where it gives one.
    fn tally(answer: &Self::Response) -> Tally;

    /// The records of `answer`, in the exchange's order, completed with what the query knows
    /// and the answer leaves out (the market of a market-filtered executed history).
    fn records(&self, answer: Self::Response) -> Vec<Self::Record>;

    /// The record's identity.
    fn key(record: &Self::Record) -> Self::Key;

    /// The most records a page may hold.
    fn max_limit() -> u64 {
        <Self as HoldsPage>::MAX_LIMIT
    }

    /// How deep into the list the exchange lets a client read.
    fn offset_cap() -> OffsetCap {
        match Self::WINDOW {
            Some(window) => OffsetCap::Window(window),
            None if <Self as HoldsPage>::MAX_OFFSET == u64::MAX => OffsetCap::Unbounded,
            None => OffsetCap::Offset(<Self as HoldsPage>::MAX_OFFSET),
        }
    }

    /// The page size this query gets: its `limit`, else the endpoint's default; `None` when
    /// neither is known.
    fn page_limit(&self) -> Option<u64> {
        self.limit_and_offset().0.or(Self::DEFAULT_LIMIT)
    }

    /// Where this query's page starts: its `offset`, else 0.
    fn page_offset(&self) -> u64 {
        self.limit_and_offset().1.unwrap_or(0)
    }

    /// Whether `answer`, this query's page, was the last by the endpoint's rule.
    ///
    /// # Errors
    /// [`PagingError::UnknownLimit`] for a page with records of a query whose page size is
    /// unknown ([`page_limit`](Self::page_limit) is `None`).
    fn is_last_page(&self, answer: &Self::Response) -> Result<bool, PagingError> {
        let tally = Self::tally(answer);
        if tally.records == 0 {
            return Ok(true);
        }
        let limit = self.page_limit().ok_or(PagingError::UnknownLimit)?;
        Ok(super::rules::is_last(
            Self::LAST_PAGE,
            self.page_offset(),
            limit,
            tally,
        ))
    }

    /// The same query for the page after `answer` (this query's page): `Ok(None)` when that
    /// was the last by the endpoint's rule.
    ///
    /// # Errors
    /// [`PagingError::OffsetCap`] when the page was not the last but the next one lies past
    /// the endpoint's offset cap (under a window cap, the next page is first shortened to end
    /// at the window); [`PagingError::UnknownLimit`] as
    /// [`is_last_page`](Self::is_last_page) says.
    fn page_after(&self, answer: &Self::Response) -> Result<Option<Self>, PagingError> {
        if self.is_last_page(answer)? {
            return Ok(None);
        }
        let limit = self.page_limit().ok_or(PagingError::UnknownLimit)?;
        let records = u64::try_from(Self::tally(answer).records).unwrap_or(u64::MAX);
        super::rules::advance::<Self>(self.page_offset(), limit, 0)
            .map(|(offset, limit)| Some(super::rules::at(self, offset, limit)))
            .map_err(|next_offset| PagingError::OffsetCap {
                cap: Self::offset_cap(),
                next_offset,
                read: self.page_offset().saturating_add(records),
            })
    }
}

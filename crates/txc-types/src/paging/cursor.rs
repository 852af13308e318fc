//! [`PageCursor`]: a whole list read page by page, as a state machine a transport drives.

use std::collections::HashSet;

use super::{Paged, PagingError, Tally, rules};

/// Reads a whole list, a page at a time, without I/O: it says which query to send next
/// ([`next_query`](Self::next_query)) and takes each answer ([`accept`](Self::accept)),
/// returning that page's records not returned before.
///
/// A transport's page iterator is this loop:
///
/// ```
/// use txc_types::paging::{PageCursor, Paged, PagingError};
/// use txc_types::positions::{ClosedPnlQuery, ClosedPosition};
///
/// // The exchange, here: 230 closed positions, newest first.
/// let list: Vec<u64> = (0..230).rev().collect();
/// let send = |q: &ClosedPnlQuery| -> Vec<ClosedPosition> {
///     let (from, limit) = (q.page_offset() as usize, q.page_limit().unwrap() as usize);
///     list.iter().skip(from).take(limit).map(|id| {
///         serde_json::from_str(&format!(r#"{{"positionId":{id},"market":"BTC_PERP"}}"#)).unwrap()
///     }).collect()
/// };
///
/// let mut cursor = PageCursor::new(ClosedPnlQuery::builder().limit(100).build()?);
/// let mut read = Vec::new();
/// while let Some(query) = cursor.next_query()? {
///     let answer = send(query);
///     read.extend(cursor.accept(answer)?);
/// }
/// assert_eq!(read.iter().map(|p| p.position_id).collect::<Vec<_>>(), list);
/// assert_eq!(cursor.pages_read(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # What it guarantees
///
/// - **A list that does not change** is returned whole, each record once, in the exchange's
///   order (for an answer grouped by market — the executed deals, the order history — market
///   by market within each page), and the cursor stops exactly after the last page by the
///   endpoint's own rule ([`Paged::LAST_PAGE`]: `total`, or a page shorter than the limit;
///   a full last page costs one more request, which the spec says cannot be avoided).
/// - **Never a silent stop**: when a full page is followed by records the exchange will not
///   serve (its offset cap), [`next_query`](Self::next_query) fails with
///   [`PagingError::OffsetCap`] after every reachable record was returned.
/// - **A list that changes while it is read** — records added, as newest-first histories
///   gain them at the head, or removed, as open orders fill — never makes it return a record
///   twice (records are told apart by [`Paged::key`]) nor skip one silently: every record
///   that is in the list from the first page to the last is returned exactly once, or the
///   read fails with [`PagingError::ListMoved`]. To know, each page after the first starts one
///   record before the previous one ended and must hold a record already read. Records added
///   ahead of the read position push read ones into the next page: they are dropped (and
///   counted, [`repeats_dropped`](Self::repeats_dropped)) and nothing is skipped — unless
///   more were added between two pages than the read had advanced plus a page, when no read
///   record is left in the page and the cursor stops. Records removed ahead of it pull unread
///   ones before the next offset: the page then holds no read record, and the cursor stops
///   rather than guess. A record added during the read may or may not be returned; a record
///   that changes in place (an open order partly filled) is returned as first read. Records
///   that move *within* the list (a sort key that changes) are not covered: no endpoint this
///   crate pages documents such an order.
///
/// The overlap costs one record per page; a page therefore holds at least two records (a
/// query's `limit` of 1 is read as 2). The cursor sends its limit explicitly — the query's,
/// else the endpoint's documented default, else the most a page may hold — so the last-page
/// rule never depends on a default the exchange could change. It keeps the keys of the
/// records it returned (a few bytes each; at most the offset cap's worth where there is one).
#[derive(Debug, Clone)]
pub struct PageCursor<Q: Paged> {
    /// The query to send, until the list is read or the read stops.
    next: Option<Q>,
    /// Why the read stopped, once it has.
    stopped: Option<PagingError>,
    /// The keys of the records returned.
    seen: HashSet<Q::Key>,
    /// Pages accepted.
    pages: u64,
    /// Records returned.
    read: u64,
    /// Records dropped as read already, beyond the one each page re-reads on purpose.
    repeats: u64,
}

impl<Q: Paged> PageCursor<Q> {
    /// A read of the list `query` asks for, from its offset on, with its filters.
    pub fn new(query: Q) -> Self {
        let most = Q::max_limit();
        let limit = query.page_limit().unwrap_or(most).max(2).min(most).max(1);
        let offset = query.page_offset();
        let limit = match Q::WINDOW {
            Some(window) => limit.min(window.saturating_sub(offset)).max(1),
            None => limit,
        };
        Self {
            next: Some(rules::at(&query, offset, limit)),
            stopped: None,
            seen: HashSet::new(),
            pages: 0,
            read: 0,
            repeats: 0,
        }
    }

    /// The query of the next page to send; `Ok(None)` once the whole list was read.
    ///
    /// Asking again before [`accept`](Self::accept) gives the same query (to resend after a
    /// failed request).
    ///
    /// # Errors
    /// Why the list cannot be read further: [`PagingError::OffsetCap`] or
    /// [`PagingError::ListMoved`]; the same error on every call after.
    pub fn next_query(&self) -> Result<Option<&Q>, PagingError> {
        match &self.stopped {
            Some(error) => Err(error.clone()),
            None => Ok(self.next.as_ref()),
        }
    }

    /// Takes the answer to [`next_query`](Self::next_query)'s query and returns its records
    /// not returned before, in the exchange's order; the cursor moves on to the next page, or
    /// finishes, or stops (which the next [`next_query`](Self::next_query) reports).
    ///
    /// # Errors
    /// [`PagingError::NotAsked`] when no page was asked for (the cursor finished or stopped).
    pub fn accept(&mut self, answer: Q::Response) -> Result<Vec<Q::Record>, PagingError> {
        let query = match (&self.stopped, self.next.take()) {
            (None, Some(query)) => query,
            _ => return Err(PagingError::NotAsked),
        };
        let tally: Tally = Q::tally(&answer);
        let overlapped = self.pages > 0;
        self.pages += 1;
        let keyed: Vec<(Q::Key, Q::Record)> = query
            .records(answer)
            .into_iter()
            .map(|record| (Q::key(&record), record))
            .collect();
        let known = keyed.iter().any(|(key, _)| self.seen.contains(key));
        let mut again = 0_u64;
        let mut fresh = Vec::with_capacity(keyed.len());
        for (key, record) in keyed {
            if self.seen.insert(key) {
                fresh.push(record);
            } else {
                again += 1;
            }
        }
        self.read += u64::try_from(fresh.len()).unwrap_or(u64::MAX);
        self.repeats += again.saturating_sub(u64::from(overlapped));
        let (offset, limit) = (query.page_offset(), query.page_limit().unwrap_or(1));
        if overlapped && !known {
            self.stopped = Some(PagingError::ListMoved {
                offset,
                read: self.read,
            });
        } else if !rules::is_last(Q::LAST_PAGE, offset, limit, tally) {
            match rules::advance::<Q>(offset, limit, 1) {
                Ok((offset, limit)) => self.next = Some(rules::at(&query, offset, limit)),
                Err(next_offset) => {
                    self.stopped = Some(PagingError::OffsetCap {
                        cap: Q::offset_cap(),
                        next_offset,
                        read: self.read,
                    });
                }
            }
        }
        Ok(fresh)
    }

    /// Whether the whole list was read (not stopped by an error).
    pub fn is_finished(&self) -> bool {
        self.next.is_none() && self.stopped.is_none()
    }

    /// The pages accepted so far.
    pub fn pages_read(&self) -> u64 {
        self.pages
    }

    /// The distinct records returned so far.
    pub fn records_read(&self) -> u64 {
        self.read
    }

    /// The records dropped as returned already, beyond the one each page re-reads on purpose:
    /// more than zero means the list gained records ahead of the read position while it was
    /// read (none was returned twice).
    pub fn repeats_dropped(&self) -> u64 {
        self.repeats
    }
}

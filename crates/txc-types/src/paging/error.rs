//! [`PagingError`]: why reading a list page by page cannot go on.

use super::OffsetCap;

/// Why a list cannot be read further: never a silent stop.
///
/// Each variant says how many records were read before it, so a caller knows what it holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PagingError {
    /// The last page read was full, so the list may go on, but the next page would start (or
    /// end) past the deepest record the exchange serves — `offset` at most N, or
    /// `offset + limit` at most N, as the endpoint documents.
    #[error(
        "the list may go on past what the exchange serves ({cap}): records from offset \
         {next_offset} on cannot be read; {read} records were read"
    )]
    OffsetCap {
        /// The endpoint's documented cap.
        cap: OffsetCap,
        /// The position of the first record not read: the end of the last page read.
        next_offset: u64,
        /// The records read: the distinct records a [`PageCursor`](super::PageCursor)
        /// returned, or — from [`Paged::page_after`](super::Paged::page_after) — the position
        /// the last page reached.
        read: u64,
    },
    /// The list changed between two pages so that a record may have been skipped: the page
    /// that should have held a record already read (the cursor re-reads one on purpose) held
    /// none. Records removed ahead of the read position move later ones before the next
    /// offset (or more were added ahead than the read had advanced plus a page); starting
    /// over reads the list as it is now.
    #[error(
        "the list changed between pages (the page at offset {offset} held no record read \
         before): a record may have been skipped; {read} records were read"
    )]
    ListMoved {
        /// The offset of the page that showed it.
        offset: u64,
        /// The distinct records read, that page's included.
        read: u64,
    },
    /// A page of a query with no `limit`, of an endpoint that documents no default one, held
    /// records: whether it was the last cannot be told. Set a `limit` (a
    /// [`PageCursor`](super::PageCursor) always does).
    #[error(
        "the page size is unknown (no limit was sent and the exchange documents no default): \
         set a limit to page through the list"
    )]
    UnknownLimit,
    /// A page was given to a [`PageCursor`](super::PageCursor) that asked for none: it had
    /// finished or stopped.
    #[error("no page was asked for: the cursor has finished or stopped")]
    NotAsked,
}

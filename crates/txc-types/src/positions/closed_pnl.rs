//! `POST /api/v4/collateral-account/positions/closed-pnl`: one aggregated profit-and-loss
//! record per closed position.

use std::time::SystemTime;

use txc_derive::Request;

use super::ClosedPosition;
use crate::date_window;
use crate::errors::ValidationError;
use crate::page::Page;
use crate::paging::{Paged, Tally, within_window};

/// Lists the account's closed positions, one aggregated PnL record each
/// ([`ClosedPosition`]), newest close first (by `closeDate`, then `positionId`, both
/// descending), optionally within a window of close times.
///
/// The rules, as the spec gives them: `startDate` and `endDate` (Unix seconds) apply to the
/// close time, are optional with no defaults, and need `startDate ≤ endDate ≤ now + 1 s` —
/// [`build`](ClosedPnlQueryBuilder::build) checks the order, the client checks `≤ now + 1 s`
/// when it signs ([`Endpoint::check_at`](crate::endpoint::Endpoint::check_at)). A position
/// opened before the window and closed in it comes with its whole life's aggregates. Pages
/// hold 1 to 100 records (default 50) from `offset` (default 0), and `offset + limit` must not
/// exceed 10 000 (the limit left out counts as its default, 50): the builder refuses more,
/// naming `offset`. There is no total: a page with fewer records than the limit is the last
/// ([`Paged`]). Refusals are code 30.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_types::endpoint::Endpoint;
/// use txc_types::positions::ClosedPnlQuery;
/// let q = ClosedPnlQuery::builder()
///     .start_date(1_778_000_000)
///     .end_date(1_778_100_000)
///     .limit(50)
///     .offset(0)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&q).unwrap(),
///     r#"{"startDate":1778000000,"endDate":1778100000,"limit":50,"offset":0}"#
/// );
/// // offset + limit above 10 000 is refused before a request exists.
/// let deep = ClosedPnlQuery::builder().limit(100).offset(9_901).build();
/// assert_eq!(deep.unwrap_err().field(), "offset");
/// // An end in the future is refused when the request is signed.
/// let signed_at = UNIX_EPOCH + Duration::from_secs(1_778_099_998);
/// assert!(q.check_at(signed_at).is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/collateral-account/positions/closed-pnl",
    operation = "closed_pnl",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<ClosedPosition>,
    check_at = Self::dates_at,
    builder = ClosedPnlQueryBuilder,
    check = Self::dates_and_window,
)]
pub struct ClosedPnlQuery {
    /// Only positions closed from this Unix second on.
    #[request(get = copy, set)]
    start_date: Option<u64>,
    /// Only positions closed up to this Unix second (at most a second past the exchange's
    /// time).
    #[request(get = copy, set)]
    end_date: Option<u64>,
    #[request(page)]
    page: Page<{ ClosedPnlQuery::MAX_LIMIT }, { ClosedPnlQuery::MAX_OFFSET }>,
}

impl ClosedPnlQuery {
    /// The most records a page holds.
    pub const MAX_LIMIT: u64 = 100;
    /// The largest offset (with a page of one record: `offset + limit` is at most 10 000,
    /// [`Paged::WINDOW`]).
    pub const MAX_OFFSET: u64 = 9_999;

    /// Every closed position (the exchange's first page, 50 records).
    pub fn new() -> Self {
        Self::default()
    }

    /// `endDate` not before `startDate`, and `offset + limit` within the window.
    fn dates_and_window(&self) -> Result<(), ValidationError> {
        date_window::in_order(self.start_date, self.end_date)?;
        within_window(self)
    }

    /// `endDate` (and, without one, `startDate`) at most a second past `now`.
    fn dates_at(&self, now: SystemTime) -> Result<(), ValidationError> {
        date_window::not_ahead_of(now, self.start_date, self.end_date)
    }
}

impl Paged for ClosedPnlQuery {
    type Record = ClosedPosition;
    /// The position's id: one record per closed position.
    type Key = u64;
    const DEFAULT_LIMIT: Option<u64> = Some(50);
    const WINDOW: Option<u64> = Some(10_000);

    fn tally(answer: &Vec<ClosedPosition>) -> Tally {
        Tally::of(answer.len())
    }

    fn records(&self, answer: Vec<ClosedPosition>) -> Vec<ClosedPosition> {
        answer
    }

    fn key(record: &ClosedPosition) -> u64 {
        record.position_id
    }
}

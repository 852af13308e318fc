//! `POST /api/v4/collateral-account/positions/history`: the events of positions.

use std::time::SystemTime;

use txc_derive::Request;

use super::PositionEvent;
use crate::date_window;
use crate::errors::ValidationError;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::{ExactDecimal, Market, Timestamp};

/// Lists position events — openings, partial and full closes, liquidations — optionally of
/// one market, of one position, and within a date window.
///
/// The window's rules, as the docs give them: `startDate` and `endDate` (Unix seconds) are
/// optional with no defaults, no longest window and no earliest date; only
/// `startDate ≤ endDate ≤ now + 1 s` is required. [`build`](PositionHistoryQueryBuilder::build)
/// checks the order of the two, and the client checks `≤ now + 1 s` when it signs the
/// request ([`Endpoint::check_at`](crate::endpoint::Endpoint::check_at)), against the
/// exchange's clock as far as it knows it. Pages hold 1 to 100 events (the docs give the
/// bounds of `limit` and `offset` with the error code that refuses others, but no defaults,
/// no order and no last-page rule: a page with fewer events than the limit is taken as the
/// last — [`Paged`], which needs a `limit` set to judge a page, since the default is
/// unknown; a [`PageCursor`](crate::paging::PageCursor) sets one).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_types::endpoint::Endpoint;
/// use txc_types::positions::PositionHistoryQuery;
/// let q = PositionHistoryQuery::builder()
///     .market("BTC_USDT")
///     .position_id(111)
///     .start_date(1_650_400_000)
///     .end_date(1_650_500_000)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&q).unwrap(),
///     r#"{"market":"BTC_USDT","positionId":111,"startDate":1650400000,"endDate":1650500000}"#
/// );
/// let backwards = PositionHistoryQuery::builder().start_date(2).end_date(1).build();
/// assert_eq!(backwards.unwrap_err().field(), "endDate");
/// // An end in the future is refused when the request is signed.
/// let late = PositionHistoryQuery::builder().end_date(1_650_500_002).build()?;
/// let signed_at = UNIX_EPOCH + Duration::from_secs(1_650_500_000);
/// assert!(late.check_at(signed_at).is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/collateral-account/positions/history",
    operation = "position_history",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<PositionEvent>,
    check_at = Self::dates_at,
    builder = PositionHistoryQueryBuilder,
    check = Self::dates_in_order,
)]
pub struct PositionHistoryQuery {
    /// The market filter: only events of this market.
    #[request(set, text)]
    market: Option<Market>,
    /// The position filter: only events of the position with this id.
    #[request(get = copy, set)]
    position_id: Option<u64>,
    /// Only events from this Unix second on.
    #[request(get = copy, set)]
    start_date: Option<u64>,
    /// Only events up to this Unix second (at most a second past the exchange's time).
    #[request(get = copy, set)]
    end_date: Option<u64>,
    #[request(page)]
    page: Page<{ PositionHistoryQuery::MAX_LIMIT }, { u64::MAX }>,
}

impl PositionHistoryQuery {
    /// The most events a page holds.
    pub const MAX_LIMIT: u64 = 100;
    /// How far past the exchange's time `endDate` may be, in seconds.
    pub const END_DATE_LEAD_SECS: u64 = date_window::END_DATE_LEAD_SECS;

    /// Every position event (the exchange's first page).
    pub fn new() -> Self {
        Self::default()
    }

    /// The events of one position of `market`: what resolving a close looks up.
    pub fn of_position(market: Market, position_id: u64) -> Self {
        Self {
            market: Some(market),
            position_id: Some(position_id),
            ..Self::default()
        }
    }

    /// `endDate` not before `startDate`: every rule that needs no clock.
    fn dates_in_order(&self) -> Result<(), ValidationError> {
        date_window::in_order(self.start_date, self.end_date)
    }

    /// `endDate` (and, without one, `startDate`) at most a second past `now`.
    fn dates_at(&self, now: SystemTime) -> Result<(), ValidationError> {
        date_window::not_ahead_of(now, self.start_date, self.end_date)
    }
}

impl Paged for PositionHistoryQuery {
    type Record = PositionEvent;
    /// The position, the event's time, the order behind it and the size after it: the events
    /// have no id of their own.
    type Key = (u64, Option<Timestamp>, Option<u64>, Option<ExactDecimal>);
    const DEFAULT_LIMIT: Option<u64> = None;

    fn tally(answer: &Vec<PositionEvent>) -> Tally {
        Tally::of(answer.len())
    }

    fn records(&self, answer: Vec<PositionEvent>) -> Vec<PositionEvent> {
        answer
    }

    fn key(record: &PositionEvent) -> Self::Key {
        (
            record.position_id,
            record.modify_date.clone(),
            record.order_detail.as_ref().map(|order| order.id),
            record.amount.clone(),
        )
    }
}

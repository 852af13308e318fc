//! `POST /api/v4/main-account/smart/investments`: the account's investments, active and closed.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::page::{MAX_PAGE_LIMIT, MAX_PAGE_OFFSET, check_id};
use super::{Investment, InvestmentStatus};
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::errors::{Reason, ValidationError};
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::Ticker;

/// Lists the account's investments, filtered by id, the plan's source currency and status, a
/// page at a time (`limit` 1 to 100, default 100; `offset` 0 to 10 000).
///
/// The docs give no order of the records, and no last-page rule but the page size: a page
/// with fewer records than the limit is the last ([`Paged`]: [`Paged::page_after`] is the
/// next page's query, or why there is none).
///
/// ```
/// use txc_types::investments::{InvestmentStatus, InvestmentsQuery};
/// let q = InvestmentsQuery::builder()
///     .ticker("USDT")
///     .status(InvestmentStatus::Active)
///     .limit(50)
///     .build()?;
/// assert_eq!(serde_json::to_string(&q)?, r#"{"ticker":"USDT","status":1,"limit":50}"#);
/// assert!(InvestmentsQuery::builder().limit(101).build().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart/investments",
    operation = "investments",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = InvestmentsPage,
    builder = InvestmentsQueryBuilder,
)]
pub struct InvestmentsQuery {
    /// The investment id filter: only the investment with this id.
    #[request(set, arg = &str, check = check_id)]
    id: Option<String>,
    /// The source currency filter: only investments in plans whose source currency is this
    /// ticker.
    #[request(set, text)]
    ticker: Option<Ticker>,
    /// The status filter: only active or only closed investments.
    #[request(get = copy, set, check = known_status)]
    status: Option<InvestmentStatus>,
    #[request(page)]
    page: Page<MAX_PAGE_LIMIT, MAX_PAGE_OFFSET>,
}

impl InvestmentsQuery {
    /// The first page of every investment.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same query for the page after `page`, its answer: `None` when `page` was the last
    /// (fewer records than the limit) **or** the next offset is beyond the exchange's 10 000.
    /// [`Paged::page_after`] tells the two apart ([`PagingError::OffsetCap`](crate::paging::PagingError::OffsetCap)).
    pub fn next_page(&self, page: &InvestmentsPage) -> Option<Self> {
        self.page_after(page).ok().flatten()
    }
}

impl Paged for InvestmentsQuery {
    type Record = Investment;
    /// The investment's id.
    type Key = String;
    const DEFAULT_LIMIT: Option<u64> = Some(MAX_PAGE_LIMIT);

    fn tally(answer: &InvestmentsPage) -> Tally {
        Tally::of(answer.records.len())
    }

    fn records(&self, answer: InvestmentsPage) -> Vec<Investment> {
        answer.records
    }

    fn key(record: &Investment) -> String {
        record.id.clone()
    }
}

/// A status the filter can send: active or closed.
fn known_status(
    status: InvestmentStatus,
    field: &'static str,
) -> Result<InvestmentStatus, ValidationError> {
    match status {
        InvestmentStatus::Active | InvestmentStatus::Closed => Ok(status),
        InvestmentStatus::Unknown(_) => {
            Err(ValidationError::invalid(field, Reason::UnknownVariant))
        }
    }
}

/// A page of the investments list: `{"offset","limit","records"}`. The records are read
/// completely or not at all (a record that does not decode fails the page).
///
/// ```
/// let page: txc_types::investments::InvestmentsPage =
///     serde_json::from_str(r#"{"offset":0,"limit":100,"records":[]}"#)?;
/// assert!(page.records.is_empty());
/// assert_eq!(page.limit, Some(100));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a page of investments")]
#[non_exhaustive]
pub struct InvestmentsPage {
    /// The page's offset, as the exchange echoes it.
    pub offset: Option<u64>,
    /// The page's limit, as the exchange echoes it.
    pub limit: Option<u64>,
    /// The investments.
    #[answer(with = "crate::lenient::array")]
    pub records: Vec<Investment>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

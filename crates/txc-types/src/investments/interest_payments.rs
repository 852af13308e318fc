//! `POST /api/v4/main-account/smart/interest-payment-history`: the interest paid to the account.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::InterestPayment;
use super::page::{MAX_PAGE_LIMIT, MAX_PAGE_OFFSET, check_id};
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::{ExactDecimal, Ticker, Timestamp};

/// Lists the interest payments, filtered by plan and by the currency paid (the plan's
/// `interestTicker`), a page at a time (`limit` 1 to 100, default 100; `offset` 0 to 10 000).
///
/// ```
/// use txc_types::investments::InterestPaymentsQuery;
/// let q = InterestPaymentsQuery::builder().plan_id("8e667b4a").ticker("USDT").build()?;
/// assert_eq!(serde_json::to_string(&q)?, r#"{"planId":"8e667b4a","ticker":"USDT"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/main-account/smart/interest-payment-history",
    operation = "interest_payments",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = InterestPaymentsPage,
    builder = InterestPaymentsQueryBuilder,
)]
pub struct InterestPaymentsQuery {
    /// The plan filter: only payments of this plan.
    #[request(set, arg = &str, check = check_id)]
    plan_id: Option<String>,
    /// The interest currency filter: only payments in this currency (the plans'
    /// `interestTicker`).
    #[request(set, text)]
    ticker: Option<Ticker>,
    #[request(page)]
    page: Page<MAX_PAGE_LIMIT, MAX_PAGE_OFFSET>,
}

impl InterestPaymentsQuery {
    /// The first page of every payment.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same query for the page after `page`, its answer: `None` when `page` was the last
    /// **or** the next offset is beyond the exchange's 10 000. [`Paged::page_after`] tells
    /// the two apart ([`PagingError::OffsetCap`](crate::paging::PagingError::OffsetCap)).
    pub fn next_page(&self, page: &InterestPaymentsPage) -> Option<Self> {
        self.page_after(page).ok().flatten()
    }
}

impl Paged for InterestPaymentsQuery {
    type Record = InterestPayment;
    /// The plan, the investment, the time and the amount: the payments have no id, and an
    /// investment is paid once at a time.
    type Key = (String, String, Timestamp, ExactDecimal);
    const DEFAULT_LIMIT: Option<u64> = Some(MAX_PAGE_LIMIT);

    fn tally(answer: &InterestPaymentsPage) -> Tally {
        Tally::of(answer.records.len())
    }

    fn records(&self, answer: InterestPaymentsPage) -> Vec<InterestPayment> {
        answer.records
    }

    fn key(record: &InterestPayment) -> Self::Key {
        (
            record.plan_id.clone(),
            record.investment_id.clone(),
            record.timestamp.clone(),
            record.amount.clone(),
        )
    }
}

/// A page of the interest payment history: `{"offset","limit","records"}`, read completely or
/// not at all.
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a page of interest payments")]
#[non_exhaustive]
pub struct InterestPaymentsPage {
    /// The page's offset, as the exchange echoes it.
    pub offset: Option<u64>,
    /// The page's limit, as the exchange echoes it.
    pub limit: Option<u64>,
    /// The payments.
    #[answer(with = "crate::lenient::array")]
    pub records: Vec<InterestPayment>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

//! `POST /api/v4/main-account/smart-flex/plans`: the flexible lending plans.

use txc_derive::Request;

use super::FlexPlan;
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::Ticker;

/// Lists the flex plans on offer to the account — the active ones, public and those made
/// private to it — optionally of one currency, a page at a time (`limit` 1 to 100, default
/// 100; `offset` from 0, no maximum documented).
///
/// The answer is a bare array with no `total`: a page with fewer plans than the limit is the
/// last ([`Paged`]). The spec gives no order of the plans.
///
/// ```
/// use txc_types::investments::flex::FlexPlansQuery;
/// let q = FlexPlansQuery::builder().ticker("USDT").limit(50).offset(0).build()?;
/// assert_eq!(serde_json::to_string(&q)?, r#"{"ticker":"USDT","limit":50,"offset":0}"#);
/// assert_eq!(FlexPlansQuery::builder().limit(101).build().unwrap_err().field(), "limit");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart-flex/plans",
    operation = "flex_plans",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = Vec<FlexPlan>,
    builder = FlexPlansQueryBuilder,
)]
pub struct FlexPlansQuery {
    /// The currency filter: only plans of this ticker.
    #[request(set, text)]
    ticker: Option<Ticker>,
    #[request(page)]
    page: Page<{ FlexPlansQuery::MAX_LIMIT }, { u64::MAX }>,
}

impl FlexPlansQuery {
    /// The most plans a page holds (also the default).
    pub const MAX_LIMIT: u64 = 100;

    /// The first page of every plan.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Paged for FlexPlansQuery {
    type Record = FlexPlan;
    /// The plan's id.
    type Key = String;
    const DEFAULT_LIMIT: Option<u64> = Some(Self::MAX_LIMIT);

    fn tally(answer: &Vec<FlexPlan>) -> Tally {
        Tally::of(answer.len())
    }

    fn records(&self, answer: Vec<FlexPlan>) -> Vec<FlexPlan> {
        answer
    }

    fn key(record: &FlexPlan) -> String {
        record.id.clone()
    }
}

//! `POST /api/v4/collateral-account/funding-history`: the funding paid and received by the
//! account's positions.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::FundingPayment;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::{ExactDecimal, Market, Timestamp};

/// Lists the funding payments of the account's positions ([`FundingPayment`]: the rate, the
/// settlement price, the position's amount, the payment), newest first (by `fundingTime`),
/// of one market or all.
///
/// Pages hold 1 to 100 records (default 100) from `offset` (default 0; the spec gives no
/// maximum). There is no `total`: a page with fewer records than the limit is the last, an
/// empty one is past the end, and a full one does not prove there is another ([`Paged`]).
/// Refusals: code 30 for a page out of bounds, 31 for a market that is unknown or not
/// collateral.
///
/// ```
/// use txc_types::positions::FundingHistoryQuery;
/// let q = FundingHistoryQuery::builder().market("BTC_PERP").limit(100).offset(0).build()?;
/// assert_eq!(
///     serde_json::to_string(&q).unwrap(),
///     r#"{"market":"BTC_PERP","limit":100,"offset":0}"#
/// );
/// assert_eq!(FundingHistoryQuery::builder().limit(101).build().unwrap_err().field(), "limit");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/funding-history",
    operation = "funding_history",
    kind = Read,
    rate_limit = (12_000, 10),
    response = FundingHistory,
    builder = FundingHistoryQueryBuilder,
)]
pub struct FundingHistoryQuery {
    /// The market filter: only payments of this market.
    #[request(set, text, of)]
    market: Option<Market>,
    #[request(page)]
    page: Page<{ FundingHistoryQuery::MAX_LIMIT }, { u64::MAX }>,
}

impl FundingHistoryQuery {
    /// The most records a page holds (also the default).
    pub const MAX_LIMIT: u64 = 100;

    /// Every market's funding payments (the exchange's first page, 100 records).
    pub fn new() -> Self {
        Self::default()
    }
}

impl Paged for FundingHistoryQuery {
    type Record = FundingPayment;
    /// The record's market, funding time, position amount and payment: the list has no ids,
    /// and an account has at most one position per market and direction at a funding time
    /// (a hedge mode long and short have amounts of opposite signs).
    type Key = (
        Market,
        Option<Timestamp>,
        Option<ExactDecimal>,
        Option<ExactDecimal>,
    );
    const DEFAULT_LIMIT: Option<u64> = Some(100);

    fn tally(answer: &FundingHistory) -> Tally {
        Tally::of(answer.records.len())
    }

    fn records(&self, answer: FundingHistory) -> Vec<FundingPayment> {
        answer.records
    }

    fn key(record: &FundingPayment) -> Self::Key {
        (
            record.market.clone(),
            record.funding_time.clone(),
            record.position_amount.clone(),
            record.funding_amount.clone(),
        )
    }
}

/// A page of the funding history: `{"records","limit","offset"}`, read completely or not at
/// all (a record that does not decode fails the page).
///
/// ```
/// let page: txc_types::positions::FundingHistory =
///     serde_json::from_str(r#"{"records":[],"limit":100,"offset":0}"#)?;
/// assert!(page.records.is_empty());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a funding history page")]
#[non_exhaustive]
pub struct FundingHistory {
    /// The payments, newest first.
    #[answer(with = "crate::lenient::array")]
    pub records: Vec<FundingPayment>,
    /// The page's limit, as the exchange echoes it.
    pub limit: Option<u64>,
    /// The page's offset, as the exchange echoes it.
    pub offset: Option<u64>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

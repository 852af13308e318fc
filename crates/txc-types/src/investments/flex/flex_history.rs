//! `POST /api/v4/main-account/smart-flex/investments/history`: every operation on the
//! account's flex investments.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::flex_action::known_actions;
use super::{FlexAction, FlexHistoryRecord};
use crate::date_window;
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::errors::ValidationError;
use crate::investments::page::check_id;
use crate::page::Page;
use crate::paging::{Paged, Tally};

/// Lists the operations on the account's flex investments — investing, reinvesting,
/// withdrawing, the daily earnings, closing, opening ([`FlexAction`]) — filtered by plan,
/// investment, transaction, a window of times (`dateFrom`, `dateTo`, Unix seconds) and
/// actions, a page at a time (`limit` default 50, `offset` default 0; no maximum
/// documented).
///
/// The answer is `{"data","limit","offset"}` ([`FlexHistoryPage`]) with no `total`: a page
/// with fewer records than the limit is the last ([`Paged`]). The spec gives no order.
/// Refusals (HTTP 400, `Validation failed`): an unknown plan, investment or transaction, a
/// malformed date, an action not in 1–6 (`actionTypes.N`). The spec gives no rule between
/// the two dates; [`build`](FlexHistoryQueryBuilder::build) refuses a `dateTo` before
/// `dateFrom`, which no record can match.
///
/// ```
/// use txc_types::investments::flex::{FlexAction, FlexHistoryQuery};
/// let q = FlexHistoryQuery::builder()
///     .date_from(1640995200)
///     .date_to(1641081600)
///     .action_types([FlexAction::Invest, FlexAction::Reinvest, FlexAction::DailyEarning])
///     .limit(50)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&q)?,
///     r#"{"dateFrom":1640995200,"dateTo":1641081600,"actionTypes":[1,2,4],"limit":50}"#
/// );
/// let backwards = FlexHistoryQuery::builder().date_from(2).date_to(1).build();
/// assert_eq!(backwards.unwrap_err().field(), "dateTo");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/main-account/smart-flex/investments/history",
    operation = "flex_history",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = FlexHistoryPage,
    builder = FlexHistoryQueryBuilder,
    check = Self::dates_in_order,
)]
pub struct FlexHistoryQuery {
    /// The plan filter: only operations on the investment in this plan.
    #[request(set, arg = &str, check = check_id)]
    plan: Option<String>,
    /// The investment filter: only operations on this investment.
    #[request(set, arg = &str, check = check_id)]
    investment: Option<String>,
    /// The transaction filter: only the records of this transaction.
    #[request(set, arg = &str, check = check_id)]
    transaction: Option<String>,
    /// Only records from this Unix second on.
    #[request(get = copy, set)]
    date_from: Option<u64>,
    /// Only records up to this Unix second.
    #[request(get = copy, set)]
    date_to: Option<u64>,
    /// The action filter: only records of these actions (documented ones, at least one;
    /// repeats are dropped).
    #[request(set, arg = impl IntoIterator<Item = FlexAction>, check = known_actions)]
    action_types: Vec<FlexAction>,
    #[request(page)]
    page: Page<{ u64::MAX }, { u64::MAX }>,
}

/// The inherent items and the [`Paged`] impl of a query of the flex history's pages (the
/// history itself and the payment history): the same page, rules and record key.
macro_rules! flex_history_query {
    ($query:ident, $first:literal) => {
        impl $query {
            /// The page size the exchange uses when none is sent.
            pub const DEFAULT_LIMIT: u64 = 50;

            #[doc = $first]
            pub fn new() -> Self {
                Self::default()
            }

            /// `dateTo` not before `dateFrom`.
            fn dates_in_order(&self) -> Result<(), ValidationError> {
                $crate::investments::flex::flex_history::dates_in_order(
                    self.date_from,
                    self.date_to,
                )
            }
        }

        impl Paged for $query {
            type Record = FlexHistoryRecord;
            /// The transaction and the action ([`FlexHistoryRecord::key`]).
            type Key = (String, FlexAction);
            const DEFAULT_LIMIT: Option<u64> = Some(Self::DEFAULT_LIMIT);

            fn tally(answer: &FlexHistoryPage) -> Tally {
                Tally::of(answer.data.len())
            }

            fn records(&self, answer: FlexHistoryPage) -> Vec<FlexHistoryRecord> {
                answer.data
            }

            fn key(record: &FlexHistoryRecord) -> Self::Key {
                record.key()
            }
        }
    };
}
pub(super) use flex_history_query;

flex_history_query!(FlexHistoryQuery, "The first page of every record.");

/// A window's `dateTo` not before its `dateFrom`: the rule of both histories.
pub(super) fn dates_in_order(from: Option<u64>, to: Option<u64>) -> Result<(), ValidationError> {
    date_window::ordered(from, to, "dateTo", "must not be before dateFrom")
}

/// A page of the flex investment history or of the payment history:
/// `{"data","limit","offset"}`, read completely or not at all.
///
/// ```
/// let page: txc_types::investments::flex::FlexHistoryPage =
///     serde_json::from_str(r#"{"data":[],"limit":50,"offset":0}"#)?;
/// assert_eq!(page.limit, Some(50));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a page of flex history records")]
#[non_exhaustive]
pub struct FlexHistoryPage {
    /// The records.
    #[answer(with = "crate::lenient::array")]
    pub data: Vec<FlexHistoryRecord>,
    /// The page's limit, as the exchange echoes it.
    pub limit: Option<u64>,
    /// The page's offset, as the exchange echoes it.
    pub offset: Option<u64>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

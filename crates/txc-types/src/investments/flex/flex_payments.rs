//! `POST /api/v4/main-account/smart-flex/investments/payment-history`: the earnings paid on
//! the account's flex investments.

use txc_derive::Request;

use super::{FlexAction, FlexHistoryPage, FlexHistoryRecord};
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::errors::ValidationError;
use crate::investments::page::check_id;
use crate::page::Page;
use crate::paging::{Paged, Tally};

/// Lists the daily earnings of the account's flex investments — the history's
/// `DAILY_EARNING` records only ([`FlexAction::DailyEarning`]) — filtered as the history is
/// (plan, investment, transaction, `dateFrom`, `dateTo`), a page at a time (`limit` default
/// 50, `offset` default 0; no maximum documented). The answer is a [`FlexHistoryPage`]; the
/// last page is one shorter than the limit ([`Paged`]).
///
/// ```
/// use txc_types::investments::flex::FlexPaymentsQuery;
/// let q = FlexPaymentsQuery::builder()
///     .plan("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f")
///     .date_from(1640995200)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&q)?,
///     r#"{"plan":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","dateFrom":1640995200}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/main-account/smart-flex/investments/payment-history",
    operation = "flex_payments",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = FlexHistoryPage,
    builder = FlexPaymentsQueryBuilder,
    check = Self::dates_in_order,
)]
pub struct FlexPaymentsQuery {
    /// The plan filter: only earnings of the investment in this plan.
    #[request(set, arg = &str, check = check_id)]
    plan: Option<String>,
    /// The investment filter: only earnings of this investment.
    #[request(set, arg = &str, check = check_id)]
    investment: Option<String>,
    /// The transaction filter: only the earning of this transaction.
    #[request(set, arg = &str, check = check_id)]
    transaction: Option<String>,
    /// Only earnings from this Unix second on.
    #[request(get = copy, set)]
    date_from: Option<u64>,
    /// Only earnings up to this Unix second.
    #[request(get = copy, set)]
    date_to: Option<u64>,
    #[request(page)]
    page: Page<{ u64::MAX }, { u64::MAX }>,
}

super::flex_history::flex_history_query!(FlexPaymentsQuery, "The first page of every earning.");

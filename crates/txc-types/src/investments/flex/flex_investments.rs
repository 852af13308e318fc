//! `POST /api/v4/main-account/smart-flex/investments`: the account's flex investments.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::{FlexInvestment, FlexInvestmentStatus};
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::errors::{Reason, ValidationError};
use crate::investments::page::check_id;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::Ticker;

/// Lists the account's flex investments, active and closed, filtered by currency, plan,
/// investment and status, a page at a time (`limit` default 100, `offset` default 0; the
/// spec gives neither a maximum).
///
/// The answer is `{"data","limit","offset"}` with no `total`: a page with fewer investments
/// than the limit is the last ([`Paged`]). The spec gives no order. Refusals (HTTP 400,
/// `Validation failed`): an unknown `ticker`, `plan` or `investment`, a status other than 0
/// or 1.
///
/// ```
/// use txc_types::investments::flex::{FlexInvestmentStatus, FlexInvestmentsQuery};
/// let q = FlexInvestmentsQuery::builder()
///     .plan("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f")
///     .investment_status(FlexInvestmentStatus::Active)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&q)?,
///     r#"{"plan":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","investmentStatus":1}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/main-account/smart-flex/investments",
    operation = "flex_investments",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = FlexInvestmentsPage,
    builder = FlexInvestmentsQueryBuilder,
)]
pub struct FlexInvestmentsQuery {
    /// The currency filter: only investments of this ticker.
    #[request(set, text)]
    ticker: Option<Ticker>,
    /// The plan filter: only the investment in this plan.
    #[request(set, arg = &str, check = check_id)]
    plan: Option<String>,
    /// The investment filter: only the investment with this id.
    #[request(set, arg = &str, check = check_id)]
    investment: Option<String>,
    /// The status filter: only active or only closed investments.
    #[request(get = copy, set, check = known_status)]
    investment_status: Option<FlexInvestmentStatus>,
    #[request(page)]
    page: Page<{ u64::MAX }, { u64::MAX }>,
}

impl FlexInvestmentsQuery {
    /// The page size the exchange uses when none is sent.
    pub const DEFAULT_LIMIT: u64 = 100;

    /// The first page of every investment.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Paged for FlexInvestmentsQuery {
    type Record = FlexInvestment;
    /// The investment's id.
    type Key = String;
    const DEFAULT_LIMIT: Option<u64> = Some(Self::DEFAULT_LIMIT);

    fn tally(answer: &FlexInvestmentsPage) -> Tally {
        Tally::of(answer.data.len())
    }

    fn records(&self, answer: FlexInvestmentsPage) -> Vec<FlexInvestment> {
        answer.data
    }

    fn key(record: &FlexInvestment) -> String {
        record.id.clone()
    }
}

/// A status the filter can send: active (1) or closed (0).
fn known_status(
    status: FlexInvestmentStatus,
    field: &'static str,
) -> Result<FlexInvestmentStatus, ValidationError> {
    match status {
        FlexInvestmentStatus::Active | FlexInvestmentStatus::Closed => Ok(status),
        FlexInvestmentStatus::Other(_) => {
            Err(ValidationError::invalid(field, Reason::UnknownVariant))
        }
    }
}

/// A page of the flex investments: `{"data","limit","offset"}`, read completely or not at
/// all (an investment that does not decode fails the page).
///
/// ```
/// let page: txc_types::investments::flex::FlexInvestmentsPage =
///     serde_json::from_str(r#"{"data":[],"limit":100,"offset":0}"#)?;
/// assert!(page.data.is_empty());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a page of flex investments")]
#[non_exhaustive]
pub struct FlexInvestmentsPage {
    /// The investments.
    #[answer(with = "crate::lenient::array")]
    pub data: Vec<FlexInvestment>,
    /// The page's limit, as the exchange echoes it.
    pub limit: Option<u64>,
    /// The page's offset, as the exchange echoes it.
    pub offset: Option<u64>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

//! `POST /api/v4/main-account/smart/plans`: the smart investment plans (B2B partners only).

use txc_derive::Request;

use super::InvestmentPlan;
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::values::Ticker;

/// Lists the smart investment plans, optionally only those of one source currency.
///
/// Only keys of B2B partner services may call it; other keys get HTTP 403.
///
/// ```
/// use txc_types::investments::SmartPlansQuery;
/// let all = SmartPlansQuery::new();
/// let usdt = SmartPlansQuery::builder().ticker("USDT").build()?;
/// assert_eq!(usdt.ticker().map(|t| t.as_str()), Some("USDT"));
/// assert!(all.ticker().is_none());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart/plans",
    operation = "smart_plans",
    kind = Read,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = Vec<InvestmentPlan>,
    builder = SmartPlansQueryBuilder,
)]
pub struct SmartPlansQuery {
    /// The source currency filter: only plans whose source currency is this ticker.
    #[request(set, text)]
    ticker: Option<Ticker>,
}

impl SmartPlansQuery {
    /// A query for every plan.
    pub fn new() -> Self {
        Self::default()
    }
}

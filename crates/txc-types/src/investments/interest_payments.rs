//! `POST /api/v4/main-account/smart/interest-payment-history`: the interest paid to the account.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::Answer;

use super::InterestPayment;
use super::page::{Building, Paging, check_id};
use crate::endpoint::{
    Endpoint, EndpointKind, FieldValue, MAIN_ACCOUNT_SCOPE, RateLimit, WireValue,
};
use crate::errors::ValidationError;
use crate::values::Ticker;

/// Lists the interest payments, filtered by plan and by the currency paid (the plan's
/// `interestTicker`), a page at a time (`limit` 1 to 100, default 100; `offset` 0 to 10 000).
///
/// ```
/// use txc_types::investments::InterestPaymentsQuery;
/// let q = InterestPaymentsQuery::builder().plan_id("8e667b4a").ticker("USDT").build()?;
/// assert_eq!(serde_json::to_string(&q)?, r#"{"planId":"8e667b4a","ticker":"USDT"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InterestPaymentsQuery {
    plan_id: Option<String>,
    ticker: Option<Ticker>,
    page: Paging,
}

impl InterestPaymentsQuery {
    /// The first page of every payment.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query with filters.
    pub fn builder() -> InterestPaymentsQueryBuilder {
        InterestPaymentsQueryBuilder(Building::new())
    }

    /// The plan filter, if any.
    pub fn plan_id(&self) -> Option<&str> {
        self.plan_id.as_deref()
    }

    /// The interest currency filter, if any.
    pub fn ticker(&self) -> Option<&Ticker> {
        self.ticker.as_ref()
    }

    /// The page size, if set (the exchange's default is 100).
    pub fn limit(&self) -> Option<u64> {
        self.page.limit
    }

    /// The page offset, if set.
    pub fn offset(&self) -> Option<u64> {
        self.page.offset
    }

    /// The same query for the page after `page`, its answer: `None` when `page` was the last
    /// or the next offset is beyond the exchange's 10 000.
    pub fn next_page(&self, page: &InterestPaymentsPage) -> Option<Self> {
        let next = self.page.next(page.records.len())?;
        Some(Self {
            page: next,
            ..self.clone()
        })
    }
}

/// Builds an [`InterestPaymentsQuery`]: each setter checks its value, and the first invalid one
/// is reported by [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct InterestPaymentsQueryBuilder(Building<InterestPaymentsQuery>);

impl InterestPaymentsQueryBuilder {
    /// Only payments of this plan.
    pub fn plan_id(self, plan_id: &str) -> Self {
        Self(self.0.set(|q| {
            q.plan_id = Some(check_id(plan_id, "planId")?);
            Ok(())
        }))
    }

    /// Only payments in this currency (the plans' `interestTicker`).
    pub fn ticker(self, ticker: impl FieldValue<Ticker>) -> Self {
        Self(self.0.set(|q| {
            q.ticker = Some(ticker.into_field("ticker")?);
            Ok(())
        }))
    }

    /// At most `limit` records, from 1 to 100 (default 100).
    pub fn limit(self, limit: u64) -> Self {
        Self(self.0.set(|q| q.page.set_limit(limit)))
    }

    /// Skip the first `offset` records, at most 10 000 (default 0).
    pub fn offset(self, offset: u64) -> Self {
        Self(self.0.set(|q| q.page.set_offset(offset)))
    }

    /// Returns the query, or the first invalid value.
    pub fn build(self) -> Result<InterestPaymentsQuery, ValidationError> {
        self.0.build()
    }
}

impl Endpoint for InterestPaymentsQuery {
    const PATH: &'static str = "/api/v4/main-account/smart/interest-payment-history";
    const OPERATION: &'static str = "interest_payments";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(1_000, 10));
    const RATE_LIMIT_SCOPE: &'static str = MAIN_ACCOUNT_SCOPE;
    type Response = InterestPaymentsPage;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(id) = &self.plan_id {
            visit("planId", WireValue::Str(id))?;
        }
        if let Some(t) = &self.ticker {
            visit("ticker", WireValue::Str(t.as_str()))?;
        }
        self.page.visit(&mut visit)
    }
}

impl Serialize for InterestPaymentsQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

/// A page of the interest payment history: `{"offset","limit","records"}`, read completely or
/// not at all.
#[derive(Debug, Clone, PartialEq, Serialize, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a page of interest payments")]
#[non_exhaustive]
pub struct InterestPaymentsPage {
    /// The page's offset, as the exchange echoes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The page's limit, as the exchange echoes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The payments.
    #[answer(with = "crate::lenient::array")]
    pub records: Vec<InterestPayment>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

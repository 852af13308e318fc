//! `POST /api/v4/main-account/smart/investments`: the account's investments, active and closed.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::Answer;

use super::page::{Building, Paging, check_id};
use super::{Investment, InvestmentStatus};
use crate::endpoint::{
    Endpoint, EndpointKind, FieldValue, MAIN_ACCOUNT_SCOPE, RateLimit, WireValue,
};
use crate::errors::{Reason, ValidationError};
use crate::values::Ticker;

/// Lists the account's investments, filtered by id, the plan's source currency and status, a
/// page at a time (`limit` 1 to 100, default 100; `offset` 0 to 10 000).
///
/// The docs give no order of the records; [`InvestmentsQuery::next_page`] is the query of the
/// page after one that was full.
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InvestmentsQuery {
    id: Option<String>,
    ticker: Option<Ticker>,
    status: Option<InvestmentStatus>,
    page: Paging,
}

impl InvestmentsQuery {
    /// The first page of every investment.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query with filters.
    pub fn builder() -> InvestmentsQueryBuilder {
        InvestmentsQueryBuilder(Building::new())
    }

    /// The investment id filter, if any.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The source currency filter, if any.
    pub fn ticker(&self) -> Option<&Ticker> {
        self.ticker.as_ref()
    }

    /// The status filter, if any.
    pub fn status(&self) -> Option<InvestmentStatus> {
        self.status
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
    /// (fewer records than the limit) or the next offset is beyond the exchange's 10 000.
    pub fn next_page(&self, page: &InvestmentsPage) -> Option<Self> {
        let next = self.page.next(page.records.len())?;
        Some(Self {
            page: next,
            ..self.clone()
        })
    }
}

/// Builds an [`InvestmentsQuery`]: each setter checks its value, and the first invalid one is
/// reported by [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct InvestmentsQueryBuilder(Building<InvestmentsQuery>);

impl InvestmentsQueryBuilder {
    /// Only the investment with this id.
    pub fn id(self, id: &str) -> Self {
        Self(self.0.set(|q| {
            q.id = Some(check_id(id, "id")?);
            Ok(())
        }))
    }

    /// Only investments in plans whose source currency is `ticker`.
    pub fn ticker(self, ticker: impl FieldValue<Ticker>) -> Self {
        Self(self.0.set(|q| {
            q.ticker = Some(ticker.into_field("ticker")?);
            Ok(())
        }))
    }

    /// Only active or only closed investments.
    pub fn status(self, status: InvestmentStatus) -> Self {
        Self(self.0.set(|q| match status {
            InvestmentStatus::Active | InvestmentStatus::Closed => {
                q.status = Some(status);
                Ok(())
            }
            InvestmentStatus::Unknown(_) => {
                Err(ValidationError::invalid("status", Reason::UnknownVariant))
            }
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
    pub fn build(self) -> Result<InvestmentsQuery, ValidationError> {
        self.0.build()
    }
}

impl Endpoint for InvestmentsQuery {
    const PATH: &'static str = "/api/v4/main-account/smart/investments";
    const OPERATION: &'static str = "investments";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(1_000, 10));
    const RATE_LIMIT_SCOPE: &'static str = MAIN_ACCOUNT_SCOPE;
    type Response = InvestmentsPage;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(id) = &self.id {
            visit("id", WireValue::Str(id))?;
        }
        if let Some(t) = &self.ticker {
            visit("ticker", WireValue::Str(t.as_str()))?;
        }
        if let Some(s) = self.status {
            // Only 1 and 2 get here (the builder refuses others).
            visit(
                "status",
                WireValue::Int(u64::try_from(s.code()).unwrap_or(0)),
            )?;
        }
        self.page.visit(&mut visit)
    }
}

impl Serialize for InvestmentsQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
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
#[derive(Debug, Clone, PartialEq, Serialize, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a page of investments")]
#[non_exhaustive]
pub struct InvestmentsPage {
    /// The page's offset, as the exchange echoes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The page's limit, as the exchange echoes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The investments.
    #[answer(with = "crate::lenient::array")]
    pub records: Vec<Investment>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

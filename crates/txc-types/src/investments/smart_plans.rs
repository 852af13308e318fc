//! `POST /api/v4/main-account/smart/plans`: the smart investment plans (B2B partners only).

use serde::{Serialize, Serializer};

use super::InvestmentPlan;
use crate::endpoint::{
    Endpoint, EndpointKind, FieldValue, MAIN_ACCOUNT_SCOPE, RateLimit, WireValue,
};
use crate::errors::ValidationError;
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SmartPlansQuery {
    ticker: Option<Ticker>,
}

impl SmartPlansQuery {
    /// A query for every plan.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query with optional filters.
    pub fn builder() -> SmartPlansQueryBuilder {
        SmartPlansQueryBuilder {
            state: Ok(Self::default()),
        }
    }

    /// The source currency filter, if any.
    pub fn ticker(&self) -> Option<&Ticker> {
        self.ticker.as_ref()
    }
}

/// Builds a [`SmartPlansQuery`].
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct SmartPlansQueryBuilder {
    state: Result<SmartPlansQuery, ValidationError>,
}

impl SmartPlansQueryBuilder {
    /// Only plans whose source currency is `ticker`.
    pub fn ticker(mut self, ticker: impl FieldValue<Ticker>) -> Self {
        if let Ok(q) = &mut self.state {
            match ticker.into_field("ticker") {
                Ok(t) => q.ticker = Some(t),
                Err(e) => self.state = Err(e),
            }
        }
        self
    }

    /// Returns the query, or the first invalid value.
    pub fn build(self) -> Result<SmartPlansQuery, ValidationError> {
        self.state
    }
}

impl Endpoint for SmartPlansQuery {
    const PATH: &'static str = "/api/v4/main-account/smart/plans";
    const OPERATION: &'static str = "smart_plans";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(1_000, 10));
    const RATE_LIMIT_SCOPE: &'static str = MAIN_ACCOUNT_SCOPE;
    type Response = Vec<InvestmentPlan>;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match &self.ticker {
            Some(t) => visit("ticker", WireValue::Str(t.as_str())),
            None => Ok(()),
        }
    }
}

impl Serialize for SmartPlansQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

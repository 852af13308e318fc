//! `POST /api/v4/collateral-account/balance-summary`: each asset's balance, borrowing and what
//! is available.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::errors::ValidationError;
use crate::values::{ExactDecimal, Ticker};

/// Asks for the balance summary of every asset, or of one (`ticker`).
///
/// ```
/// use txc_types::positions::BalanceSummaryQuery;
/// let btc = BalanceSummaryQuery::of_ticker("BTC")?;
/// assert_eq!(serde_json::to_string(&btc).unwrap(), r#"{"ticker":"BTC"}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BalanceSummaryQuery {
    ticker: Option<Ticker>,
}

impl BalanceSummaryQuery {
    /// Every asset.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only `ticker`.
    pub fn of_ticker(ticker: impl FieldValue<Ticker>) -> Result<Self, ValidationError> {
        Ok(Self {
            ticker: Some(ticker.into_field("ticker")?),
        })
    }

    /// The asset filter, if any.
    pub fn ticker(&self) -> Option<&Ticker> {
        self.ticker.as_ref()
    }
}

impl Endpoint for BalanceSummaryQuery {
    const PATH: &'static str = "/api/v4/collateral-account/balance-summary";
    const OPERATION: &'static str = "balance_summary";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(12_000, 10));
    type Response = Vec<AssetBalance>;

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

impl Serialize for BalanceSummaryQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

/// One asset of the balance summary. Every field is in the docs' example, so each is a plain
/// value; amounts are in the asset's own units, exact as sent.
///
/// ```
/// let a: txc_types::positions::AssetBalance = serde_json::from_str(r#"{"asset":"BTC",
///     "balance":"0.5","borrow":"0","availableWithoutBorrow":"0.5","availableWithBorrow":"123.456"}"#)?;
/// assert_eq!(a.available_with_borrow.as_str(), "123.456");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an asset balance object")]
#[non_exhaustive]
pub struct AssetBalance {
    /// The asset's ticker, as sent.
    pub asset: Ticker,
    /// The total collateral balance.
    pub balance: ExactDecimal,
    /// What is borrowed against it.
    pub borrow: ExactDecimal,
    /// What is available without borrowing.
    pub available_without_borrow: ExactDecimal,
    /// What is available with the borrowing capacity.
    pub available_with_borrow: ExactDecimal,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

//! `POST /api/v4/collateral-account/summary`: equity, margin, profit and the leverage.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use crate::values::ExactDecimal;

/// Asks for the collateral account's summary. It has no fields; it is also where the current
/// leverage is read (there is no per-market leverage).
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::positions::AccountSummaryQuery;
/// assert_eq!(AccountSummaryQuery::PATH, "/api/v4/collateral-account/summary");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/summary",
    operation = "account_summary",
    kind = Read,
    rate_limit = (12_000, 10),
    response = AccountSummary,
)]
pub struct AccountSummaryQuery;

/// The collateral account's summary. Every field is in the docs' example, so each is a plain
/// value.
///
/// ```
/// let s: txc_types::positions::AccountSummary = serde_json::from_str(r#"{"equity":"15000.50",
///     "margin":"5000.00","freeMargin":"10000.50","unrealizedFunding":"25.75","pnl":"150.25",
///     "leverage":3,"marginFraction":"0.3333"}"#)?;
/// assert_eq!((s.leverage, s.equity.as_str()), (3, "15000.50"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an account summary object")]
#[non_exhaustive]
pub struct AccountSummary {
    /// The total equity.
    pub equity: ExactDecimal,
    /// The margin in use.
    pub margin: ExactDecimal,
    /// The margin available for trading.
    pub free_margin: ExactDecimal,
    /// Funding payments not yet realized.
    pub unrealized_funding: ExactDecimal,
    /// The unrealized profit and loss.
    pub pnl: ExactDecimal,
    /// The account's leverage.
    pub leverage: u64,
    /// Margin over equity.
    pub margin_fraction: ExactDecimal,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

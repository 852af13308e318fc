//! `POST /api/v4/collateral-account/balance-summary`: each asset's balance, borrowing and what
//! is available.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use crate::values::{ExactDecimal, Ticker};

/// Asks for the balance summary of every asset ([`new`](Self::new)), or of one.
///
/// ```
/// use txc_types::positions::BalanceSummaryQuery;
/// let btc = BalanceSummaryQuery::of_ticker("BTC")?;
/// assert_eq!(serde_json::to_string(&btc).unwrap(), r#"{"ticker":"BTC"}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/balance-summary",
    operation = "balance_summary",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<AssetBalance>,
)]
pub struct BalanceSummaryQuery {
    /// The asset filter: only this asset's summary (none: every asset's).
    #[request(of, text)]
    ticker: Option<Ticker>,
}

impl BalanceSummaryQuery {
    /// Every asset.
    pub fn new() -> Self {
        Self::default()
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
#[derive(Debug, Clone, PartialEq, Answer)]
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

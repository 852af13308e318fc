//! `GET /api/v4/public/collateral/markets`: the markets open to collateral trading (public,
//! unsigned).

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

/// Asks for the names of the markets available for collateral (margin and futures) trading:
/// a public `GET`, like [`MarketsQuery`](super::MarketsQuery), whose rules apply to them. The
/// exchange refreshes it about every 10 seconds; in a region without margin trading it
/// answers HTTP 451.
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::markets::CollateralMarketsQuery;
/// assert_eq!(CollateralMarketsQuery::PATH, "/api/v4/public/collateral/markets");
/// assert!(!CollateralMarketsQuery::SIGNED);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/public/collateral/markets",
    operation = "collateral_markets",
    kind = Read,
    rate_limit = (2_000, 10),
    signed = false,
    response = CollateralMarkets,
)]
pub struct CollateralMarketsQuery;

/// The collateral market list: `{"success": true, "message": null, "result": [names]}`.
///
/// ```
/// let list: txc_types::markets::CollateralMarkets = serde_json::from_str(
///     r#"{"success":true,"message":null,"result":["BTC_USDT","ETH_USDT"]}"#,
/// )?;
/// assert!(list.contains("BTC_USDT"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a collateral markets object")]
#[non_exhaustive]
pub struct CollateralMarkets {
    /// Whether the exchange says it succeeded.
    pub success: Option<bool>,
    /// The exchange's message, if any.
    pub message: Option<String>,
    /// The market names, as sent.
    #[answer(with = "crate::lenient::list")]
    pub result: Vec<String>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl CollateralMarkets {
    /// Whether `market` is listed.
    pub fn contains(&self, market: &str) -> bool {
        self.result.iter().any(|name| name == market)
    }
}

//! `GET /api/v4/public/futures`: the perpetual futures markets with their prices, funding and
//! leverage brackets (public, unsigned).

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use crate::values::{ExactDecimal, Market};

/// Asks for every futures market's current figures: prices, volumes, open interest, funding
/// and leverage brackets ([`FuturesMarket`]). A public `GET` like
/// [`MarketsQuery`](super::MarketsQuery), whose order rules apply to these markets too; the
/// exchange caches it for a second, and answers HTTP 451 in a region without futures.
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::markets::FuturesMarketsQuery;
/// assert_eq!(FuturesMarketsQuery::PATH, "/api/v4/public/futures");
/// assert!(!FuturesMarketsQuery::SIGNED);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/public/futures",
    operation = "futures_markets",
    kind = Read,
    rate_limit = (2_000, 10),
    signed = false,
    response = FuturesMarkets,
)]
pub struct FuturesMarketsQuery;

/// The futures market list: `{"success": true, "message": null, "result": [markets]}`.
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a futures markets object")]
#[non_exhaustive]
pub struct FuturesMarkets {
    /// Whether the exchange says it succeeded.
    pub success: Option<bool>,
    /// The exchange's message, if any.
    pub message: Option<String>,
    /// The markets (a list one of whose records cannot be read is kept whole in `extra`).
    #[answer(with = "crate::lenient::array")]
    pub result: Vec<FuturesMarket>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One futures market of the list: its figures as the exchange wrote them (snake_case on the
/// wire). Only `ticker_id` is required.
///
/// ```
/// let m: txc_types::markets::FuturesMarket = serde_json::from_str(r#"{"ticker_id":"BTC_PERP",
///     "last_price":"24005.5","max_leverage":100,"brackets":{"1":0,"50":20}}"#)?;
/// assert_eq!(m.ticker_id, "BTC_PERP");
/// assert_eq!(m.max_leverage, Some(100));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a futures market object")]
#[non_exhaustive]
pub struct FuturesMarket {
    /// The market, e.g. `BTC_PERP`, as sent.
    pub ticker_id: Market,
    /// The stock (base) currency.
    pub stock_currency: Option<String>,
    /// The money (target) currency.
    pub money_currency: Option<String>,
    /// The last price.
    pub last_price: Option<ExactDecimal>,
    /// The 24-hour volume in the stock currency.
    pub stock_volume: Option<ExactDecimal>,
    /// The 24-hour volume in the money currency.
    pub money_volume: Option<ExactDecimal>,
    /// The highest bid.
    pub bid: Option<ExactDecimal>,
    /// The lowest ask.
    pub ask: Option<ExactDecimal>,
    /// The 24-hour high.
    pub high: Option<ExactDecimal>,
    /// The 24-hour low.
    pub low: Option<ExactDecimal>,
    /// The product type (`Perpetual`).
    pub product_type: Option<String>,
    /// The open interest, in contracts.
    pub open_interest: Option<ExactDecimal>,
    /// The underlying index price.
    pub index_price: Option<ExactDecimal>,
    /// The underlying index's name.
    pub index_name: Option<String>,
    /// The underlying index's currency.
    pub index_currency: Option<String>,
    /// The predicted funding rate of the next settlement.
    pub funding_rate: Option<ExactDecimal>,
    /// The highest funding rate the market allows.
    pub funding_cap: Option<ExactDecimal>,
    /// The lowest funding rate the market allows.
    pub funding_floor: Option<ExactDecimal>,
    /// When the next funding settles, in Unix milliseconds (a string of digits on the wire).
    pub next_funding_rate_timestamp: Option<u64>,
    /// The leverage brackets: leverage multiplier → position size limit, as sent.
    #[answer(with = "crate::lenient::object")]
    pub brackets: Option<Map<String, Value>>,
    /// The largest leverage allowed.
    pub max_leverage: Option<u64>,
    /// The funding interval in minutes.
    pub funding_interval_minutes: Option<u64>,
    /// Fields this version does not know, and values it could not read, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

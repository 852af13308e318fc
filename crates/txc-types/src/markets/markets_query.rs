//! `GET /api/v4/public/markets`: every market's trading rules (public, unsigned).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use txc_derive::{Answer, Request, WireEnum};

use crate::values::{ExactDecimal, Market, Timestamp};

/// Asks for the public market info: every spot and futures market with its precisions, fees
/// and order-size bounds ([`MarketInfo`]) — what [`MarketRules`](super::MarketRules) checks
/// orders by. No parameters and no authentication: a public `GET` ([`Endpoint::SIGNED`] is
/// `false`, as for the server time). The exchange refreshes it about every 10 seconds.
///
/// [`Endpoint::SIGNED`]: crate::endpoint::Endpoint::SIGNED
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::markets::MarketsQuery;
/// assert_eq!(MarketsQuery::PATH, "/api/v4/public/markets");
/// assert!(!MarketsQuery::SIGNED);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/public/markets",
    operation = "markets",
    kind = Read,
    rate_limit = (2_000, 10),
    signed = false,
    response = Vec<MarketInfo>,
)]
pub struct MarketsQuery;

/// One market of the public market info.
///
/// Only `name` is required: a market whose other fields are missing or malformed is still
/// listed (what could not be read is in [`extra`](Self::extra)), and turning it into rules
/// ([`MarketRules::from_info`](super::MarketRules::from_info)) says which field is missing —
/// one odd market never fails the list.
///
/// ```
/// let info: txc_types::markets::MarketInfo = serde_json::from_str(r#"{"name":"BTC_USDT",
///     "stock":"BTC","money":"USDT","stockPrec":"6","moneyPrec":"2","feePrec":"4",
///     "makerFee":"0.1","takerFee":"0.1","minAmount":"0.0001","minTotal":"5","maxTotal":"0",
///     "tradesEnabled":true,"isCollateral":true,"type":"spot","isTradFiFutures":false,
///     "delistedAt":null}"#)?;
/// assert_eq!((info.stock_prec, info.money_prec), (Some(6), Some(2)));
/// assert_eq!(info.market_type, Some(txc_types::markets::MarketType::Spot));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a market info object")]
#[non_exhaustive]
pub struct MarketInfo {
    /// The market, e.g. `BTC_USDT`, as sent.
    pub name: Market,
    /// The stock (base) currency.
    pub stock: Option<String>,
    /// The money (quote) currency; perpetual futures markets say `USDT`.
    pub money: Option<String>,
    /// The most decimal places of an amount (a stringified integer on the wire).
    pub stock_prec: Option<u64>,
    /// The most decimal places of a price (a stringified integer on the wire).
    pub money_prec: Option<u64>,
    /// The most decimal places of a fee.
    pub fee_prec: Option<u64>,
    /// The default maker fee, in percent (`0.1` is 0.1 %).
    pub maker_fee: Option<ExactDecimal>,
    /// The default taker fee, in percent.
    pub taker_fee: Option<ExactDecimal>,
    /// The smallest amount, in the stock currency.
    pub min_amount: Option<ExactDecimal>,
    /// The smallest total (amount × price), in the money currency.
    pub min_total: Option<ExactDecimal>,
    /// The largest total (amount × price), in the money currency; `0` for no bound.
    pub max_total: Option<ExactDecimal>,
    /// Whether trading is enabled (the list holds only such markets).
    pub trades_enabled: Option<bool>,
    /// Whether margin (collateral) trading is enabled.
    pub is_collateral: Option<bool>,
    /// The kind of market.
    #[serde(rename = "type")]
    pub market_type: Option<MarketType>,
    /// Whether it is a traditional-finance futures market.
    pub is_trad_fi_futures: Option<bool>,
    /// The announced delisting date, if one is announced.
    pub delisted_at: Option<Timestamp>,
    /// Fields this version does not know, and values it could not read, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The kind of a market. Unknown values are kept, not rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, WireEnum)]
#[serde(from = "String", into = "String")]
#[non_exhaustive]
pub enum MarketType {
    /// `spot`.
    #[serde(rename = "spot")]
    Spot,
    /// `futures`: perpetual futures.
    #[serde(rename = "futures")]
    Futures,
    /// `tradfiFutures`: traditional-finance futures.
    #[serde(rename = "tradfiFutures")]
    TradfiFutures,
    /// A value this version does not know, kept as sent.
    #[wire(other)]
    Unknown(String),
}

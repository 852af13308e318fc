//! `POST /api/v4/trade-account/executed-history`: the account's deals (fills), of every
//! trading type.

use serde::de::Error as _;
use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use txc_derive::Request;

use super::ExecutedDeal;
use super::by_market::{grouped, not_found};
use crate::date_window;
use crate::errors::ValidationError;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::{ClientOrderId, Market};

/// Lists the account's deals — every trade of its orders ([`ExecutedDeal`]) — newest first,
/// of one market or all, or the deals of one order by its `clientOrderId`.
///
/// **Collateral markets:** the spec says this endpoint covers every trading type — spot,
/// margin and futures — across all markets, so the fills of collateral orders (`BTC_USDT`
/// margin, `BTC_PERP` futures) are here. Only deals of the last six months (from the start of
/// the current month) can be read; older ones are in the web site's reports.
///
/// With a `market`, the exchange answers a flat list; without, an object keyed by market —
/// both read as [`ExecutedDeals`]. A `clientOrderId` that matches no order of the account is
/// answered with HTTP 422, code 30 `OrderHistory was not found.`, which this crate reads as
/// no deals. Pages hold 1 to 500 deals (default 50; the spec warns that more than 100 make
/// large answers) from `offset` (default 0, no maximum). There is no `total`: a page with
/// fewer deals than the limit, counted across markets, is the last ([`Paged`]). The spec
/// gives no rules for `startDate` and `endDate` beyond their being Unix seconds;
/// [`build`](ExecutedHistoryQueryBuilder::build) refuses an end before the start. Refusals:
/// code 30 (`limit`, `offset`), 31 (`market`).
///
/// ```
/// use txc_types::lookups::ExecutedHistoryQuery;
/// let q = ExecutedHistoryQuery::builder().market("BTC_PERP").limit(100).build()?;
/// assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"market":"BTC_PERP","limit":100}"#);
/// assert_eq!(ExecutedHistoryQuery::builder().limit(501).build().unwrap_err().field(), "limit");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/trade-account/executed-history",
    operation = "executed_history",
    kind = Read,
    rate_limit = (12_000, 10),
    response = ExecutedDeals,
    error_outcome = not_found,
    builder = ExecutedHistoryQueryBuilder,
    check = Self::dates_in_order,
)]
pub struct ExecutedHistoryQuery {
    /// The market filter: only deals of this market.
    #[request(set, text)]
    market: Option<Market>,
    /// The order filter: only the deals of the order with this client order id (an exact
    /// match).
    #[request(set, text)]
    client_order_id: Option<ClientOrderId>,
    /// Only deals from this Unix second on.
    #[request(get = copy, set)]
    start_date: Option<u64>,
    /// Only deals up to this Unix second.
    #[request(get = copy, set)]
    end_date: Option<u64>,
    #[request(page)]
    page: Page<{ ExecutedHistoryQuery::MAX_LIMIT }, { u64::MAX }>,
}

impl ExecutedHistoryQuery {
    /// The most deals a page holds.
    pub const MAX_LIMIT: u64 = 500;

    /// Every market's deals (the exchange's first page, 50 deals).
    pub fn new() -> Self {
        Self::default()
    }

    /// `endDate` not before `startDate`.
    fn dates_in_order(&self) -> Result<(), ValidationError> {
        date_window::in_order(self.start_date, self.end_date)
    }
}

impl Paged for ExecutedHistoryQuery {
    type Record = ExecutedDeal;
    /// The deal's id.
    type Key = u64;
    const DEFAULT_LIMIT: Option<u64> = Some(50);

    fn tally(answer: &ExecutedDeals) -> Tally {
        Tally::of(answer.deals.len())
    }

    /// The deals, each with its market: the answer's key, else the query's filter.
    fn records(&self, answer: ExecutedDeals) -> Vec<ExecutedDeal> {
        match &self.market {
            Some(market) => answer.in_market(market).deals,
            None => answer.deals,
        }
    }

    fn key(record: &ExecutedDeal) -> u64 {
        record.id
    }
}

/// The executed history's answer: the deals, newest first within each market.
///
/// Read from either shape the exchange sends: a flat list (to a query with a market filter;
/// the deals' [`market`](ExecutedDeal::market) is then `None` —
/// [`in_market`](Self::in_market) sets it), or an object of market → deals (each deal's
/// market set from its key, markets in name order). Empty when nothing matched, whether the
/// exchange sent `[]`, `{}` or (for a `clientOrderId` look-up) its "not found" error.
///
/// ```
/// use txc_types::lookups::ExecutedDeals;
/// let grouped: ExecutedDeals = serde_json::from_str(r#"{"BTC_PERP":[{"id":1,"time":1593342324.613711,
///     "side":"buy","role":1,"amount":"0.1","price":"40000","deal":"4000","fee":"0.4",
///     "orderId":3134995325,"clientOrderId":"","feeAsset":"USDT"}]}"#)?;
/// assert_eq!(grouped.deals[0].market.as_ref().map(|m| m.as_str()), Some("BTC_PERP"));
/// let flat: ExecutedDeals = serde_json::from_str(r#"[]"#)?;
/// assert!(flat.deals.is_empty());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ExecutedDeals {
    /// The deals: market by market, each market's newest first.
    pub deals: Vec<ExecutedDeal>,
}

impl ExecutedDeals {
    /// The deals, those without a market given `market` (the filter of the query they answer).
    pub fn in_market(mut self, market: &Market) -> Self {
        for deal in &mut self.deals {
            if deal.market.is_none() {
                deal.market = Some(market.clone());
            }
        }
        self
    }
}

impl Serialize for ExecutedDeals {
    /// In the exchange's shape, which reads back the same: an object of market → deals when
    /// every deal has its market, else the flat list.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.deals.iter().any(|deal| deal.market.is_none()) {
            return self.deals.serialize(s);
        }
        let mut markets: BTreeMap<&str, Vec<&ExecutedDeal>> = BTreeMap::new();
        for deal in &self.deals {
            let market = deal.market.as_ref().map_or("", |m| m.as_str());
            markets.entry(market).or_default().push(deal);
        }
        markets.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ExecutedDeals {
    /// A list of deals, or an object of market → deals (PHP's `[]` for an empty one), each
    /// deal decoded by the crate's leniency rule; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = raw.get().trim();
        let deals = if text.starts_with('[') {
            serde_json::from_str(text).map_err(D::Error::custom)?
        } else {
            grouped(text, |deal: &mut ExecutedDeal, market| {
                deal.market = Some(market.clone());
            })
            .map_err(D::Error::custom)?
            .into_values()
            .flatten()
            .collect()
        };
        Ok(Self { deals })
    }
}

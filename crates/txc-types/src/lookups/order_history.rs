//! `POST /api/v4/trade-account/order/history`: the account's executed and canceled orders.

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use txc_derive::Request;

use super::HistoryOrder;
use super::by_market::{grouped, not_found};
use super::lookup::lookup_builder;
use crate::date_window;
use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::{ClientOrderId, Market};

/// Looks up finished orders: one order by `clientOrderId` or `orderId` (exact match), or a
/// list filtered by status and a date span of at most 31 days, newest first, in pages of 1 to
/// 500 orders (default 50). There is no total: a page with fewer orders than the limit,
/// counted across markets, is the last ([`Paged`]).
///
/// A look-up by `clientOrderId` that matches nothing is answered by the exchange with HTTP 422
/// code 30 `OrderHistory was not found.`; this crate decodes that as an empty
/// [`OrderHistory`], like the empty response to an unmatched `orderId`. With a `clientOrderId`
/// the exchange ignores the status and dates. For B2B accounts the exchange records no
/// canceled orders here.
///
/// ```
/// use txc_types::lookups::OrderHistoryQuery;
/// let q = OrderHistoryQuery::builder().market("BTC_USDT").client_order_id("order-42").build()?;
/// assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"market":"BTC_USDT","clientOrderId":"order-42"}"#);
/// let both = OrderHistoryQuery::builder().order_id(1).client_order_id("x").build();
/// assert!(both.is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/trade-account/order/history",
    operation = "order_history",
    kind = Read,
    rate_limit = (12_000, 10),
    response = OrderHistory,
    error_outcome = not_found,
    builder = OrderHistoryQueryBuilder,
    check = Self::one_id_and_a_month,
)]
pub struct OrderHistoryQuery {
    /// The market filter: only orders of this market.
    #[request(set, text)]
    market: Option<Market>,
    /// The order id filter: only the order with this id.
    #[request(get = copy, set)]
    order_id: Option<u64>,
    /// The client order id filter: only the order with this id, an exact match.
    #[request(set, text)]
    client_order_id: Option<ClientOrderId>,
    /// The status filter: only orders with this final status (list mode).
    #[request(get = copy, set)]
    status: Option<HistoryStatus>,
    /// Only orders from this Unix second on (default: a month ago; at most six months back).
    #[request(get = copy, set)]
    start_date: Option<u64>,
    /// Only orders up to this Unix second (default: now).
    #[request(get = copy, set)]
    end_date: Option<u64>,
    #[request(page)]
    page: Page<500, { u64::MAX }>,
}

lookup_builder!(
    OrderHistoryQueryBuilder => OrderHistoryQuery,
    "The last month's finished orders of every market (first page, 50 orders).",
    "The finished order of `market` whose `clientOrderId` is `id`, if there is one."
);

/// The `status` filter of an order history list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HistoryStatus {
    /// Every finished order (the exchange's default).
    All,
    /// Filled orders.
    Filled,
    /// Canceled orders.
    Canceled,
    /// Partly filled orders.
    PartiallyFilled,
}

impl HistoryStatus {
    /// The wire form.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::All => "ALL",
            Self::Filled => "FILLED",
            Self::Canceled => "CANCELED",
            Self::PartiallyFilled => "PARTIALLY_FILLED",
        }
    }
}

impl ToWire for HistoryStatus {
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Str(self.as_str())
    }
}

impl OrderHistoryQuery {
    /// The longest date span, in seconds (31 days).
    pub const MAX_SPAN_SECS: u64 = 31 * 24 * 60 * 60;

    /// One id at most (the exchange would silently prefer `orderId`), and a date span of at
    /// most 31 days that does not end before it starts.
    fn one_id_and_a_month(&self) -> Result<(), ValidationError> {
        if self.order_id.is_some() && self.client_order_id.is_some() {
            return Err(ValidationError::Conflict {
                field: "clientOrderId",
                other: "orderId",
            });
        }
        date_window::in_order(self.start_date, self.end_date)?;
        if let (Some(start), Some(end)) = (self.start_date, self.end_date)
            && end.saturating_sub(start) > Self::MAX_SPAN_SECS
        {
            return Err(ValidationError::invalid(
                "endDate",
                Reason::Format("must be at most 31 days after startDate"),
            ));
        }
        Ok(())
    }
}

impl Paged for OrderHistoryQuery {
    type Record = HistoryOrder;
    /// The order's id.
    type Key = u64;
    const DEFAULT_LIMIT: Option<u64> = Some(50);

    fn tally(answer: &OrderHistory) -> Tally {
        Tally::of(answer.orders().count())
    }

    fn records(&self, answer: OrderHistory) -> Vec<HistoryOrder> {
        answer.into_orders().collect()
    }

    fn key(record: &HistoryOrder) -> u64 {
        record.id
    }
}

/// The order history response: finished orders by market, each list newest first.
///
/// Empty when nothing matched — whether the exchange sent `{}`, `[]` or (for a
/// `clientOrderId` look-up) its "not found" error.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OrderHistory {
    /// The orders of each market, as listed (look one up by its name:
    /// `history.markets.get("BTC_USDT")`).
    pub markets: BTreeMap<Market, Vec<HistoryOrder>>,
}

impl OrderHistory {
    /// Every order, market by market.
    pub fn orders(&self) -> impl Iterator<Item = &HistoryOrder> {
        self.markets.values().flatten()
    }

    /// Every order, market by market, owned.
    pub fn into_orders(self) -> impl Iterator<Item = HistoryOrder> {
        self.markets.into_values().flatten()
    }

    /// Whether no order matched.
    pub fn is_empty(&self) -> bool {
        self.markets.values().all(Vec::is_empty)
    }
}

impl<'de> Deserialize<'de> for OrderHistory {
    /// An object of market → orders (PHP's `[]` for an empty one), each order decoded by the
    /// crate's leniency rule with its market filled in; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = raw.get().trim();
        if text.starts_with('[') {
            let empty: [(); 0] = serde_json::from_str(text).map_err(D::Error::custom)?;
            let [] = empty;
            return Ok(Self::default());
        }
        let markets = grouped(text, |order: &mut HistoryOrder, market| {
            if order.market.as_str().is_empty() {
                order.market.clone_from(market);
            }
        })
        .map_err(D::Error::custom)?;
        Ok(Self { markets })
    }
}

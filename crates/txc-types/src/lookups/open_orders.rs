//! `POST /api/v4/orders`: the account's unexecuted (open) orders, trigger orders included.

use txc_derive::Request;

use super::lookup::lookup_builder;
use crate::errors::{Reason, ValidationError};
use crate::orders::Order;
use crate::page::Page;
use crate::paging::{Paged, Tally};
use crate::values::{ClientOrderId, Market};

/// Lists open orders — limit, stop-limit and resting trigger (stop-market) orders — or looks
/// one up by `orderId` or `clientOrderId` (exact match).
///
/// The exchange searches every market only when no id is given, so a look-up by id needs a
/// market; [`OpenOrdersQueryBuilder::build`] refuses one without. Pages hold 1 to 100 orders
/// (default 50); there is no total: the last page is the one with fewer than `limit` orders.
///
/// ```
/// use txc_types::lookups::OpenOrdersQuery;
/// let mine = OpenOrdersQuery::builder()
///     .market("BTC_USDT")
///     .client_order_id("order-42")
///     .build()?;
/// assert_eq!(serde_json::to_string(&mine).unwrap(), r#"{"market":"BTC_USDT","clientOrderId":"order-42"}"#);
/// let err = OpenOrdersQuery::builder().order_id(7).build().unwrap_err();
/// assert_eq!(err.field(), "orderId");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/orders",
    operation = "open_orders",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<Order>,
    builder = OpenOrdersQueryBuilder,
    check = Self::ids_need_a_market,
)]
pub struct OpenOrdersQuery {
    /// The market filter: only orders of this market.
    #[request(set, text)]
    market: Option<Market>,
    /// The order id filter: only the order with this id (needs a market).
    #[request(get = copy, set)]
    order_id: Option<u64>,
    /// The client order id filter: only the order with this id, an exact match (needs a
    /// market).
    #[request(set, text)]
    client_order_id: Option<ClientOrderId>,
    #[request(page)]
    page: Page<100, 4_294_967_295>,
}

lookup_builder!(
    OpenOrdersQueryBuilder => OpenOrdersQuery,
    "Every open order of every market (first page, 50 orders).",
    "The open order of `market` whose `clientOrderId` is `id`, if there is one."
);

impl OpenOrdersQuery {
    /// The exchange searches every market only when no id is given: an id needs a market.
    fn ids_need_a_market(&self) -> Result<(), ValidationError> {
        if self.market.is_none() {
            for (set, field) in [
                (self.order_id.is_some(), "orderId"),
                (self.client_order_id.is_some(), "clientOrderId"),
            ] {
                if set {
                    return Err(ValidationError::invalid(field, Reason::Requires("market")));
                }
            }
        }
        Ok(())
    }
}

impl Paged for OpenOrdersQuery {
    type Record = Order;
    /// The order's id.
    type Key = u64;
    const DEFAULT_LIMIT: Option<u64> = Some(50);

    fn tally(answer: &Vec<Order>) -> Tally {
        Tally::of(answer.len())
    }

    fn records(&self, answer: Vec<Order>) -> Vec<Order> {
        answer
    }

    fn key(record: &Order) -> u64 {
        record.order_id
    }
}

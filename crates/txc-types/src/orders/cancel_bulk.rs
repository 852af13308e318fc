//! `POST /api/v4/order/cancel/bulk`: cancels up to 100 orders, each answered on its own.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::{CancelOrder, OrderRefusal};
use crate::endpoint::{Visit, WireValue, visit_objects};
use crate::errors::ValidationError;
use crate::page::in_range;
use crate::values::{ClientOrderId, Market};

/// Cancels 1 to 100 orders in one request, each named like a single cancel ([`CancelOrder`]:
/// its market and exactly one of `orderId` / `clientOrderId`). The answer has one item per
/// order, in the request's order ([`BulkCancelItem`]): a result or an error; some may fail
/// while others succeed, and the request is still HTTP 200.
///
/// An order operation: never resent after a failure that leaves its outcome unknown.
///
/// ```
/// use txc_types::orders::{CancelOrder, CancelOrders};
/// let bulk = CancelOrders::new(vec![
///     CancelOrder::by_order_id("BTC_USDT", 4326248250)?,
///     CancelOrder::by_client_order_id("ETH_USDT", "my-client-id")?,
/// ])?;
/// assert_eq!(
///     serde_json::to_string(&bulk).unwrap(),
///     r#"{"orders":[{"market":"BTC_USDT","orderId":4326248250},{"market":"ETH_USDT","clientOrderId":"my-client-id"}]}"#
/// );
/// assert_eq!(CancelOrders::new(Vec::new()).unwrap_err().field(), "orders");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/cancel/bulk",
    operation = "cancel_orders",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Vec<BulkCancelItem>,
)]
pub struct CancelOrders {
    /// The orders, in request order (the answer's order).
    #[request(with = objects)]
    orders: Vec<CancelOrder>,
}

impl CancelOrders {
    /// The most orders one request may cancel.
    pub const MAX_ORDERS: usize = 100;

    /// Cancels `orders`: 1 to [`MAX_ORDERS`](Self::MAX_ORDERS).
    pub fn new(orders: Vec<CancelOrder>) -> Result<Self, ValidationError> {
        in_range("orders", orders.len() as u64, 1, Self::MAX_ORDERS as u64)?;
        Ok(Self { orders })
    }
}

/// Writes the orders as a list of objects, each its market and id.
fn objects<E>(
    orders: &[CancelOrder],
    name: &'static str,
    visit: &mut impl Visit<E>,
) -> Result<(), E> {
    let fields: Vec<[(&str, WireValue<'_>); 2]> = orders
        .iter()
        .map(|o| {
            [
                ("market", WireValue::Str(o.market().as_str())),
                o.target().wire(),
            ]
        })
        .collect();
    visit_objects(name, &fields, visit)
}

/// The answer for one order of a bulk cancel: a [`result`](Self::result) when it was
/// canceled, an [`error`](Self::error) when not ("never both").
///
/// ```
/// let items: Vec<txc_types::orders::BulkCancelItem> = serde_json::from_str(r#"[
///     {"result":{"orderId":4326248250,"clientOrderId":"","market":"BTC_USDT"},"error":null},
///     {"result":null,"error":{"code":404,"message":"Order not found",
///         "errors":{"orderId":["Order does not exist or already cancelled"]}}}]"#)?;
/// assert_eq!(items[0].canceled().and_then(|r| r.order_id), Some(4326248250));
/// let error = items[1].error.as_ref().unwrap();
/// assert_eq!(error.code, Some(404));
/// assert_eq!(error.field_errors()["orderId"], ["Order does not exist or already cancelled"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a bulk cancel item")]
#[non_exhaustive]
pub struct BulkCancelItem {
    /// The canceled order's identifiers, when it was canceled.
    #[answer(with = "crate::lenient::object", always)]
    pub result: Option<CanceledOrder>,
    /// Why it was not, when it was not.
    #[answer(with = "crate::lenient::object", always)]
    pub error: Option<ItemError>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl BulkCancelItem {
    /// The canceled order, when this item was canceled (a result and no error).
    pub fn canceled(&self) -> Option<&CanceledOrder> {
        self.result.as_ref().filter(|_| self.error.is_none())
    }
}

/// An order a bulk cancel canceled: the identifiers echoed from the request (the single
/// cancel gives the order's final state).
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a canceled order object")]
#[non_exhaustive]
pub struct CanceledOrder {
    /// The exchange's order id.
    pub order_id: Option<u64>,
    /// The caller's order id; `None` for `""` or absent.
    #[answer(with = "crate::lenient::empty_is_none")]
    pub client_order_id: Option<ClientOrderId>,
    /// The market, as sent.
    pub market: Option<Market>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Why one order of a bulk request was not canceled or placed: the exchange's error shape,
/// inside the answer. A bulk cancel's item: code 30 for a malformed item, 404 for an order
/// that does not exist or is no longer open, 500 when the trade service could not be reached.
/// A bulk order's item: the order endpoints' codes ([`ItemError::refusal`]).
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "an item error object")]
#[non_exhaustive]
pub struct ItemError {
    /// The exchange's error code.
    pub code: Option<i64>,
    /// The exchange's message.
    pub message: Option<String>,
    /// Messages per field, as sent.
    #[answer(with = "crate::lenient::object")]
    pub errors: Option<Map<String, Value>>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ItemError {
    /// What the code means, when this is an order's refusal (a bulk order's item): see
    /// [`OrderRefusal::from_code`].
    pub fn refusal(&self) -> Option<OrderRefusal> {
        self.code.and_then(OrderRefusal::from_code)
    }

    /// The messages of each field (a lone string counts as one message).
    pub fn field_errors(&self) -> BTreeMap<String, Vec<String>> {
        let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
        self.errors
            .iter()
            .flatten()
            .map(|(field, messages)| {
                let list = match messages {
                    Value::Array(items) => items.iter().map(text).collect(),
                    other => vec![text(other)],
                };
                (field.clone(), list)
            })
            .collect()
    }
}

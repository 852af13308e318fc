//! `POST /api/v4/order/collateral/bulk`: up to 20 collateral limit orders in one request,
//! each answered on its own.

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::{CollateralLimitOrder, ItemError, Order};
use crate::endpoint::{Visit, WireValue, visit_objects};
use crate::errors::{Reason, ValidationError};
use crate::page::in_range;

/// Places 1 to 20 collateral limit orders ([`CollateralLimitOrder`]) in one request. The
/// exchange validates and places each on its own and answers one [`BulkOrderResult`] per
/// order, in the request's order: placed, or refused with its own error — the request is
/// still HTTP 200.
///
/// **Each item carries its own `clientOrderId`** (the builder generates one when none is
/// given), so a lost answer can be resolved item by item; two items of one market may not
/// share one. The items take every field of a limit order but `stp`, which the bulk page does
/// not list: an item with `stp` is refused. The collateral bulk page gives no maximum; the spot
/// bulk page says 1 to 20 orders, and this crate takes 20 ([`MAX_ORDERS`](Self::MAX_ORDERS)).
///
/// `stopOnFail` (`true`): the exchange stops at the first item that fails and processes none
/// after it — the answer may then hold fewer items than the request; [`pair`](Self::pair)
/// says which item each answer belongs to, and which items have none. The bulk page lists
/// code 37 for `ioc` with `rpi` and the field's text 40; the builder refuses the combination
/// either way.
///
/// An order operation: never resent after a failure that leaves its outcome unknown.
///
/// ```
/// use txc_types::orders::{CollateralBulkOrder, CollateralLimitOrder, Side};
/// let quote = |side, price: &str, id: &str| {
///     CollateralLimitOrder::builder("BTC_PERP", side, "0.01", price)
///         .post_only(true)
///         .client_order_id(id)
///         .build()
/// };
/// let bulk = CollateralBulkOrder::new(vec![
///     quote(Side::Buy, "39990", "bid-1")?,
///     quote(Side::Sell, "40010", "ask-1")?,
/// ])?
/// .with_stop_on_fail(true);
/// assert_eq!(
///     serde_json::to_string(&bulk).unwrap(),
///     concat!(
///         r#"{"orders":[{"market":"BTC_PERP","side":"buy","amount":"0.01","price":"39990","postOnly":true,"clientOrderId":"bid-1"},"#,
///         r#"{"market":"BTC_PERP","side":"sell","amount":"0.01","price":"40010","postOnly":true,"clientOrderId":"ask-1"}],"#,
///         r#""stopOnFail":true}"#,
///     )
/// );
/// assert_eq!(CollateralBulkOrder::new(Vec::new()).unwrap_err().field(), "orders");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/order/collateral/bulk",
    operation = "collateral_bulk_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Vec<BulkOrderResult>,
)]
pub struct CollateralBulkOrder {
    /// The orders, in request order (the answer's order).
    #[request(with = objects)]
    orders: Vec<CollateralLimitOrder>,
    /// `stopOnFail`: whether the exchange stops at the first item that fails (`None`: not
    /// sent, the server's default `false`: every item is processed).
    #[request(get = copy)]
    stop_on_fail: Option<bool>,
}

impl CollateralBulkOrder {
    /// The most orders one request may place (the spot bulk page's bound; the collateral page
    /// gives none).
    pub const MAX_ORDERS: usize = 20;

    /// Places `orders`: 1 to [`MAX_ORDERS`](Self::MAX_ORDERS), none with `stp`, no two of one
    /// market with the same `clientOrderId`. A refused item is named by its index
    /// ([`ValidationError::Item`]).
    pub fn new(orders: Vec<CollateralLimitOrder>) -> Result<Self, ValidationError> {
        in_range("orders", orders.len() as u64, 1, Self::MAX_ORDERS as u64)?;
        for (index, order) in orders.iter().enumerate() {
            let fields = order.fields();
            let refused = if fields.stp().is_some() {
                Some(ValidationError::invalid(
                    "stp",
                    Reason::Format("is not taken by a bulk order's items"),
                ))
            } else if orders.iter().take(index).any(|earlier| {
                earlier.fields().market() == fields.market()
                    && earlier.fields().client_order_id() == fields.client_order_id()
            }) {
                Some(ValidationError::invalid(
                    "clientOrderId",
                    Reason::Format("repeats an earlier item's on the same market"),
                ))
            } else {
                None
            };
            if let Some(error) = refused {
                return Err(ValidationError::in_item("orders", index, error));
            }
        }
        Ok(Self {
            orders,
            stop_on_fail: None,
        })
    }

    /// The same request with `stopOnFail` set.
    #[must_use]
    pub fn with_stop_on_fail(mut self, stop_on_fail: bool) -> Self {
        self.stop_on_fail = Some(stop_on_fail);
        self
    }

    /// Each order with its answer, in request order; `None` for an order the answer has no
    /// item for (with `stopOnFail`, the orders after the first failure).
    pub fn pair<'a>(
        &'a self,
        answer: &'a [BulkOrderResult],
    ) -> impl Iterator<Item = (&'a CollateralLimitOrder, Option<&'a BulkOrderResult>)> {
        let mut answers = answer.iter();
        self.orders.iter().map(move |order| (order, answers.next()))
    }
}

/// Writes the orders as a list of objects, each a limit order's body.
fn objects<E>(
    orders: &[CollateralLimitOrder],
    name: &'static str,
    visit: &mut impl Visit<E>,
) -> Result<(), E> {
    let fields: Vec<Vec<(&str, WireValue<'_>)>> = orders
        .iter()
        .map(CollateralLimitOrder::wire_fields)
        .collect();
    visit_objects(name, &fields, visit)
}

/// The answer for one order of a bulk order: placed, refused, or neither readable.
///
/// The exchange's item is `{"result": order, "error": null}` or `{"result": null, "error":
/// {code, message, errors}}`. An item with an error is [`Refused`](Self::Refused) whatever
/// else it holds; one whose `result` is an order record is [`Placed`](Self::Placed). Anything
/// else — a result that is not an order, an item of another shape — is kept as sent in
/// [`Unreadable`](Self::Unreadable): its order's outcome is unknown, never taken for "not
/// placed".
///
/// ```
/// use txc_types::orders::{BulkOrderResult, OrderRefusal};
/// let items: Vec<BulkOrderResult> = serde_json::from_str(r#"[
///     {"result":{"orderId":4326248250,"clientOrderId":"bid-1","market":"BTC_PERP","side":"buy",
///         "type":"limit","timestamp":1684916268.825564,"dealMoney":"0","dealStock":"0",
///         "amount":"0.02","left":"0.02","price":"40000","status":"OPEN"},"error":null},
///     {"result":null,"error":{"code":32,"message":"Validation failed",
///         "errors":{"amount":["Given amount is less than min amount 0.001."]}}}]"#)?;
/// assert_eq!(items[0].placed().map(|o| o.order_id), Some(4326248250));
/// assert_eq!(items[1].refused().and_then(|e| e.refusal()), Some(OrderRefusal::Amount));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BulkOrderResult {
    /// The order was placed: its record.
    Placed(Box<Order>),
    /// The order was refused: the exchange's error for it.
    Refused(ItemError),
    /// Neither an order nor an error could be read; the item as sent.
    Unreadable(Map<String, Value>),
}

impl BulkOrderResult {
    /// The placed order, if this item is one.
    pub fn placed(&self) -> Option<&Order> {
        match self {
            Self::Placed(order) => Some(order),
            _ => None,
        }
    }

    /// The refusal, if this item is one.
    pub fn refused(&self) -> Option<&ItemError> {
        match self {
            Self::Refused(error) => Some(error),
            _ => None,
        }
    }
}

/// A bulk order's item as sent, each part read by the crate's leniency rule.
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a bulk order item")]
struct Item {
    #[answer(with = "crate::lenient::object")]
    result: Option<Order>,
    #[answer(with = "crate::lenient::object")]
    error: Option<ItemError>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

impl<'de> Deserialize<'de> for BulkOrderResult {
    /// By the rule in the type's docs; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let item = Item::deserialize(d)?;
        Ok(match item {
            Item {
                error: Some(error), ..
            } => Self::Refused(error),
            Item {
                result: Some(order),
                ..
            } => Self::Placed(Box::new(order)),
            unreadable => {
                let mut kept = unreadable.extra;
                kept.entry("result").or_insert(Value::Null);
                kept.entry("error").or_insert(Value::Null);
                Self::Unreadable(kept)
            }
        })
    }
}

impl Serialize for BulkOrderResult {
    /// In the exchange's shape: `result` and `error`, one of them `null`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Unreadable(item) => item.serialize(s),
            Self::Placed(order) => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("result", order)?;
                map.serialize_entry("error", &())?;
                map.end()
            }
            Self::Refused(error) => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("result", &())?;
                map.serialize_entry("error", error)?;
                map.end()
            }
        }
    }
}

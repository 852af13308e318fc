//! `POST /api/v4/order/modify`: changes a resting order — by replacing it with a new one.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use txc_derive::Request;

use super::{Order, OrderRef, Stp};
use crate::building::Building;
use crate::endpoint::FieldValue;
use crate::errors::{Reason, ValidationError};
use crate::values::{Amount, ClientOrderId, Market, Price, Total};

/// Changes the amount (or total), price or activation price of a resting limit, stop-limit
/// or stop-market order, found by its `orderId` or its `clientOrderId` (exactly one: the two
/// constructors make "both" and "neither" impossible).
///
/// **The exchange does not change the order: it cancels it and places a replacement with a
/// new `orderId`.** The answer says so in its type ([`Modified::new_order_id`]); the old
/// `orderId` is gone, the `clientOrderId` carries over and stays the stable handle. The spec
/// files the endpoint under spot trading but lists the collateral order types; this crate
/// serves it for collateral orders.
///
/// The builder refuses, before a request exists, a request that changes nothing (none of
/// `amount`, `total`, `price`, `activationPrice`: [`Reason::NeedsOneOf`]) and `amount` with
/// `total` ([`Conflict`](ValidationError::Conflict)); use `total` instead of `amount` for a
/// buy stop-market order. The exchange's own refusals of these have no documented code: this
/// crate reads them as the default validation code, 30
/// ([`OrderRefusal::Validation`](super::OrderRefusal::Validation)), and the sandbox answers
/// that; a missing order is code 2 (`Unexecuted order was not found.`).
///
/// Not idempotent: a modify whose answer is lost is resolved by reading the order by its
/// `clientOrderId`, never resent blindly.
///
/// ```
/// use txc_types::errors::ValidationError;
/// use txc_types::orders::ModifyOrder;
/// let modify = ModifyOrder::by_client_order_id("BTC_USDT", "quote-1")
///     .price("40100")
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&modify).unwrap(),
///     r#"{"clientOrderId":"quote-1","market":"BTC_USDT","price":"40100"}"#
/// );
/// let err = ModifyOrder::by_order_id("BTC_USDT", 4180284841).build().unwrap_err();
/// assert_eq!(err.field(), "amount");
/// # Ok::<(), ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/order/modify",
    operation = "modify_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Modified,
)]
pub struct ModifyOrder {
    /// Which order: its `orderId` or its `clientOrderId`.
    #[request(flatten)]
    target: OrderRef,
    /// The order's market.
    market: Market,
    /// The new amount, in the market's stock currency.
    amount: Option<Amount>,
    /// The new total, in the market's money currency (a buy stop-market order's size).
    total: Option<Total>,
    /// The new limit price.
    price: Option<Price>,
    /// The new activation price (stop orders).
    activation_price: Option<Price>,
    /// The new self-trade prevention mode.
    #[request(get = copy)]
    stp: Option<Stp>,
}

/// Builds a [`ModifyOrder`]: each setter checks its value, and [`build`](Self::build) reports
/// the first value refused — and, when every value passed, the first rule their combination
/// breaks — naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the request"]
pub struct ModifyOrderBuilder(Building<ModifyOrder>);

impl ModifyOrder {
    /// Starts a change of the order of `market` whose `orderId` is `order_id`.
    pub fn by_order_id(market: impl FieldValue<Market>, order_id: u64) -> ModifyOrderBuilder {
        Self::start(OrderRef::in_market(market, Ok(OrderRef::OrderId(order_id))))
    }

    /// Starts a change of the order of `market` whose `clientOrderId` is `id`.
    pub fn by_client_order_id(
        market: impl FieldValue<Market>,
        id: impl FieldValue<ClientOrderId>,
    ) -> ModifyOrderBuilder {
        Self::start(OrderRef::in_market(market, OrderRef::client(id)))
    }

    fn start(named: Result<(Market, OrderRef), ValidationError>) -> ModifyOrderBuilder {
        let request = named.map(|(market, target)| Self {
            market,
            target,
            amount: None,
            total: None,
            price: None,
            activation_price: None,
            stp: None,
        });
        ModifyOrderBuilder(Building::from_result(request))
    }

    /// The rules of the combination: at least one change, not both `amount` and `total`.
    fn check(&self) -> Result<(), ValidationError> {
        if self.amount.is_some() && self.total.is_some() {
            return Err(ValidationError::Conflict {
                field: "total",
                other: "amount",
            });
        }
        if self.amount.is_none()
            && self.total.is_none()
            && self.price.is_none()
            && self.activation_price.is_none()
        {
            return Err(ValidationError::invalid(
                "amount",
                Reason::NeedsOneOf(&["amount", "total", "price", "activationPrice"]),
            ));
        }
        Ok(())
    }
}

impl ModifyOrderBuilder {
    fn set(self, apply: impl FnOnce(&mut ModifyOrder) -> Result<(), ValidationError>) -> Self {
        Self(self.0.set(apply))
    }

    /// Sets the new `amount` (stock currency); not with `total`.
    pub fn amount(self, amount: impl FieldValue<Amount>) -> Self {
        self.set(|r| {
            r.amount = Some(amount.into_field("amount")?);
            Ok(())
        })
    }

    /// Sets the new `total` (money currency), a buy stop-market order's size; not with
    /// `amount`.
    pub fn total(self, total: impl FieldValue<Total>) -> Self {
        self.set(|r| {
            r.total = Some(total.into_field("total")?);
            Ok(())
        })
    }

    /// Sets the new limit `price`.
    pub fn price(self, price: impl FieldValue<Price>) -> Self {
        self.set(|r| {
            r.price = Some(price.into_field("price")?);
            Ok(())
        })
    }

    /// Sets the new `activationPrice` of a stop order.
    pub fn activation_price(self, price: impl FieldValue<Price>) -> Self {
        self.set(|r| {
            r.activation_price = Some(price.into_field("activationPrice")?);
            Ok(())
        })
    }

    /// Sets the self-trade prevention mode `stp`.
    pub fn stp(self, stp: Stp) -> Self {
        self.set(|r| {
            r.stp = Some(stp);
            Ok(())
        })
    }

    /// Returns the request, or the first value refused, or the first rule the combination
    /// breaks.
    pub fn build(self) -> Result<ModifyOrder, ValidationError> {
        let request = self.0.finish()?;
        request.check()?;
        Ok(request)
    }
}

/// What a modify answers: **a replacement order with a new `orderId`**. The order that was
/// modified no longer exists under its old id (the event stream reports it canceled, and the
/// replacement new); update every reference to the old id, or track the order by its
/// `clientOrderId`, which carries over.
///
/// ```
/// use txc_types::orders::Modified;
/// let answer: Modified = serde_json::from_str(r#"{"orderId":4180284999,"clientOrderId":"quote-1",
///     "market":"BTC_USDT","side":"buy","type":"limit","timestamp":1595792396.165973,
///     "dealMoney":"0","dealStock":"0","amount":"0.01","left":"0.01","price":"40100","status":"OPEN"}"#)?;
/// assert_eq!(answer.new_order_id, 4180284999);
/// assert_eq!(answer.replacement.price.as_ref().map(|p| p.as_str()), Some("40100"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Modified {
    /// The replacement's `orderId` — a new id, not the modified order's.
    pub new_order_id: u64,
    /// The replacement order's record (its `order_id` is [`new_order_id`](Self::new_order_id)).
    pub replacement: Order,
}

impl<'de> Deserialize<'de> for Modified {
    /// The replacement's order record; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let replacement = Order::deserialize(d)?;
        Ok(Self {
            new_order_id: replacement.order_id,
            replacement,
        })
    }
}

impl Serialize for Modified {
    /// As the exchange wrote it: the replacement's record.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.replacement.serialize(s)
    }
}

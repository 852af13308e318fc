//! `POST /api/v4/order/collateral/limit`: the collateral limit order.

use std::convert::Infallible;

use txc_derive::Request;

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{BodyFields, FieldValue, ToWire, Visit, WireValue};
use crate::errors::ValidationError;
use crate::values::{Amount, Market, Price};

/// A limit order on the collateral (margin or futures) account: it executes at `price` or
/// better, and what does not execute at once rests on the book (unless `ioc`).
///
/// Besides the fields every collateral order takes (`clientOrderId`, `stopLoss` /
/// `takeProfit`, `positionSide`, `reduceOnly`, `stp`), it has its price and three flags
/// ([`LimitTerms`]): `postOnly` (maker only: refused if it would take), `ioc` (immediate or
/// cancel) and `rpi` (Retail Price Improvement, post-only by design). The builder refuses what
/// the exchange refuses of their combinations, before a request exists:
///
/// | combination | error | the exchange's code |
/// |---|---|---|
/// | `ioc` and `postOnly` both `true` | [`Conflict`](ValidationError::Conflict) `ioc` / `postOnly` | 37 |
/// | `ioc` and `rpi` both `true` | [`Conflict`](ValidationError::Conflict) `ioc` / `rpi` | 40 |
/// | `reduceOnly` `true` with `stopLoss` or `takeProfit` | [`Conflict`](ValidationError::Conflict) `reduceOnly` / … | 30 |
///
/// `rpi` with `postOnly` is allowed: an RPI order is post-only anyway. Whether the account may
/// place RPI orders (code 43) only the exchange knows. A post-only order that would take is
/// refused by the exchange with no documented code of its own: this crate reads it as the
/// default validation code, 30 ([`OrderRefusal::Validation`](super::OrderRefusal::Validation)),
/// and the sandbox answers that.
///
/// The answer is the order ([`Order`]). The spec's status enum for it (`FILLED`,
/// `PARTIALLY_FILLED`, `CANCELED`) has no value for an order resting unfilled; the OCO
/// listings and the sandbox answer `OPEN` ([`OrderStatus::Open`](super::OrderStatus::Open)),
/// and any other status is read too ([`OrderStatus::Unknown`](super::OrderStatus::Unknown)).
///
/// ```
/// use txc_types::errors::ValidationError;
/// use txc_types::orders::{CollateralLimitOrder, Side};
/// let order = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "40000")
///     .post_only(true)
///     .client_order_id("quote-1")
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&order).unwrap(),
///     r#"{"market":"BTC_USDT","side":"buy","amount":"0.01","price":"40000","postOnly":true,"clientOrderId":"quote-1"}"#
/// );
/// let err = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "40000")
///     .post_only(true)
///     .ioc(true)
///     .build()
///     .unwrap_err();
/// assert_eq!(err, ValidationError::Conflict { field: "ioc", other: "postOnly" });
/// # Ok::<(), ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/collateral/limit",
    operation = "collateral_limit_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Order,
    fields = manual,
)]
pub struct CollateralLimitOrder {
    #[request(get = none)]
    fields: OrderFields,
    /// The price and flags of the limit order.
    terms: LimitTerms,
}

/// A limit order's own values: its price and flags, sent right after `amount`.
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(part, fields = manual)]
pub struct LimitTerms {
    /// The limit price in the market's money currency.
    price: Price,
    /// `postOnly`: maker only — the exchange refuses the order if it would take (`None`: not
    /// sent, the server's default `false`).
    #[request(get = copy)]
    post_only: Option<bool>,
    /// `ioc`: immediate or cancel — what does not execute at once is canceled (`None`: not
    /// sent, the server's default `false`).
    #[request(get = copy)]
    ioc: Option<bool>,
    /// `rpi`: a Retail Price Improvement order, post-only by design (`None`: not sent, the
    /// server's default `false`).
    #[request(get = copy)]
    rpi: Option<bool>,
}

impl LimitTerms {
    /// Terms at `price`, no flag sent.
    pub(crate) fn at(price: Price) -> Self {
        Self {
            price,
            post_only: None,
            ioc: None,
            rpi: None,
        }
    }

    /// Visits the fields in wire order: `price`, then each flag that is set. (By hand, generic
    /// over the values' lifetime, so that a bulk order can keep its items' fields.)
    #[inline]
    fn walk<'a, E>(
        &'a self,
        visit: &mut impl FnMut(&'static str, WireValue<'a>) -> Result<(), E>,
    ) -> Result<(), E> {
        visit("price", self.price.to_wire())?;
        for (name, flag) in [
            ("postOnly", self.post_only),
            ("ioc", self.ioc),
            ("rpi", self.rpi),
        ] {
            if let Some(flag) = flag {
                visit(name, WireValue::Bool(flag))?;
            }
        }
        Ok(())
    }

    /// The exchange's rules of the flags' combinations: `ioc` with neither `postOnly` (code
    /// 37) nor `rpi` (code 40).
    pub(crate) fn check(&self) -> Result<(), ValidationError> {
        if self.ioc == Some(true) {
            for (set, other) in [(self.post_only, "postOnly"), (self.rpi, "rpi")] {
                if set == Some(true) {
                    return Err(ValidationError::Conflict {
                        field: "ioc",
                        other,
                    });
                }
            }
        }
        Ok(())
    }
}

impl CollateralLimitOrder {
    /// Starts a limit order for `market`, `side`, `amount` (stock currency) at `price` (money
    /// currency).
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        price: impl FieldValue<Price>,
    ) -> OrderBuilder<Self> {
        OrderBuilder::new(market, side, amount, || {
            price.into_field("price").map(LimitTerms::at)
        })
    }

    /// The validated order fields shared with the other collateral orders.
    pub fn fields(&self) -> &OrderFields {
        &self.fields
    }
}

impl OrderBuilder<CollateralLimitOrder> {
    /// Sets `postOnly`: `true` makes the order maker only (refused if it would take).
    pub fn post_only(self, post_only: bool) -> Self {
        self.set_required(|terms| {
            terms.post_only = Some(post_only);
            Ok(())
        })
    }

    /// Sets `ioc`: `true` cancels what does not execute at once. Not with `postOnly` or `rpi`.
    pub fn ioc(self, ioc: bool) -> Self {
        self.set_required(|terms| {
            terms.ioc = Some(ioc);
            Ok(())
        })
    }

    /// Sets `rpi`: `true` makes it a Retail Price Improvement order (post-only). Not with
    /// `ioc`.
    pub fn rpi(self, rpi: bool) -> Self {
        self.set_required(|terms| {
            terms.rpi = Some(rpi);
            Ok(())
        })
    }
}

impl NewOrder for CollateralLimitOrder {
    fn is_trigger(&self) -> bool {
        true
    }
}

impl BuildableOrder for CollateralLimitOrder {
    type Required = LimitTerms;
    fn assemble(fields: OrderFields, terms: LimitTerms) -> Self {
        Self { fields, terms }
    }
    fn parts(&self) -> (&OrderFields, &Self::Required) {
        (&self.fields, &self.terms)
    }
    fn check(terms: &LimitTerms) -> Result<(), ValidationError> {
        terms.check()
    }
}

impl CollateralLimitOrder {
    /// The body fields in wire order, kept: what a bulk order's item is.
    pub(crate) fn wire_fields(&self) -> Vec<(&'static str, WireValue<'_>)> {
        let mut fields = Vec::new();
        let mut push = |name, value| {
            fields.push((name, value));
            Ok::<(), Infallible>(())
        };
        match self.walk(&mut push) {
            Ok(()) => fields,
            Err(never) => match never {},
        }
    }

    /// Visits the body fields in wire order, generic over the values' lifetime.
    #[inline]
    fn walk<'a, E>(
        &'a self,
        visit: &mut impl FnMut(&'static str, WireValue<'a>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.fields
            .visit_fields(visit, |visit| self.terms.walk(visit))
    }
}

impl BodyFields for LimitTerms {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.walk(visit)
    }
}

impl BodyFields for CollateralLimitOrder {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.walk(visit)
    }
}

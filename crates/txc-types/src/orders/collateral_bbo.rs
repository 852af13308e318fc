//! The collateral BBO orders: a limit order priced from the best bid or offer
//! ([`CollateralBboOrder`], `POST /api/v4/order/collateral/limit` with `bboRole`) and its
//! triggered twin ([`CollateralStopBboOrder`], `POST /api/v4/order/collateral/stop-limit` with
//! `bboRole`), with [`BboRole`].

use txc_derive::Request;

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{BodyFields, FieldValue, ToWire, Visit, WireValue};
use crate::errors::ValidationError;
use crate::values::{Amount, Market, Price};

/// How a BBO order takes its price: `bboRole` on the wire, `1` or `2`.
///
/// ```
/// use txc_types::orders::BboRole;
/// assert_eq!(BboRole::Maker.code(), 1);
/// assert_eq!(BboRole::from_code(2), Some(BboRole::Taker));
/// assert_eq!(BboRole::from_code(3), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BboRole {
    /// `1`, the queue method: priced at the own side's best, post-only (maker).
    Maker,
    /// `2`, the counterparty method: priced at the opposite side's best, crossing the spread
    /// (taker); the only role `ioc` may go with.
    Taker,
}

impl BboRole {
    /// The wire code: `1` maker, `2` taker.
    pub const fn code(self) -> u64 {
        match self {
            Self::Maker => 1,
            Self::Taker => 2,
        }
    }

    /// The role of a wire code; `None` outside `1..=2`.
    pub const fn from_code(code: u64) -> Option<Self> {
        match code {
            1 => Some(Self::Maker),
            2 => Some(Self::Taker),
            _ => None,
        }
    }
}

impl ToWire for BboRole {
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Int(self.code())
    }
}

/// A BBO order's own values: its role and the `ioc` flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BboTerms {
    role: BboRole,
    ioc: Option<bool>,
}

impl BboTerms {
    /// The pricing role.
    pub fn role(&self) -> BboRole {
        self.role
    }
    /// `ioc`, if set.
    pub fn ioc(&self) -> Option<bool> {
        self.ioc
    }

    /// `ioc` only with the taker role: a maker BBO order is post-only, and the exchange refuses
    /// `ioc` with post-only on both transports.
    fn check(&self) -> Result<(), ValidationError> {
        if self.ioc == Some(true) && self.role == BboRole::Maker {
            return Err(ValidationError::Conflict {
                field: "ioc",
                other: "bboRole",
            });
        }
        Ok(())
    }

    #[inline]
    fn walk<'a, E>(
        &'a self,
        visit: &mut impl FnMut(&'static str, WireValue<'a>) -> Result<(), E>,
    ) -> Result<(), E> {
        visit("bboRole", self.role.to_wire())?;
        if let Some(ioc) = self.ioc {
            visit("ioc", WireValue::Bool(ioc))?;
        }
        Ok(())
    }
}

/// A collateral limit order priced by the exchange from the best bid or offer: `bboRole`
/// instead of a price ([`BboRole`]). The same order goes over REST (the limit order's path,
/// which takes `bboRole` in place of `price`) and over the WebSocket
/// (`collateral_order_bbo_place`, see [`crate::socket`]).
///
/// `ioc` goes only with the taker role (a maker BBO order is post-only):
///
/// ```
/// use txc_types::orders::{BboRole, CollateralBboOrder, Side};
/// let order = CollateralBboOrder::builder("BTC_PERP", Side::Buy, "0.001", BboRole::Taker)
///     .ioc(true)
///     .client_order_id("bbo-1")
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&order).unwrap(),
///     r#"{"market":"BTC_PERP","side":"buy","amount":"0.001","bboRole":2,"ioc":true,"clientOrderId":"bbo-1"}"#
/// );
/// let err = CollateralBboOrder::builder("BTC_PERP", Side::Buy, "0.001", BboRole::Maker)
///     .ioc(true)
///     .build()
///     .unwrap_err();
/// assert_eq!(err.field(), "ioc");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/collateral/limit",
    operation = "collateral_bbo_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Order,
    fields = manual,
)]
pub struct CollateralBboOrder {
    #[request(get = none)]
    fields: OrderFields,
    /// The pricing role and `ioc`.
    terms: BboTerms,
}

/// A collateral BBO order placed once the market reaches `activation_price`: the stop-limit
/// order's path with `bboRole` in place of `price` over REST, `collateral_order_stop_bbo_place`
/// over the WebSocket.
///
/// ```
/// use txc_types::orders::{BboRole, CollateralStopBboOrder, Side};
/// let order = CollateralStopBboOrder::builder("BTC_PERP", Side::Sell, "0.001", "63385.76", BboRole::Maker)
///     .client_order_id("sbbo-1")
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&order).unwrap(),
///     r#"{"market":"BTC_PERP","side":"sell","amount":"0.001","activation_price":"63385.76","bboRole":1,"clientOrderId":"sbbo-1"}"#
/// );
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/collateral/stop-limit",
    operation = "collateral_stop_bbo_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Order,
    fields = manual,
)]
pub struct CollateralStopBboOrder {
    #[request(get = none)]
    fields: OrderFields,
    /// The activation price, the pricing role and `ioc`.
    terms: StopBboTerms,
}

/// A stop-BBO order's own values: the activation price and the BBO terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopBboTerms {
    activation_price: Price,
    bbo: BboTerms,
}

impl StopBboTerms {
    /// The price that activates the order.
    pub fn activation_price(&self) -> &Price {
        &self.activation_price
    }
    /// The pricing role and `ioc`.
    pub fn bbo(&self) -> &BboTerms {
        &self.bbo
    }
}

impl CollateralBboOrder {
    /// Starts a BBO order for `market`, `side` and `amount` (stock currency), priced by `role`.
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        role: BboRole,
    ) -> OrderBuilder<Self> {
        OrderBuilder::new(market, side, amount, || Ok(BboTerms { role, ioc: None }))
    }

    /// The validated order fields shared with the other collateral orders.
    pub fn fields(&self) -> &OrderFields {
        &self.fields
    }
}

impl OrderBuilder<CollateralBboOrder> {
    /// Sets `ioc`: `true` cancels what does not execute at once. Only with [`BboRole::Taker`].
    pub fn ioc(self, ioc: bool) -> Self {
        self.set_required(|terms| {
            terms.ioc = Some(ioc);
            Ok(())
        })
    }
}

impl CollateralStopBboOrder {
    /// Starts a stop-BBO order for `market`, `side` and `amount`, priced by `role` once the
    /// market reaches `activation_price`.
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        activation_price: impl FieldValue<Price>,
        role: BboRole,
    ) -> OrderBuilder<Self> {
        OrderBuilder::new(market, side, amount, || {
            Ok(StopBboTerms {
                activation_price: activation_price.into_field("activation_price")?,
                bbo: BboTerms { role, ioc: None },
            })
        })
    }

    /// The validated order fields shared with the other collateral orders.
    pub fn fields(&self) -> &OrderFields {
        &self.fields
    }
}

impl NewOrder for CollateralBboOrder {
    fn is_trigger(&self) -> bool {
        true
    }
}

impl NewOrder for CollateralStopBboOrder {
    fn is_trigger(&self) -> bool {
        true
    }
}

impl BuildableOrder for CollateralBboOrder {
    type Required = BboTerms;
    fn assemble(fields: OrderFields, terms: BboTerms) -> Self {
        Self { fields, terms }
    }
    fn parts(&self) -> (&OrderFields, &Self::Required) {
        (&self.fields, &self.terms)
    }
    fn check(terms: &BboTerms) -> Result<(), ValidationError> {
        terms.check()
    }
}

impl BuildableOrder for CollateralStopBboOrder {
    type Required = StopBboTerms;
    fn assemble(fields: OrderFields, terms: StopBboTerms) -> Self {
        Self { fields, terms }
    }
    fn parts(&self) -> (&OrderFields, &Self::Required) {
        (&self.fields, &self.terms)
    }
    fn check(terms: &StopBboTerms) -> Result<(), ValidationError> {
        terms.bbo.check()
    }
}

impl BodyFields for CollateralBboOrder {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.fields
            .visit_fields(visit, |visit| self.terms.walk(visit))
    }
}

impl BodyFields for CollateralStopBboOrder {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.fields.visit_fields(visit, |visit| {
            visit("activation_price", self.terms.activation_price.to_wire())?;
            self.terms.bbo.walk(visit)
        })
    }
}

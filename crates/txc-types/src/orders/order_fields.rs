//! The fields the collateral order requests share, and the builder that validates them.
//!
//! This module is not an endpoint by itself: see [`CollateralMarketOrder`](super::CollateralMarketOrder),
//! [`CollateralTriggerMarketOrder`](super::CollateralTriggerMarketOrder),
//! [`CollateralLimitOrder`](super::CollateralLimitOrder) and
//! [`CollateralStopLimitOrder`](super::CollateralStopLimitOrder).

use super::{Order, PositionSide, Side, Stp};
use crate::building::Building;
use crate::endpoint::{Endpoint, FieldValue, ToWire, WireValue};
use crate::errors::ValidationError;
use crate::values::{Amount, ClientOrderId, ClientOrderIds, Market, Price};

/// The validated fields the collateral market, trigger market, limit and stop-limit orders
/// share.
///
/// Every built order has its `clientOrderId`: the caller's, or one generated when the order
/// was built ([`ClientOrderIds::process`]) — so the caller holds the id that finds the order
/// before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFields {
    client_order_id: ClientOrderId,
    terms: Terms,
}

/// The fields other than the `clientOrderId`, as the builder collects them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Terms {
    market: Market,
    side: Side,
    amount: Amount,
    stop_loss: Option<Price>,
    take_profit: Option<Price>,
    position_side: Option<PositionSide>,
    reduce_only: Option<bool>,
    stp: Option<Stp>,
}

impl OrderFields {
    /// The same fields with `clientOrderId` set to `id`.
    pub(crate) fn with_client_order_id(&self, id: ClientOrderId) -> Self {
        Self {
            client_order_id: id,
            terms: self.terms.clone(),
        }
    }

    /// The market, e.g. `BTC_USDT`.
    pub fn market(&self) -> &Market {
        &self.terms.market
    }
    /// Buy or sell.
    pub fn side(&self) -> Side {
        self.terms.side
    }
    /// The amount in the market's stock currency.
    pub fn amount(&self) -> &Amount {
        &self.terms.amount
    }
    /// The order's `clientOrderId`: the caller's, or the one generated when it was built.
    pub fn client_order_id(&self) -> &ClientOrderId {
        &self.client_order_id
    }
    /// The stop-loss price, if set.
    pub fn stop_loss(&self) -> Option<&Price> {
        self.terms.stop_loss.as_ref()
    }
    /// The take-profit price, if set.
    pub fn take_profit(&self) -> Option<&Price> {
        self.terms.take_profit.as_ref()
    }
    /// The position side, if set.
    pub fn position_side(&self) -> Option<PositionSide> {
        self.terms.position_side
    }
    /// Whether the order may only reduce a position (`None`: not sent, server default false).
    pub fn reduce_only(&self) -> Option<bool> {
        self.terms.reduce_only
    }
    /// The self-trade prevention mode, if set.
    pub fn stp(&self) -> Option<Stp> {
        self.terms.stp
    }

    /// Visits the fields in wire order: `market`, `side`, `amount`, then the order type's own
    /// fields (`own`: a trigger order's `activation_price`, a limit order's `price` and
    /// flags), then the shared optional ones. (Written by hand: the orders share these fields
    /// with their own inside them, which a field walk in declaration order cannot place.)
    ///
    /// Inlined so that a body writer sees the field names as constants.
    ///
    /// Generic over the values' lifetime, so that a caller can keep them (a bulk order's
    /// items); any [`Visit`](crate::endpoint::Visit) visitor fits.
    #[inline]
    pub(crate) fn visit_fields<'a, E, V: FnMut(&'static str, WireValue<'a>) -> Result<(), E>>(
        &'a self,
        visit: &mut V,
        own: impl FnOnce(&mut V) -> Result<(), E>,
    ) -> Result<(), E> {
        let terms = &self.terms;
        visit("market", terms.market.to_wire())?;
        visit("side", terms.side.to_wire())?;
        visit("amount", terms.amount.to_wire())?;
        own(visit)?;
        visit("clientOrderId", self.client_order_id.to_wire())?;
        if let Some(price) = &terms.stop_loss {
            visit("stopLoss", price.to_wire())?;
        }
        if let Some(price) = &terms.take_profit {
            visit("takeProfit", price.to_wire())?;
        }
        if let Some(side) = &terms.position_side {
            visit("positionSide", side.to_wire())?;
        }
        if let Some(flag) = &terms.reduce_only {
            visit("reduceOnly", flag.to_wire())?;
        }
        if let Some(stp) = &terms.stp {
            visit("stp", stp.to_wire())?;
        }
        Ok(())
    }
}

/// A request that places one order — [`CollateralMarketOrder`](super::CollateralMarketOrder),
/// [`CollateralTriggerMarketOrder`](super::CollateralTriggerMarketOrder),
/// [`CollateralLimitOrder`](super::CollateralLimitOrder) or
/// [`CollateralStopLimitOrder`](super::CollateralStopLimitOrder) (sealed) — as the client's
/// reconciliation sees it: its market and `clientOrderId`, whether it may rest, and the same
/// order under another `clientOrderId`.
pub trait NewOrder: BuildableOrder + Endpoint<Response = Order> + Clone {
    /// The validated fields.
    fn fields(&self) -> &OrderFields {
        self.parts().0
    }
    /// The same order with `clientOrderId` set to `id`.
    fn with_client_order_id(&self, id: ClientOrderId) -> Self {
        let (fields, required) = self.parts();
        Self::assemble(fields.with_client_order_id(id), required.clone())
    }
    /// Whether it may rest unexecuted, and with a stop-loss or take-profit make an OTO group
    /// the exchange lists among the conditional orders — so that resolving a lost answer
    /// looks there too: `true` for the trigger, limit and stop-limit orders, `false` for a
    /// market order.
    fn is_trigger(&self) -> bool;
}

/// An order type the [`OrderBuilder`] can finish: the collateral market, trigger market,
/// limit and stop-limit orders (sealed).
pub trait BuildableOrder: crate::sealed::Sealed + Sized {
    /// Values beyond the shared fields (`()`, the activation price, a limit order's price and
    /// flags).
    type Required: Clone + std::fmt::Debug;
    /// Assembles the order from validated parts.
    fn assemble(fields: OrderFields, required: Self::Required) -> Self;
    /// The parts it was assembled from.
    fn parts(&self) -> (&OrderFields, &Self::Required);
    /// The rules of the order type's own values in combination, checked by
    /// [`OrderBuilder::build`] after the shared ones; none by default.
    fn check(required: &Self::Required) -> Result<(), ValidationError> {
        let _ = required;
        Ok(())
    }
}

/// Builds a collateral order: required fields in the constructor, optional ones by setter,
/// every rule checked by [`OrderBuilder::build`] before a request value exists.
///
/// Setters take a validated value or its text; the first invalid value is reported, naming its
/// wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the order"]
pub struct OrderBuilder<O: BuildableOrder>(Building<Draft<O::Required>>);

/// What the builder has collected.
#[derive(Debug, Clone)]
struct Draft<R> {
    terms: Terms,
    client_order_id: Option<ClientOrderId>,
    required: R,
}

impl<O: BuildableOrder> OrderBuilder<O> {
    pub(crate) fn new(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        required: impl FnOnce() -> Result<O::Required, ValidationError>,
    ) -> Self {
        let draft = (|| {
            let terms = Terms {
                market: market.into_field("market")?,
                side,
                amount: amount.into_field("amount")?,
                stop_loss: None,
                take_profit: None,
                position_side: None,
                reduce_only: None,
                stp: None,
            };
            Ok(Draft {
                terms,
                client_order_id: None,
                required: required()?,
            })
        })();
        Self(Building::from_result(draft))
    }

    fn set(
        self,
        apply: impl FnOnce(&mut Draft<O::Required>) -> Result<(), ValidationError>,
    ) -> Self {
        Self(self.0.set(apply))
    }

    /// Applies `apply` to the order type's own values, unless a value was refused already.
    pub(crate) fn set_required(
        self,
        apply: impl FnOnce(&mut O::Required) -> Result<(), ValidationError>,
    ) -> Self {
        self.set(|d| apply(&mut d.required))
    }

    /// Sets `clientOrderId`: letters, digits, `-`, `.`, `_`, 1 to 64 characters. Without one,
    /// [`build`](Self::build) generates one ([`ClientOrderIds::process`]).
    pub fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self {
        self.set(|d| {
            d.client_order_id = Some(id.into_field("clientOrderId")?);
            Ok(())
        })
    }

    /// Sets `stopLoss`; with `takeProfit` it makes an OTO order.
    pub fn stop_loss(self, price: impl FieldValue<Price>) -> Self {
        self.set(|d| {
            d.terms.stop_loss = Some(price.into_field("stopLoss")?);
            Ok(())
        })
    }

    /// Sets `takeProfit`.
    pub fn take_profit(self, price: impl FieldValue<Price>) -> Self {
        self.set(|d| {
            d.terms.take_profit = Some(price.into_field("takeProfit")?);
            Ok(())
        })
    }

    /// Sets `positionSide` (`LONG`/`SHORT` in hedge mode).
    pub fn position_side(self, side: PositionSide) -> Self {
        self.set(|d| {
            d.terms.position_side = Some(side);
            Ok(())
        })
    }

    /// Sets `reduceOnly`; may not be combined with a stop-loss or take-profit.
    pub fn reduce_only(self, reduce_only: bool) -> Self {
        self.set(|d| {
            d.terms.reduce_only = Some(reduce_only);
            Ok(())
        })
    }

    /// Sets the self-trade prevention mode `stp`.
    pub fn stp(self, stp: Stp) -> Self {
        self.set(|d| {
            d.terms.stp = Some(stp);
            Ok(())
        })
    }

    /// Checks every rule and returns the order, or the first problem found. An order without
    /// a `clientOrderId` gets one here, from the process-wide generator
    /// ([`ClientOrderIds::process`]): the id is the caller's before anything is sent.
    pub fn build(self) -> Result<O, ValidationError> {
        let Draft {
            terms,
            client_order_id,
            required,
        } = self.0.finish()?;
        if terms.reduce_only == Some(true) {
            let other = if terms.stop_loss.is_some() {
                Some("stopLoss")
            } else if terms.take_profit.is_some() {
                Some("takeProfit")
            } else {
                None
            };
            if let Some(other) = other {
                return Err(ValidationError::Conflict {
                    field: "reduceOnly",
                    other,
                });
            }
        }
        O::check(&required)?;
        let client_order_id = client_order_id.unwrap_or_else(|| ClientOrderIds::process().next());
        let fields = OrderFields {
            client_order_id,
            terms,
        };
        Ok(O::assemble(fields, required))
    }
}

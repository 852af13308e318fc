//! The fields both collateral order requests share, and the builder that validates them.
//!
//! This module is not an endpoint by itself: see [`CollateralMarketOrder`](super::CollateralMarketOrder)
//! and [`CollateralTriggerMarketOrder`](super::CollateralTriggerMarketOrder).

use super::{Order, PositionSide, Side, Stp};
use crate::endpoint::{Endpoint, FieldValue, WireValue};
use crate::errors::ValidationError;
use crate::values::{Amount, ClientOrderId, Market, Price};

/// The validated fields shared by the collateral market and trigger market orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFields {
    market: Market,
    side: Side,
    amount: Amount,
    client_order_id: Option<ClientOrderId>,
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
            client_order_id: Some(id),
            ..self.clone()
        }
    }

    /// The market, e.g. `BTC_USDT`.
    pub fn market(&self) -> &Market {
        &self.market
    }
    /// Buy or sell.
    pub fn side(&self) -> Side {
        self.side
    }
    /// The amount in the market's stock currency.
    pub fn amount(&self) -> &Amount {
        &self.amount
    }
    /// The caller-chosen order id, if set.
    pub fn client_order_id(&self) -> Option<&ClientOrderId> {
        self.client_order_id.as_ref()
    }
    /// The stop-loss price, if set.
    pub fn stop_loss(&self) -> Option<&Price> {
        self.stop_loss.as_ref()
    }
    /// The take-profit price, if set.
    pub fn take_profit(&self) -> Option<&Price> {
        self.take_profit.as_ref()
    }
    /// The position side, if set.
    pub fn position_side(&self) -> Option<PositionSide> {
        self.position_side
    }
    /// Whether the order may only reduce a position (`None`: not sent, server default false).
    pub fn reduce_only(&self) -> Option<bool> {
        self.reduce_only
    }
    /// The self-trade prevention mode, if set.
    pub fn stp(&self) -> Option<Stp> {
        self.stp
    }

    /// Visits the fields in wire order; `activation_price` goes right after `amount`.
    ///
    /// Inlined so that a body writer sees the field names as constants.
    #[inline]
    pub(crate) fn try_for_each_field<E>(
        &self,
        activation_price: Option<&Price>,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        visit("market", WireValue::Str(self.market.as_str()))?;
        visit("side", WireValue::Str(self.side.as_str()))?;
        visit("amount", WireValue::Str(self.amount.as_str()))?;
        if let Some(p) = activation_price {
            visit("activation_price", WireValue::Str(p.as_str()))?;
        }
        if let Some(v) = &self.client_order_id {
            visit("clientOrderId", WireValue::Str(v.as_str()))?;
        }
        if let Some(v) = &self.stop_loss {
            visit("stopLoss", WireValue::Str(v.as_str()))?;
        }
        if let Some(v) = &self.take_profit {
            visit("takeProfit", WireValue::Str(v.as_str()))?;
        }
        if let Some(v) = self.position_side {
            visit("positionSide", WireValue::Str(v.as_str()))?;
        }
        if let Some(v) = self.reduce_only {
            visit("reduceOnly", WireValue::Bool(v))?;
        }
        if let Some(v) = self.stp {
            visit("stp", WireValue::Str(v.as_str()))?;
        }
        Ok(())
    }
}

/// A request that places an order — [`CollateralMarketOrder`](super::CollateralMarketOrder) or
/// [`CollateralTriggerMarketOrder`](super::CollateralTriggerMarketOrder) (sealed) — as the client's reconciliation sees it:
/// its market and `clientOrderId`, and the same order under another `clientOrderId`.
pub trait NewOrder: crate::sealed::Sealed + Endpoint<Response = Order> + Clone {
    /// The validated fields.
    fn fields(&self) -> &OrderFields;
    /// The same order with `clientOrderId` set to `id`.
    fn with_client_order_id(&self, id: ClientOrderId) -> Self;
}

/// An order type the [`OrderBuilder`] can finish: the two collateral orders (sealed).
pub trait BuildableOrder: crate::sealed::Sealed + Sized {
    /// Required values beyond the shared fields (`()` or the activation price).
    type Required: Clone + std::fmt::Debug;
    /// Assembles the order from validated parts.
    fn assemble(fields: OrderFields, required: Self::Required) -> Self;
}

/// Builds a collateral order: required fields in the constructor, optional ones by setter,
/// every rule checked by [`OrderBuilder::build`] before a request value exists.
///
/// Setters take a validated value or its text; the first invalid value is reported, naming its
/// wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the order"]
pub struct OrderBuilder<O: BuildableOrder> {
    state: Result<(OrderFields, O::Required), ValidationError>,
}

impl<O: BuildableOrder> OrderBuilder<O> {
    pub(crate) fn new(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        required: impl FnOnce() -> Result<O::Required, ValidationError>,
    ) -> Self {
        let state = (|| {
            let fields = OrderFields {
                market: market.into_field("market")?,
                side,
                amount: amount.into_field("amount")?,
                client_order_id: None,
                stop_loss: None,
                take_profit: None,
                position_side: None,
                reduce_only: None,
                stp: None,
            };
            Ok((fields, required()?))
        })();
        Self { state }
    }

    fn set(mut self, apply: impl FnOnce(&mut OrderFields) -> Result<(), ValidationError>) -> Self {
        if let Ok((fields, _)) = &mut self.state
            && let Err(e) = apply(fields)
        {
            self.state = Err(e);
        }
        self
    }

    /// Sets `clientOrderId`: letters, digits, `-`, `.`, `_`, 1 to 64 characters.
    pub fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self {
        self.set(|f| {
            f.client_order_id = Some(id.into_field("clientOrderId")?);
            Ok(())
        })
    }

    /// Sets `stopLoss`; with `takeProfit` it makes an OTO order.
    pub fn stop_loss(self, price: impl FieldValue<Price>) -> Self {
        self.set(|f| {
            f.stop_loss = Some(price.into_field("stopLoss")?);
            Ok(())
        })
    }

    /// Sets `takeProfit`.
    pub fn take_profit(self, price: impl FieldValue<Price>) -> Self {
        self.set(|f| {
            f.take_profit = Some(price.into_field("takeProfit")?);
            Ok(())
        })
    }

    /// Sets `positionSide` (`LONG`/`SHORT` in hedge mode).
    pub fn position_side(self, side: PositionSide) -> Self {
        self.set(|f| {
            f.position_side = Some(side);
            Ok(())
        })
    }

    /// Sets `reduceOnly`; may not be combined with a stop-loss or take-profit.
    pub fn reduce_only(self, reduce_only: bool) -> Self {
        self.set(|f| {
            f.reduce_only = Some(reduce_only);
            Ok(())
        })
    }

    /// Sets the self-trade prevention mode `stp`.
    pub fn stp(self, stp: Stp) -> Self {
        self.set(|f| {
            f.stp = Some(stp);
            Ok(())
        })
    }

    /// Checks every rule and returns the order, or the first problem found.
    pub fn build(self) -> Result<O, ValidationError> {
        let (fields, required) = self.state?;
        if fields.reduce_only == Some(true) {
            let other = if fields.stop_loss.is_some() {
                Some("stopLoss")
            } else if fields.take_profit.is_some() {
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
        Ok(O::assemble(fields, required))
    }
}

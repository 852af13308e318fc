//! `POST /api/v4/order/collateral/trigger-market`: the collateral trigger market order.

use txc_derive::Request;

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{BodyFields, FieldValue, ToWire, Visit};
use crate::values::{Amount, Market, Price};

/// A market order that rests until the market price reaches `activation_price` (buy: price ≥
/// activation; sell: price ≤ activation), then executes as a market order.
///
/// ```
/// use txc_types::orders::{CollateralTriggerMarketOrder, PositionSide, Side};
/// let order = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "40000")
///     .position_side(PositionSide::Long)
///     .build()?;
/// assert_eq!(order.activation_price().as_str(), "40000");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/collateral/trigger-market",
    operation = "collateral_trigger_market_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Order,
    fields = manual,
)]
pub struct CollateralTriggerMarketOrder {
    #[request(get = none)]
    fields: OrderFields,
    #[request(get = none)]
    activation_price: Price,
}

impl CollateralTriggerMarketOrder {
    /// Starts a trigger order for `market`, `side`, `amount` and `activation_price`.
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        activation_price: impl FieldValue<Price>,
    ) -> OrderBuilder<Self> {
        OrderBuilder::new(market, side, amount, || {
            activation_price.into_field("activation_price")
        })
    }

    /// The validated order fields shared with the market order.
    pub fn fields(&self) -> &OrderFields {
        &self.fields
    }

    /// The price that activates the order.
    pub fn activation_price(&self) -> &Price {
        &self.activation_price
    }
}

impl NewOrder for CollateralTriggerMarketOrder {
    fn is_trigger(&self) -> bool {
        true
    }
}

impl BuildableOrder for CollateralTriggerMarketOrder {
    type Required = Price;
    fn assemble(fields: OrderFields, activation_price: Price) -> Self {
        Self {
            fields,
            activation_price,
        }
    }
    fn parts(&self) -> (&OrderFields, &Self::Required) {
        (&self.fields, &self.activation_price)
    }
}

impl BodyFields for CollateralTriggerMarketOrder {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.fields.visit_fields(visit, |visit| {
            visit("activation_price", self.activation_price.to_wire())
        })
    }
}

//! `POST /api/v4/order/collateral/trigger-market`: the collateral trigger market order.

use serde::{Serialize, Serializer};

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::values::{Amount, ClientOrderId, Market, Price};

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollateralTriggerMarketOrder {
    fields: OrderFields,
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
    fn fields(&self) -> &OrderFields {
        &self.fields
    }
    fn with_client_order_id(&self, id: ClientOrderId) -> Self {
        Self {
            fields: self.fields.with_client_order_id(id),
            activation_price: self.activation_price.clone(),
        }
    }
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
}

impl Endpoint for CollateralTriggerMarketOrder {
    const PATH: &'static str = "/api/v4/order/collateral/trigger-market";
    const OPERATION: &'static str = "collateral_trigger_market_order";
    const KIND: EndpointKind = EndpointKind::Order;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(10_000, 10));
    type Response = Order;

    fn try_for_each_field<E>(
        &self,
        visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.fields
            .try_for_each_field(Some(&self.activation_price), visit)
    }
}

impl Serialize for CollateralTriggerMarketOrder {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

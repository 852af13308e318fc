//! `POST /api/v4/order/collateral/market`: the collateral market order.

use serde::{Serialize, Serializer};

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::values::{Amount, ClientOrderId, Market};

/// A market order on the collateral (margin or futures) account.
///
/// ```
/// use txc_types::orders::{CollateralMarketOrder, Side};
/// let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
///     .stop_loss("50000")
///     .take_profit("70000")
///     .client_order_id("order-1")
///     .build()?;
/// assert_eq!(order.fields().amount().as_str(), "0.01");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollateralMarketOrder {
    fields: OrderFields,
}

impl CollateralMarketOrder {
    /// Starts an order for `market`, `side` and `amount` (stock currency).
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
    ) -> OrderBuilder<Self> {
        OrderBuilder::new(market, side, amount, || Ok(()))
    }

    /// The validated order fields.
    pub fn fields(&self) -> &OrderFields {
        &self.fields
    }
}

impl NewOrder for CollateralMarketOrder {
    fn fields(&self) -> &OrderFields {
        &self.fields
    }
    fn with_client_order_id(&self, id: ClientOrderId) -> Self {
        Self {
            fields: self.fields.with_client_order_id(id),
        }
    }
    fn is_trigger(&self) -> bool {
        false
    }
}

impl BuildableOrder for CollateralMarketOrder {
    type Required = ();
    fn assemble(fields: OrderFields, (): ()) -> Self {
        Self { fields }
    }
}

impl Endpoint for CollateralMarketOrder {
    const PATH: &'static str = "/api/v4/order/collateral/market";
    const OPERATION: &'static str = "collateral_market_order";
    const KIND: EndpointKind = EndpointKind::Order;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(10_000, 10));
    type Response = Order;

    fn try_for_each_field<E>(
        &self,
        visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.fields.try_for_each_field(None, visit)
    }
}

impl Serialize for CollateralMarketOrder {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

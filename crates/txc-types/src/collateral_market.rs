//! `POST /api/v4/order/collateral/market`: the collateral market order.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::order_fields::{
    BuildableOrder, OrderBuilder, OrderFields, RequestBodyError, order_from_body,
};
use crate::{Amount, Endpoint, EndpointKind, FieldValue, Market, Order, Side};

/// A market order on the collateral (margin or futures) account.
///
/// ```
/// use txc_types::{CollateralMarketOrder, Side};
/// let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
///     .stop_loss("50000")
///     .take_profit("70000")
///     .client_order_id("order-1")
///     .build()?;
/// assert_eq!(order.fields().amount().as_str(), "0.01");
/// # Ok::<(), txc_types::ValidationError>(())
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
    type Response = Order;
}

impl Serialize for CollateralMarketOrder {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.fields.len(false)))?;
        self.fields.serialize_into(&mut map, None)?;
        map.end()
    }
}

impl CollateralMarketOrder {
    /// Parses and validates a request body as a server receives it; extra fields such as
    /// `request` and `nonce` are ignored, `positionSide` is accepted in any case.
    pub fn from_body(body: &[u8]) -> Result<Self, RequestBodyError> {
        order_from_body(body, |_| Ok(()))
    }
}

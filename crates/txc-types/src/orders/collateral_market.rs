//! `POST /api/v4/order/collateral/market`: the collateral market order.

use txc_derive::Request;

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{BodyFields, FieldValue, Visit};
use crate::values::{Amount, Market};

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
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/collateral/market",
    operation = "collateral_market_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Order,
    fields = manual,
)]
pub struct CollateralMarketOrder {
    #[request(get = none)]
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
    fn is_trigger(&self) -> bool {
        false
    }
}

impl BuildableOrder for CollateralMarketOrder {
    type Required = ();
    fn assemble(fields: OrderFields, (): ()) -> Self {
        Self { fields }
    }
    fn parts(&self) -> (&OrderFields, &Self::Required) {
        (&self.fields, &())
    }
}

impl BodyFields for CollateralMarketOrder {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.fields.visit_fields(visit, |_| Ok(()))
    }
}

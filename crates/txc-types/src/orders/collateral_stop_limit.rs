//! `POST /api/v4/order/collateral/stop-limit`: the collateral stop-limit order.

use txc_derive::Request;

use super::order_fields::{BuildableOrder, NewOrder, OrderBuilder, OrderFields};
use super::{Order, Side};
use crate::endpoint::{BodyFields, FieldValue, Visit};
use crate::values::{Amount, Market, Price};

/// A limit order that waits until the market price reaches `activation_price`, then rests or
/// executes as a limit order at `price`. The spec's rule of activation (the answer's
/// `activation_condition`, derived from the side): a buy activates when the price rises to or
/// above the activation price (`gte`), a sell when it falls to or below it (`lte`).
///
/// It takes the fields every collateral order takes (`clientOrderId`, `stopLoss` /
/// `takeProfit` — an OTO group activated once the order fills —, `positionSide`,
/// `reduceOnly`, `stp`); unlike the limit order, no `postOnly`, `ioc` or `rpi`. The answer
/// is the order ([`Order`], type `stop limit`); as for the limit order, a status outside the
/// spec's enum (`OPEN` for an order not activated yet) is read.
///
/// ```
/// use txc_types::orders::{CollateralStopLimitOrder, Side};
/// let order = CollateralStopLimitOrder::builder("BTC_USDT", Side::Buy, "0.001", "40100", "40000")
///     .client_order_id("breakout-1")
///     .build()?;
/// assert_eq!(order.terms().activation_price().as_str(), "40000");
/// assert_eq!(
///     serde_json::to_string(&order).unwrap(),
///     r#"{"market":"BTC_USDT","side":"buy","amount":"0.001","price":"40100","activation_price":"40000","clientOrderId":"breakout-1"}"#
/// );
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/collateral/stop-limit",
    operation = "collateral_stop_limit_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Order,
    fields = manual,
)]
pub struct CollateralStopLimitOrder {
    #[request(get = none)]
    fields: OrderFields,
    /// The limit and activation prices.
    terms: StopLimitTerms,
}

/// A stop-limit order's own values, sent right after `amount`.
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(part)]
pub struct StopLimitTerms {
    /// The limit price the order rests or executes at once activated.
    price: Price,
    /// The price that activates the order.
    #[serde(rename = "activation_price")]
    activation_price: Price,
}

impl CollateralStopLimitOrder {
    /// Starts a stop-limit order for `market`, `side` and `amount`, a limit order at `price`
    /// once the market reaches `activation_price`.
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        price: impl FieldValue<Price>,
        activation_price: impl FieldValue<Price>,
    ) -> OrderBuilder<Self> {
        OrderBuilder::new(market, side, amount, || {
            Ok(StopLimitTerms {
                price: price.into_field("price")?,
                activation_price: activation_price.into_field("activation_price")?,
            })
        })
    }

    /// The validated order fields shared with the other collateral orders.
    pub fn fields(&self) -> &OrderFields {
        &self.fields
    }
}

impl NewOrder for CollateralStopLimitOrder {
    fn is_trigger(&self) -> bool {
        true
    }
}

impl BuildableOrder for CollateralStopLimitOrder {
    type Required = StopLimitTerms;
    fn assemble(fields: OrderFields, terms: StopLimitTerms) -> Self {
        Self { fields, terms }
    }
    fn parts(&self) -> (&OrderFields, &Self::Required) {
        (&self.fields, &self.terms)
    }
}

impl BodyFields for CollateralStopLimitOrder {
    #[inline]
    fn visit_fields<E>(&self, visit: &mut impl Visit<E>) -> Result<(), E> {
        self.fields
            .visit_fields(visit, |visit| self.terms.visit_fields(visit))
    }
}

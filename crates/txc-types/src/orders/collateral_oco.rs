//! `POST /api/v4/order/collateral/oco`: the collateral OCO (one-cancels-the-other) order, and
//! [`OcoOrder`], the record its endpoints answer with.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::{Order, PositionSide, Side, Stp};
use crate::building::Building;
use crate::endpoint::FieldValue;
use crate::errors::ValidationError;
use crate::values::text::Unchecked;
use crate::values::{Amount, ClientOrderId, ClientOrderIds, Market, Price};

/// Two linked orders of one `amount` on one market: a limit order at `price` (the
/// take-profit leg) and a stop-limit order at `stop_limit_price` activated at
/// `activation_price` (the stop-loss leg). When one leg executes, the exchange cancels the
/// other.
///
/// The request has one `clientOrderId`, the pair's: the builder generates one when none is
/// given, so a lost answer can be resolved (from the OCO listing, [`OcoOrdersQuery`](super::OcoOrdersQuery))
/// and the pair canceled by it ([`CancelOcoOrder::by_client_order_id`](super::CancelOcoOrder::by_client_order_id)).
/// `reduceOnly`, `positionSide` and `stp` apply to both legs. For a buy pair the take-profit
/// price is below the market and the activation price above it, for a sell the reverse; the
/// exchange judges that against its price, so the builder does not.
///
/// The answer ([`OcoOrder`]) has the pair's `id` and both legs.
///
/// ```
/// use txc_types::orders::{CollateralOcoOrder, Side};
/// let oco = CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "40000", "41000", "42000")
///     .client_order_id("bracket-1")
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&oco).unwrap(),
///     concat!(
///         r#"{"market":"BTC_USDT","side":"buy","amount":"0.001","price":"40000","#,
///         r#""activation_price":"41000","stop_limit_price":"42000","clientOrderId":"bracket-1"}"#,
///     )
/// );
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/order/collateral/oco",
    operation = "collateral_oco_order",
    kind = Order,
    rate_limit = (10_000, 10),
    response = OcoOrder,
)]
pub struct CollateralOcoOrder {
    /// The market.
    market: Market,
    /// Buy or sell, both legs.
    #[request(get = copy)]
    side: Side,
    /// The amount of both legs, in the market's stock currency.
    amount: Amount,
    /// The take-profit leg's limit price.
    price: Price,
    /// The price that activates the stop-loss leg.
    #[serde(rename = "activation_price")]
    activation_price: Price,
    /// The stop-loss leg's limit price once activated.
    #[serde(rename = "stop_limit_price")]
    stop_limit_price: Price,
    /// The pair's `clientOrderId`: the caller's, or the one generated when it was built.
    client_order_id: ClientOrderId,
    /// Whether both legs may only reduce a position (`None`: not sent, server default false).
    #[request(get = copy)]
    reduce_only: Option<bool>,
    /// The position side of both legs, if set.
    #[request(get = copy)]
    position_side: Option<PositionSide>,
    /// The self-trade prevention mode of both legs, if set.
    #[request(get = copy)]
    stp: Option<Stp>,
}

/// What the OCO builder collects before the `clientOrderId` is settled.
#[derive(Debug, Clone)]
struct Draft {
    order: CollateralOcoOrder,
    client_order_id: Option<ClientOrderId>,
}

/// Builds a [`CollateralOcoOrder`]: the prices in the constructor, the rest by setter; the
/// first value refused is reported by [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the order"]
pub struct CollateralOcoOrderBuilder(Building<Draft>);

impl CollateralOcoOrder {
    /// Starts a pair for `market`, `side` and `amount`: a take-profit limit order at `price`,
    /// and a stop-loss limit order at `stop_limit_price` once the market reaches
    /// `activation_price`.
    pub fn builder(
        market: impl FieldValue<Market>,
        side: Side,
        amount: impl FieldValue<Amount>,
        price: impl FieldValue<Price>,
        activation_price: impl FieldValue<Price>,
        stop_limit_price: impl FieldValue<Price>,
    ) -> CollateralOcoOrderBuilder {
        let draft = (|| {
            let order = Self {
                market: market.into_field("market")?,
                side,
                amount: amount.into_field("amount")?,
                price: price.into_field("price")?,
                activation_price: activation_price.into_field("activation_price")?,
                stop_limit_price: stop_limit_price.into_field("stop_limit_price")?,
                // A placeholder, never seen: `build` settles the id.
                client_order_id: ClientOrderId::unchecked(String::new()),
                reduce_only: None,
                position_side: None,
                stp: None,
            };
            Ok(Draft {
                order,
                client_order_id: None,
            })
        })();
        CollateralOcoOrderBuilder(Building::from_result(draft))
    }

    /// The same pair with `clientOrderId` set to `id`.
    pub fn with_client_order_id(&self, id: ClientOrderId) -> Self {
        Self {
            client_order_id: id,
            ..self.clone()
        }
    }
}

impl CollateralOcoOrderBuilder {
    fn set(self, apply: impl FnOnce(&mut Draft) -> Result<(), ValidationError>) -> Self {
        Self(self.0.set(apply))
    }

    /// Sets `clientOrderId`: letters, digits, `-`, `.`, `_`, 1 to 64 characters. Without one,
    /// [`build`](Self::build) generates one ([`ClientOrderIds::process`]).
    pub fn client_order_id(self, id: impl FieldValue<ClientOrderId>) -> Self {
        self.set(|d| {
            d.client_order_id = Some(id.into_field("clientOrderId")?);
            Ok(())
        })
    }

    /// Sets `reduceOnly` for both legs.
    pub fn reduce_only(self, reduce_only: bool) -> Self {
        self.set(|d| {
            d.order.reduce_only = Some(reduce_only);
            Ok(())
        })
    }

    /// Sets `positionSide` for both legs (`LONG`/`SHORT` in hedge mode).
    pub fn position_side(self, side: PositionSide) -> Self {
        self.set(|d| {
            d.order.position_side = Some(side);
            Ok(())
        })
    }

    /// Sets the self-trade prevention mode `stp` for both legs.
    pub fn stp(self, stp: Stp) -> Self {
        self.set(|d| {
            d.order.stp = Some(stp);
            Ok(())
        })
    }

    /// Returns the pair, or the first value refused. A pair without a `clientOrderId` gets one
    /// here, from the process-wide generator: the id is the caller's before anything is sent.
    pub fn build(self) -> Result<CollateralOcoOrder, ValidationError> {
        let Draft {
            order,
            client_order_id,
        } = self.0.finish()?;
        let id = client_order_id.unwrap_or_else(|| ClientOrderIds::process().next());
        Ok(order.with_client_order_id(id))
    }
}

/// An OCO pair as the exchange answers it — creating one, the OCO listing
/// ([`OcoOrdersQuery`](super::OcoOrdersQuery)) and canceling one
/// ([`CancelOcoOrder`](super::CancelOcoOrder)): its `id` and its two legs, each an [`Order`]
/// (the legs write `post_only`, `activation_price` and `activation_condition`, which the
/// order record reads too).
///
/// Each leg is read on its own: a leg that is not an order record is kept in
/// [`extra`](Self::extra) under its key, and the field is `None`.
///
/// ```
/// let pair: txc_types::orders::OcoOrder = serde_json::from_str(r#"{"id":117703764513,
///     "stop_loss":{"orderId":117703764514,"clientOrderId":"","market":"BTC_USDT","side":"buy",
///         "type":"margin stop limit","timestamp":1594605801.49815,"dealMoney":"0","dealStock":"0",
///         "amount":"2.241379","left":"2.241379","dealFee":"0","post_only":false,"status":"OPEN",
///         "price":"19928.79","activation_price":"29928.79","activation_condition":"gte","activated":0},
///     "take_profit":{"orderId":117703764515,"clientOrderId":"","market":"BTC_USDT","side":"buy",
///         "type":"margin limit","timestamp":1662478154.941582,"dealMoney":"0","dealStock":"0",
///         "amount":"0.635709","left":"0.635709","dealFee":"0","post_only":false,"status":"OPEN",
///         "price":"9928.79"}}"#)?;
/// assert_eq!(pair.id, 117703764513);
/// let stop = pair.stop_loss.as_ref().unwrap();
/// assert_eq!(stop.post_only, Some(false));
/// assert_eq!(stop.activation_condition, Some(txc_types::orders::ActivationCondition::Gte));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an oco order object")]
#[non_exhaustive]
pub struct OcoOrder {
    /// The pair's id: what [`CancelOcoOrder::by_order_id`](super::CancelOcoOrder::by_order_id)
    /// takes.
    pub id: u64,
    /// Whether the legs may only reduce a position; the creation answer carries it.
    pub reduce_only: Option<bool>,
    /// The stop-loss leg: a stop-limit order.
    #[serde(rename = "stop_loss")]
    #[answer(with = "crate::lenient::object")]
    pub stop_loss: Option<Order>,
    /// The take-profit leg: a limit order.
    #[serde(rename = "take_profit")]
    #[answer(with = "crate::lenient::object")]
    pub take_profit: Option<Order>,
    /// Fields this version does not know, and a leg that could not be read, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl OcoOrder {
    /// The legs that could be read: stop-loss first.
    pub fn legs(&self) -> impl Iterator<Item = &Order> {
        self.stop_loss.iter().chain(&self.take_profit)
    }
}

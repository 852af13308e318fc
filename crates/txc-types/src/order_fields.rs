//! The fields both collateral order requests share, and the builder that validates them.
//!
//! This module is not an endpoint by itself: see [`crate::CollateralMarketOrder`] and
//! [`crate::CollateralTriggerMarketOrder`].

use serde::Deserialize;

use crate::{
    Amount, ClientOrderId, Endpoint, FieldValue, Market, PositionSide, Price, Side, Stp,
    ValidationError, WireValue,
};

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

/// A request that places an order — [`crate::CollateralMarketOrder`] or
/// [`crate::CollateralTriggerMarketOrder`] (sealed) — as the client's reconciliation sees it:
/// its market and `clientOrderId`, and the same order under another `clientOrderId`.
pub trait NewOrder: crate::sealed::Sealed + Endpoint<Response = crate::Order> + Clone {
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

/// Why a request body received by a server could not be turned into a request value.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RequestBodyError {
    /// The body is not JSON of the expected shape.
    #[error("malformed request body: {0}")]
    Json(#[source] serde_json::Error),
    /// A field's value breaks a rule.
    #[error(transparent)]
    Invalid(#[from] ValidationError),
}

/// The body as text, if it is UTF-8 throughout and a JSON object at the top.
///
/// serde_json does not validate the UTF-8 of string values it skips, and derived structs also
/// accept JSON arrays; a server must refuse both, as the exchange does.
pub fn json_object_text(body: &[u8]) -> Result<&str, RequestBodyError> {
    use serde::de::Error as _;
    let text = std::str::from_utf8(body)
        .map_err(|_| RequestBodyError::Json(serde_json::Error::custom("body is not UTF-8")))?;
    if !text.trim_start().starts_with('{') {
        return Err(RequestBodyError::Json(serde_json::Error::custom(
            "body is not a JSON object",
        )));
    }
    Ok(text)
}

/// Parses and validates an order body received by a server.
pub(crate) fn order_from_body<O: BuildableOrder>(
    body: &[u8],
    required: impl FnOnce(Option<String>) -> Result<O::Required, ValidationError>,
) -> Result<O, RequestBodyError> {
    let raw: RawOrder =
        serde_json::from_str(json_object_text(body)?).map_err(RequestBodyError::Json)?;
    Ok(raw.into_order(required)?)
}

/// The wire shape of an order request, as a server receives it (extra fields such as `request`
/// and `nonce` are ignored). Every value goes through the same builder as client code.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawOrder {
    market: String,
    side: String,
    amount: String,
    #[serde(default)]
    client_order_id: Option<String>,
    #[serde(default)]
    stop_loss: Option<String>,
    #[serde(default)]
    take_profit: Option<String>,
    #[serde(default)]
    position_side: Option<String>,
    #[serde(default)]
    reduce_only: Option<bool>,
    #[serde(default)]
    stp: Option<String>,
    #[serde(default, rename = "activation_price")]
    pub(crate) activation_price: Option<String>,
}

impl RawOrder {
    /// Validates the raw fields through an [`OrderBuilder`].
    pub(crate) fn into_order<O: BuildableOrder>(
        self,
        required: impl FnOnce(Option<String>) -> Result<O::Required, ValidationError>,
    ) -> Result<O, ValidationError> {
        let activation = self.activation_price;
        let side: Side = self.side.parse()?;
        let mut b = OrderBuilder::<O>::new(self.market, side, self.amount, || required(activation));
        if let Some(v) = self.client_order_id {
            b = b.client_order_id(v);
        }
        if let Some(v) = self.stop_loss {
            b = b.stop_loss(v);
        }
        if let Some(v) = self.take_profit {
            b = b.take_profit(v);
        }
        if let Some(v) = self.position_side {
            b = b.position_side(v.parse()?);
        }
        if let Some(v) = self.reduce_only {
            b = b.reduce_only(v);
        }
        if let Some(v) = self.stp {
            b = b.stp(v.parse()?);
        }
        b.build()
    }
}

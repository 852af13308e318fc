//! [`CollateralTpslOrder`]: take-profit and stop-loss attached to an open position
//! (`collateral_order_tpsl_place`, the WebSocket's own: no REST twin in the spec).

use super::request::json;
use super::{PreSend, SocketMethod, SocketRequest, ToSocket};
use crate::building::Building;
use crate::endpoint::{FieldValue, ToWire};
use crate::errors::{Reason, ValidationError};
use crate::orders::{PositionSide, Stp};
use crate::values::{Market, Price};

/// A take-profit and/or stop-loss on the open position of a market: two independent
/// stop-market legs (type `10`) sized at whatever the position holds when they trigger. The
/// exchange refuses it without an open position (code `104`).
///
/// At least one trigger price is needed; the builder refuses neither before anything is sent.
/// The call carries no client order id (the method takes none): a lost answer is resolved by
/// the market's conditional orders, not by an id.
///
/// ```
/// use txc_types::socket::{CollateralTpslOrder, ToSocket};
/// let tpsl = CollateralTpslOrder::builder("BTC_PERP")
///     .stop_loss("63388.57")
///     .take_profit("65319.18")
///     .build()?;
/// assert_eq!(
///     tpsl.to_socket()?.frame(500018),
///     r#"{"id":500018,"method":"collateral_order_tpsl_place","params":[{"market":"BTC_PERP","take_profit_activation_price":"65319.18","stop_loss_activation_price":"63388.57"}]}"#
/// );
/// let none = CollateralTpslOrder::builder("BTC_PERP").build().unwrap_err();
/// assert_eq!(none.field(), "take_profit_activation_price");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollateralTpslOrder {
    market: Market,
    take_profit: Option<Price>,
    stop_loss: Option<Price>,
    position_side: Option<PositionSide>,
    stp: Option<Stp>,
}

/// Builds a [`CollateralTpslOrder`]: the market in the constructor, the rest by setter, every
/// rule checked by [`build`](Self::build).
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the order"]
pub struct CollateralTpslOrderBuilder(Building<CollateralTpslOrder>);

impl CollateralTpslOrder {
    /// Starts the pair for the position on `market`.
    pub fn builder(market: impl FieldValue<Market>) -> CollateralTpslOrderBuilder {
        let order = market.into_field("market").map(|market| Self {
            market,
            take_profit: None,
            stop_loss: None,
            position_side: None,
            stp: None,
        });
        CollateralTpslOrderBuilder(Building::from_result(order))
    }

    /// The market of the position.
    pub fn market(&self) -> &Market {
        &self.market
    }
    /// The take-profit leg's trigger price, if set.
    pub fn take_profit(&self) -> Option<&Price> {
        self.take_profit.as_ref()
    }
    /// The stop-loss leg's trigger price, if set.
    pub fn stop_loss(&self) -> Option<&Price> {
        self.stop_loss.as_ref()
    }
    /// The position leg protected (hedge mode), if set.
    pub fn position_side(&self) -> Option<PositionSide> {
        self.position_side
    }
    /// The self-trade prevention mode, if set.
    pub fn stp(&self) -> Option<Stp> {
        self.stp
    }
}

impl CollateralTpslOrderBuilder {
    fn set(
        self,
        apply: impl FnOnce(&mut CollateralTpslOrder) -> Result<(), ValidationError>,
    ) -> Self {
        Self(self.0.set(apply))
    }

    /// Sets the take-profit leg's trigger (`take_profit_activation_price`).
    pub fn take_profit(self, price: impl FieldValue<Price>) -> Self {
        self.set(|o| {
            o.take_profit = Some(price.into_field("take_profit_activation_price")?);
            Ok(())
        })
    }

    /// Sets the stop-loss leg's trigger (`stop_loss_activation_price`).
    pub fn stop_loss(self, price: impl FieldValue<Price>) -> Self {
        self.set(|o| {
            o.stop_loss = Some(price.into_field("stop_loss_activation_price")?);
            Ok(())
        })
    }

    /// Sets which position leg to protect (hedge mode).
    pub fn position_side(self, side: PositionSide) -> Self {
        self.set(|o| {
            o.position_side = Some(side);
            Ok(())
        })
    }

    /// Sets the self-trade prevention mode.
    pub fn stp(self, stp: Stp) -> Self {
        self.set(|o| {
            o.stp = Some(stp);
            Ok(())
        })
    }

    /// Returns the pair, or the first problem: a refused value, or neither trigger price.
    pub fn build(self) -> Result<CollateralTpslOrder, ValidationError> {
        let order = self.0.finish()?;
        if order.take_profit.is_none() && order.stop_loss.is_none() {
            return Err(ValidationError::invalid(
                "take_profit_activation_price",
                Reason::NeedsOneOf(&["take_profit_activation_price", "stop_loss_activation_price"]),
            ));
        }
        Ok(order)
    }
}

impl ToSocket for CollateralTpslOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        let mut params = vec![("market", json(&self.market.to_wire()))];
        if let Some(price) = &self.take_profit {
            params.push(("take_profit_activation_price", json(&price.to_wire())));
        }
        if let Some(price) = &self.stop_loss {
            params.push(("stop_loss_activation_price", json(&price.to_wire())));
        }
        if let Some(side) = &self.position_side {
            params.push(("position_side", json(&side.to_wire())));
        }
        if let Some(stp) = &self.stp {
            params.push(("stp", json(&stp.to_wire())));
        }
        Ok(SocketRequest::new(SocketMethod::TpslPlace, params, None))
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.position_side))
    }
}

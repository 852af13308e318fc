//! The body of `POST /api/v4/order/collateral/oco`: `market`, `side`, `amount`, `price` (the
//! take-profit leg's limit price), `activation_price` and `stop_limit_price` (the stop-loss
//! leg's trigger and limit prices) required; `clientOrderId`, `reduceOnly`, `positionSide`,
//! `stp` optional; both legs of the same side and amount.
//!
//! Checked in the order of a limit order's rules: the missing fields together (30), `market`
//! 31, `side` 30, `amount` 32, the three prices 33 (numeric, above 0, `moneyPrec`), each leg's
//! total `amount × price` 32, `clientOrderId` 36, `positionSide`, `stp`, `reduceOnly` 30.
//! Where the legs' prices stand against the market's price is not checked (the spec says
//! nothing): a take-profit leg that can execute at once does, a stop-loss leg already reached
//! activates at once (see the crate docs, "OCO orders").

use serde_json::{Map, Value};

use super::market_rule::MarketRule;
use super::market_terms::{check_amount, check_total};
use super::order::{
    OrderRequest, Position, Price, client_order_id, decimal, market, position, required_fields,
    required_price, side,
};
use crate::config::Markets;
use crate::wire::{PositionSide, Rejection, Side, Stp};

/// An OCO body that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OcoRequest {
    pub(crate) market: String,
    pub(crate) side: Side,
    pub(crate) amount: rust_decimal::Decimal,
    /// The take-profit leg's limit price.
    pub(crate) price: Price,
    /// The stop-loss leg's activation price.
    pub(crate) activation: Price,
    /// The stop-loss leg's limit price.
    pub(crate) stop_limit_price: Price,
    pub(crate) client_order_id: Option<String>,
    pub(crate) reduce_only: bool,
    pub(crate) position_side: Option<PositionSide>,
    pub(crate) stp: Stp,
}

impl OcoRequest {
    /// The take-profit leg: a limit order at `price`.
    pub(crate) fn take_profit_leg(&self) -> OrderRequest {
        OrderRequest {
            price: Some(self.price.clone()),
            ..self.leg()
        }
    }

    /// The stop-loss leg: a stop-limit order activating at `activation_price`, then a limit
    /// order at `stop_limit_price`.
    pub(crate) fn stop_loss_leg(&self) -> OrderRequest {
        OrderRequest {
            price: Some(self.stop_limit_price.clone()),
            activation: Some(self.activation.clone()),
            ..self.leg()
        }
    }

    /// What both legs share.
    fn leg(&self) -> OrderRequest {
        OrderRequest {
            client_order_id: self.client_order_id.clone(),
            position_side: self.position_side,
            reduce_only: self.reduce_only,
            stp: self.stp,
            ..OrderRequest::market(&self.market, self.side, self.amount)
        }
    }
}

/// Checks an OCO body.
impl MarketRule for OcoRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        required_fields(
            map,
            &[
                "market",
                "side",
                "amount",
                "price",
                "activation_price",
                "stop_limit_price",
            ],
        )?;
        let market = market(map, markets)?;
        let spec = markets.get(&market).ok_or_else(Rejection::internal)?;
        let side = side(map)?;
        let amount = decimal(map, "amount", 32)?
            .ok_or_else(Rejection::internal)?
            .value;
        check_amount(spec, amount)?;
        let price = required_price(map, spec, "price")?;
        let activation = required_price(map, spec, "activation_price")?;
        let stop_limit_price = required_price(map, spec, "stop_limit_price")?;
        check_total(spec, amount, price.value)?;
        check_total(spec, amount, stop_limit_price.value)?;
        let client_order_id = client_order_id(map)?;
        let Position {
            side: position_side,
            stp,
            reduce_only,
        } = position(map)?;
        Ok(OcoRequest {
            market,
            side,
            amount,
            price,
            activation,
            stop_limit_price,
            client_order_id,
            reduce_only,
            position_side,
            stp,
        })
    }
}

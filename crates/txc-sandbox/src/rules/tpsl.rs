//! The parameters of `collateral_order_tpsl_place` (the docs' `websocket/order-management`
//! page; the socket's own method, no REST twin): `market` (required), one or both of
//! `take_profit_activation_price` and `stop_loss_activation_price` (neither: refused), and
//! `position_side`, `stp`. Neither side nor amount: both come from the position.
//!
//! The field rules are the order bodies' (`order.rs`): `market` 31, the prices 33 (numeric,
//! above 0, the market's `moneyPrec`), `positionSide`/`stp` 30 — which the socket answers as
//! code 1 naming the field.

use serde_json::{Map, Value};

use super::order::{market, optional_price, position, required_fields};
use super::values::present;
use crate::config::Markets;
use crate::rules::Price;
use crate::wire::{PositionSide, Rejection, Stp};

/// A TPSL request that passed every field rule (REST's field names: `positionSide`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TpslRequest {
    pub(crate) market: String,
    pub(crate) take_profit: Option<Price>,
    pub(crate) stop_loss: Option<Price>,
    /// As sent; the account's mode decides the position protected.
    pub(crate) position_side: Option<PositionSide>,
    pub(crate) stp: Stp,
}

impl TpslRequest {
    /// Checks `map` (the socket's object with `position_side` renamed `positionSide`).
    pub(crate) fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        required_fields(map, &["market"])?;
        let market = market(map, markets)?;
        let spec = markets
            .get(&market)
            .ok_or_else(|| super::market_name::rejection(super::market_name::UNAVAILABLE))?;
        if present(map, TAKE_PROFIT).is_none() && present(map, STOP_LOSS).is_none() {
            return Err(Rejection::validation(
                30,
                TAKE_PROFIT,
                vec![format!("{TAKE_PROFIT} or {STOP_LOSS} is required")],
            ));
        }
        let take_profit = optional_price(map, spec, TAKE_PROFIT)?;
        let stop_loss = optional_price(map, spec, STOP_LOSS)?;
        let terms = position(map)?;
        Ok(Self {
            market,
            take_profit,
            stop_loss,
            position_side: terms.side,
            stp: terms.stp,
        })
    }
}

/// The take-profit leg's trigger.
const TAKE_PROFIT: &str = "take_profit_activation_price";
/// The stop-loss leg's trigger.
const STOP_LOSS: &str = "stop_loss_activation_price";

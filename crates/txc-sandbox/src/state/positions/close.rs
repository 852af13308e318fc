//! Closing a position, and the account changes that need no position or order open:
//! leverage and hedge mode.

use std::time::Duration;

use rust_decimal::Decimal;

use crate::config::PositionMode;
use crate::rules::{ClosePositionRequest, OrderRequest};
use crate::state::State;
use crate::wire::{PositionSide, Rejection, Side};

impl State {
    /// Closes `api_key`'s position named by `request` with a market order in the opposite
    /// direction for its whole size, which the order history then shows. 104 for a position
    /// that is not the account's open one on that market (or, in hedge mode, of another side
    /// than sent); a hedge-mode close without `LONG`/`SHORT` is 30 (the sandbox's choice); 10
    /// when the balance cannot fund the closing order.
    pub(crate) fn close_position(
        &mut self,
        api_key: &str,
        request: &ClosePositionRequest,
    ) -> Result<(), Rejection> {
        let hedge = self
            .accounts
            .get(api_key)
            .is_some_and(|a| a.mode() == PositionMode::Hedge);
        if hedge && !matches!(request.side, Some(PositionSide::Long | PositionSide::Short)) {
            return Err(Rejection::validation(
                30,
                "positionSide",
                vec!["The position side field is required when hedge mode is enabled.".to_owned()],
            ));
        }
        let not_found = || {
            Rejection::inner(104, "positionId", "Position not found.")
                .with_status(http::StatusCode::BAD_REQUEST)
        };
        let ((_, market, side), position) = self
            .positions
            .find(api_key, request.position_id)
            .ok_or_else(not_found)?;
        if *market != request.market || (hedge && request.side != Some(*side)) {
            return Err(not_found());
        }
        let qty = position.state.qty;
        let direction = if qty > Decimal::ZERO {
            Side::Sell
        } else {
            Side::Buy
        };
        let order = OrderRequest {
            position_side: Some(*side),
            reduce_only: true,
            ..OrderRequest::market(market, direction, qty.abs())
        };
        self.place(api_key, order, Duration::ZERO)?;
        self.stats.positions_closed += 1;
        Ok(())
    }

    /// 113 when `api_key` holds an open position or order: what the docs refuse a leverage
    /// or mode change with.
    fn unchanged_while_open(&self, api_key: &str, field: &str) -> Result<(), Rejection> {
        let orders = self.orders.listed(api_key, None, true).next().is_some();
        if orders || self.positions.any(api_key) {
            return Err(Rejection::validation(
                113,
                field,
                vec![
                    "Position side cannot be changed if there exists futures positions or orders"
                        .to_owned(),
                ],
            ));
        }
        Ok(())
    }

    /// Sets `api_key`'s leverage; 113 while a position or order is open (the error list's
    /// reading of the docs' contradiction: the sandbox's margins are locked at each fill).
    pub(crate) fn set_leverage(&mut self, api_key: &str, leverage: u32) -> Result<u32, Rejection> {
        self.unchanged_while_open(api_key, "leverage")?;
        if let Some(account) = self.accounts.get_mut(api_key) {
            account.spec.leverage = Decimal::from(leverage);
        }
        Ok(leverage)
    }

    /// Switches `api_key` to hedge or one-way mode; 113 while a position or order is open.
    pub(crate) fn set_hedge_mode(&mut self, api_key: &str, hedge: bool) -> Result<(), Rejection> {
        self.unchanged_while_open(api_key, "hedgeMode")?;
        if let Some(account) = self.accounts.get_mut(api_key) {
            account.spec.terms.mode = if hedge {
                PositionMode::Hedge
            } else {
                PositionMode::OneWay
            };
        }
        Ok(())
    }
}

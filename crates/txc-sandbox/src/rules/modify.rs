//! The body of `POST /api/v4/order/modify`: `market` and exactly one of `orderId` /
//! `clientOrderId` (the order to replace), at least one of `amount`, `total`, `price`,
//! `activationPrice` (`amount` and `total` not both), and `stp`.
//!
//! The spec tags the endpoint Spot Trading but lists limit, stop-limit and stop-market orders:
//! the sandbox serves it for its collateral orders. It documents no message for these
//! refusals and lists no validation code among its error codes (its example answers are 31,
//! 2 and 10): the sandbox answers each field problem with the code the order endpoints use for
//! that field, and the request-level ones with the default validation code 30:
//!
//! | problem | answer |
//! |---|---|
//! | `market` missing, neither or both ids, `orderId` not an integer | 30, the cancel's messages |
//! | `market` not a market | 31 `Market is not available.` |
//! | `amount` / `total` not numeric or not above 0 | 32 |
//! | `price` / `activationPrice` not numeric, not above 0, beyond `moneyPrec` | 33 |
//! | none of `amount`, `total`, `price`, `activationPrice` | 30 on `amount` |
//! | both `amount` and `total` | 30 on `total` |
//! | `amount` below the minimum or off the step | 32 |
//! | `stp` not one of its values | 30 |
//!
//! What the order's kind allows (a price on a limit or stop-limit order, an activation price on
//! a stop order not yet activated, `total` on a buy stop-market order) and the new total are
//! checked against the order itself, in the state.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::cancel::CancelRequest;
use super::market_rule::MarketRule;
use super::market_terms::check_amount;
use super::order::{Price, decimal, optional_price, word};
use super::order_ref::OrderRef;
use crate::config::Markets;
use crate::wire::{Rejection, Stp};

/// A modify request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModifyRequest {
    pub(crate) market: String,
    pub(crate) which: OrderRef,
    pub(crate) amount: Option<Decimal>,
    /// Money to spend: a buy stop-market order's new amount is `total ÷ activation price`.
    pub(crate) total: Option<Decimal>,
    pub(crate) price: Option<Price>,
    pub(crate) activation: Option<Price>,
    pub(crate) stp: Option<Stp>,
}

/// Checks a modify body.
impl MarketRule for ModifyRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        // `market` and the identifier, as a cancel names its order.
        let CancelRequest { market, which } = CancelRequest::parse(map, markets)?;
        let spec = markets.get(&market).ok_or_else(Rejection::internal)?;
        let amount = decimal(map, "amount", 32)?.map(|p| p.value);
        let total = decimal(map, "total", 32)?.map(|p| p.value);
        let price = optional_price(map, spec, "price")?;
        let activation = optional_price(map, spec, "activationPrice")?;
        if amount.is_none() && total.is_none() && price.is_none() && activation.is_none() {
            return Err(Rejection::validation(
                30,
                "amount",
                vec![
                    "At least one of amount, total, price or activationPrice is required."
                        .to_owned(),
                ],
            ));
        }
        if amount.is_some() && total.is_some() {
            return Err(Rejection::validation(
                30,
                "total",
                vec!["Amount and total cannot be sent together.".to_owned()],
            ));
        }
        if let Some(amount) = amount {
            check_amount(spec, amount)?;
        }
        let stp = word(map, "stp", Stp::parse, "'no', 'cb', 'cn' or 'co'")?;
        Ok(ModifyRequest {
            market,
            which,
            amount,
            total,
            price,
            activation,
            stp,
        })
    }
}

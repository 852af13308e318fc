//! [`AccountEvent`]: a decoded update of one of the private channels, and
//! [`EventDecodeError`], why an update could not be decoded.

use serde::Serialize;

use super::{
    AdlQuantiles, Deal, ExecutedOrders, MarginBalances, OrderEvent, PositionEvent, Positions,
    PremiumIndexes, StreamOrder,
};

/// A decoded update of a private channel of the exchange's WebSocket, one variant per channel.
///
/// Serialized (for logs and `txc watch --json`) as `{"channel": "...", "update": {...}}`, the
/// record in its wire form.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "channel", content = "update")]
#[non_exhaustive]
pub enum AccountEvent {
    /// `ordersPending_update`: an order placed, changed or finished.
    #[serde(rename = "ordersPending")]
    Order(OrderEvent),
    /// `ordersExecuted_update`: orders that executed.
    #[serde(rename = "ordersExecuted")]
    Executed(ExecutedOrders),
    /// `deals_update`: a trade of the account.
    #[serde(rename = "deals")]
    Deal(Deal),
    /// `balanceMargin_update`: collateral balances that changed.
    #[serde(rename = "balanceMargin")]
    Balances(MarginBalances),
    /// `positionsMargin_update`: every open position.
    #[serde(rename = "positionsMargin")]
    Positions(Positions),
    /// `positionsAccountMargin_update`: a margin call or a liquidation.
    #[serde(rename = "positionsAccountMargin")]
    PositionEvent(PositionEvent),
    /// `ADLQuantile_update`: the ADL quantiles of the account's perpetual positions.
    #[serde(rename = "ADLQuantile")]
    AdlQuantiles(AdlQuantiles),
    /// `premiumIndex_update` (a public channel): mark price, index price and funding.
    #[serde(rename = "premiumIndex")]
    PremiumIndex(PremiumIndexes),
}

impl AccountEvent {
    /// The orders' `(market, clientOrderId)` pairs this event carries — what a waiter on an
    /// order placed with that id matches on.
    pub fn client_order_ids(&self) -> Vec<(&str, &str)> {
        fn of(order: &StreamOrder) -> Option<(&str, &str)> {
            Some((
                order.market.as_str(),
                order.client_order_id.as_ref()?.as_str(),
            ))
        }
        match self {
            Self::Order(event) => of(&event.order).into_iter().collect(),
            Self::Executed(executed) => executed.orders.iter().filter_map(of).collect(),
            Self::Deal(deal) => deal
                .client_order_id
                .as_ref()
                .map(|id| (deal.market.as_str(), id.as_str()))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// An update whose `params` do not have the shape of its channel's record (a required field
/// or element missing or of an unusable type, or not the documented JSON kind).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{method}: {reason}")]
#[non_exhaustive]
pub struct EventDecodeError {
    /// The update's method, e.g. `deals_update`.
    pub method: &'static str,
    /// What is wrong.
    pub reason: String,
}

impl EventDecodeError {
    pub(crate) fn new(method: &'static str, reason: impl Into<String>) -> Self {
        Self {
            method,
            reason: reason.into(),
        }
    }
}
